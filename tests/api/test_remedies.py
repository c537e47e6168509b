"""The organizer's remedies: undo a round generated too early; several results in one request."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.services import events
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round, record
from tests.client import ApiClient


def event_types(app: FastAPI, t: Organizer) -> list[str]:
    with Session(app.state.engine) as session:
        return [e.type for e in events.events_after(session, t.id, 0, 10_000)]


def state(client: ApiClient, t: Organizer) -> dict[str, Any]:
    """Everything a refused request must leave as it was."""
    return {
        "tournament": client.get(f"/v1/tournaments/{t.id}").json(),
        "rounds": client.get(f"/v1/tournaments/{t.id}/rounds").json(),
        "players": client.get(f"/v1/tournaments/{t.id}/players").json(),
        "standings": client.get(f"/v1/tournaments/{t.id}/standings").json(),
    }


# -- undo the latest round ---------------------------------------------------------------------


def test_undo_takes_back_a_round_without_results_and_it_can_be_generated_again(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 8)
    play_round(client, t)
    before = state(client, t)
    second = generate(client, t)
    undone = client.delete(f"/v1/tournaments/{t.id}/rounds/2", headers=t.auth)
    assert undone.status_code == 204 and undone.content == b""
    after = state(client, t)
    assert after["rounds"] == before["rounds"]
    assert after["standings"] == before["standings"]
    assert after["tournament"]["current_round"] == 1
    assert after["tournament"]["version"] == before["tournament"]["version"] + 2
    assert_problem(client.get(f"/v1/tournaments/{t.id}/rounds/2"), 404, "round_not_found")
    # Its matches are gone; the same seed pairs the same round again.
    assert_problem(
        client.put(
            f"/v1/tournaments/{t.id}/matches/{second['matches'][0]['id']}/result",
            json={"home": 1, "away": 0},
            headers=t.auth,
        ),
        404,
        "match_not_found",
    )
    again = generate(client, t)
    assert [(m["home"], m["away"]) for m in again["matches"]] == [
        (m["home"], m["away"]) for m in second["matches"]
    ]
    assert event_types(app, t)[-3:] == ["round.generated", "round.undone", "round.generated"]
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    assert [e["action"] for e in audit][-2:] == ["rounds-undo", "rounds-generate"]


def test_the_undone_event_counts_the_round_as_it_was(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 6)
    first = generate(client, t)
    client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth)
    with Session(app.state.engine) as session:
        last = events.events_after(session, t.id, 0, 100)[-1]
    assert last.type == "round.undone"
    counted = {"number": 1, "manual": False, "rematches": False, "match_count": 3}
    counted |= {"bye_count": 0, "check_count": 0}
    assert last.data == {"round": counted, "status": "registration", "version": 3}
    assert len(first["matches"]) == 3
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "registration"


def test_undo_is_refused_once_a_result_is_recorded_or_for_an_earlier_round(
    client: ApiClient,
) -> None:
    t = create(client, 8)
    play_round(client, t)
    second = generate(client, t)
    record(client, t, second["matches"][2]["id"], home=1, away=1)
    before = state(client, t)
    body = assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/rounds/2", headers=t.auth), 409, "round_has_results"
    )
    assert f"matches {second['matches'][2]['id']}" in body["detail"]
    assert "clear them first" in body["detail"]
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth), 409, "round_locked"
    )
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/rounds/3", headers=t.auth), 404, "round_not_found"
    )
    assert_problem(client.delete(f"/v1/tournaments/{t.id}/rounds/2"), 401, "unauthorized")
    assert state(client, t) == before
    # Cleared again, the round can go.
    client.delete(
        f"/v1/tournaments/{t.id}/matches/{second['matches'][2]['id']}/result", headers=t.auth
    )
    assert client.delete(f"/v1/tournaments/{t.id}/rounds/2", headers=t.auth).status_code == 204


def test_a_late_entry_and_a_withdrawal_since_the_round_keep_for_the_next_one(
    client: ApiClient,
) -> None:
    t = create(client, 10, swiss_rounds=5)
    play_round(client, t)
    generate(client, t)
    late = client.post(f"/v1/tournaments/{t.id}/players", json={"name": "Late"}, headers=t.auth)
    assert late.json()["entered_round"] == 3
    client.patch(f"/v1/tournaments/{t.id}/players/1", json={"withdrawn": True}, headers=t.auth)
    client.delete(f"/v1/tournaments/{t.id}/rounds/2", headers=t.auth)
    players = {p["id"]: p for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    assert players[late.json()["id"]]["entered_round"] == 2
    assert players[1]["withdrawn"] is True
    paired = generate(client, t)
    seated = {p for m in paired["matches"] for p in (m["home"], m["away"])} | set(paired["byes"])
    assert late.json()["id"] in seated and 1 not in seated


def test_no_undo_after_the_final_phase_started(client: ApiClient) -> None:
    t = create(client, 8, swiss_rounds=2)
    play_round(client, t)
    play_round(client, t)
    client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/rounds/2", headers=t.auth), 409, "wrong_status"
    )


# -- several results in one request ------------------------------------------------------------


def batch(client: ApiClient, t: Organizer, results: list[dict[str, Any]]) -> Any:
    return client.post(f"/v1/tournaments/{t.id}/results", json={"results": results}, headers=t.auth)


def test_a_whole_round_in_one_request_one_event_each(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 8)
    swiss_round = generate(client, t)
    ids = [m["id"] for m in swiss_round["matches"]]
    scores = [
        {"home": 2, "away": 1},
        {"home": 0, "away": 0},
        {"forfeit": "away"},
        {"home": 0, "away": 3},
    ]
    answer = batch(client, t, [{"match_id": i, **s} for i, s in zip(ids, scores, strict=True)])
    assert answer.status_code == 200, answer.text
    assert [m["id"] for m in answer.json()] == ids
    assert [m["result"]["home"] for m in answer.json()] == [2, 0, 0, 0]
    assert answer.json()[2]["result"]["forfeit"] == "away"
    assert client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["complete"] is True
    assert event_types(app, t)[-4:] == ["result.recorded"] * 4
    with Session(app.state.engine) as session:
        last = events.events_after(session, t.id, 0, 100)[-4:]
    assert [e.data["match"]["id"] for e in last] == ids
    # Each event carries its match as the answer does, and the version the batch made.
    version = int(answer.headers["ETag"].strip('"'))
    assert [e.data for e in last] == [
        {"match": m, "status": "swiss", "version": version} for m in answer.json()
    ]
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    assert audit[-1]["action"] == "results-record-batch"
    assert [r["match_id"] for r in audit[-1]["detail"]["results"]] == ids


def test_one_refused_result_records_none_and_the_problem_names_it(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 8)
    swiss_round = generate(client, t)
    ids = [m["id"] for m in swiss_round["matches"]]
    before, seen = state(client, t), event_types(app, t)
    body = assert_problem(
        batch(
            client,
            t,
            [
                {"match_id": ids[0], "home": 2, "away": 1},
                {"match_id": ids[1], "home": 1, "away": 1, "winner": "home"},
                {"match_id": ids[2], "home": 2, "away": 1},
            ],
        ),
        422,
        "invalid_result",
    )
    assert body["detail"].startswith(f"results[1] (match {ids[1]}): ")
    missing = assert_problem(
        batch(
            client,
            t,
            [{"match_id": ids[0], "home": 2, "away": 1}, {"match_id": 99, "home": 1, "away": 0}],
        ),
        404,
        "match_not_found",
    )
    assert missing["detail"].startswith("results[1] (match 99)")
    assert state(client, t) == before
    assert event_types(app, t) == seen


def test_a_batch_must_be_a_valid_list_of_distinct_matches(client: ApiClient) -> None:
    t = create(client, 4)
    generate(client, t)
    for bad in (
        [],
        [{"match_id": 1, "home": 1, "away": 0}, {"match_id": 1, "home": 0, "away": 1}],
        [{"match_id": 1, "home": 1}],
        [{"home": 1, "away": 0}],
    ):
        assert_problem(batch(client, t, bad), 422, "validation_error")
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/results", json={"results": []}), 401, "unauthorized"
    )
