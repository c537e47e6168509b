"""The ``dyp`` system in a tournament (``app/domain/pairing/dyp/round.py``): rounds of teams of
two drawn from the standings, the individual standings they give, who is drawn (check-in,
requested byes, late entries, withdrawals), the deadline, and the refusals of what is made for
one player against one. The draw itself is proven in ``test_dyp.py``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.domain.checker import check_rounds
from app.domain.deadline import Deadline
from app.domain.errors import (
    InvalidSettings,
    NotForDyp,
    PairingImpossible,
    PairingTimeout,
    RegistrationClosed,
    TooFewPlayers,
    TooManyPlayers,
)
from app.domain.forbidden import PairKind
from app.domain.formats import FinalPhaseKind, FormatPreset
from app.domain.manual_rounds import HandPairing
from app.domain.matches import Match
from app.domain.pairing_checks import Board
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf_export import export_trf
from app.domain.types import (
    ByeKind,
    Forfeit,
    PairingSystem,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Score,
    Status,
    Tiebreak,
)
from tests.domain.test_deadline import Ticks


def dyp(count: int, *, rounds: int | None = None, **options: object) -> Tournament:
    settings = Settings(
        seed=3,
        pairing=PairingSystem.DYP,
        format=FormatPreset.DYP,
        swiss_rounds=rounds,
        **options,  # type: ignore[arg-type]
    )
    return Tournament.create(settings, [NewPlayer(f"P{i:02d}") for i in range(1, count + 1)])


def placed(t: Tournament, number: int) -> list[PlayerId]:
    return [
        pid for m in t.round_matches(number) for pid in (*m.home_players, *m.away_players)
    ] + list(t.rounds[number - 1].byes)


def finish(t: Tournament, number: int, result: Result = Result(3, 1)) -> None:
    for m in t.round_matches(number):
        t.record_result(m.id, result)


def test_the_format_has_no_final_phase_and_ranks_by_points_per_match() -> None:
    t = dyp(8)
    assert t.format.final_phase is FinalPhaseKind.NONE
    assert t.settings.tiebreak_in_use is Tiebreak.POINTS_PER_MATCH
    assert t.format.swiss_rounds == 4  # the format table's, as for any 8 players


def test_a_round_is_boards_of_four_each_player_once() -> None:
    t = dyp(10)
    t.generate_round()
    matches = t.round_matches(1)
    assert [m.board for m in matches] == [1, 2]
    assert all(m.home_partner is not None and m.away_partner is not None for m in matches)
    assert sorted(placed(t, 1)) == sorted(t.players)
    assert len(t.rounds[0].byes) == 2
    assert t.rounds[0].paths == ((None, ("dyp",)),)


def test_each_of_the_four_players_is_credited_with_the_sides_result() -> None:
    """Hand-worked: board 1 ends 5-3 (a win, 3 points, +2), board 2 2-2 (a draw, 1 point
    each); the bye scores the table's 3 points in one match."""
    t = dyp(9, rounds=2)
    t.generate_round()
    first, second = t.round_matches(1)
    t.record_result(first.id, Result(5, 3))
    t.record_result(second.id, Result(2, 2))
    rows = {r.player_id: r for r in t.standings()}
    for pid in first.home_players:
        assert (rows[pid].points, rows[pid].wins, rows[pid].goal_difference) == (6, 1, 2)
    for pid in first.away_players:
        assert (rows[pid].points, rows[pid].losses, rows[pid].goal_difference) == (0, 1, -2)
    for pid in second.home_players + second.away_players:
        assert (rows[pid].points, rows[pid].draws, rows[pid].goals_for) == (2, 1, 2)
    (bye,) = t.rounds[0].byes
    assert (rows[bye].points, rows[bye].byes, rows[bye].played) == (6, 1, 0)
    assert rows[bye].points_per_match == Fraction(6)
    assert all(
        (r.buchholz, r.median_buchholz, r.sonneborn_berger, r.direct_encounter) == (0, 0, 0, None)
        for r in rows.values()
    )
    # the bye's 3 points and the winners' 3 are level: goal difference decides (the bye has 0)
    order = [r.player_id for r in t.standings()]
    assert order[:3] == [*sorted(first.home_players, key=lambda p: t.players[p].start_number), bye]


