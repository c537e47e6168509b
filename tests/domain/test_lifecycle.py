"""Lifecycle, registration, withdrawal and late entry (``tournament.md``, "Lifecycle")."""

from __future__ import annotations

import pytest

from app.domain.errors import (
    AlreadyWithdrawn,
    DuplicateName,
    InvalidSettings,
    NoMoreRounds,
    RegistrationClosed,
    RoundIncomplete,
    TooFewPlayers,
    WrongStatus,
)
from app.domain.formats import FinalPhaseKind, GroupAssignment, GroupsSetting
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem, PlayerId, Result, Status
from tests.domain.evening import new, play_round, play_swiss, stronger_wins


def test_start_numbers_follow_ratings_when_everyone_has_one() -> None:
    t = Tournament.create(
        Settings(seed=1),
        [
            NewPlayer("Ada", 1500),
            NewPlayer("Bo", 1700),
            NewPlayer("Cy", 1500),
            NewPlayer("Di", 1900),
        ],
    )
    by_number = sorted(t.players.values(), key=lambda p: p.start_number)
    # highest first; the two 1500s keep the given order
    assert [p.name for p in by_number] == ["Di", "Bo", "Ada", "Cy"]


def test_start_numbers_follow_the_given_order_when_a_rating_is_missing() -> None:
    t = Tournament.create(
        Settings(seed=1), [NewPlayer("Ada", 1500), NewPlayer("Bo"), NewPlayer("Cy", 1900)]
    )
    assert [t.players[PlayerId(i)].start_number for i in (1, 2, 3)] == [1, 2, 3]


def test_names_are_unique_trimmed_and_case_insensitive() -> None:
    with pytest.raises(DuplicateName):
        Tournament.create(Settings(seed=1), [NewPlayer("Rossi"), NewPlayer("  rossi ")])
    t = new(4)
    with pytest.raises(DuplicateName):
        t.add_player(NewPlayer("p1"))
    with pytest.raises(InvalidSettings):
        t.add_player(NewPlayer("   "))
    assert t.add_player(NewPlayer("  Anna   Maria ")).name == "Anna Maria"


def test_status_moves_from_registration_to_finished() -> None:
    t = new(6)
    assert t.status is Status.REGISTRATION
    assert t.current_round == 0
    play_round(t, stronger_wins(t))
    assert t.status is Status.SWISS
    play_swiss(t)
    assert t.status is Status.SWISS  # the organizer starts the final phase
    t.start_final_phase()
    assert t.status is Status.FINAL_PHASE


def test_next_round_needs_every_result_of_the_current_one() -> None:
    t = new(6)
    first = t.generate_round()
    match = t.round_matches(first.number)[0]
    t.record_result(match.id, Result(1, 0))
    with pytest.raises(RoundIncomplete):
        t.generate_round()
    assert t.current_round == 1  # the refusal changed nothing


def test_no_round_beyond_the_format() -> None:
    t = new(4, final_phase=FinalPhaseKind.NONE)
    play_swiss(t)
    assert t.current_round == 3
    assert t.status is Status.FINISHED
    with pytest.raises(NoMoreRounds):
        t.generate_round()


def test_without_final_phase_the_tournament_finishes_with_the_last_round() -> None:
    t = new(3)
    play_swiss(t)
    assert t.status is Status.FINISHED
    assert t.final_ranking() == [row.player_id for row in t.standings()]
    with pytest.raises(WrongStatus):
        t.start_final_phase()


def test_odd_field_gives_one_bye_per_round() -> None:
    t = new(7)
    play_swiss(t)
    assert [len(r.byes) for r in t.rounds] == [1, 1, 1, 1]
    rows = {row.player_id: row for row in t.standings()}
    assert sum(row.byes for row in rows.values()) == 4


def test_settings_change_only_in_registration() -> None:
    t = new(8)
    t.change_settings(Settings(seed=7, swiss_rounds=3))
    assert t.format.swiss_rounds == 3
    with pytest.raises(InvalidSettings):
        t.change_settings(Settings(seed=7, swiss_rounds=9))
    assert t.format.swiss_rounds == 3  # refused: the previous settings stay
    t.generate_round()
    with pytest.raises(RegistrationClosed):
        t.change_settings(Settings(seed=7))


