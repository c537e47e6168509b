"""DYP (draw your partner) over HTTP: a 20-player evening with players joining and leaving
between rounds, every standings row checked against figures worked out here from the recorded
results, the events and the live and printed pages following; the refusals of what does not
apply to teams drawn every round; and a property of the service path: no partnership is drawn
again while the round's players could all have had new partners."""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.helpers import Organizer, assert_problem, create, generate, record
from tests.api.test_events import stored
from tests.api.test_player_results import claim, codes
from tests.client import ApiClient

WIN, DRAW, LOSS, BYE = 6, 2, 0, 4  # half-points; the bye is set to 2 points below


def sides(m: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    return (m["home"], m["home_partner"]), (m["away"], m["away_partner"])


def players_of(swiss_round: dict[str, Any]) -> list[int]:
    return [p for m in swiss_round["matches"] for side in sides(m) for p in side] + swiss_round[
        "byes"
    ]


def expected(rounds: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each player's figures from the rounds as read: every player of a side has the side's
    result and goals; a bye scores ``BYE``."""
    lines: dict[int, dict[str, Any]] = {}

    def line(pid: int) -> dict[str, Any]:
        return lines.setdefault(
            pid, {"points": 0, "played": 0, "byes": 0, "goals_for": 0, "goals_against": 0}
        )

    for r in rounds:
        for pid in r["byes"]:
            line(pid)["byes"] += 1
            line(pid)["points"] += BYE
        for m in r["matches"]:
            result = m["result"]
            home, away = sides(m)
            for side, mine, theirs in ((home, "home", "away"), (away, "away", "home")):
                points = WIN if result[mine] > result[theirs] else LOSS
                if result[mine] == result[theirs]:
                    points = DRAW
                for pid in side:
                    line(pid)["played"] += 1
                    line(pid)["points"] += points
                    line(pid)["goals_for"] += result[mine]
                    line(pid)["goals_against"] += result[theirs]
    return lines


def play(client: ApiClient, t: Organizer, rng: random.Random) -> dict[str, Any]:
    """Generate a round and record a score on each board (draws among them)."""
    swiss_round = generate(client, t)
    for m in swiss_round["matches"]:
        home, away = rng.choice([(10, 7), (5, 10), (8, 8), (10, 0), (3, 10)])
        record(client, t, m["id"], home=home, away=away)
    read = client.get(f"/v1/tournaments/{t.id}/rounds/{swiss_round['number']}")
    assert read.status_code == 200, read.text
    body: dict[str, Any] = read.json()
    return body


def test_a_20_player_dyp_evening_with_players_joining_and_leaving(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 20, format="dyp", points={"bye": 2})
    assert (t.body["pairing"], t.body["format"]["preset"]) == ("dyp", "dyp")
    assert t.body["format"]["final_phase"] == "none"
    assert t.body["tiebreak"] == "points_per_match"
    assert t.body["tiebreak_criteria"] == [
        "points",
        "points_per_match",
        "goal_difference",
        "goals_for",
        "start_number",
    ]
    rounds_planned = t.body["format"]["swiss_rounds"]
    assert rounds_planned == 6
    rng = random.Random(24)
    rounds: list[dict[str, Any]] = []
    present = set(range(1, 21))
    partners: Counter[frozenset[int]] = Counter()
    for number in range(1, rounds_planned + 1):
        if number == 2:  # two join (Monster DYP): 22 players, 2 sit out
            for name in ("Late One", "Late Two"):
                added = client.post(
                    f"/v1/tournaments/{t.id}/players", json={"name": name}, headers=t.auth
                )
                assert added.status_code == 201, added.text
                assert added.json()["entered_round"] == 2
                present.add(added.json()["id"])
        if number == 4:  # three leave: 19 players, 3 sit out
            for pid in (1, 2, 21):
                left = client.patch(
                    f"/v1/tournaments/{t.id}/players/{pid}",
                    json={"withdrawn": True},
                    headers=t.auth,
                )
                assert left.status_code == 200, left.text
                present.discard(pid)
        if number == 6:  # one more joins for the last round
            added = client.post(
                f"/v1/tournaments/{t.id}/players", json={"name": "Very Late"}, headers=t.auth
            )
            assert added.status_code == 201, added.text
            present.add(added.json()["id"])
        swiss_round = play(client, t, rng)
        rounds.append(swiss_round)
        placed = players_of(swiss_round)
        assert sorted(placed) == sorted(present)  # every player present placed once
        assert len(swiss_round["byes"]) == len(present) % 4
        assert len(swiss_round["matches"]) == len(present) // 4
        for m in swiss_round["matches"]:
            assert m["colour_rule"] == "rank"
            for team in sides(m):
                partners[frozenset(team)] += 1
        assert swiss_round["rematches"] is False  # 20 players, 6 rounds: new partners always
        assert swiss_round["paths"] == [{"group": None, "path": ["dyp"]}]
    assert max(partners.values()) == 1
    # the byes went to different players (fewest byes first)
    byes = Counter(pid for r in rounds for pid in r["byes"])
    assert max(byes.values()) == 1

    # the standings: individual, every figure from the rounds as read
    lines = expected(rounds)
    body = client.get(f"/v1/tournaments/{t.id}/standings").json()
    assert body["tiebreak"] == "points_per_match"
    rows = body["rows"]
    assert len(rows) == 23
    starts = {
        p["id"]: p["start_number"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()
    }
    for row in rows:
        mine = lines[row["player_id"]]
        matches = mine["played"] + mine["byes"]
        assert row["points"] == Fraction(mine["points"], 2)
        assert (row["played"], row["byes"]) == (mine["played"], mine["byes"])
        assert (row["goals_for"], row["goals_against"]) == (
            mine["goals_for"],
            mine["goals_against"],
        )
        assert row["points_per_match"] == round(mine["points"] / 2 / matches, 3)
        assert (row["buchholz"], row["sonneborn_berger"], row["direct_encounter"]) == (0, 0, None)
        assert row["qualified"] is False
        assert row["withdrawn"] is (row["player_id"] in (1, 2, 21))

    # the CSV carries the points per match after the points, as the JSON read rounds them
    exported = client.get(f"/v1/tournaments/{t.id}/export.csv").text.lstrip("\ufeff")
    table = list(csv.DictReader(io.StringIO(exported)))
    header = exported.split("\r\n", 1)[0].split(",")
    assert header[header.index("points") + 1] == "points_per_match"
    assert {int(r["player_id"]): float(r["points_per_match"]) for r in table} == {
        row["player_id"]: row["points_per_match"] for row in rows
    }

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        mine = lines[row["player_id"]]
        return (
            -mine["points"],
            -Fraction(mine["points"], mine["played"] + mine["byes"]),
            -(mine["goals_for"] - mine["goals_against"]),
            -mine["goals_for"],
            starts[row["player_id"]],
        )

    assert rows == sorted(rows, key=key)
    assert [r["rank"] for r in rows] == list(range(1, 24))

    # the evening is over: no final phase, no more rounds, nobody joins
    status = client.get(f"/v1/tournaments/{t.id}").json()["status"]
    assert status == "finished"
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth), 409, "wrong_status"
    )

    # the events counted every round (its boards are a read: they grow with the field), and
    # every result carried its board with both partners
    events = stored(app, t.id)
    generated = [e["data"]["round"] for e in events if e["type"] == "round.generated"]
    assert [(r["number"], r["match_count"]) for r in generated] == [
        (r["number"], len(r["matches"])) for r in rounds
    ]
    recorded = [e["data"]["match"] for e in events if e["type"] == "result.recorded"]
    assert len(recorded) == sum(len(r["matches"]) for r in rounds)
    assert all(m["home_partner"] and m["away_partner"] for m in recorded)
    assert [e["type"] for e in events][-1] == "tournament.finished"

    # the live and the printed page name both players of each side
    names = {p["id"]: p["name"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    live = client.get(f"/v1/tournaments/{t.id}/live?round=6").text
    printed = client.get(f"/v1/tournaments/{t.id}/print").text
    assert "data-explanation" not in live  # a DYP round has no explanation to open
    for page in (live, printed):
        assert page.count('data-col="points_per_match"' if page is live else "Pts/M") >= 1
        for m in rounds[-1]["matches"]:
            for team in sides(m):
                assert f"{names[team[0]]} &amp; {names[team[1]]}" in page


def test_late_entry_stays_open_until_the_last_round(client: ApiClient) -> None:
    t = create(client, 8, format="dyp", swiss_rounds=3)
    for _ in range(3):
        play(client, t, random.Random(1))
        added = client.post(
            f"/v1/tournaments/{t.id}/players", json={"name": f"Late {_}"}, headers=t.auth
        )
        if _ < 2:
            assert added.status_code == 201, added.text
        else:
            assert_problem(added, 409, "registration_closed")


def test_what_is_made_for_one_against_one_is_refused(client: ApiClient) -> None:
    t = create(client, 8, format="dyp")
    pairs = client.post(
        f"/v1/tournaments/{t.id}/forbidden-pairs",
        json={"players": [1, 2], "kind": "hard"},
        headers=t.auth,
    )
    assert "DYP" in assert_problem(pairs, 409, "not_for_dyp")["detail"]
    boards = {"boards": [{"home": 2 * i + 1, "away": 2 * i + 2} for i in range(4)]}
    by_hand = client.post(f"/v1/tournaments/{t.id}/rounds", json=boards, headers=t.auth)
    assert_problem(by_hand, 409, "not_for_dyp")
    generate(client, t)
    again = client.put(f"/v1/tournaments/{t.id}/rounds/1/pairing", json=boards, headers=t.auth)
    assert_problem(again, 409, "not_for_dyp")
    assert_problem(client.get(f"/v1/tournaments/{t.id}/rounds/1/explanation"), 409, "not_for_dyp")
    assert_problem(client.get(f"/v1/tournaments/{t.id}/export.trf"), 409, "not_for_dyp")
    assert_problem(client.post("/v1/check", json={"tournament": t.id}), 409, "not_for_dyp")
    assert_problem(
        client.patch(f"/v1/tournaments/{t.id}", json={"avoid_same_team": "hard"}, headers=t.auth),
        422,
        "invalid_settings",
    )


def test_dyp_settings_are_checked(client: ApiClient) -> None:
    body = {"name": "x", "players": [{"name": f"P{i}"} for i in range(8)]}
    for settings_given, status, code in [
        ({"format": "dyp", "final_phase": "semifinals"}, 422, "invalid_settings"),
        ({"format": "dyp", "groups": {"assignment": "draw"}}, 422, "invalid_settings"),
        ({"format": "dyp", "pairing": "nearest"}, 422, "invalid_settings"),
        ({"pairing": "dyp"}, 422, "invalid_settings"),
        ({"format": "dyp", "tiebreak": "buchholz"}, 422, "invalid_settings"),
        ({"tiebreak": "points_per_match"}, 422, "invalid_settings"),
        ({"format": "dyp", "avoid_same_team": "soft"}, 422, "invalid_settings"),
        ({"format": "dyp", "entry": "team"}, 422, "invalid_settings"),
    ]:
        response = client.post("/v1/tournaments", json={**body, **settings_given})
        assert_problem(response, status, code)
    three = {"name": "x", "players": [{"name": f"P{i}"} for i in range(3)], "format": "dyp"}
    assert_problem(client.post("/v1/tournaments", json=three), 422, "invalid_settings")
    # pairing given as dyp with the format is the same as the format alone
    t = create(client, 8, format="dyp", pairing="dyp", final_phase="none")
    assert t.body["pairing"] == "dyp"
    # changed back to the standard format in registration: paired by nearest again
    changed = client.patch(f"/v1/tournaments/{t.id}", json={"format": "standard"}, headers=t.auth)
    assert changed.status_code == 200, changed.text
    assert (changed.json()["pairing"], changed.json()["tiebreak"]) == ("nearest", "buchholz")


def test_fewer_than_four_present_cannot_be_drawn(client: ApiClient) -> None:
    t = create(client, 5, format="dyp", swiss_rounds=3)
    play(client, t, random.Random(2))
    for pid in (1, 2):
        client.patch(
            f"/v1/tournaments/{t.id}/players/{pid}", json={"withdrawn": True}, headers=t.auth
        )
    response = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)
    assert "at least 4 players" in assert_problem(response, 409, "pairing_impossible")["detail"]


# -- the service path: new partners whenever the round's players can all have them ------------


def pairings(players: Sequence[int]) -> Iterator[list[frozenset[int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1 :]):
            yield [frozenset((first, other)), *more]


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    size=st.integers(min_value=4, max_value=9),
    rounds=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_no_partnership_is_drawn_again_while_new_ones_exist(
    client: ApiClient, size: int, rounds: int, seed: int
) -> None:
    t = create(client, size, format="dyp", swiss_rounds=min(rounds, size - 1), seed=seed)
    rng = random.Random(seed)
    before: set[frozenset[int]] = set()
    for _ in range(t.body["format"]["swiss_rounds"]):
        swiss_round = play(client, t, rng)
        playing = sorted(p for m in swiss_round["matches"] for side in sides(m) for p in side)
        drawn = [frozenset(side) for m in swiss_round["matches"] for side in sides(m)]
        again = [team for team in drawn if team in before]
        fresh_exists = any(all(p not in before for p in pairing) for pairing in pairings(playing))
        assert (again == []) or not fresh_exists, (again, before)
        assert swiss_round["rematches"] is bool(again)
        listed = [frozenset((p["higher"], p["lower"])) for p in swiss_round["rematch_pairs"]]
        assert sorted(map(sorted, listed)) == sorted(map(sorted, again))
        before.update(drawn)


def test_the_preview_and_a_round_drawn_again_after_an_undo_are_the_same_draw(
    client: ApiClient,
) -> None:
    t = create(client, 10, format="dyp")
    preview = client.post(f"/v1/tournaments/{t.id}/rounds/preview", headers=t.auth)
    assert preview.status_code == 200, preview.text
    first = generate(client, t)
    assert [sides(m) for m in preview.json()["matches"]] == [sides(m) for m in first["matches"]]
    assert preview.json()["byes"] == first["byes"]
    assert client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth).status_code == 204
    again = generate(client, t)
    assert [sides(m) for m in again["matches"]] == [sides(m) for m in first["matches"]]


def test_players_report_a_dyp_result_with_their_boards_code(client: ApiClient) -> None:
    """A side is two players: either may claim, either of the other side confirms; the table
    card names all four."""
    t = create(client, 8, format="dyp", player_results=True)
    matches = generate(client, t)["matches"]
    board_codes = codes(client, t)
    names = {p["id"]: p["name"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    card = client.get(f"/v1/tournaments/{t.id}/print", headers=t.auth).text
    m = matches[0]
    (home, away) = sides(m)
    assert (
        f"{names[home[0]]} &amp; {names[home[1]]} – {names[away[0]]} &amp; {names[away[1]]}" in card
    )
    code = board_codes[m["board"]]
    first = claim(client, t, m["id"], code=code, side="home", home=10, away=6)
    assert first.status_code == 200, first.text
    second = claim(client, t, m["id"], code=code, side="away", home=10, away=6)
    assert second.status_code == 200, second.text
    assert second.json()["match"]["result"]["home"] == 10
    rows = {
        r["player_id"]: r for r in client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    }
    assert [rows[p]["points"] for p in (*home, *away)] == [3, 3, 0, 0]
