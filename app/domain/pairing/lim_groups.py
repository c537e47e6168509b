"""``lim`` steps 2–5: score groups paired from the top down, from the bottom up, median last.

Players are ranks (0 = best) among the players to pair; ``points`` are half-points. Scores are
compared doubled (``2 * points`` against ``win * rounds played``) so the median stays exact.
A player in a group whose points differ from the group's score is a floater: a downfloater with
more points, an upfloater with fewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing import lim_paths as paths
from app.domain.pairing.lim_halves import pair_halves
from app.domain.pairing.lim_matching import Met, has_perfect_matching, unmatched_count

Pairs = list[tuple[int, int]]

COMPLETION_BUDGET = 5_000
"""Floater choices tried at most when completing one group (step 3.3)."""
LEAVING_BUDGET = 5_000
"""Sets of leaving players tried at most per group (step 3.4); past it the whole group leaves."""


@dataclass(slots=True)
class _Group:
    doubled_score: int
    members: set[int]


@dataclass(frozen=True, slots=True)
class _Settled:
    """A paired group as it finally stood: undone into the median group when that is blocked."""

    members: frozenset[int]
    pairs: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class GroupPairing:
    """The procedure's round: pairs as (better rank, worse rank), and the path it took."""

    pairs: tuple[tuple[int, int], ...]
    path: tuple[str, ...]


@dataclass(slots=True)
class _Procedure:
    points: Sequence[int]
    met: Met
    deadline: Deadline
    labels: list[str] = field(default_factory=list)

    def note(self, *labels: str) -> None:
        self.labels.extend(label for label in labels if label not in self.labels)

    def doubled(self, player: int) -> int:
        return 2 * self.points[player]

    # Step 3 / 4 for one group ------------------------------------------------------------
    def settle(self, group: _Group, neighbour: _Group, *, downward: bool) -> _Settled:
        """Islands, odd group, then pair the group or move the fewest players on."""
        self.move_islands(group, neighbour, downward=downward)
        if len(group.members) % 2:
            ranked = sorted(group.members)
            mover = ranked[-1] if downward else ranked[0]
            group.members.remove(mover)
            neighbour.members.add(mover)
            self.note(paths.ODD_GROUP_FLOATER)
        completed = self.complete(group, sorted(group.members), upfloaters_first=not downward)
        if completed is None:
            leaving, completed = self.fewest_leaving(group, downward=downward)
            group.members -= leaving
            neighbour.members |= leaving
            self.note(paths.UNPAIRABLE_FLOATERS)
        pairs, labels = completed
        self.note(*labels)
        return _Settled(frozenset(group.members), tuple(pairs))

    def move_islands(self, group: _Group, neighbour: _Group, *, downward: bool) -> None:
        """Step 3.1: islands swap, one exchange each, with the neighbour's nearest able player."""
        if len(group.members) < 2:
            return  # a player alone is an odd group, not an island
        islands = [p for p in sorted(group.members) if self.is_island(p, group.members)]
        if not islands:
            return
        self.note(paths.ISLANDS)
        listed = set(islands)
        for island in islands:
            group.members.remove(island)
            neighbour.members.add(island)
            others = group.members - listed
            natives = sorted(
                (
                    p
                    for p in neighbour.members
                    if self.doubled(p) == neighbour.doubled_score and p not in listed
                ),
                reverse=not downward,
            )
            for candidate in natives:
                if any(q not in self.met[candidate] for q in others):
                    neighbour.members.remove(candidate)
                    group.members.add(candidate)
                    break

    def is_island(self, player: int, members: set[int]) -> bool:
        return len(members) - 1 - len(self.met[player] & members) == 0

    # Step 3.3 and 6: complete one group --------------------------------------------------
    def complete(
        self, group: _Group, players: list[int], *, upfloaters_first: bool
    ) -> tuple[Pairs, list[str]] | None:
        """Floaters first, each with its first *available* opponent; the rest by rule 11.2.

        Available: the players left can still be paired this way. Depth-first over floater
        choices; a perfect-matching test prunes every choice after which nobody could pair.
        """
        self.deadline.check()
        if not has_perfect_matching(players, self.met):
            return None
        down = [p for p in players if self.doubled(p) > group.doubled_score]
        up = [p for p in players if self.doubled(p) < group.doubled_score]
        sequence = [(p, False) for p in up] + [(p, True) for p in down]
        if not upfloaters_first:
            sequence = [(p, True) for p in down] + [(p, False) for p in up]
        labels = [paths.MIXED_GROUP] if sequence else []
        remaining = set(players)
        frames: list[_Frame] = []
        position = 0
        tries = 0
        while True:
            while position < len(sequence) and sequence[position][0] not in remaining:
                position += 1
            if position < len(sequence):
                floater, wants_best = sequence[position]
                remaining.remove(floater)
                options = sorted(
                    (p for p in remaining if p not in self.met[floater]), reverse=not wants_best
                )
                frames.append(_Frame(position, floater, options))
            else:
                halves = pair_halves(sorted(remaining), self.met, deadline=self.deadline)
                if halves is not None:
                    pairs = [(f.floater, f.options[f.chosen]) for f in frames]
                    pairs.extend(halves.pairs)
                    if halves.transposed:
                        labels.append(paths.TRANSPOSITION)
                    if halves.exchanged:
                        labels.append(paths.EXCHANGE)
                    return pairs, labels
            tries += 1
            self.deadline.check()
            if tries > COMPLETION_BUDGET or not self.next_choice(frames, remaining):
                return None
            position = frames[-1].position + 1

    def next_choice(self, frames: list[_Frame], remaining: set[int]) -> bool:
        """Move the deepest floater to its next opponent after which the rest can pair."""
        while frames:
            frame = frames[-1]
            if frame.chosen >= 0:
                remaining.add(frame.options[frame.chosen])
            for index in range(frame.chosen + 1, len(frame.options)):
                opponent = frame.options[index]
                if opponent not in remaining:
                    continue
                remaining.remove(opponent)
                if has_perfect_matching(sorted(remaining), self.met):
                    frame.chosen = index
                    return True
                remaining.add(opponent)
            remaining.add(frame.floater)
            frames.pop()
        return False

    # Step 3.4 -------------------------------------------------------------------------------
    def fewest_leaving(
        self, group: _Group, *, downward: bool
    ) -> tuple[set[int], tuple[Pairs, list[str]]]:
        """The smallest even number of players whose leaving lets the rest pair.

        Among equally many, the lowest-ranked (compared from the bottom up); upward, the
        best-ranked (compared from the top down).
        """
        ranked = sorted(group.members, reverse=downward)
        smallest = max(2, unmatched_count(ranked, self.met))
        tried = 0
        for size in range(smallest, len(ranked), 2):
            for leaving in combinations(ranked, size):
                tried += 1
                self.deadline.check()
                if tried > LEAVING_BUDGET:
                    return set(ranked), ([], [])
                gone = set(leaving)
                rest = sorted(p for p in ranked if p not in gone)
                completed = self.complete(group, rest, upfloaters_first=not downward)
                if completed is not None:
                    return gone, completed
        return set(ranked), ([], [])


