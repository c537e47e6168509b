"""The chess tiebreaks over HTTP: chosen at creation, stated, and ordering the standings.

Every figure is worked out here from the rounds the API returns (``test_evening``'s helpers);
the standings must match them row by row and be sorted by the choice's criteria.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api.helpers import assert_problem, create, generate, record
from tests.api.test_evening import expected_rows, without_private
from tests.client import ApiClient

AFTER = ["buchholz", "goal_difference", "goals_for", "start_number"]


def sort_key(criteria: list[str], row: dict[str, Any]) -> tuple[float, ...]:
    key: list[float] = []
    for name in criteria:
        if name == "start_number":
            key.append(row["_start"])
        else:
            key.append(-(row[name] or 0))  # direct_encounter is null where it does not apply
    return tuple(key)


@pytest.mark.parametrize("choice", ["sonneborn_berger", "progressive", "direct_encounter"])
def test_a_chess_tiebreak_orders_the_standings(client: ApiClient, choice: str) -> None:
    t = create(client, 7, tiebreak=choice, swiss_rounds=6, final_phase="none")
    criteria = ["points", choice, *AFTER]
    assert (t.body["tiebreak"], t.body["tiebreak_criteria"]) == (choice, criteria)
    assert t.body["settings"]["tiebreak"] == choice
    base = f"/v1/tournaments/{t.id}"
    rng = random.Random(choice)
    applied = 0

    for number in range(1, 7):
        swiss_round = generate(client, t)
        for i, m in enumerate(swiss_round["matches"]):
            if number == 2 and i == 0:
                record(client, t, m["id"], forfeit="home")
            else:
                goals = rng.choice([(1, 0), (0, 1), (1, 1), (2, 2), (0, 2)])
                record(client, t, m["id"], home=goals[0], away=goals[1])
        rounds = client.get(f"{base}/rounds").json()
        expected = expected_rows(t.body["players"], rounds, qualifier_count=0, groups=False)
        expected.sort(key=lambda row: sort_key(criteria, row))
        for rank, row in enumerate(expected, start=1):
            row["rank"] = rank
            row["qualified"] = False

        standings = client.get(f"{base}/standings").json()
        assert (standings["tiebreak"], standings["criteria"]) == (choice, criteria)
        assert standings["rows"] == without_private(expected)
        applied += sum(row["direct_encounter"] is not None for row in standings["rows"])
    assert applied > 0, "direct encounter applied at least once in these six rounds"


def test_direct_encounter_decides_between_two_level_players_who_met(client: ApiClient) -> None:
    # Two players, one game: the winner is ahead whatever the choice; with a draw, level on
    # points and on direct encounter (½ each), the start number decides.
    t = create(client, 2, tiebreak="direct_encounter", swiss_rounds=1, final_phase="none")
    swiss_round = generate(client, t)
    match = swiss_round["matches"][0]
    record(client, t, match["id"], home=1, away=1)
    rows = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    assert [row["direct_encounter"] for row in rows] == [1, 1]
    assert [row["player_id"] for row in rows] == [1, 2]


def test_an_unknown_tiebreak_is_refused(client: ApiClient) -> None:
    response = client.post(
        "/v1/tournaments",
        json={"name": "Club", "players": [{"name": "A"}, {"name": "B"}], "tiebreak": "koya"},
    )
    assert_problem(response, 422, "validation_error")
    assert client.get("/v1/tournaments").json()["items"] == []
