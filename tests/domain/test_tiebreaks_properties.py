"""Invariants of Sonneborn-Berger, the progressive score and direct encounter (hypothesis).

The random tournaments are those of ``test_standings_properties``: 2–12 players, 0–6 rounds,
any points table, games with a result, a forfeit (of one side or both), or none yet, and a bye
for an odd field.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.standings import TIEBREAK_CRITERIA, SwissGame
from app.domain.types import Forfeit, PlayerId, Side, Tiebreak
from tests.domain.test_standings_properties import Tournament, standings, tournaments

CHESS_CHOICES = (Tiebreak.SONNEBORN_BERGER, Tiebreak.PROGRESSIVE, Tiebreak.DIRECT_ENCOUNTER)


def points_of(t: Tournament, game: SwissGame, side: Side) -> int:
    """The points ``side`` took from ``game`` (which has a result)."""
    assert game.result is not None
    if game.result.forfeit is Forfeit.BOTH:
        return t.points.loss
    winning = game.result.winning_side
    if winning is None:
        return t.points.draw
    return t.points.win if winning is side else t.points.loss


def encounters(t: Tournament) -> dict[frozenset[PlayerId], dict[PlayerId, int]]:
    """For each pair paired with a result (forfeits included, but not a double forfeit: the two
    did not meet), the points each took."""
    found: dict[frozenset[PlayerId], dict[PlayerId, int]] = {}
    for g in t.games:
        if g.result is None or g.result.forfeit is Forfeit.BOTH:
            continue
        taken = found.setdefault(frozenset((g.home, g.away)), {g.home: 0, g.away: 0})
        taken[g.home] += points_of(t, g, Side.HOME)
        taken[g.away] += points_of(t, g, Side.AWAY)
    return found


@settings(deadline=None)  # a loaded machine must not fail an exact check
@given(tournaments())
def test_a_player_who_won_every_game_has_the_opponents_points_as_sonneborn_berger(
    t: Tournament,
) -> None:
    rows = standings(t, Tiebreak.SONNEBORN_BERGER)
    points = {row.player_id: row.points for row in rows}
    bye_players = {player_id for _, player_id in t.byes}
    for row in rows:
        mine = [g for g in t.games if g.result is not None and row.player_id in (g.home, g.away)]
        won_all = all(
            g.result is not None
            and g.result.forfeit is None
            and g.result.winning_side is (Side.HOME if g.home == row.player_id else Side.AWAY)
            for g in mine
        )
        if not won_all or row.player_id in bye_players:
            continue
        opponents = sum(points[g.away if g.home == row.player_id else g.home] for g in mine)
        assert row.sonneborn_berger == opponents
        assert row.sonneborn_berger == row.buchholz


@settings(deadline=None)  # a loaded machine must not fail an exact check
@given(tournaments())
def test_sonneborn_berger_matches_a_round_by_round_rescan(t: Tournament) -> None:
    rows = standings(t, Tiebreak.SONNEBORN_BERGER)
    points = {row.player_id: row.points for row in rows}
    table = t.points
    bye_share = (
        Fraction(1) if table.bye >= table.win else Fraction(1, 2) if table.bye >= table.draw else 0
    )
    for row in rows:
        me = row.player_id
        total = Fraction(0)
        for g in t.games:
            if g.result is None or me not in (g.home, g.away):
                continue
            side = Side.HOME if g.home == me else Side.AWAY
            winning = g.result.winning_side
            share = Fraction(1, 2) if winning is None else Fraction(winning is side)
            if g.result.forfeit is Forfeit.BOTH:
                share = Fraction(0)
            opponent = g.away if side is Side.HOME else g.home
            total += share * (points[me] if g.result.forfeit else points[opponent])
        total += sum(bye_share * points[me] for _, player_id in t.byes if player_id == me)
        assert row.sonneborn_berger == total
        assert 0 <= row.sonneborn_berger <= row.buchholz


@settings(deadline=None)  # a loaded machine must not fail an exact check
@given(tournaments(), st.integers(0, 6))
def test_progressive_is_the_sum_of_the_running_scores(t: Tournament, rounds_played: int) -> None:
    t = Tournament(t.players, t.games, t.byes, rounds_played, t.points)
    rows = standings(t, Tiebreak.PROGRESSIVE)
    for row in rows:
        me = row.player_id
        running = 0
        expected = 0
        for number in range(1, rounds_played + 1):
            for g in t.games:
                if g.round == number and g.result is not None and me in (g.home, g.away):
                    running += points_of(t, g, Side.HOME if g.home == me else Side.AWAY)
            running += sum(t.points.bye for r, p in t.byes if r == number and p == me)
            expected += running
        assert row.progressive == expected
        assert row.progressive <= row.points * rounds_played


@settings(deadline=None)  # a loaded machine must not fail an exact check
@given(tournaments(), st.sampled_from(CHESS_CHOICES))
def test_the_order_is_total_and_follows_the_points(t: Tournament, tiebreak: Tiebreak) -> None:
    rows = standings(t, tiebreak)
    start = {p.id: p.start_number for p in t.players}
    criteria = TIEBREAK_CRITERIA[tiebreak]
    assert criteria[:2] == ("points", tiebreak.value)
    keys = []
    for row in rows:
        key: list[int | Fraction] = []
        for name in criteria:
            if name == "start_number":
                key.append(start[row.player_id])
            elif name == "direct_encounter":
                key.append(-(row.direct_encounter or 0))
            else:
                key.append(-getattr(row, name))
        keys.append(tuple(key))
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)


@settings(deadline=None)  # a loaded machine must not fail an exact check
@given(tournaments())
def test_direct_encounter_applies_exactly_to_level_players_who_all_met(t: Tournament) -> None:
    rows = standings(t, Tiebreak.DIRECT_ENCOUNTER)
    met = encounters(t)
    level: dict[int, list[PlayerId]] = {}
    for row in rows:
        level.setdefault(row.points, []).append(row.player_id)
    by_id = {row.player_id: row for row in rows}
    for tied in level.values():
        applies = len(tied) >= 2 and all(frozenset(pair) in met for pair in combinations(tied, 2))
        for me in tied:
            if not applies:
                assert by_id[me].direct_encounter is None
                continue
            taken = sum(met[frozenset((me, other))][me] for other in tied if other != me)
            assert by_id[me].direct_encounter == taken


@settings(deadline=None)  # a loaded machine must not fail an exact check
@given(tournaments())
def test_direct_encounter_only_reorders_level_players_who_met(t: Tournament) -> None:
    # The direct_encounter order is the buchholz order with one criterion inserted after the
    # points: any two players it puts the other way round are level on points and met.
    rows = standings(t, Tiebreak.DIRECT_ENCOUNTER)
    place = {row.player_id: row.rank for row in standings(t, Tiebreak.BUCHHOLZ)}
    met = encounters(t)
    for a, b in combinations(rows, 2):  # a is ahead of b here
        if place[a.player_id] > place[b.player_id]:
            assert a.points == b.points
            assert frozenset((a.player_id, b.player_id)) in met
            assert a.direct_encounter is not None
            assert b.direct_encounter is not None
            assert a.direct_encounter > b.direct_encounter