def test_points_per_match_ranks_a_late_entry_by_what_they_played() -> None:
    """A late entrant with one win (3 in 1) is above a player with 3 in 2 matches."""
    t = dyp(8, rounds=4)
    t.generate_round()
    first, second = t.round_matches(1)
    t.record_result(first.id, Result(3, 0))
    t.record_result(second.id, Result(0, 3))
    late = t.add_player(NewPlayer("Late")).id
    for name in ("Later", "Latest", "Last"):
        t.add_player(NewPlayer(name))
    t.generate_round()
    (board,) = [m for m in t.round_matches(2) if late in m.home_players + m.away_players]
    winners = board.home_players if late in board.home_players else board.away_players
    for m in t.round_matches(2):
        won = m is board and winners is m.home_players
        t.record_result(m.id, Result(1, 0) if won or (m is not board) else Result(0, 1))
    rows = {r.player_id: r for r in t.standings()}
    assert (rows[late].played, rows[late].points) == (1, 6)
    assert rows[late].points_per_match == 6
    ranked = [r.player_id for r in t.standings()]
    two_matches_three_points = [pid for pid, r in rows.items() if r.played == 2 and r.points == 6]
    assert two_matches_three_points  # someone won once in two matches
    assert all(ranked.index(late) < ranked.index(pid) for pid in two_matches_three_points)


def test_round_1_draws_only_the_checked_in_players() -> None:
    t = dyp(9, pair_checked_in_only=True)
    here = [PlayerId(i) for i in (1, 2, 3, 5, 8)]
    for pid in here:
        t.check_in(pid, True)
    t.generate_round()
    assert sorted(placed(t, 1)) == here
    assert len(t.round_matches(1)) == 1 and len(t.rounds[0].byes) == 1
    finish(t, 1)
    t.generate_round()
    assert sorted(placed(t, 2)) == sorted(t.players)


def test_a_requested_bye_leaves_the_player_out_of_the_draw() -> None:
    table = PointsTable(win=Score(6), draw=Score(2), loss=Score(0), bye=Score(6))
    t = dyp(9, points=table, allowed_byes=frozenset(ByeKind))
    t.request_bye(PlayerId(4), RoundNumber(1), ByeKind.HALF_POINT)
    t.generate_round()
    assert PlayerId(4) not in placed(t, 1)
    assert t.rounds[0].byes == ()  # 8 drawn: nobody sits out
    finish(t, 1)
    assert {r.player_id: r.points for r in t.standings()}[PlayerId(4)] == 2


def test_players_join_until_the_last_round_and_leave_between_rounds() -> None:
    t = dyp(8, rounds=3)
    for number in (1, 2):
        t.generate_round()
        finish(t, number)
        t.add_player(NewPlayer(f"Late {number}"))
    t.withdraw_player(PlayerId(1))
    t.generate_round()
    assert sorted(placed(t, 3)) == sorted(p for p in t.players if p != 1)
    finish(t, 3)
    assert t.status is Status.FINISHED
    with pytest.raises(RegistrationClosed, match="the last round is generated"):
        t.add_player(NewPlayer("Too late"))


def test_a_double_forfeit_is_no_partnership() -> None:
    """Four players, 3 rounds: each pair partners once. A double forfeit in round 1 leaves its
    partnerships unplayed, so round 2 may draw them again without a repeat counted."""
    t = dyp(4, rounds=3)
    t.generate_round()
    (m,) = t.round_matches(1)
    t.record_result(m.id, Result(0, 0, forfeit=Forfeit.BOTH))
    t.generate_round()
    assert t.rounds[1].rematch_pairs == ()