@dataclass(slots=True)
class _Frame:
    position: int
    floater: int
    options: list[int]
    chosen: int = -1


def pair_groups(
    points: Sequence[int], met: Met, *, doubled_median: int, deadline: Deadline = NO_DEADLINE
) -> GroupPairing | None:
    """Steps 2–5 of ``pairing-lim.md``; ``None`` when undoing runs out of groups (step 7)."""
    procedure = _Procedure(points, met, deadline)
    scores = sorted({2 * p for p in points}, reverse=True)
    groups = {s: _Group(s, {r for r, p in enumerate(points) if 2 * p == s}) for s in scores}
    median = groups.get(doubled_median, _Group(doubled_median, set()))
    above = [groups[s] for s in scores if s > doubled_median]
    below = [groups[s] for s in reversed(scores) if s < doubled_median]
    settled_above: list[_Settled] = []
    settled_below: list[_Settled] = []
    for index, group in enumerate(above):
        if group.members:
            procedure.note(paths.TOP_DOWN)
            neighbour = above[index + 1] if index + 1 < len(above) else median
            settled = procedure.settle(group, neighbour, downward=True)
            if settled.members:  # a group that sent everyone on has nothing to undo
                settled_above.append(settled)
    for index, group in enumerate(below):
        if group.members:
            procedure.note(paths.BOTTOM_UP)
            neighbour = below[index + 1] if index + 1 < len(below) else median
            settled = procedure.settle(group, neighbour, downward=False)
            if settled.members:
                settled_below.append(settled)
    median_pairs = _pair_median(procedure, median, settled_above, settled_below)
    if median_pairs is None:
        return None
    pairs = [pair for s in settled_above + settled_below for pair in s.pairs] + median_pairs
    return GroupPairing(pairs=tuple(pairs), path=tuple(procedure.labels))


def _pair_median(
    procedure: _Procedure,
    median: _Group,
    settled_above: list[_Settled],
    settled_below: list[_Settled],
) -> Pairs | None:
    """Step 5: pair the median group; while blocked, undo a neighbouring group into it."""
    if median.members:
        procedure.note(paths.MEDIAN_GROUP)
    while True:
        completed = procedure.complete(median, sorted(median.members), upfloaters_first=True)
        if completed is not None:
            pairs, labels = completed
            procedure.note(*labels)
            return pairs
        procedure.note(paths.MEDIAN_BLOCKED)
        higher = sum(1 for p in median.members if procedure.doubled(p) > median.doubled_score)
        lower = sum(1 for p in median.members if procedure.doubled(p) < median.doubled_score)
        sides = [settled_below, settled_above] if higher > lower else [settled_above, settled_below]
        side = next((s for s in sides if s), None)
        if side is None:
            return None
        median.members |= side.pop().members
