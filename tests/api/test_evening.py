"""Whole evenings over HTTP, every standings row checked against figures computed here.

The expected standings are worked out in this file from the recorded results alone, following
``standings.md`` (points, Buchholz with the virtual opponent, median Buchholz, the tiebreak order;
Sonneborn-Berger, progressive score and direct encounter as ``docs/rules.md`` says)
and ``tournament.md`` (qualifiers, semifinals, finals, final ranking); the app's answers must
match them row by row after every round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.api.helpers import Organizer, create, generate, record
from tests.client import ApiClient

POINTS = {"win": 6, "draw": 2, "loss": 0, "bye": 6}  # half-points: 3, 1, 0, 3


@dataclass
class Line:
    player_id: int
    start_number: int
    group: str | None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    opponents: list[int | None] = field(default_factory=list)  # None: virtual opponent
    halves: list[int] = field(default_factory=list)  # per opponent: 2 won, 1 drew, 0 lost
    taken: list[tuple[int, int]] = field(default_factory=list)  # (round, points) per result
    against: dict[int, int] = field(default_factory=dict)  # points taken from each opponent


def expected_lines(players: list[dict[str, Any]], rounds: list[dict[str, Any]]) -> dict[int, Line]:
    lines = {p["id"]: Line(p["id"], p["start_number"], p["group"]) for p in players}
    for swiss_round in rounds:
        number = swiss_round["number"]
        for pid in swiss_round["byes"]:
            lines[pid].byes += 1
            lines[pid].points += POINTS["bye"]
            lines[pid].opponents.append(None)
            lines[pid].halves.append(2)  # the bye is worth a win
            lines[pid].taken.append((number, POINTS["bye"]))
        for m in swiss_round["matches"]:
            home, away, result = lines[m["home"]], lines[m["away"]], m["result"]
            assert result is not None
            if result["forfeit"] is not None:
                present, absent = (away, home) if result["forfeit"] == "home" else (home, away)
                present.wins += 1
                present.points += POINTS["win"]
                absent.losses += 1
                for me, other, halves, points in (
                    (present, absent, 2, POINTS["win"]),
                    (absent, present, 0, POINTS["loss"]),
                ):
                    me.opponents.append(None)
                    me.halves.append(halves)
                    me.taken.append((number, points))
                    me.against[other.player_id] = me.against.get(other.player_id, 0) + points
                continue
            for me, other, goals, against in (
                (home, away, result["home"], result["away"]),
                (away, home, result["away"], result["home"]),
            ):
                me.goals_for += goals
                me.goals_against += against
                if goals > against:
                    me.wins += 1
                    halves, points = 2, POINTS["win"]
                elif goals == against:
                    me.draws += 1
                    halves, points = 1, POINTS["draw"]
                else:
                    me.losses += 1
                    halves, points = 0, POINTS["loss"]
                me.points += points
                me.opponents.append(other.player_id)
                me.halves.append(halves)
                me.taken.append((number, points))
                me.against[other.player_id] = me.against.get(other.player_id, 0) + points
    return lines


def buchholz_values(line: Line, lines: dict[int, Line]) -> list[int]:
    return [line.points if o is None else lines[o].points for o in line.opponents]


def median(values: list[int]) -> int:
    if len(values) < 3:
        return sum(values)
    return sum(sorted(values)[1:-1])


def number(half_points: int) -> float | int:
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def sonneborn_berger(line: Line, lines: dict[int, Line]) -> float | int:
    """Opponents' points times the result against them (a draw: half), in points."""
    quarters = sum(v * h for v, h in zip(buchholz_values(line, lines), line.halves, strict=True))
    return quarters // 4 if quarters % 4 == 0 else quarters / 4


def progressive(line: Line, rounds_played: int) -> float | int:
    return number(sum(points * (rounds_played - r + 1) for r, points in line.taken))


