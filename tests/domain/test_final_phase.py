"""The final phase, its corrections and the final ranking (``tournament.md``)."""

from __future__ import annotations

import pytest

from app.domain.errors import (
    FinalPlayed,
    InvalidResult,
    NotEnoughQualifiers,
    RoundIncomplete,
    RoundLocked,
    WinnerRequired,
)
from app.domain.formats import FinalPhaseKind, FormatPreset, GroupAssignment, GroupsSetting
from app.domain.matches import Match
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, PlayerId, Result, Side, Stage, Status
from tests.domain.evening import new, order, play_round, play_swiss, stronger_wins


def semis(t: Tournament) -> list[Match]:
    return [m for m in t.final_matches() if m.stage is Stage.SEMIFINAL]


def start_semis(t: Tournament) -> list[Match]:
    t.start_final_phase()
    return semis(t)


def stage(t: Tournament, wanted: Stage) -> Match:
    return next(m for m in t.final_matches() if m.stage is wanted)


def test_semifinals_are_first_v_fourth_and_second_v_third() -> None:
    t = new(16)
    play_swiss(t)
    q1, q2, q3, q4 = order(t)[:4]
    t.start_final_phase()
    assert [(m.board, m.home, m.away) for m in semis(t)] == [(1, q1, q4), (2, q2, q3)]
    assert t.qualified() == {q1, q2, q3, q4}


def test_finals_follow_both_semifinals_better_rank_at_home() -> None:
    t = new(16)
    play_swiss(t)
    q1, q2, q3, q4 = order(t)[:4]
    sf1, sf2 = start_semis(t)
    changes = t.record_result(sf1.id, Result(0, 3))  # q4 beats q1
    assert [m.stage for m in changes.written] == [Stage.SEMIFINAL]  # no finals yet
    changes = t.record_result(
        sf2.id, Result(1, 1, winner=Side.HOME, decided_by=DecidedBy.PENALTIES)
    )
    final, third = stage(t, Stage.FINAL), stage(t, Stage.THIRD_PLACE)
    assert {m.id for m in changes.written} == {sf2.id, final.id, third.id}
    assert (final.home, final.away) == (q2, q4)  # q2 is the better Swiss rank
    assert (third.home, third.away) == (q1, q3)
    t.record_result(final.id, Result(2, 1))
    assert t.status is Status.FINAL_PHASE
    t.record_result(third.id, Result(0, 1))
    assert t.status is Status.FINISHED
    ranking = t.final_ranking()
    assert ranking is not None
    assert ranking[:4] == [q2, q4, q3, q1]
    assert ranking[4:] == order(t)[4:]


def test_a_level_final_phase_score_needs_a_winner() -> None:
    t = new(8)
    play_swiss(t)
    sf1, _ = start_semis(t)
    with pytest.raises(WinnerRequired):
        t.record_result(sf1.id, Result(2, 2))
    with pytest.raises(InvalidResult):
        t.record_result(sf1.id, Result(3, 2, winner=Side.AWAY))
    assert t.matches[sf1.id].result is None


def test_semifinal_correction_reforms_unplayed_finals_and_is_refused_after() -> None:
    t = new(8)
    play_swiss(t)
    sf1, sf2 = start_semis(t)
    t.record_result(sf1.id, Result(2, 0))
    t.record_result(sf2.id, Result(2, 0))
    final = stage(t, Stage.FINAL)
    assert {final.home, final.away} == {sf1.home, sf2.home}
    changes = t.record_result(sf1.id, Result(0, 2))  # the winner changes: finals re-formed
    final = stage(t, Stage.FINAL)
    assert {final.home, final.away} == {sf1.away, sf2.home}
    assert final.id in {m.id for m in changes.written}
    t.record_result(final.id, Result(1, 0))
    with pytest.raises(FinalPlayed):
        t.record_result(sf1.id, Result(2, 0))
    with pytest.raises(FinalPlayed):
        t.clear_result(sf1.id)
    t.record_result(sf1.id, Result(0, 5))  # same winner: a score correction is fine
    t.clear_result(final.id)
    t.clear_result(sf1.id)  # finals unplayed: they go until both semifinals are decided
    assert [m.stage for m in t.final_matches()] == [Stage.SEMIFINAL, Stage.SEMIFINAL]


def test_swiss_corrections_only_in_the_latest_round_before_the_final_phase() -> None:
    t = new(6)
    play_round(t, stronger_wins(t))
    play_round(t, stronger_wins(t))
    old = t.round_matches(1)[0]
    with pytest.raises(RoundLocked):
        t.record_result(old.id, Result(0, 0))
    with pytest.raises(RoundLocked):
        t.clear_result(old.id)
    latest = t.round_matches(2)[0]
    before = t.standings()
    t.record_result(latest.id, Result(5, 5))
    assert t.standings() != before  # recomputed from scratch
    t.record_result(latest.id, Result(0, 1))
    t.start_final_phase()
    with pytest.raises(RoundLocked):
        t.record_result(latest.id, Result(1, 0))


