"""The format table, the short formula and the overrides (``tournament.md``, "The format")."""

from __future__ import annotations

import pytest

from app.domain.errors import InvalidSettings, TooFewPlayers, TooManyPlayers
from app.domain.formats import (
    FinalPhaseKind,
    FormatPreset,
    GroupAssignment,
    GroupsSetting,
    resolve_format,
)

SEMIS = FinalPhaseKind.SEMIFINALS
FINAL = FinalPhaseKind.FINAL
NONE = FinalPhaseKind.NONE


@pytest.mark.parametrize(
    ("players", "rounds", "phase"),
    [
        (2, 1, NONE),
        (3, 2, NONE),
        (4, 3, FINAL),
        (5, 3, FINAL),
        (6, 4, SEMIS),
        (12, 4, SEMIS),
        (13, 5, SEMIS),
        (16, 5, SEMIS),
        (17, 6, SEMIS),
        (32, 6, SEMIS),
        (33, 7, SEMIS),
        (1000, 11, SEMIS),
        (4096, 13, SEMIS),
    ],
)
def test_the_table_decides_rounds_and_final_phase(
    players: int, rounds: int, phase: FinalPhaseKind
) -> None:
    resolved = resolve_format(players)
    assert (resolved.swiss_rounds, resolved.final_phase, resolved.groups) == (rounds, phase, 0)


@pytest.mark.parametrize(("players", "rounds"), [(14, 4), (40, 4), (5, 3), (3, 2), (2, 1)])
def test_short_formula_plays_four_rounds_or_fewer_then_one_final(players: int, rounds: int) -> None:
    resolved = resolve_format(players, preset=FormatPreset.SHORT)
    assert (resolved.swiss_rounds, resolved.final_phase) == (rounds, FINAL)
    assert resolved.qualifier_count == 2


def test_groups_take_the_larger_group_size_for_the_rounds() -> None:
    groups = GroupsSetting(GroupAssignment.SEEDED)
    assert resolve_format(12, groups=groups).swiss_rounds == 4  # two groups of 6
    assert resolve_format(26, groups=groups).swiss_rounds == 5  # 13 and 13
    assert resolve_format(25, groups=groups).swiss_rounds == 5  # 13 and 12: the larger decides
    assert resolve_format(24, groups=groups).swiss_rounds == 4  # 12 and 12
    assert resolve_format(12, groups=groups).groups == 2


def test_overrides_within_their_bounds() -> None:
    assert resolve_format(8, swiss_rounds=7).swiss_rounds == 7
    assert resolve_format(7, swiss_rounds=7).swiss_rounds == 7
    assert resolve_format(8, final_phase=NONE).final_phase is NONE
    assert resolve_format(8, final_phase=FINAL).qualifier_count == 2
    assert resolve_format(4, final_phase=FINAL).final_phase is FINAL
    short_final = resolve_format(3, preset=FormatPreset.SHORT, final_phase=FINAL)
    assert short_final.final_phase is FINAL  # the short formula's final takes 2 players
    seeded = GroupsSetting(GroupAssignment.SEEDED)
    assert resolve_format(13, groups=seeded, swiss_rounds=5).swiss_rounds == 5


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (8, {"swiss_rounds": 8}),  # even: at most N − 1
        (7, {"swiss_rounds": 8}),  # odd: at most N
        (8, {"swiss_rounds": 0}),
        (3, {"final_phase": SEMIS}),  # semifinals need 4 players
        (3, {"final_phase": FINAL}),  # the standard format's final phase needs 4 players
        (2, {"final_phase": FINAL}),
        (3, {"groups": GroupsSetting(GroupAssignment.DRAW)}),  # 2 players in each group
        # 13 players: groups of 7 and 6; the group of 6 allows at most 5 rounds
        (13, {"groups": GroupsSetting(GroupAssignment.SEEDED), "swiss_rounds": 7}),
        (13, {"groups": GroupsSetting(GroupAssignment.SEEDED), "swiss_rounds": 6}),
        (12, {"groups": GroupsSetting(GroupAssignment.DRAW), "final_phase": FINAL}),
        (12, {"groups": GroupsSetting(GroupAssignment.DRAW), "preset": FormatPreset.SHORT}),
    ],
)
def test_overrides_outside_the_rules_are_refused(players: int, options: dict[str, object]) -> None:
    with pytest.raises(InvalidSettings):
        resolve_format(players, **options)  # type: ignore[arg-type]


def test_player_count_limits() -> None:
    with pytest.raises(TooFewPlayers):
        resolve_format(1)
    with pytest.raises(TooManyPlayers):
        resolve_format(4097)
