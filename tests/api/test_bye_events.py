"""Requested byes write events: ``bye.requested`` and ``bye.cancelled`` carry the player as
``GET …/players`` lists it, the round and the kind; a request that changes nothing, and a
refused one, write none. (The live stream and a webhook receiving them:
tests/api/test_sse.py, tests/webhooks/test_delivery.py.)"""

from __future__ import annotations

from fastapi import FastAPI

from app.api.event_schemas import validate
from tests.api.helpers import assert_problem, generate
from tests.api.test_chess import bye, new_chess
from tests.api.test_events import stored
from tests.client import ApiClient


def test_asking_for_a_bye_and_taking_it_back_are_events(app: FastAPI, client: ApiClient) -> None:
    t = new_chess(client, 8)
    asked = bye(client, t, 2, 3, "half_point")
    assert asked.status_code == 200, asked.text
    changed = bye(client, t, 2, 3, "zero_point")  # another kind: a new request
    cancelled = client.delete(f"/v1/tournaments/{t.id}/players/2/byes/3", headers=t.auth)
    assert cancelled.status_code == 200, cancelled.text

    envelopes = stored(app, t.id)
    assert [(e["id"], e["type"]) for e in envelopes] == [
        (1, "tournament.created"),
        (2, "bye.requested"),
        (3, "bye.requested"),
        (4, "bye.cancelled"),
    ]
    assert [e["data"] for e in envelopes[1:]] == [
        {"player": asked.json(), "round": 3, "kind": "half_point", "version": 2},
        {"player": changed.json(), "round": 3, "kind": "zero_point", "version": 3},
        # the kind taken back
        {"player": cancelled.json(), "round": 3, "kind": "zero_point", "version": 4},
    ]
    assert cancelled.json()["requested_byes"] == []
    for envelope in envelopes:
        validate(envelope)  # the OpenAPI schema of its type describes it


def test_a_bye_request_that_changes_nothing_or_is_refused_writes_no_event(
    app: FastAPI, client: ApiClient
) -> None:
    t = new_chess(client, 8, allowed_byes=["zero_point"])
    assert bye(client, t, 2, 2, "zero_point").status_code == 200
    before = stored(app, t.id)
    assert [e["type"] for e in before] == ["tournament.created", "bye.requested"]

    assert bye(client, t, 2, 2, "zero_point").status_code == 200  # asked again, the same
    nothing = client.delete(f"/v1/tournaments/{t.id}/players/3/byes/2", headers=t.auth)
    assert nothing.status_code == 200  # no bye to take back
    assert_problem(bye(client, t, 4, 2, "half_point"), 422, "bye_not_allowed")
    generate(client, t)
    assert_problem(bye(client, t, 4, 1, "zero_point"), 409, "round_locked")
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/players/2/byes/1", headers=t.auth),
        409,
        "round_locked",
    )
    assert [e["type"] for e in stored(app, t.id)] == [
        "tournament.created",
        "bye.requested",
        "round.generated",
    ]
