"""``lim`` steps 2–5: score groups paired from the top down, from the bottom up, median last.

Players are ranks (0 = best) among the players to pair; ``points`` are half-points. Scores are
compared doubled (``2 * points`` against ``win * rounds played``) so the median stays exact.
A player in a group whose points differ from the group's score is a floater: a downfloater with
more points, an upfloater with fewer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.lim import paths
from app.domain.pairing.lim.halves import Halves, pair_halves
from app.domain.pairing.lim.unmet import Unmet
from app.domain.pairing.matching import Matching, bits, lowest, mask

Pairs = list[tuple[int, int]]

DOWN, UP = "down", "up"
ODD, ISLAND, EXCHANGE, UNPAIRABLE, UNDONE = "odd", "island", "exchange", "unpairable", "undone"
"""Why a player changed group (``Move.reason``): the steps 3.2, 3.1 (twice), 3.4 and 5."""


@dataclass(frozen=True, slots=True)
class Move:
    """A player who changed group: from the group of doubled score ``source`` to ``target``."""

    player: int
    source: int
    target: int
    reason: str


@dataclass(frozen=True, slots=True)
class HowPaired:
    """How a pair of the round was made, in the group of doubled score ``group`` (``median``:
    the median group): a floater with its best or worst available opponent (``choice``), or
    rule 11.2 (``choice`` empty) with each player's position in its half and the group's
    ``transposed``/``exchanged`` flags. ``first`` is the floater, or the player of S1."""

    group: int
    median: bool
    choice: str = ""
    positions: tuple[int, int] = (0, 0)
    transposed: bool = False
    exchanged: bool = False
    first: int = -1


COMPLETION_BUDGET = 5_000
"""Floater choices tried at most when completing one group (step 3.3); past it the group has
no completion."""
LEAVING_BUDGET = 5_000
"""Sets of leaving players tried at most per group (step 3.4), among those after whose leaving
the rest can pair at all; past it the whole group leaves."""


@dataclass(slots=True)
class _Group:
    doubled_score: int
    members: set[int]


@dataclass(frozen=True, slots=True)
class _Settled:
    """A paired group as it finally stood: undone into the median group when that is blocked."""

    members: frozenset[int]
    pairs: tuple[tuple[int, int], ...]
    doubled_score: int = 0


@dataclass(frozen=True, slots=True)
class GroupPairing:
    """The procedure's round: pairs as (better rank, worse rank), and the path it took; for
    the explanation, the score groups as they began (doubled score, members), the moves
    between groups in order, how each pair was made, and the groups undone into the median
    (doubled score, members)."""

    pairs: tuple[tuple[int, int], ...]
    path: tuple[str, ...]
    groups: tuple[tuple[int, tuple[int, ...]], ...] = ()
    moves: tuple[Move, ...] = ()
    how: tuple[tuple[tuple[int, int], HowPaired], ...] = ()
    undone: tuple[tuple[int, tuple[int, ...]], ...] = ()


@dataclass(slots=True)
class _Procedure:
    points: Sequence[int]
    unmet: Unmet
    """Each player's unmet opponents as a bit set: the graph the matching tests run on."""
    deadline: Deadline
    labels: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    how: dict[tuple[int, int], HowPaired] = field(default_factory=dict)

    def move(self, player: int, source: _Group, target: _Group, reason: str) -> None:
        self.moves.append(Move(player, source.doubled_score, target.doubled_score, reason))

    def record(self, group: _Group, completed: Completed, *, median: bool) -> None:
        """How each pair of a group's final completion was made (a later one, after an undo,
        replaces it)."""
        for (a, b), how in completed.how:
            self.how[min(a, b), max(a, b)] = HowPaired(group.doubled_score, median, *how)

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
            self.move(mover, group, neighbour, ODD)
            self.note(paths.ODD_GROUP_FLOATER)
        players = sorted(group.members)
        matching = Matching(self.unmet, mask(players), deadline=self.deadline)
        completed = self.complete(group, players, upfloaters_first=not downward, matching=matching)
        if completed is None:  # the matching is maximum again: it tells how many stay unpaired
            unpaired = matching.exposed.bit_count()
            leaving, completed = self.fewest_leaving(group, unpaired, downward=downward)
            group.members -= leaving
            neighbour.members |= leaving
            for player in sorted(leaving):
                self.move(player, group, neighbour, UNPAIRABLE)
            self.note(paths.UNPAIRABLE_FLOATERS)
        self.note(*completed.labels)
        self.record(group, completed, median=False)
        return _Settled(frozenset(group.members), tuple(completed.pairs), group.doubled_score)

    def move_islands(self, group: _Group, neighbour: _Group, *, downward: bool) -> None:
        """Step 3.1: islands swap, one exchange each, with the neighbour's nearest able player."""
        if len(group.members) < 2:
            return  # a player alone is an odd group, not an island
        members = mask(group.members)
        islands = [p for p in sorted(group.members) if not self.unmet[p] & members]
        if not islands:
            return
        self.note(paths.ISLANDS)
        listed = set(islands)
        # The neighbour's own players, nearest first: islands never join them (their points
        # are not the neighbour's score), and only the one sent in exchange leaves them.
        natives = sorted(
            (
                p
                for p in neighbour.members
                if self.doubled(p) == neighbour.doubled_score and p not in listed
            ),
            reverse=not downward,
        )
        for island in islands:
            group.members.remove(island)
            neighbour.members.add(island)
            self.move(island, group, neighbour, ISLAND)
            others = mask(group.members - listed)
            for candidate in natives:
                if self.unmet[candidate] & others:
                    neighbour.members.remove(candidate)
                    group.members.add(candidate)
                    self.move(candidate, neighbour, group, EXCHANGE)
                    natives.remove(candidate)
                    break

    # Step 3.3 and 6: complete one group --------------------------------------------------
    def complete(
        self,
        group: _Group,
        players: list[int],
        *,
        upfloaters_first: bool,
        matching: Matching | None = None,
    ) -> Completed | None:
        """Floaters first, each with its first *available* opponent; the rest by rule 11.2.

        Available: the players left can still be paired this way. Depth-first over floater
        choices; a maximum matching of the players left, kept up to date, lists each floater's
        opponents after which the rest can still pair at all (``Matching.partners``), so only
        rule 11.2 failing on the last players can send the search back. ``matching``: one of
        ``players`` already built.
        """
        if matching is None:
            matching = Matching(self.unmet, mask(players), deadline=self.deadline)
        if not matching.perfect:
            return None
        down = [p for p in players if self.doubled(p) > group.doubled_score]
        up = [p for p in players if self.doubled(p) < group.doubled_score]
        sequence = [(p, False) for p in up] + [(p, True) for p in down]
        if not upfloaters_first:
            sequence = [(p, True) for p in down] + [(p, False) for p in up]
        labels = [paths.MIXED_GROUP] if sequence else []
        frames: list[_Frame] = []
        position = 0
        for _ in range(COMPLETION_BUDGET):
            while position < len(sequence) and not matching.free >> sequence[position][0] & 1:
                position += 1
            if position < len(sequence):
                floater, wants_best = sequence[position]
                frames.append(_Frame(position, floater, wants_best))
            else:
                rest = sorted(bits(matching.free))
                halves = pair_halves(rest, self.unmet, deadline=self.deadline)
                if halves is not None:
                    pairs = [(f.floater, f.opponent) for f in frames]
                    pairs.extend(halves.pairs)
                    if halves.transposed:
                        labels.append(paths.TRANSPOSITION)
                    if halves.exchanged:
                        labels.append(paths.EXCHANGE)
                    return Completed(pairs, labels, _how(frames, halves))
            if not _next_choice(frames, matching):
                return None
            position = frames[-1].position + 1
        return None

    # Step 3.4 -------------------------------------------------------------------------------
    def fewest_leaving(
        self, group: _Group, unpaired: int, *, downward: bool
    ) -> tuple[set[int], Completed]:
        """The smallest even number of players whose leaving lets the rest pair.

        Among equally many, the lowest-ranked (compared from the bottom up); upward, the
        best-ranked (compared from the top down). ``unpaired``: how many of the group a
        maximum matching leaves unpaired, the fewest that can leave.
        """
        ranked = sorted(group.members, reverse=downward)
        smallest = max(2, unpaired)
        tried = 0
        for size in range(smallest, len(ranked), 2):
            for leaving in leaving_sets(self.unmet, ranked, size, deadline=self.deadline):
                tried += 1
                if tried > LEAVING_BUDGET:
                    return set(ranked), Completed([], [], ())
                gone = set(leaving)
                rest = sorted(p for p in ranked if p not in gone)
                completed = self.complete(group, rest, upfloaters_first=not downward)
                if completed is not None:
                    return gone, completed
        return set(ranked), Completed([], [], ())


