"""Forbidden pairs as the tournament keeps them (``app.domain.forbidden``), the constraints of
a round, and their TRF records (``260``)."""

from __future__ import annotations

import pytest

from app.domain.errors import (
    DuplicateForbiddenPair,
    ForbiddenPairWithItself,
    InvalidSettings,
    InvalidTrf,
    RegistrationClosed,
    UnknownForbiddenPair,
    UnknownPlayer,
)
from app.domain.forbidden import (
    MAX_TEAM_LENGTH,
    ForbiddenPair,
    ForbiddenPairId,
    PairConstraint,
    PairKind,
    TeamRule,
    clean_team,
    pair_constraints,
)
from app.domain.formats import FinalPhaseKind
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf import TrfNote, TrfTag, read_trf, write_trf
from app.domain.trf_export import export_trf
from app.domain.trf_import import import_trf
from app.domain.types import PairingSystem, PlayerId
from tests.domain.evening import new, play_round, stronger_wins

P = PlayerId
HARD, SOFT = PairKind.HARD, PairKind.SOFT


def test_a_pair_is_two_different_players_of_the_tournament_listed_once() -> None:
    t = new(5)
    first = t.forbid_pair(P(4), P(2), HARD)
    assert first == ForbiddenPair(ForbiddenPairId(1), P(2), P(4), HARD)
    assert t.forbid_pair(P(1), P(3), SOFT).id == 2
    with pytest.raises(DuplicateForbiddenPair, match="already a hard forbidden pair"):
        t.forbid_pair(P(2), P(4), SOFT)
    with pytest.raises(ForbiddenPairWithItself):
        t.forbid_pair(P(3), P(3), HARD)
    with pytest.raises(UnknownPlayer):
        t.forbid_pair(P(1), P(9), HARD)
    assert t.allow_pair(ForbiddenPairId(1)) == first
    with pytest.raises(UnknownForbiddenPair):
        t.allow_pair(ForbiddenPairId(1))
    assert t.forbid_pair(P(2), P(4), SOFT).id == 3  # the next id, not the freed one's


def test_deleting_a_player_in_registration_deletes_their_pairs() -> None:
    t = new(5)
    t.forbid_pair(P(1), P(2), HARD)
    t.forbid_pair(P(3), P(4), SOFT)
    t.remove_player(P(2))
    assert list(t.forbidden_pairs.values()) == [ForbiddenPair(ForbiddenPairId(2), P(3), P(4), SOFT)]


def test_teams_are_cleaned_and_bounded() -> None:
    assert clean_team("  Scacchi   Rovereto ") == "Scacchi Rovereto"
    assert clean_team("   ") is None
    assert clean_team(None) is None
    with pytest.raises(InvalidSettings):
        clean_team("x" * (MAX_TEAM_LENGTH + 1))
    with pytest.raises(InvalidSettings):
        clean_team("a\x07b")


def test_constraints_merge_pairs_and_teams_the_stricter_kind_winning() -> None:
    t = Tournament.create(
        Settings(seed=1, avoid_same_team=TeamRule.SOFT),
        [
            NewPlayer("A", team="X"),
            NewPlayer("B", team="X"),
            NewPlayer("C", team="X"),
            NewPlayer("D", team="Y"),
            NewPlayer("E"),
        ],
    )
    t.forbid_pair(P(1), P(2), HARD)
    t.forbid_pair(P(4), P(5), SOFT)
    found = pair_constraints(t.players.values(), t.forbidden_pairs.values(), TeamRule.SOFT)
    assert found == (
        PairConstraint(P(1), P(2), HARD, ForbiddenPairId(1), "X"),
        PairConstraint(P(1), P(3), SOFT, None, "X"),
        PairConstraint(P(2), P(3), SOFT, None, "X"),
        PairConstraint(P(4), P(5), SOFT, ForbiddenPairId(2)),
    )
    hard_teams = pair_constraints(t.players.values(), t.forbidden_pairs.values(), TeamRule.HARD)
    assert [c.kind for c in hard_teams] == [HARD, HARD, HARD, SOFT]
    off = pair_constraints(t.players.values(), t.forbidden_pairs.values(), TeamRule.OFF)
    assert [c.players for c in off] == [(P(1), P(2)), (P(4), P(5))]
    # only the players being paired: without player 2 there is no pair 1–2 or 2–3
    present = [p for p in t.players.values() if p.id != 2]
    assert [
        c.players for c in pair_constraints(present, t.forbidden_pairs.values(), TeamRule.SOFT)
    ] == [
        (P(1), P(3)),
        (P(4), P(5)),
    ]