def test_early_final_phase_after_any_complete_round() -> None:
    t = new(16)
    t.generate_round()
    with pytest.raises(RoundIncomplete):
        t.start_final_phase()
    for m in t.round_matches(1):
        t.record_result(m.id, stronger_wins(t)(m))
    q = order(t)[:4]
    t.start_final_phase()
    assert t.current_round == 1  # the remaining Swiss rounds are dropped
    assert (t.format.swiss_rounds, t.planned_format.swiss_rounds) == (1, 5)
    assert [(m.home, m.away) for m in semis(t)] == [(q[0], q[3]), (q[1], q[2])]
    with pytest.raises(Exception, match="final phase"):
        t.generate_round()


def test_withdrawn_players_do_not_qualify_the_next_takes_the_place() -> None:
    t = new(8)
    play_swiss(t)
    top = order(t)
    t.withdraw_player(top[1])
    t.start_final_phase()
    assert [(m.home, m.away) for m in semis(t)] == [(top[0], top[4]), (top[2], top[3])]


def test_short_formula_final_then_next_two_of_the_standings() -> None:
    t = new(14, format=FormatPreset.SHORT)
    play_swiss(t)
    assert t.current_round == 4
    top = order(t)
    (final,) = t.start_final_phase().written
    assert (final.stage, final.home, final.away) == (Stage.FINAL, top[0], top[1])
    t.record_result(final.id, Result(0, 1))
    assert t.status is Status.FINISHED
    assert t.final_ranking() == [top[1], top[0], *top[2:]]


def test_short_formula_skips_withdrawn_players_for_third_and_fourth() -> None:
    t = new(6, format=FormatPreset.SHORT)
    play_swiss(t)
    top = order(t)
    t.withdraw_player(top[2])
    (final,) = t.start_final_phase().written
    t.record_result(final.id, Result(1, 0))
    ranking = t.final_ranking()
    assert ranking is not None
    assert ranking[:4] == [top[0], top[1], top[3], top[4]]
    assert top[2] in ranking[4:]  # withdrawn players keep a place in Swiss order


def test_groups_cross_their_semifinals_winner_at_home() -> None:
    t = new(12, groups=GroupsSetting(GroupAssignment.SEEDED))
    play_swiss(t)
    a = [r.player_id for r in t.standings(group="A")]  # type: ignore[arg-type]
    b = [r.player_id for r in t.standings(group="B")]  # type: ignore[arg-type]
    t.start_final_phase()
    pairs = {(m.home, m.away) for m in semis(t)}
    assert pairs == {(a[0], b[1]), (b[0], a[1])}
    assert t.qualified() == {a[0], a[1], b[0], b[1]}


def test_groups_a_withdrawn_leader_gives_his_place_to_the_next_of_his_group() -> None:
    """The example of issue 9: A = [4, 8, 1, 5], B = [3, 6, 2, 7], player 4 withdraws."""
    strength = [4, 3, 6, 8, 1, 5, 2, 7]

    def by_strength(m: Match) -> Result:
        better = strength.index(m.home) < strength.index(m.away)
        return Result(2, 0) if better else Result(0, 2)

    t = new(8, seed=2, groups=GroupsSetting(GroupAssignment.SEEDED))
    play_swiss(t, by_strength)
    assert [r.player_id for r in t.standings(group="A")] == [4, 8, 1, 5]  # type: ignore[arg-type]
    assert [r.player_id for r in t.standings(group="B")] == [3, 6, 2, 7]  # type: ignore[arg-type]
    t.withdraw_player(PlayerId(4))
    t.start_final_phase()
    # A1 = 8 (4 withdrew), A2 = 1, B1 = 3, B2 = 6: A1 v B2 and B1 v A2, the group winner at home
    assert {(m.home, m.away) for m in semis(t)} == {(8, 6), (3, 1)}
    for m in semis(t):
        t.record_result(m.id, Result(1, 0))
    final, third = stage(t, Stage.FINAL), stage(t, Stage.THIRD_PLACE)
    assert {final.home, final.away} == {8, 3}
    assert {third.home, third.away} == {6, 1}
    t.record_result(final.id, Result(1, 0))
    t.record_result(third.id, Result(1, 0))
    ranking = t.final_ranking()
    assert ranking is not None
    assert sorted(ranking) == list(range(1, 9))
    assert ranking[:4] == [final.home, final.away, third.home, third.away]


def test_final_phase_needs_enough_active_players() -> None:
    t = new(4)
    play_round(t, stronger_wins(t))
    for pid in (1, 2, 3):
        t.withdraw_player(PlayerId(pid))
    with pytest.raises(NotEnoughQualifiers):
        t.start_final_phase()
    assert not t.final_phase_started


def test_final_only_for_four_or_five_players() -> None:
    t = new(5)
    assert t.format.final_phase is FinalPhaseKind.FINAL
    play_swiss(t)
    (final,) = t.start_final_phase().written
    assert final.stage is Stage.FINAL