def leaving_sets(
    unmet: Sequence[int],
    ranked: Sequence[int],
    size: int,
    *,
    deadline: Deadline = NO_DEADLINE,
) -> Iterator[tuple[int, ...]]:
    """``combinations(ranked, size)`` in its order, less every set after whose leaving the
    other players of ``ranked`` cannot pair at all, without trying those (step 3.4).

    ``size`` stand-ins joined to every player are added to the graph: a perfect matching
    pairs each with one player who leaves. Depth-first over ``ranked``, each player leaves
    (pairs with a stand-in) if a perfect matching still exists, else stays (loses its
    stand-in edges); the matching is kept up to date, so no dead branch is entered.
    """
    base = len(unmet)
    stand_ins = ((1 << size) - 1) << base
    everyone = sum(1 << p for p in ranked)
    graph = [row | stand_ins if everyone >> p & 1 else row for p, row in enumerate(unmet)]
    graph += [everyone] * size
    matching = Matching(graph, everyone | stand_ins, deadline=deadline)
    if not matching.perfect:
        return

    def stay(player: int, *, staying: bool) -> None:
        graph[player] = graph[player] & ~stand_ins if staying else graph[player] | stand_ins
        for s in range(base, base + size):
            graph[s] = graph[s] & ~(1 << player) if staying else graph[s] | 1 << player

    leaving: list[int] = []
    frames: list[int] = []
    """Per decided player of ``ranked``: the stand-in it took, or -1 if it stays."""
    while True:
        deadline.check()
        if len(leaving) < size:
            player = ranked[len(frames)]
            stand_in = lowest(matching.free & stand_ins)
            if matching.try_pair(player, stand_in):
                leaving.append(player)
                frames.append(stand_in)
            else:  # no perfect matching lets it leave, so the current one keeps it
                stay(player, staying=True)
                frames.append(-1)
            continue
        yield tuple(leaving)
        while True:  # the next set in order: the last player who left stays instead
            if not frames:
                return
            player, stand_in = ranked[len(frames) - 1], frames.pop()
            if stand_in < 0:
                stay(player, staying=False)
                continue
            leaving.pop()
            matching.unpair(player, stand_in)
            stay(player, staying=True)
            if matching.rematch(player):
                frames.append(-1)
                break
            stay(player, staying=False)