def test_partners_repeat_only_once_every_partnership_was_drawn() -> None:
    t = dyp(4, rounds=3)
    seen: set[frozenset[PlayerId]] = set()
    for number in (1, 2, 3):
        t.generate_round()
        (m,) = t.round_matches(number)
        teams = {frozenset(m.home_players), frozenset(m.away_players)}
        assert not teams & seen
        seen |= teams
        finish(t, number)
    assert len(seen) == 6  # 4 players: 3 rounds use up the 6 partnerships


def test_fewer_than_four_present_is_refused_and_changes_nothing() -> None:
    t = dyp(5, rounds=3)
    t.generate_round()
    finish(t, 1)
    t.withdraw_player(PlayerId(1))
    t.withdraw_player(PlayerId(2))
    with pytest.raises(PairingImpossible, match="at least 4 players"):
        t.generate_round()
    assert len(t.rounds) == 1


def test_a_draw_past_its_deadline_changes_nothing() -> None:
    t = dyp(40)
    with pytest.raises(PairingTimeout):
        t.generate_round(deadline=Deadline.after(1.5, clock=Ticks()))
    assert t.rounds == [] and t.matches == {}
    assert t.generate_round().number == 1


def test_a_dyp_field_is_at_most_512_players() -> None:
    with pytest.raises(TooManyPlayers, match="at most 512"):
        dyp(513)
    full = dyp(512)
    with pytest.raises(TooManyPlayers, match="at most 512"):
        full.add_player(NewPlayer("One more"))


def test_settings_that_do_not_fit_dyp_are_refused() -> None:
    with pytest.raises(InvalidSettings, match="at least 4 players"):
        dyp(3)
    four = dyp(4)
    with pytest.raises(TooFewPlayers, match="without this player"):
        four.remove_player(PlayerId(1))
    for options in (
        {"final_phase": FinalPhaseKind.SEMIFINALS},
        {"tiebreak": Tiebreak.BUCHHOLZ},
    ):
        with pytest.raises(InvalidSettings):
            dyp(8, **options)
    with pytest.raises(InvalidSettings, match="points_per_match"):
        Tournament.create(
            Settings(seed=1, tiebreak=Tiebreak.POINTS_PER_MATCH),
            [NewPlayer("A"), NewPlayer("B")],
        )


def test_what_is_made_for_one_against_one_is_refused() -> None:
    t = dyp(8)
    with pytest.raises(NotForDyp):
        t.forbid_pair(PlayerId(1), PlayerId(2), PairKind.HARD)
    boards = (Board(PlayerId(1), PlayerId(2)), Board(PlayerId(3), PlayerId(4)))
    with pytest.raises(NotForDyp):
        t.pair_by_hand(HandPairing(boards, ()))
    t.generate_round()
    with pytest.raises(NotForDyp):
        t.repair_by_hand(RoundNumber(1), HandPairing(boards, ()))
    with pytest.raises(NotForDyp):
        export_trf(t, name="x")
    with pytest.raises(NotForDyp):
        check_rounds(t)
    assert all(isinstance(m, Match) for m in t.matches.values()) and len(t.rounds) == 1


def test_a_tournament_with_forbidden_pairs_does_not_become_dyp() -> None:
    t = Tournament.create(Settings(seed=1), [NewPlayer(f"P{i}") for i in range(8)])
    t.forbid_pair(PlayerId(1), PlayerId(2), PairKind.SOFT)
    dyp_settings = Settings(seed=1, pairing=PairingSystem.DYP, format=FormatPreset.DYP)
    with pytest.raises(NotForDyp, match="delete them first"):
        t.change_settings(dyp_settings)
    assert t.settings == Settings(seed=1)
    t.allow_pair(next(iter(t.forbidden_pairs)))
    t.change_settings(dyp_settings)
    assert t.drawn_partners
