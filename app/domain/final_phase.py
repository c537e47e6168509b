"""The final phase: qualifiers, semifinals, finals and the final ranking (``tournament.md``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.domain.formats import FinalPhaseKind
from app.domain.types import GroupName, Pair, PlayerId, Side, Stage


@dataclass(frozen=True, slots=True)
class Fixture:
    """A final-phase match to be played: its stage, board and the two players (home first)."""

    stage: Stage
    board: int
    home: PlayerId
    away: PlayerId


@dataclass(frozen=True, slots=True)
class Decided:
    """A played final-phase match: who won and who lost."""

    winner: PlayerId
    loser: PlayerId


def cross_order(
    order: Sequence[PlayerId], groups: Mapping[PlayerId, GroupName] | None
) -> list[PlayerId]:
    """The order across groups: group position first, then the tournament's order.

    Without groups it is the standings order itself.
    """
    if not groups:
        return list(order)
    position: dict[PlayerId, int] = {}
    seen: dict[GroupName, int] = {}
    for pid in order:
        group = groups[pid]
        seen[group] = seen.get(group, 0) + 1
        position[pid] = seen[group]
    overall = {pid: i for i, pid in enumerate(order)}
    return sorted(order, key=lambda pid: (position[pid], overall[pid]))


def select_qualifiers(
    order: Sequence[PlayerId],
    active: frozenset[PlayerId],
    *,
    count: int,
    groups: Mapping[PlayerId, GroupName] | None,
) -> list[PlayerId]:
    """The first active players of the standings (per group with groups), best first.

    With groups the list is A1, B1, A2, B2 (or B1, A1, …): the group winners first, where A1
    and A2 are the first two *active* players of group A (a withdrawn leader's place goes to
    the next of his group), each pair in the tournament's order.
    """
    if not groups:
        return [pid for pid in order if pid in active][:count]
    per_group = count // 2
    taken: dict[GroupName, list[PlayerId]] = {}
    for pid in order:
        if pid in active and len(taken.setdefault(groups[pid], [])) < per_group:
            taken[groups[pid]].append(pid)
    chosen = {pid for pids in taken.values() for pid in pids}
    return cross_order([pid for pid in order if pid in chosen], groups)


def opening_fixtures(
    qualifiers: Sequence[PlayerId],
    kind: FinalPhaseKind,
    *,
    groups: Mapping[PlayerId, GroupName] | None,
) -> list[Fixture]:
    """The first matches of the final phase; the better-ranked is at home.

    Semifinals: SF1 1st v 4th, SF2 2nd v 3rd; after groups, crossed: A1 v B2, B1 v A2 (the group
    winner at home). Final only: 1st v 2nd.
    """
    if kind is FinalPhaseKind.FINAL:
        return [Fixture(Stage.FINAL, 1, qualifiers[0], qualifiers[1])]
    first, second, third, fourth = qualifiers
    if groups:
        # qualifiers are A1, B1, A2, B2 in cross order (or B1, A1, …): winners meet runners-up
        # of the other group.
        runner_of = {groups[third]: third, groups[fourth]: fourth}
        return [
            Fixture(Stage.SEMIFINAL, 1, first, runner_of[_other_group(groups[first])]),
            Fixture(Stage.SEMIFINAL, 2, second, runner_of[_other_group(groups[second])]),
        ]
    return [
        Fixture(Stage.SEMIFINAL, 1, first, fourth),
        Fixture(Stage.SEMIFINAL, 2, second, third),
    ]


def _other_group(group: GroupName) -> GroupName:
    return GroupName("B" if group == "A" else "A")


def finals_fixtures(
    semifinal_1: Decided, semifinal_2: Decided, seeding: Mapping[PlayerId, int]
) -> list[Fixture]:
    """The final between the semifinal winners and the third-place final between the losers.

    The better Swiss rank (lower ``seeding``) is at home in each.
    """
    final = _by_seeding(Pair(semifinal_1.winner, semifinal_2.winner), seeding)
    third = _by_seeding(Pair(semifinal_1.loser, semifinal_2.loser), seeding)
    return [
        Fixture(Stage.FINAL, 1, final.higher, final.lower),
        Fixture(Stage.THIRD_PLACE, 2, third.higher, third.lower),
    ]


def _by_seeding(pair: Pair, seeding: Mapping[PlayerId, int]) -> Pair:
    a, b = sorted((pair.higher, pair.lower), key=lambda pid: seeding[pid])
    return Pair(a, b)


def decided(home: PlayerId, away: PlayerId, winner: Side) -> Decided:
    return Decided(home, away) if winner is Side.HOME else Decided(away, home)


def final_ranking(
    cross: Sequence[PlayerId],
    *,
    final: Decided | None,
    third_place: Decided | None,
    kind: FinalPhaseKind,
    active: frozenset[PlayerId],
) -> list[PlayerId] | None:
    """Places 1–4 from the finals, then everybody else in Swiss order; ``None`` if undecided.

    Final only (short formula): 1–2 from the final, 3–4 the next two active players of the
    standings. Without a final phase the final ranking is the standings order.
    """
    if kind is FinalPhaseKind.NONE:
        return list(cross)
    if final is None:
        return None
    top = [final.winner, final.loser]
    if kind is FinalPhaseKind.SEMIFINALS:
        if third_place is None:
            return None
        top += [third_place.winner, third_place.loser]
    else:
        top += [pid for pid in cross if pid in active and pid not in top][:2]
    return top + [pid for pid in cross if pid not in top]
