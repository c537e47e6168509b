"""Preview the next round: exactly the round generating would give now, and nothing saved."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.services import events
from tests.api.helpers import Organizer, assert_problem, create, generate, record
from tests.api.test_chess import new_chess
from tests.api.test_tokens import bearer, new_scorekeeper
from tests.client import ApiClient


def preview(client: ApiClient, t: Organizer) -> dict[str, Any]:
    response = client.post(f"/v1/tournaments/{t.id}/rounds/preview", headers=t.auth)
    assert response.status_code == 200, response.text
    assert "ETag" not in response.headers
    body: dict[str, Any] = response.json()
    return body


def traces(app: FastAPI, client: ApiClient, t: Organizer) -> dict[str, Any]:
    """What any write leaves behind: the version (ETag), the events, the audit trail, the rounds."""
    with Session(app.state.engine) as session:
        emitted = [(e.type, e.data) for e in events.events_after(session, t.id, 0, 10_000)]
    tournament = client.get(f"/v1/tournaments/{t.id}")
    return {
        "etag": tournament.headers["ETag"],
        "tournament": tournament.json(),
        "events": emitted,
        "audit": client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json(),
        "rounds": client.get(f"/v1/tournaments/{t.id}/rounds").json(),
    }


def decide(match: dict[str, Any], index: int) -> dict[str, Any]:
    """Varied results, so that later rounds depend on scores, colours and a forfeit."""
    if index % 4 == 1:
        return {"home": 1, "away": 1}
    if index % 4 == 2:
        return {"home": 0, "away": 2}
    if index == 3:
        return {"forfeit": "away"}
    return {"home": 2, "away": 0}


def new(client: ApiClient, system: str) -> Organizer:
    if system == "dutch":
        return new_chess(client, 11)
    return create(client, 11, pairing=system, seed=11)


@pytest.mark.parametrize("system", ["nearest", "lim", "dutch"])
def test_preview_is_the_round_generated_next_and_changes_nothing(
    app: FastAPI, client: ApiClient, system: str
) -> None:
    t = new(client, system)
    for number in (1, 2, 3):
        before = traces(app, client, t)
        previewed = preview(client, t)
        assert preview(client, t) == previewed
        assert traces(app, client, t) == before
        generated = generate(client, t)
        # Boards, colours (home is white), byes, match ids, rematches and paths: all the same.
        assert previewed == generated
        assert previewed["number"] == number and previewed["complete"] is False
        assert len(previewed["byes"]) == 1 and len(previewed["matches"]) == 5
        for index, match in enumerate(generated["matches"]):
            record(client, t, match["id"], **decide(match, index))


def test_preview_after_an_undo_is_the_round_generated_again(client: ApiClient) -> None:
    t = create(client, 8)
    first = generate(client, t)
    assert client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth).status_code == 204
    client.post(f"/v1/tournaments/{t.id}/players", json={"name": "Late"}, headers=t.auth)
    previewed = preview(client, t)
    assert previewed["matches"][0]["id"] == first["matches"][0]["id"]
    assert previewed == generate(client, t)


def test_preview_is_the_organizers(client: ApiClient) -> None:
    t = create(client, 8)
    generate(client, t)
    keeper = new_scorekeeper(client, t)
    url = f"/v1/tournaments/{t.id}/rounds/preview"
    problem = assert_problem(
        client.post(url, headers=bearer(str(keeper["token"]))), 403, "forbidden"
    )
    assert "scorekeeper token may only record" in problem["detail"]
    assert_problem(client.post(url), 401, "unauthorized")
    assert_problem(
        client.post("/v1/tournaments/nope/rounds/preview", headers=t.auth),
        404,
        "tournament_not_found",
    )


def test_preview_is_refused_like_generating_while_results_are_missing(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 8)
    matches = generate(client, t)["matches"]
    record(client, t, matches[0]["id"], home=2, away=0)
    before = traces(app, client, t)
    url = f"/v1/tournaments/{t.id}/rounds"
    refused = assert_problem(client.post(f"{url}/preview", headers=t.auth), 409, "round_incomplete")
    generating = assert_problem(client.post(url, headers=t.auth), 409, "round_incomplete")
    assert refused["detail"] == generating["detail"]
    assert traces(app, client, t) == before
