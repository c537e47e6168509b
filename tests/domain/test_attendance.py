"""Absences in every system (``app.domain.attendance``): the check-in list of round 1 where the
tournament pairs checked-in players only, and the byes players ask for, in ``nearest``, ``lim``
and ``dutch`` alike."""

from __future__ import annotations

import pytest

from app.domain.attendance import plays_round
from app.domain.checker import check_rounds
from app.domain.errors import RegistrationClosed, TooFewPlayers
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    ByeKind,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    RequestedBye,
    Result,
    RoundNumber,
    Score,
)
from tests.domain.systems import ONE_AGAINST_ONE

SYSTEMS = ONE_AGAINST_ONE  # DYP: test_dyp_round.py


def field(system: PairingSystem, count: int = 9, **options: object) -> Tournament:
    settings = Settings(seed=4, pairing=system, swiss_rounds=4, **options)  # type: ignore[arg-type]
    players = [NewPlayer(f"P{i:02d}", 2000 - 10 * i) for i in range(1, count + 1)]
    return Tournament.create(settings, players)


def paired(t: Tournament, number: int) -> set[PlayerId]:
    return {pid for m in t.round_matches(number) for pid in (m.home, m.away)} | set(
        t.rounds[number - 1].byes
    )


def finish(t: Tournament, number: int) -> None:
    for m in t.round_matches(number):
        t.record_result(m.id, Result(1, 0))


@pytest.mark.parametrize("system", SYSTEMS)
def test_round_1_pairs_only_the_checked_in_players_and_round_2_everybody(
    system: PairingSystem,
) -> None:
    t = field(system, pair_checked_in_only=True)
    here = {PlayerId(i) for i in (1, 2, 4, 5, 7, 8)}
    for pid in here:
        t.check_in(pid, True)
    t.check_in(PlayerId(8), False)  # taken off the list again
    here.discard(PlayerId(8))
    t.generate_round()
    assert paired(t, 1) == here
    assert len(t.round_matches(1)) == 2 and len(t.rounds[0].byes) == 1
    finish(t, 1)
    points = {r.player_id: r.points for r in t.standings()}
    assert all(points[pid] == 0 for pid in set(t.players) - here)  # absent: no bye, no points
    assert all(r.byes == 0 for r in t.standings() if r.player_id not in here)
    with pytest.raises(RegistrationClosed, match="paired from round 2 on"):
        t.check_in(PlayerId(3), True)
    t.generate_round()
    assert paired(t, 2) == set(t.players)  # absent from round 1 only
    finish(t, 2)
    report = check_rounds(t)
    assert (report.rounds_checked, report.differences) == (2, ())


@pytest.mark.parametrize("system", SYSTEMS)
def test_without_the_setting_the_check_in_list_changes_nothing(system: PairingSystem) -> None:
    listed = field(system)
    listed.check_in(PlayerId(1), True)
    plain = field(system)
    listed.generate_round()
    plain.generate_round()
    assert paired(listed, 1) == set(listed.players)
    assert [(m.home, m.away) for m in listed.round_matches(1)] == [
        (m.home, m.away) for m in plain.round_matches(1)
    ]


@pytest.mark.parametrize("system", SYSTEMS)
def test_round_1_needs_two_checked_in_players(system: PairingSystem) -> None:
    t = field(system, pair_checked_in_only=True)
    with pytest.raises(TooFewPlayers, match="0 of 9 are checked in"):
        t.generate_round()
    t.check_in(PlayerId(3), True)
    with pytest.raises(TooFewPlayers, match="1 of 9 is checked in"):
        t.generate_round()
    assert t.rounds == []
    t.check_in(PlayerId(6), True)
    t.generate_round()
    assert paired(t, 1) == {PlayerId(3), PlayerId(6)}


def test_undoing_round_1_reopens_the_check_in_list() -> None:
    t = field(PairingSystem.NEAREST, pair_checked_in_only=True)
    for pid in (1, 2, 3):
        t.check_in(PlayerId(pid), True)
    t.generate_round()
    t.undo_round(RoundNumber(1))
    t.check_in(PlayerId(4), True)
    t.generate_round()
    assert paired(t, 1) == {PlayerId(i) for i in (1, 2, 3, 4)}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_requested_bye_leaves_the_player_out_and_scores_the_tables_points(
    system: PairingSystem,
) -> None:
    """Win 3, draw 2 (an unusual table, so the draw's points are not the bye's by chance),
    PAB 3: a half-point bye scores 2, a zero-point bye nothing, in every system."""
    table = PointsTable(win=Score(6), draw=Score(4), loss=Score(0), bye=Score(6))
    t = field(system, 8, points=table, allowed_byes=frozenset(ByeKind))
    t.request_bye(PlayerId(2), RoundNumber(1), ByeKind.HALF_POINT)
    t.request_bye(PlayerId(5), RoundNumber(1), ByeKind.ZERO_POINT)
    t.request_bye(PlayerId(5), RoundNumber(2), ByeKind.HALF_POINT)
    t.generate_round()
    assert paired(t, 1) == set(t.players) - {PlayerId(2), PlayerId(5)}
    assert t.rounds[0].byes == ()  # 6 players present: no PAB
    for m in t.round_matches(1):
        t.record_result(m.id, Result(0, 0))  # every game drawn: 2 points each
    points = {r.player_id: r.points for r in t.standings()}
    assert points[PlayerId(2)] == Score(4) and points[PlayerId(5)] == Score(0)
    assert {points[p] for p in paired(t, 1)} == {Score(4)}
    t.generate_round()
    assert PlayerId(5) not in paired(t, 2) and PlayerId(2) in paired(t, 2)
    finish(t, 2)
    points = {r.player_id: r.points for r in t.standings()}
    assert points[PlayerId(5)] == Score(4)
    assert check_rounds(t).differences == ()


def test_who_plays_a_round() -> None:
    player = Player(PlayerId(1), "Ada", 1)
    one, two = RoundNumber(1), RoundNumber(2)
    assert plays_round(player, one, checked_in_only=False)
    assert not plays_round(player, one, checked_in_only=True)
    assert plays_round(player, two, checked_in_only=True)
    assert plays_round(Player(PlayerId(1), "Ada", 1, checked_in=True), one, checked_in_only=True)
    late = Player(PlayerId(1), "Ada", 1, entered_round=two, checked_in=True)
    assert not plays_round(late, one, checked_in_only=False)
    gone = Player(PlayerId(1), "Ada", 1, withdrawn_after=one)
    assert plays_round(gone, one, checked_in_only=False)
    assert not plays_round(gone, two, checked_in_only=False)
    asked = Player(PlayerId(1), "Ada", 1, requested_byes=(RequestedBye(two, ByeKind.ZERO_POINT),))
    assert not plays_round(asked, two, checked_in_only=False)