@dataclass(frozen=True, slots=True)
class Completed:
    """A group's completion: its pairs, the rules that acted, and how each pair was made
    (``HowPaired``'s fields after the group's)."""

    pairs: Pairs
    labels: list[str]
    how: tuple[tuple[tuple[int, int], _How], ...]


_How = tuple[str, tuple[int, int], bool, bool, int]


def _how(frames: Sequence[_Frame], halves: Halves) -> tuple[tuple[tuple[int, int], _How], ...]:
    """Floaters with their best or worst opponent, then rule 11.2's pairs with each player's
    position in its half (halves re-sorted after an exchange)."""
    floaters = tuple(
        (
            (f.floater, f.opponent),
            ("best" if f.wants_best else "worst", (0, 0), False, False, f.floater),
        )
        for f in frames
    )
    bottom = sorted(b for _, b in halves.pairs)
    flags = (halves.transposed, halves.exchanged)
    return floaters + tuple(
        ((a, b), ("", (i + 1, bottom.index(b) + 1), *flags, a))
        for i, (a, b) in enumerate(halves.pairs)
    )


def _choice(frame: _Frame) -> str:
    return "best" if frame.wants_best else "worst"


@dataclass(slots=True)
class _Frame:
    """A floater placed in the depth-first search of ``complete``."""

    position: int
    floater: int
    wants_best: bool
    options: int | None = None
    """Available opponents not tried yet, as a bit set; ``None``: not listed yet."""
    opponent: int = -1


