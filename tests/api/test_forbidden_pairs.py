"""Forbidden pairs over HTTP: the organizer-only resource, teams and ``avoid_same_team``, the
events (id and kind only: the stream is public), the audit, the 409 naming the pairs, TRF."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from app.api.event_schemas import validate
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round
from tests.api.test_events import stored
from tests.api.test_trf_import import exported, imported
from tests.client import ApiClient


def url(t: Organizer, suffix: str = "") -> str:
    return f"/v1/tournaments/{t.id}/forbidden-pairs{suffix}"


def forbid(client: ApiClient, t: Organizer, a: int, b: int, kind: str = "hard") -> Any:
    return client.post(url(t), json={"players": [a, b], "kind": kind}, headers=t.auth)


def pairs_of(swiss_round: dict[str, Any]) -> set[tuple[int, int]]:
    return {(min(m["home"], m["away"]), max(m["home"], m["away"])) for m in swiss_round["matches"]}


def test_list_add_delete_and_every_refusal(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 6)
    added = forbid(client, t, 4, 2)
    assert added.status_code == 201, added.text
    assert added.json() == {"id": 1, "players": [2, 4], "kind": "hard"}
    assert forbid(client, t, 1, 3, "soft").json() == {"id": 2, "players": [1, 3], "kind": "soft"}
    listed = client.get(url(t), headers=t.auth)
    assert listed.status_code == 200
    assert listed.json() == [
        {"id": 1, "players": [2, 4], "kind": "hard"},
        {"id": 2, "players": [1, 3], "kind": "soft"},
    ]
    # organizer only, even to read
    assert_problem(client.get(url(t)), 401, "unauthorized")
    assert_problem(client.get(url(t), headers={"Authorization": "Bearer x"}), 403, "forbidden")
    assert_problem(forbid(client, t, 2, 4, "soft"), 409, "duplicate_forbidden_pair")
    assert_problem(forbid(client, t, 3, 3), 422, "forbidden_pair_self")
    assert_problem(forbid(client, t, 1, 99), 404, "player_not_found")
    assert_problem(
        client.post(url(t), json={"players": [1]}, headers=t.auth), 422, "validation_error"
    )
    assert_problem(
        client.post(url(t), json={"players": [1, 2], "kind": "maybe"}, headers=t.auth),
        422,
        "validation_error",
    )
    assert_problem(client.post(url(t), json={"players": [1, 2]}), 401, "unauthorized")
    assert client.delete(url(t, "/1"), headers=t.auth).status_code == 204
    assert_problem(client.delete(url(t, "/1"), headers=t.auth), 404, "forbidden_pair_not_found")
    assert [p["id"] for p in client.get(url(t), headers=t.auth).json()] == [2]

    envelopes = stored(app, t.id)
    assert [(e["type"], e["data"]) for e in envelopes[1:]] == [
        ("forbidden_pair.added", {"forbidden_pair_id": 1, "kind": "hard", "version": 2}),
        ("forbidden_pair.added", {"forbidden_pair_id": 2, "kind": "soft", "version": 3}),
        ("forbidden_pair.removed", {"forbidden_pair_id": 1, "kind": "hard", "version": 4}),
    ]
    for envelope in envelopes:
        validate(envelope)
    trail = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    assert [(e["action"], e["detail"]) for e in trail[1:]] == [
        ("forbidden-pairs-create", {"forbidden_pair_id": 1, "players": [4, 2], "kind": "hard"}),
        ("forbidden-pairs-create", {"forbidden_pair_id": 2, "players": [1, 3], "kind": "soft"}),
        ("forbidden-pairs-delete", {"forbidden_pair_id": 1, "players": [2, 4]}),
    ]


def test_a_deleted_player_takes_their_pairs_along(client: ApiClient) -> None:
    t = create(client, 5)
    forbid(client, t, 1, 5)
    forbid(client, t, 2, 3)
    assert client.delete(f"/v1/tournaments/{t.id}/players/5", headers=t.auth).status_code == 204
    assert [p["players"] for p in client.get(url(t), headers=t.auth).json()] == [[2, 3]]


def test_hard_pairs_are_kept_apart_and_a_round_they_block_names_them(client: ApiClient) -> None:
    """Four players, three rounds (a round robin): after round 1 the top player has two
    possible opponents; forbidding both leaves round 2 without a pairing."""
    t = create(client, 4, swiss_rounds=3, final_phase="none")
    first = play_round(client, t)
    top = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"][0]["player_id"]
    met = next(b if a == top else a for a, b in pairs_of(first) if top in (a, b))
    others = [p for p in (1, 2, 3, 4) if p not in (top, met)]
    ids = [forbid(client, t, top, other).json()["id"] for other in others]
    refused = assert_problem(
        client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth), 409, "pairing_impossible"
    )
    assert refused["forbidden_pairs"] == [
        {"id": i, "players": sorted((top, other)), "kind": "hard", "team": None}
        for i, other in zip(ids, others, strict=True)
    ]
    assert top in [p["id"] for p in refused["unpairable_players"]]
    assert "forbidden pairs in the way" in refused["detail"]
    # soft instead: the round is paired, breaking one of them
    assert client.delete(url(t, f"/{ids[0]}"), headers=t.auth).status_code == 204
    forbid(client, t, top, others[0], "soft")
    second = generate(client, t)
    assert sorted((top, others[1])) not in [list(p) for p in pairs_of(second)]
    assert tuple(sorted((top, others[0]))) in pairs_of(second)


def test_teams_and_avoid_same_team(client: ApiClient) -> None:
    names = ["A1", "A2", "B1", "B2", "C1", "C2"]
    body = {
        "name": "Schools",
        "players": [{"name": n, "team": f" School {n[0]} "} for n in names],
        "avoid_same_team": "hard",
        "swiss_rounds": 3,
        "final_phase": "none",
        "seed": 3,
    }
    answer = client.post("/v1/tournaments", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    t = Organizer(data["id"], data["organizer_token"], data)
    assert data["avoid_same_team"] == "hard"
    assert [p["team"] for p in data["players"]] == [f"School {n[0]}" for n in names]
    team = {p["id"]: p["team"] for p in data["players"]}
    swiss_round = play_round(client, t)
    assert all(team[a] != team[b] for a, b in pairs_of(swiss_round))
    # avoid_same_team changes after round 1; other settings do not
    changed = client.patch(
        f"/v1/tournaments/{t.id}", json={"avoid_same_team": "off"}, headers=t.auth
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["avoid_same_team"] == "off"
    assert_problem(
        client.patch(f"/v1/tournaments/{t.id}", json={"swiss_rounds": 2}, headers=t.auth),
        409,
        "registration_closed",
    )
    # a team is set, changed and cleared by PATCH; "" and null both mean none
    player = f"/v1/tournaments/{t.id}/players/1"
    assert client.patch(player, json={"team": "X"}, headers=t.auth).json()["team"] == "X"
    assert client.patch(player, json={"name": "A1 Rossi"}, headers=t.auth).json()["team"] == "X"
    assert client.patch(player, json={"team": ""}, headers=t.auth).json()["team"] is None
    assert client.patch(player, json={"team": "Y"}, headers=t.auth).json()["team"] == "Y"
    assert client.patch(player, json={"team": None}, headers=t.auth).json()["team"] is None
    assert_problem(
        client.patch(player, json={"team": "x" * 41}, headers=t.auth), 422, "validation_error"
    )
    added = client.post(
        f"/v1/tournaments/{t.id}/players", json={"name": "Late", "team": "School A"}, headers=t.auth
    )
    assert added.status_code == 201, added.text
    assert added.json()["team"] == "School A"


def test_trf_export_and_import_carry_the_pairs(client: ApiClient) -> None:
    t = create(client, 6, pairing="dutch", swiss_rounds=4)
    forbid(client, t, 1, 2)
    forbid(client, t, 3, 5, "soft")
    document = exported(client, t)
    assert [r.value for _, r in document.tagged("260")] == ["  1   4    1    2"]
    text = client.get(f"/v1/tournaments/{t.id}/export.trf").text
    assert "### SVIZZERA-SOFT-260   1   4    3    5" in text.replace("\r", "\n")
    again = imported(client, text)
    start = {p["start_number"]: p["id"] for p in again.body["players"]}
    listed = client.get(url(again), headers=again.auth).json()
    assert [(p["players"], p["kind"]) for p in listed] == [
        (sorted((start[1], start[2])), "hard"),
        (sorted((start[3], start[5])), "soft"),
    ]
