"""The groups variant: assignment, pairing inside each group (``tournament.md``, "Groups")."""

from __future__ import annotations

import pytest

from app.domain.errors import InvalidSettings, UnknownGroup
from app.domain.formats import GroupAssignment, GroupsSetting
from app.domain.tournament import Tournament
from app.domain.types import PlayerId
from tests.domain.evening import new, play_swiss


def group_of(t: Tournament) -> dict[int, str]:
    """Group by start number."""
    return {p.start_number: str(p.group) for p in t.players.values()}


def test_seeded_is_a_snake_by_start_number() -> None:
    t = new(8, groups=GroupsSetting(GroupAssignment.SEEDED))
    assert group_of(t) == {1: "A", 2: "B", 3: "B", 4: "A", 5: "A", 6: "B", 7: "B", 8: "A"}


def test_pots_of_two_split_between_the_groups() -> None:
    t = new(10, groups=GroupsSetting(GroupAssignment.POTS))
    groups = group_of(t)
    for first in range(1, 11, 2):
        assert {groups[first], groups[first + 1]} == {"A", "B"}


@pytest.mark.parametrize("count", [4, 9, 12, 13])
def test_draw_gives_equal_groups_and_follows_the_seed(count: int) -> None:
    t = new(count, groups=GroupsSetting(GroupAssignment.DRAW))
    sizes = sorted(list(group_of(t).values()).count(g) for g in "AB")
    assert sizes == [count // 2, count - count // 2]
    again = new(count, groups=GroupsSetting(GroupAssignment.DRAW))
    assert group_of(again) == group_of(t)


def test_manual_groups_by_name() -> None:
    manual = (("p1", "P2", "P3"), ("P4", "P5", "p6"))
    t = new(6, groups=GroupsSetting(GroupAssignment.MANUAL, manual))
    assert group_of(t) == {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "B"}
    with pytest.raises(InvalidSettings):
        new(6, groups=GroupsSetting(GroupAssignment.MANUAL, (("P1", "Nobody"), ("P2",))))
    with pytest.raises(InvalidSettings):
        new(6, groups=GroupsSetting(GroupAssignment.MANUAL, (("P1", "P2", "P3", "P4", "P5"), ())))


def test_each_group_is_paired_on_its_own_and_never_repeats() -> None:
    t = new(12, groups=GroupsSetting(GroupAssignment.SEEDED))
    play_swiss(t)
    assert t.current_round == 4
    met: set[frozenset[PlayerId]] = set()
    for number in range(1, 5):
        matches = t.round_matches(number)
        assert [m.board for m in matches] == [1, 2, 3, 4, 5, 6]
        for m in matches:
            assert t.players[m.home].group == t.players[m.away].group == m.group
            pair = frozenset((m.home, m.away))
            assert pair not in met
            met.add(pair)
    assert all(t.rounds[i].rematch_pairs == () for i in range(4))
    ranks = [row.rank for row in t.standings(group="A")]  # type: ignore[arg-type]
    assert ranks == [1, 2, 3, 4, 5, 6]


def test_standings_of_a_group_the_tournament_does_not_have() -> None:
    t = new(6)
    with pytest.raises(UnknownGroup):
        t.standings(group="A")  # type: ignore[arg-type]