def direct_encounters(lines: dict[int, Line]) -> dict[int, float | int | None]:
    """Points taken from the players level on points (same group), if every two of them met."""
    level: dict[tuple[str | None, int], list[Line]] = {}
    for line in lines.values():
        level.setdefault((line.group, line.points), []).append(line)
    values: dict[int, float | int | None] = {}
    for tied in level.values():
        ids = [line.player_id for line in tied]
        applies = len(tied) > 1 and all(
            other in line.against for line in tied for other in ids if other != line.player_id
        )
        for line in tied:
            taken = sum(line.against.get(other, 0) for other in ids if other != line.player_id)
            values[line.player_id] = number(taken) if applies else None
    return values


def expected_rows(
    players: list[dict[str, Any]],
    rounds: list[dict[str, Any]],
    *,
    qualifier_count: int,
    groups: bool,
) -> list[dict[str, Any]]:
    lines = expected_lines(players, rounds)
    names = {p["id"]: p["name"] for p in players}
    members = {p["id"]: p.get("members") for p in players}
    encounters = direct_encounters(lines)
    rows = []
    for line in lines.values():
        values = buchholz_values(line, lines)
        rows.append(
            {
                "player_id": line.player_id,
                "name": names[line.player_id],
                "members": members[line.player_id],
                "group": line.group,
                "played": line.wins + line.draws + line.losses,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "byes": line.byes,
                "goals_for": line.goals_for,
                "goals_against": line.goals_against,
                "goal_difference": line.goals_for - line.goals_against,
                "points": number(line.points),
                "buchholz": number(sum(values)),
                "median_buchholz": number(median(values)),
                "sonneborn_berger": sonneborn_berger(line, lines),
                "progressive": progressive(line, len(rounds)),
                "direct_encounter": encounters[line.player_id],
                "withdrawn": False,
                "points_per_match": None,  # DYP's only
                "_start": line.start_number,
            }
        )
    # buchholz tiebreak: points, Buchholz, goal difference, goals for, start number
    rows.sort(
        key=lambda r: (
            -r["points"],
            -r["buchholz"],
            -r["goal_difference"],
            -r["goals_for"],
            r["_start"],
        )
    )
    per_group = qualifier_count // 2 if groups else qualifier_count
    taken: dict[str | None, int] = {}
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
        taken[row["group"]] = taken.get(row["group"], 0) + 1
        row["qualified"] = taken[row["group"]] <= per_group
    return rows


def without_private(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]


def in_group(rows: list[dict[str, Any]], group: str) -> list[dict[str, Any]]:
    chosen = [dict(r) for r in rows if r["group"] == group]
    for rank, row in enumerate(chosen, start=1):
        row["rank"] = rank
    return chosen


def cross_order(rows: list[dict[str, Any]], groups: bool) -> list[int]:
    """Group position first, then the overall order (``tournament.md``, groups variant)."""
    if not groups:
        return [r["player_id"] for r in rows]
    position: dict[int, int] = {}
    for group in ("A", "B"):
        for i, r in enumerate(in_group(rows, group), start=1):
            position[r["player_id"]] = i
    overall = {r["player_id"]: i for i, r in enumerate(rows)}
    return sorted(overall, key=lambda pid: (position[pid], overall[pid]))


def play(client: ApiClient, t: Organizer, rng: random.Random, swiss_round: dict[str, Any]) -> None:
    for i, m in enumerate(swiss_round["matches"]):
        if swiss_round["number"] == 2 and i == 0:
            record(client, t, m["id"], forfeit="away")
        else:
            record(client, t, m["id"], home=rng.randint(0, 4), away=rng.randint(0, 4))


def winner_of(match: dict[str, Any]) -> tuple[int, int]:
    side = match["result"]["winner"]
    return (match["home"], match["away"]) if side == "home" else (match["away"], match["home"])


