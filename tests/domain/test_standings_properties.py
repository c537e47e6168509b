"""Invariants of the standings on random Swiss rounds (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from app.domain.standings import StandingRow, SwissGame, compute_standings
from app.domain.types import (
    Forfeit,
    Player,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Score,
    Side,
    Tiebreak,
)


@dataclass(frozen=True)
class Tournament:
    players: list[Player]
    games: list[SwissGame]
    byes: list[tuple[RoundNumber, PlayerId]]
    rounds: int
    points: PointsTable


results = st.one_of(
    st.none(),
    st.builds(Result, home_goals=st.integers(0, 6), away_goals=st.integers(0, 6)),
    st.builds(
        Result,
        home_goals=st.just(0),
        away_goals=st.just(0),
        forfeit=st.sampled_from(Forfeit),
    ),
)

scores = st.integers(0, 8).map(Score)
tables = st.builds(PointsTable, win=scores, draw=scores, loss=scores, bye=scores)


@st.composite
def tournaments(draw: st.DrawFn) -> Tournament:
    size = draw(st.integers(2, 12))
    rounds = draw(st.integers(0, 6))
    # Start numbers are a shuffle of 1..n so that the id order is not the start-number order.
    start_numbers = draw(st.permutations(range(1, size + 1)))
    players = [
        Player(id=PlayerId(100 + i), name=f"P{i}", start_number=start_numbers[i])
        for i in range(size)
    ]
    games: list[SwissGame] = []
    byes: list[tuple[RoundNumber, PlayerId]] = []
    for number in range(1, rounds + 1):
        seated = draw(st.permutations([p.id for p in players]))
        if size % 2:
            byes.append((RoundNumber(number), seated[-1]))
        for home, away in zip(seated[0::2], seated[1::2], strict=False):
            games.append(SwissGame(RoundNumber(number), home, away, draw(results)))
    return Tournament(players, games, byes, rounds, draw(tables))


def standings(
    t: Tournament, tiebreak: Tiebreak, games: list[SwissGame] | None = None
) -> tuple[StandingRow, ...]:
    return compute_standings(
        t.players,
        t.games if games is None else games,
        t.byes,
        rounds_played=t.rounds,
        points=t.points,
        tiebreak=tiebreak,
    )


tiebreaks = st.sampled_from(Tiebreak)


@given(tournaments(), tiebreaks)
def test_counts_balance(t: Tournament, tiebreak: Tiebreak) -> None:
    rows = standings(t, tiebreak)
    double = sum(1 for g in t.games if g.result and g.result.forfeit is Forfeit.BOTH)
    assert sum(row.wins for row in rows) + 2 * double == sum(row.losses for row in rows)
    assert sum(row.goals_for for row in rows) == sum(row.goals_against for row in rows)
    assert sum(row.draws for row in rows) % 2 == 0
    assert sum(row.byes for row in rows) == len(t.byes)
    for row in rows:
        assert row.played == row.wins + row.draws + row.losses


@given(tournaments(), tiebreaks)
def test_ranks_are_a_permutation_in_row_order(t: Tournament, tiebreak: Tiebreak) -> None:
    rows = standings(t, tiebreak)
    assert [row.rank for row in rows] == list(range(1, len(t.players) + 1))
    assert sorted(row.player_id for row in rows) == sorted(p.id for p in t.players)


@given(tournaments(), tiebreaks)
def test_total_points_follow_the_table(t: Tournament, tiebreak: Tiebreak) -> None:
    table = t.points
    expected = table.bye * len(t.byes)
    for g in t.games:
        if g.result is None:
            continue
        if g.result.forfeit is Forfeit.BOTH:
            expected += 2 * table.loss
        elif g.result.winning_side is None:
            expected += 2 * table.draw
        else:
            expected += table.win + table.loss
    assert sum(row.points for row in standings(t, tiebreak)) == expected


@given(tournaments(), tiebreaks, st.randoms(use_true_random=False))
def test_input_order_of_games_does_not_matter(
    t: Tournament, tiebreak: Tiebreak, rng: random.Random
) -> None:
    shuffled = list(t.games)
    rng.shuffle(shuffled)
    assert standings(t, tiebreak, shuffled) == standings(t, tiebreak)


@given(tournaments(), tiebreaks)
def test_matches_a_game_by_game_tally(t: Tournament, tiebreak: Tiebreak) -> None:
    tally: dict[PlayerId, Counter[str]] = {p.id: Counter() for p in t.players}

    def finish(player_id: PlayerId, outcome: str, points: int, scored: int, conceded: int) -> None:
        tally[player_id].update(
            {outcome: 1, "points": points, "goals_for": scored, "goals_against": conceded}
        )

    table = t.points
    for g in t.games:
        result = g.result
        if result is None:
            continue
        home_goals, away_goals = (
            (0, 0) if result.forfeit else (result.home_goals, result.away_goals)
        )
        side = "both" if result.forfeit is Forfeit.BOTH else result.winning_side
        home_outcome, away_outcome = {
            None: ("draws", "draws"),
            Side.HOME: ("wins", "losses"),
            Side.AWAY: ("losses", "wins"),
            "both": ("losses", "losses"),
        }[side]
        points_of = {"draws": table.draw, "wins": table.win, "losses": table.loss}
        finish(g.home, home_outcome, points_of[home_outcome], home_goals, away_goals)
        finish(g.away, away_outcome, points_of[away_outcome], away_goals, home_goals)
    for _, player_id in t.byes:
        tally[player_id].update({"byes": 1, "points": table.bye})

    for row in standings(t, tiebreak):
        mine = tally[row.player_id]
        figures = ("points", "wins", "draws", "losses", "byes", "goals_for", "goals_against")
        assert tuple(getattr(row, name) for name in figures) == tuple(mine[n] for n in figures)


@given(tournaments())
def test_order_is_sorted_by_the_criteria(t: Tournament) -> None:
    start = {p.id: p.start_number for p in t.players}
    rows = standings(t, Tiebreak.BUCHHOLZ)
    keys = [
        (-r.points, -r.buchholz, -r.goal_difference, -r.goals_for, start[r.player_id]) for r in rows
    ]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


@given(tournaments(), st.integers(0, 6))
def test_buchholz_matches_a_round_by_round_rescan(t: Tournament, rounds_played: int) -> None:
    rows = compute_standings(
        t.players,
        t.games,
        t.byes,
        rounds_played=rounds_played,
        points=t.points,
        tiebreak=Tiebreak.LIM,
    )
    points = {row.player_id: row.points for row in rows}
    for row in rows:
        values: list[int] = []
        for number in range(1, rounds_played + 1):
            for g in t.games:
                if g.round != number or g.result is None or row.player_id not in (g.home, g.away):
                    continue
                opponent = g.away if g.home == row.player_id else g.home
                values.append(points[row.player_id] if g.result.forfeit else points[opponent])
            if (RoundNumber(number), row.player_id) in t.byes:
                values.append(points[row.player_id])
        assert row.buchholz == sum(values)
        middle = sorted(values)[1:-1] if len(values) >= 3 else values
        assert row.median_buchholz == sum(middle)
