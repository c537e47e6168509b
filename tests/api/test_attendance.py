"""Absences over HTTP in every system: byes players ask for in ``nearest`` and ``lim`` (as in
``dutch``), and the check-in list of round 1 (``checked_in``, ``pair_checked_in_only``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import Organizer, assert_problem, create, generate
from tests.client import ApiClient

SYSTEMS = ["nearest", "lim", "dutch"]


def paired(swiss_round: dict[str, Any]) -> set[int]:
    return {p for m in swiss_round["matches"] for p in (m["home"], m["away"])} | set(
        swiss_round["byes"]
    )


def results(client: ApiClient, t: Organizer, swiss_round: dict[str, Any], home: int) -> None:
    entries = [
        {"match_id": m["id"], "home": home, "away": 1 - home if home <= 1 else 0}
        for m in swiss_round["matches"]
    ]
    answer = client.post(
        f"/v1/tournaments/{t.id}/results", json={"results": entries}, headers=t.auth
    )
    assert answer.status_code == 200, answer.text


def points(client: ApiClient, t: Organizer) -> dict[int, float]:
    rows = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    return {r["player_id"]: r["points"] for r in rows}


def check_in(client: ApiClient, t: Organizer, player: int, value: bool = True) -> Any:
    return client.patch(
        f"/v1/tournaments/{t.id}/players/{player}", json={"checked_in": value}, headers=t.auth
    )


@pytest.mark.parametrize("system", ["nearest", "lim"])
def test_a_requested_bye_in_nearest_and_lim_scores_the_tables_draw(
    client: ApiClient, system: str
) -> None:
    """Points 3/2/0 (a draw worth 2, so the bye's points cannot be the PAB's or a win's by
    chance): a half-point bye scores 2, a zero-point bye 0, and neither player is paired."""
    t = create(
        client,
        8,
        pairing=system,
        points={"win": 3, "draw": 2, "loss": 0, "bye": 3},
        allowed_byes=["half_point", "zero_point"],
    )
    for player, kind in ((2, "half_point"), (7, "zero_point")):
        answer = client.put(
            f"/v1/tournaments/{t.id}/players/{player}/byes/1", json={"kind": kind}, headers=t.auth
        )
        assert answer.status_code == 200, answer.text
    first = generate(client, t)
    assert paired(first) == {1, 3, 4, 5, 6, 8} and first["byes"] == []
    results(client, t, first, home=1)  # home wins 1–0: 3 points, the loser 0
    scored = points(client, t)
    assert (scored[2], scored[7]) == (2, 0)
    assert sorted(scored[p] for p in paired(first)) == [0, 0, 0, 3, 3, 3]
    second = generate(client, t)
    assert paired(second) == set(range(1, 9))  # back in round 2


def test_requested_byes_are_refused_where_the_tournament_allows_none(client: ApiClient) -> None:
    t = create(client, 8, pairing="lim")
    assert t.body["allowed_byes"] == []
    answer = client.put(
        f"/v1/tournaments/{t.id}/players/2/byes/1", json={"kind": "half_point"}, headers=t.auth
    )
    assert_problem(answer, 422, "bye_not_allowed")


@pytest.mark.parametrize("system", SYSTEMS)
def test_round_1_pairs_the_checked_in_players_only(client: ApiClient, system: str) -> None:
    t = create(client, 9, pairing=system, pair_checked_in_only=True)
    assert t.body["pair_checked_in_only"] is True
    assert [p["checked_in"] for p in t.body["players"]] == [False] * 9
    for player in (1, 2, 3, 5, 6, 8, 9):
        answer = check_in(client, t, player)
        assert answer.status_code == 200, answer.text
        assert answer.json()["checked_in"] is True
    assert check_in(client, t, 9, False).json()["checked_in"] is False
    listed = client.get(f"/v1/tournaments/{t.id}/players").json()
    assert {p["id"] for p in listed if p["checked_in"]} == {1, 2, 3, 5, 6, 8}
    first = generate(client, t)
    assert paired(first) == {1, 2, 3, 5, 6, 8} and first["byes"] == []
    assert_problem(check_in(client, t, 4), 409, "registration_closed")
    results(client, t, first, home=1)
    scored = points(client, t)
    assert (scored[4], scored[7], scored[9]) == (0, 0, 0)
    second = generate(client, t)
    assert paired(second) == set(range(1, 10))  # absent from round 1 only
    check = client.post("/v1/check", json={"tournament": t.id}).json()
    assert (check["rounds_checked"], check["rounds_differing"]) == (2, 0)


def test_the_setting_is_changed_in_registration_and_needs_two_players(client: ApiClient) -> None:
    t = create(client, 6)
    assert t.body["pair_checked_in_only"] is False
    answer = client.patch(
        f"/v1/tournaments/{t.id}", json={"pair_checked_in_only": True}, headers=t.auth
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["pair_checked_in_only"] is True
    check_in(client, t, 4)
    refused = assert_problem(
        client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth), 409, "too_few_players"
    )
    assert "1 of 6 is checked in" in refused["detail"]
    assert_problem(
        client.patch(f"/v1/tournaments/{t.id}", json={"pair_checked_in_only": 1}, headers=t.auth),
        422,
        "validation_error",
    )
    answer = client.patch(
        f"/v1/tournaments/{t.id}", json={"pair_checked_in_only": None}, headers=t.auth
    )
    assert answer.json()["pair_checked_in_only"] is False  # null: the default
    assert paired(generate(client, t)) == set(range(1, 7))


def test_a_check_in_is_audited_and_bumps_the_version(client: ApiClient) -> None:
    t = create(client, 4)
    version = t.body["version"]
    answer = check_in(client, t, 2)
    assert answer.headers["ETag"] == f'"{version + 1}"'
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    assert [(a["action"], a["detail"]) for a in audit if a["action"] != "tournaments-create"] == [
        ("players-update", {"player_id": 2, "checked_in": True})
    ]
    assert_problem(
        client.patch(
            f"/v1/tournaments/{t.id}/players/2", json={"checked_in": "yes"}, headers=t.auth
        ),
        422,
        "validation_error",
    )