@pytest.mark.parametrize(
    ("players", "groups", "swiss_rounds"),
    [(12, True, 4), (16, False, 5), (9, False, 4)],
    ids=["12-groups", "16-standard", "9-odd"],
)
def test_whole_evening(client: ApiClient, players: int, groups: bool, swiss_rounds: int) -> None:
    rng = random.Random(players)
    settings = {"groups": {"count": 2, "assignment": "seeded"}} if groups else {}
    t = create(client, players, **settings)
    assert t.body["format"]["swiss_rounds"] == swiss_rounds
    roster = t.body["players"]
    base = f"/v1/tournaments/{t.id}"

    for number in range(1, swiss_rounds + 1):
        swiss_round = generate(client, t)
        assert swiss_round["number"] == number
        paired = [p for m in swiss_round["matches"] for p in (m["home"], m["away"])] + swiss_round[
            "byes"
        ]
        assert sorted(paired) == sorted(p["id"] for p in roster)
        assert len(swiss_round["byes"]) == players % 2
        if groups:
            assert all(
                {roster[m["home"] - 1]["group"], roster[m["away"] - 1]["group"]} == {m["group"]}
                for m in swiss_round["matches"]
            )
        play(client, t, rng, swiss_round)
        rounds = client.get(f"{base}/rounds").json()
        expected = expected_rows(roster, rounds, qualifier_count=4, groups=groups)
        standings = client.get(f"{base}/standings").json()
        assert standings["tiebreak"] == "buchholz"
        assert standings["round"] == number
        assert standings["rows"] == without_private(expected)
        if groups:
            for group in ("A", "B"):
                one = client.get(f"{base}/standings", params={"group": group}).json()
                assert one["rows"] == without_private(in_group(expected, group))

    rounds = client.get(f"{base}/rounds").json()
    pairs = [frozenset((m["home"], m["away"])) for r in rounds for m in r["matches"]]
    assert len(pairs) == len(set(pairs)), "no rematches in these evenings"

    # final phase: the semifinals from the standings computed here
    final_rows = expected_rows(roster, rounds, qualifier_count=4, groups=groups)
    start = client.post(f"{base}/final-phase", headers=t.auth)
    assert start.status_code == 201, start.text
    semis = start.json()["matches"]
    if groups:
        a = [r["player_id"] for r in in_group(final_rows, "A")]
        b = [r["player_id"] for r in in_group(final_rows, "B")]
        expected_semis = {(a[0], b[1]), (b[0], a[1])}
    else:
        top = [r["player_id"] for r in final_rows[:4]]
        expected_semis = {(top[0], top[3]), (top[1], top[2])}
    assert {(m["home"], m["away"]) for m in semis} == expected_semis
    record(client, t, semis[0]["id"], home=1, away=1, winner="away", decided_by="penalties")
    record(client, t, semis[1]["id"], home=3, away=1)
    phase = client.get(f"{base}/final-phase").json()
    semis = [m for m in phase["matches"] if m["stage"] == "semifinal"]
    (w1, l1), (w2, l2) = winner_of(semis[0]), winner_of(semis[1])
    order = cross_order(final_rows, groups)
    seat = order.index
    final = next(m for m in phase["matches"] if m["stage"] == "final")
    third = next(m for m in phase["matches"] if m["stage"] == "third_place")
    assert (final["home"], final["away"]) == tuple(sorted((w1, w2), key=seat))
    assert (third["home"], third["away"]) == tuple(sorted((l1, l2), key=seat))
    record(client, t, final["id"], home=2, away=0)
    record(client, t, third["id"], home=0, away=1)

    phase = client.get(f"{base}/final-phase").json()
    top4 = [final["home"], final["away"], third["away"], third["home"]]
    expected_ranking = top4 + [pid for pid in order if pid not in top4]
    assert [p["player_id"] for p in phase["final_ranking"]] == expected_ranking
    assert [p["place"] for p in phase["final_ranking"]] == list(range(1, players + 1))
    assert client.get(base).json()["status"] == "finished"
    # the final phase never changes the Swiss standings
    assert client.get(f"{base}/standings").json()["rows"] == without_private(final_rows)