def _next_choice(frames: list[_Frame], matching: Matching) -> bool:
    """Move the deepest floater to its next available opponent (best or worst first).

    A floater just placed takes its first available opponent from a search that stops once
    it is found; the others are listed only if the search comes back to this floater.
    """
    while frames:
        frame = frames[-1]
        if frame.opponent >= 0:
            matching.unpair(frame.floater, frame.opponent)
            if frame.options is None:
                tried = (1 << frame.opponent + 1) - 1 if frame.wants_best else ~0 << frame.opponent
                frame.options = matching.partners(frame.floater) & ~tried
        else:
            first, frame.options = matching.first_partner(
                frame.floater, highest=not frame.wants_best
            )
            frame.opponent = first
            if frame.options is not None:
                frame.options &= ~(1 << first)
            matching.pair(frame.floater, first)
            return True
        if frame.options:
            options = frame.options
            frame.opponent = lowest(options) if frame.wants_best else options.bit_length() - 1
            frame.options &= ~(1 << frame.opponent)
            matching.pair(frame.floater, frame.opponent)
            return True
        frames.pop()
    return False


def pair_groups(
    points: Sequence[int],
    unmet: Unmet,
    *,
    doubled_median: int,
    deadline: Deadline = NO_DEADLINE,
) -> GroupPairing | None:
    """Steps 2–5 of ``pairing-lim.md``; ``None`` when undoing runs out of groups (step 7)."""
    procedure = _Procedure(points, unmet, deadline)
    members: dict[int, set[int]] = {}
    for r, p in enumerate(points):
        members.setdefault(2 * p, set()).add(r)
    began = tuple((s, tuple(sorted(members[s]))) for s in sorted(members, reverse=True))
    groups = {s: _Group(s, m) for s, m in members.items()}
    scores = sorted(groups, reverse=True)
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
    undone: list[_Settled] = []
    median_pairs = _pair_median(procedure, median, settled_above, settled_below, undone)
    if median_pairs is None:
        return None
    pairs = [pair for s in settled_above + settled_below for pair in s.pairs] + median_pairs
    return GroupPairing(
        pairs=tuple(pairs),
        path=tuple(procedure.labels),
        groups=began,
        moves=tuple(procedure.moves),
        how=tuple(
            ((min(a, b), max(a, b)), procedure.how[min(a, b), max(a, b)])
            for a, b in pairs
            if (min(a, b), max(a, b)) in procedure.how
        ),
        undone=tuple((u.doubled_score, tuple(sorted(u.members))) for u in undone),
    )


def _pair_median(
    procedure: _Procedure,
    median: _Group,
    settled_above: list[_Settled],
    settled_below: list[_Settled],
    undone: list[_Settled],
) -> Pairs | None:
    """Step 5: pair the median group; while blocked, undo a neighbouring group into it.

    A group cannot be paired while a maximum matching of it leaves players unpaired, and each
    player brought in lowers that number by at most one (Tutte–Berge: leaving the newcomers
    out again gives back the old group). So after a matching that left ``short`` players
    unpaired, the next groups undone are known blocked until ``short`` players have come in.
    """
    if median.members:
        procedure.note(paths.MEDIAN_GROUP)
    short = 0
    """At least this many of the median group are left unpaired by any matching."""
    while True:
        if short <= 0:
            players = sorted(median.members)
            matching = Matching(procedure.unmet, mask(players), deadline=procedure.deadline)
            short = matching.exposed.bit_count()
            completed = procedure.complete(
                median, players, upfloaters_first=True, matching=matching
            )
            if completed is not None:
                procedure.note(*completed.labels)
                procedure.record(median, completed, median=True)
                return completed.pairs
        procedure.note(paths.MEDIAN_BLOCKED)
        higher = sum(1 for p in median.members if procedure.doubled(p) > median.doubled_score)
        lower = sum(1 for p in median.members if procedure.doubled(p) < median.doubled_score)
        sides = [settled_below, settled_above] if higher > lower else [settled_above, settled_below]
        side = next((s for s in sides if s), None)
        if side is None:
            return None
        settled = side.pop()
        undone.append(settled)
        source = _Group(settled.doubled_score, set())
        for player in sorted(settled.members):
            procedure.move(player, source, median, UNDONE)
        median.members |= settled.members
        short -= len(settled.members)