def test_avoid_same_team_may_change_after_round_one_and_nothing_else_may() -> None:
    t = new(4, final_phase=FinalPhaseKind.NONE, swiss_rounds=3)
    play_round(t, stronger_wins(t))
    t.change_settings(Settings(**{**_fields(t.settings), "avoid_same_team": TeamRule.HARD}))
    assert t.settings.avoid_same_team is TeamRule.HARD
    with pytest.raises(RegistrationClosed):
        t.change_settings(Settings(**{**_fields(t.settings), "swiss_rounds": 2}))
    t.set_team(P(1), " Club ")
    assert t.players[P(1)].team == "Club"
    t.set_team(P(1), "")
    assert t.players[P(1)].team is None


def _fields(settings: Settings) -> dict[str, object]:
    return {name: getattr(settings, name) for name in Settings.__slots__}


def test_trf_carries_hard_pairs_as_260_and_soft_ones_as_a_comment() -> None:
    t = Tournament.create(
        Settings(seed=3, pairing=PairingSystem.DUTCH, swiss_rounds=5),
        [NewPlayer(f"P{i}", 2000 - i, team="T" if i in (4, 5, 6) else None) for i in range(1, 9)],
    )
    t.forbid_pair(P(1), P(2), HARD)
    t.forbid_pair(P(7), P(3), SOFT)
    document = export_trf(t, name="Forbidden")
    extra = [r for r in document.records if isinstance(r, TrfTag | TrfNote) and "260" in str(r)]
    assert extra == [
        TrfTag("260", "  1   5    1    2"),
        TrfNote("### SVIZZERA-SOFT-260   1   5    3    7"),
    ]
    t.change_settings(Settings(**{**_fields(t.settings), "avoid_same_team": TeamRule.HARD}))
    again = read_trf(write_trf(export_trf(t, name="Forbidden")))
    assert [r.value for _, r in again.tagged("260")] == [
        "  1   5    1    2",
        "  1   5    4    5    6",
    ]
    imported = import_trf(again, seed=1).tournament
    start = {p.start_number: p.id for p in imported.players.values()}
    pairs = {(f.players, f.kind) for f in imported.forbidden_pairs.values()}
    assert pairs == {
        ((start[1], start[2]), HARD),
        ((start[3], start[7]), SOFT),
        ((start[4], start[5]), HARD),
        ((start[4], start[6]), HARD),
        ((start[5], start[6]), HARD),
    }
    # and back again: the same records
    back = export_trf(imported, name="Forbidden")
    assert [r.value for _, r in back.tagged("260")] == [
        "  1   5    1    2",
        "  1   5    4    5",
        "  1   5    4    6",
        "  1   5    5    6",
    ]


def test_a_260_record_over_before_the_next_round_forbids_nothing() -> None:
    t = new(4, pairing=PairingSystem.DUTCH, swiss_rounds=3)
    play_round(t, stronger_wins(t))
    text = write_trf(export_trf(t, name="x")) + "260   1   1    1    2\r260   1   3    3    4\r"
    imported = import_trf(read_trf(text), seed=1).tournament
    start = {p.start_number: p.id for p in imported.players.values()}
    assert [f.players for f in imported.forbidden_pairs.values()] == [(start[3], start[4])]


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ("260   1   3    1", "two players or more"),
        ("260   2   1    1    2", "not within the 3 rounds"),
        ("260   1   3    1    9", "no player with starting rank 9"),
        ("260   1   x    1    2", "last round is not a whole number"),
    ],
)
def test_a_bad_260_record_is_refused_with_its_line(record: str, reason: str) -> None:
    t = new(4, pairing=PairingSystem.DUTCH, swiss_rounds=3)
    text = write_trf(export_trf(t, name="x")) + record + "\r"
    with pytest.raises(InvalidTrf, match=reason):
        import_trf(read_trf(text), seed=1)
