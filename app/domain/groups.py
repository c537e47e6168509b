"""The groups variant: splitting the players into groups A and B (``tournament.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from app.domain.errors import InvalidSettings
from app.domain.formats import GroupAssignment, GroupsSetting
from app.domain.types import GroupName, Player, PlayerId

GROUP_A = GroupName("A")
GROUP_B = GroupName("B")
GROUP_NAMES = (GROUP_A, GROUP_B)


def name_key(name: str) -> str:
    """Player names are compared trimmed and case-insensitively."""
    return name.strip().casefold()


def assign_groups(
    players: Sequence[Player], setting: GroupsSetting, *, seed: int, strict: bool = True
) -> dict[PlayerId, GroupName]:
    """Split the players into two groups of equal size (±1), by the setting's assignment.

    ``draw``: a seeded shuffle, the first half to A. ``seeded``: snake by start number
    (1→A, 2→B, 3→B, 4→A, …). ``pots``: pots of two by start number, each pot drawn between the
    groups. ``manual``: the names the organizer listed for each group; a player the lists do
    not name joins the smaller group, and (``strict``) a name that matches nobody is refused.
    """
    by_number = sorted(players, key=lambda p: p.start_number)
    rng = random.Random(f"{seed}/groups")
    if setting.assignment is GroupAssignment.MANUAL:
        return _manual(by_number, setting.manual or (), strict=strict)
    if setting.assignment is GroupAssignment.DRAW:
        shuffled = list(by_number)
        rng.shuffle(shuffled)
        half = -(-len(shuffled) // 2)
        return {p.id: GROUP_A if i < half else GROUP_B for i, p in enumerate(shuffled)}
    if setting.assignment is GroupAssignment.SEEDED:
        return {p.id: GROUP_A if i % 4 in (0, 3) else GROUP_B for i, p in enumerate(by_number)}
    groups: dict[PlayerId, GroupName] = {}
    for start in range(0, len(by_number), 2):
        pot = by_number[start : start + 2]
        first = GROUP_A if rng.random() < 0.5 else GROUP_B
        for i, player in enumerate(pot):
            groups[player.id] = first if i == 0 else _other(first)
    return groups


def group_for_late_entry(groups: Mapping[PlayerId, GroupName]) -> GroupName:
    """A late entrant joins the smaller group (A on a tie)."""
    count_a = sum(1 for g in groups.values() if g == GROUP_A)
    return GROUP_A if count_a <= len(groups) - count_a else GROUP_B


def _other(group: GroupName) -> GroupName:
    return GROUP_B if group == GROUP_A else GROUP_A


def _manual(
    players: Sequence[Player], manual: Sequence[Sequence[str]], *, strict: bool
) -> dict[PlayerId, GroupName]:
    if len(manual) != len(GROUP_NAMES):
        raise InvalidSettings(
            "a manual assignment lists the names of exactly two groups: send two lists, "
            "group A's names then group B's"
        )
    by_name = {name_key(p.name): p.id for p in players}
    groups: dict[PlayerId, GroupName] = {}
    for group, names in zip(GROUP_NAMES, manual, strict=True):
        for name in names:
            player = by_name.get(name_key(name))
            if player is None:
                if strict:
                    raise InvalidSettings(
                        f"manual groups name an unknown player: {name!r}; write each name "
                        "as in the list of players"
                    )
                continue
            if player in groups:
                raise InvalidSettings(
                    f"manual groups name {name!r} twice: put each player in one group"
                )
            groups[player] = group
    for unlisted in players:
        if unlisted.id not in groups:
            groups[unlisted.id] = group_for_late_entry(groups)
    size_a = sum(1 for g in groups.values() if g == GROUP_A)
    if abs(2 * size_a - len(groups)) > 1:
        raise InvalidSettings(
            f"the two groups must be of equal size (±1), not {size_a} and "
            f"{len(groups) - size_a}: move players from the larger group to the other"
        )
    return groups
