"""Bipartite matchings behind ``lim``'s rule 11.2 (S1 against S2).

Players are their ranks (0 = best) among the players to pair; ``unmet[r]`` is the bit set of
the ranks ``r`` has not played: the edges. The general "can these players still all be
paired" question is ``matching.Matching``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.pairing.lim_unmet import Unmet
from app.domain.pairing.matching import bits


def first_transposition(
    left: Sequence[int], right: Sequence[int], unmet: Unmet
) -> list[int] | None:
    """The lexicographically first permutation of ``right`` pairing ``left[i]`` rematch-free.

    Returns, for each ``i``, the index into ``right`` of ``left[i]``'s opponent, or ``None``.
    Instead of enumerating permutations, fix ``left[0]``, ``left[1]``, … in turn to the first
    opponent with which a complete pairing still exists, keeping one perfect matching throughout
    and rerouting it along an alternating path when an earlier opponent is tried.
    """
    size = len(left)
    adjacency = _adjacency(left, right, unmet)
    mate_left = [-1] * size
    mate_right = [-1] * size
    for i in range(size):
        for j in adjacency[i]:
            if mate_right[j] == -1:
                mate_left[i], mate_right[j] = j, i
                break
    fixed_left = [False] * size
    fixed_right = [False] * size
    for i in range(size):
        if mate_left[i] == -1 and not _augment_bipartite(
            i, adjacency, mate_left, mate_right, fixed_left, fixed_right
        ):
            return None
    for i in range(size):
        fixed_left[i] = True
        for j in adjacency[i]:
            if fixed_right[j]:
                continue
            if mate_left[i] == j or _reroute(
                i, j, adjacency, mate_left, mate_right, fixed_left, fixed_right
            ):
                break
        fixed_right[mate_left[i]] = True
    return mate_left


def bipartite_deficiency(left: Sequence[int], right: Sequence[int], unmet: Unmet) -> int:
    """How many of ``left`` stay unpaired in a largest rematch-free pairing against ``right``."""
    size = len(left)
    adjacency = _adjacency(left, right, unmet)
    mate_left = [-1] * size
    mate_right = [-1] * len(right)
    blocked_left = [False] * size
    blocked_right = [False] * len(right)
    return sum(
        1
        for i in range(size)
        if not _augment_bipartite(i, adjacency, mate_left, mate_right, blocked_left, blocked_right)
    )


def _adjacency(left: Sequence[int], right: Sequence[int], unmet: Unmet) -> list[list[int]]:
    """For each of ``left``, the indices into ``right`` of its unmet players, in order.

    Built from whichever is shorter, the players met or not met: one pass over ``right`` is
    shared by everyone in ``left`` who has met none of it (an early round's big group).
    """
    index = {r: j for j, r in enumerate(right)}
    among = sum(1 << r for r in right)
    everyone = list(range(len(right)))
    adjacency = []
    for p in left:
        met = among & ~unmet[p]
        if not met:
            adjacency.append(everyone)
        elif 2 * met.bit_count() <= len(right):
            excluded = {index[r] for r in bits(met)}
            adjacency.append([j for j in everyone if j not in excluded])
        else:
            adjacency.append(sorted(index[r] for r in bits(among & unmet[p])))
    return adjacency


def _reroute(
    i: int,
    j: int,
    adjacency: list[list[int]],
    mate_left: list[int],
    mate_right: list[int],
    fixed_left: list[bool],
    fixed_right: list[bool],
) -> bool:
    """Give ``left[i]`` the opponent ``j`` if the rest can still be completed."""
    old_right = mate_left[i]
    old_left = mate_right[j]
    mate_left[i], mate_right[j] = j, i
    mate_left[old_left] = -1
    mate_right[old_right] = -1
    fixed_right[j] = True
    found = _augment_bipartite(old_left, adjacency, mate_left, mate_right, fixed_left, fixed_right)
    fixed_right[j] = False
    if not found:
        mate_left[i], mate_right[old_right] = old_right, i
        mate_left[old_left], mate_right[j] = j, old_left
    return found


def _augment_bipartite(
    start: int,
    adjacency: list[list[int]],
    mate_left: list[int],
    mate_right: list[int],
    blocked_left: list[bool],
    blocked_right: list[bool],
) -> bool:
    """Breadth-first augmenting path from the free ``start``, avoiding blocked players."""
    reached_from: dict[int, int] = {}
    queue = [start]
    for u in queue:
        for v in adjacency[u]:
            if blocked_right[v] or v in reached_from:
                continue
            reached_from[v] = u
            owner = mate_right[v]
            if owner == -1:
                while True:
                    u = reached_from[v]
                    previous = mate_left[u]
                    mate_left[u], mate_right[v] = v, u
                    if u == start:
                        return True
                    v = previous
            if not blocked_left[owner]:
                queue.append(owner)
    return False