def test_a_refused_settings_change_leaves_the_start_numbers_as_they_were() -> None:
    # Level ratings: nearest keeps the given order, dutch orders by name (C.04.2 Art. 2).
    t = Tournament.create(Settings(seed=1), [NewPlayer(n, 1500) for n in ("Cy", "Bo", "Ada", "Di")])
    before = {p.name: p.start_number for p in t.players.values()}
    assert before == {"Cy": 1, "Bo": 2, "Ada": 3, "Di": 4}
    with pytest.raises(InvalidSettings):
        t.change_settings(Settings(seed=1, pairing=PairingSystem.DUTCH, swiss_rounds=9))
    assert {p.name: p.start_number for p in t.players.values()} == before
    assert t.settings == Settings(seed=1)


def test_players_are_deleted_in_registration_and_withdrawn_after() -> None:
    t = new(5)
    t.remove_player(PlayerId(2))
    assert sorted(p.start_number for p in t.players.values()) == [1, 2, 3, 4]
    with pytest.raises(WrongStatus):
        t.withdraw_player(PlayerId(1))
    t.generate_round()
    with pytest.raises(RegistrationClosed):
        t.remove_player(PlayerId(1))
    withdrawn = t.withdraw_player(PlayerId(1))
    assert withdrawn.withdrawn_after == 1
    with pytest.raises(AlreadyWithdrawn):
        t.withdraw_player(PlayerId(1))


def test_a_withdrawn_player_is_not_paired_and_keeps_their_row() -> None:
    t = new(6)
    play_round(t, stronger_wins(t))
    t.withdraw_player(PlayerId(3))
    second = t.generate_round()
    paired = {pid for m in t.round_matches(second.number) for pid in (m.home, m.away)}
    assert PlayerId(3) not in paired
    assert second.byes != () and len(paired) == 4  # five active players: one bye
    row = next(r for r in t.standings() if r.player_id == PlayerId(3))
    assert row.withdrawn and row.played == 1


def test_late_entry_until_half_the_rounds() -> None:
    t = new(8)  # 4 Swiss rounds
    play_round(t, stronger_wins(t))
    late = t.add_player(NewPlayer("Late"))
    assert (late.start_number, late.entered_round) == (9, 2)
    assert t.format.swiss_rounds == 4  # the format stays the one decided at the start
    play_round(t, stronger_wins(t))  # 2 of 4 rounds generated: half, entry closes
    with pytest.raises(RegistrationClosed):
        t.add_player(NewPlayer("Too late"))
    row = next(r for r in t.standings() if r.player_id == late.id)
    assert row.played + row.byes == 1


def test_late_entry_joins_the_smaller_group() -> None:
    t = new(11, groups=GroupsSetting(GroupAssignment.SEEDED))
    sizes = {g: sum(1 for p in t.players.values() if p.group == g) for g in ("A", "B")}
    play_round(t, stronger_wins(t))
    late = t.add_player(NewPlayer("Late"))
    smaller = min(sizes, key=lambda g: (sizes[g], g))
    assert late.group == smaller


def test_everyone_withdrawn_leaves_nothing_to_pair() -> None:
    t = new(4, final_phase=FinalPhaseKind.NONE)
    play_round(t, stronger_wins(t))
    for pid in (1, 2, 3):
        t.withdraw_player(PlayerId(pid))
    with pytest.raises(TooFewPlayers):
        t.generate_round()
    assert t.current_round == 1


def test_a_swiss_result_is_checked_without_scanning_every_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a final-phase result depends on the final phase's matches: a Swiss result looks at
    its own match, so a bulk request of 2,048 results at 4,096 players does not scan 2,048
    times the 2,048 matches of a round."""
    t = new(8)
    t.generate_round()
    scans: list[int] = []
    monkeypatch.setattr(Tournament, "final_matches", lambda _self: scans.append(1) or [])
    for match in t.round_matches(1):
        t.record_result(match.id, Result(1, 0))
    assert scans == []
    assert t.round_matches(1)[0].result == Result(1, 0)
