"""Double forfeits (``{"forfeit": "both"}``): neither player came, both lose by forfeit, and the
two did not play each other (``docs/rules.md``, "Double forfeits")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.domain.colours import ColourRule
from app.domain.deadline import NO_DEADLINE
from app.domain.errors import InvalidResult, WinnerRequired
from app.domain.matches import Match
from app.domain.pairing.interface import NO_CONSTRAINTS, RoundRequest
from app.domain.pairing.registry import SYSTEMS
from app.domain.settings import Settings
from app.domain.standings import SwissGame, compute_standings
from app.domain.types import (
    Forfeit,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Side,
    Stage,
    Tiebreak,
)
from tests.domain.evening import new, play_swiss

BOTH = Result(0, 0, forfeit=Forfeit.BOTH)


def test_the_forfeit_names_who_did_not_show_and_who_wins() -> None:
    assert [(f.present, f.absent(Side.HOME), f.absent(Side.AWAY)) for f in Forfeit] == [
        (Side.AWAY, True, False),
        (Side.HOME, False, True),
        (None, True, True),
    ]
    assert BOTH.winning_side is None


# -- standings, worked by hand --------------------------------------------------------------
# Four players, three rounds, the default table (3, 1, 0: half-points 6, 2, 0).
#   round 1: 1–2 2–1, 3–4 double forfeit
#   round 2: 1–3 1–1, 2–4 0–1
#   round 3: 3–2 2–0, 4–1 1–1 (3 and 4 never met: only the double forfeit stands between them)


def played(number: int, home: int, away: int, result: Result) -> SwissGame:
    return SwissGame(RoundNumber(number), PlayerId(home), PlayerId(away), result)


GAMES = [
    played(1, 1, 2, Result(2, 1)),
    played(1, 3, 4, BOTH),
    played(2, 1, 3, Result(1, 1)),
    played(2, 2, 4, Result(0, 1)),
    played(3, 3, 2, Result(2, 0)),
    played(3, 4, 1, Result(1, 1)),
]


def rows(tiebreak: Tiebreak, games: list[SwissGame] = GAMES) -> dict[int, tuple[object, ...]]:
    players = [Player(PlayerId(i), f"P{i}", i) for i in range(1, 5)]
    standings = compute_standings(
        players,
        games,
        [],
        rounds_played=3,
        points=PointsTable.default(),
        tiebreak=tiebreak,
    )
    return {
        r.player_id: (
            r.rank,
            r.points,
            r.played,
            (r.wins, r.draws, r.losses),
            (r.goals_for, r.goals_against),
            r.buchholz,
            r.median_buchholz,
            r.sonneborn_berger,
            r.progressive,
            r.direct_encounter,
        )
        for r in standings
    }


def test_a_double_forfeit_is_a_goalless_loss_for_both_against_the_virtual_opponent() -> None:
    # Points: 1: 6+2+2, 2: 0, 3: 0+2+6, 4: 0+6+2. Buchholz: 3 and 4 count round 1 as the
    # virtual opponent with their own 8. Sonneborn-Berger: that round is a loss (nothing).
    # Progressive: round r counts 4 − r times. Direct encounter: 3 and 4 are level on 8 but
    # never met, so it does not apply.
    assert rows(Tiebreak.BUCHHOLZ) == {
        1: (1, 10, 3, (1, 2, 0), (4, 3), 0 + 8 + 8, 8, Fraction(0 + 8 + 8, 2), 18 + 4 + 2, None),
        3: (2, 8, 3, (1, 1, 1), (3, 1), 8 + 10 + 0, 8, Fraction(0 + 10 + 0, 2), 0 + 4 + 6, None),
        4: (3, 8, 3, (1, 1, 1), (2, 1), 8 + 0 + 10, 8, Fraction(0 + 0 + 10, 2), 0 + 12 + 2, None),
        2: (4, 0, 3, (0, 0, 3), (1, 5), 10 + 8 + 8, 8, Fraction(0), 0, None),
    }


@pytest.mark.parametrize(
    ("tiebreak", "order"),
    [
        (Tiebreak.BUCHHOLZ, [1, 3, 4, 2]),  # 3 and 4: Buchholz 18 each, goal difference
        (Tiebreak.GOALS, [1, 3, 4, 2]),
        (Tiebreak.LIM, [1, 3, 4, 2]),  # goal difference before the median Buchholz
        (Tiebreak.SONNEBORN_BERGER, [1, 3, 4, 2]),  # 5 each, then the Buchholz order
        (Tiebreak.PROGRESSIVE, [1, 4, 3, 2]),  # 4 won earlier: 14 against 10
        (Tiebreak.DIRECT_ENCOUNTER, [1, 3, 4, 2]),  # no encounter: the Buchholz order
    ],
)
def test_every_tiebreak_orders_the_double_forfeit_example(
    tiebreak: Tiebreak, order: list[int]
) -> None:
    assert sorted(rows(tiebreak), key=lambda p: rows(tiebreak)[p][0]) == order


def test_a_game_between_the_two_is_an_encounter_where_a_double_forfeit_is_not() -> None:
    """With 3–4 a 0–0 draw in round 1, 1, 3 and 4 are level on 10 and have all met (three
    draws): direct encounter applies, 2 + 2 each. Played as a double forfeit, it does not."""
    drawn = [played(1, 3, 4, Result(0, 0)), *(g for g in GAMES if g.result is not BOTH)]
    assert {p: row[9] for p, row in rows(Tiebreak.DIRECT_ENCOUNTER, drawn).items()} == {
        1: 4,
        2: None,
        3: 4,
        4: 4,
    }


# -- results ----------------------------------------------------------------------------------


def test_a_double_forfeit_is_stored_goalless_and_names_no_winner() -> None:
    t = new(4, swiss_rounds=3)
    t.generate_round()
    first = t.round_matches(1)[0]
    t.record_result(first.id, Result(3, 1, forfeit=Forfeit.BOTH))
    assert t.matches[first.id].result == BOTH
    assert t.matches[first.id].winner is None
    with pytest.raises(InvalidResult, match="leave out `winner`"):
        t.record_result(first.id, Result(0, 0, winner=Side.HOME, forfeit=Forfeit.BOTH))


def test_a_final_phase_match_cannot_be_a_double_forfeit() -> None:
    t = new(8)
    play_swiss(t)
    t.start_final_phase()
    semifinal = next(m for m in t.matches.values() if m.stage is Stage.SEMIFINAL)
    with pytest.raises(WinnerRequired, match="double forfeit belongs to Swiss rounds"):
        t.record_result(semifinal.id, BOTH)
    assert t.matches[semifinal.id].result is None


# -- pairing: the two did not play each other ------------------------------------------------


def second_round(system: PairingSystem, result: Result) -> Match:
    """Two players whose round-1 match had ``result``: round 2 pairs them again."""
    players = {PlayerId(i): Player(PlayerId(i), f"P{i}", i) for i in (1, 2)}
    first = Match(
        1, Stage.SWISS, RoundNumber(1), None, 1, PlayerId(1), PlayerId(2), ColourRule.LOT, result
    )
    standings = compute_standings(
        list(players.values()),
        [SwissGame(RoundNumber(1), first.home, first.away, result)],
        [],
        rounds_played=1,
        points=PointsTable.default(),
        tiebreak=Tiebreak.BUCHHOLZ,
    )
    request = RoundRequest(
        number=RoundNumber(2),
        players=players,
        matches=[first],
        rounds=[],
        standings=standings,
        settings=Settings(seed=3, pairing=system),
        swiss_rounds=2,
        groups=0,
        next_id=2,
    )
    generated = SYSTEMS[system].pair_round(request, NO_CONSTRAINTS, deadline=NO_DEADLINE)
    (match,) = generated.matches
    assert generated.swiss_round.rematches is (result.forfeit is not Forfeit.BOTH)
    return match


@pytest.mark.parametrize("system", [PairingSystem.NEAREST, PairingSystem.LIM])
def test_after_a_double_forfeit_the_two_meet_without_a_rematch_and_without_roles(
    system: PairingSystem,
) -> None:
    """A double forfeit is no meeting: pairing the two again is no rematch. Neither had a role
    in it, so colours fall to the lot; after a single forfeit the one who was home is away."""
    again = second_round(system, BOTH)
    assert again.colour_rule is ColourRule.LOT
    after_single = second_round(system, Result(0, 0, forfeit=Forfeit.AWAY))
    assert (after_single.home, after_single.colour_rule) == (PlayerId(2), ColourRule.FEWER_HOME)
