"""Bipartite matchings behind ``lim``'s rule 11.2 (S1 against S2).

The players of one group are its positions ``0..k-1`` (by rank); ``rows[u]`` is the bit set of
the positions ``u`` has not met (``local_rows``): the edges. S1 is a list of positions, S2 a bit
set of positions, so an exchange between the halves only flips bits and nothing is rebuilt.
The general "can these players still all be paired" question is ``matching.Matching``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.pairing.lim.unmet import Unmet
from app.domain.pairing.matching import bits, lowest


def local_rows(ranked: Sequence[int], unmet: Unmet) -> list[int]:
    """Each of ``ranked``'s unmet players among ``ranked``, as a bit set of positions.

    ``ranked`` is sorted: each maximal run of consecutive ranks is cut out of a row in one
    shift, so a score group (a run, with a few floaters) costs a few operations a player.
    """
    runs: list[tuple[int, int, int]] = []
    """(first rank, mask of the run's length, position of its first player)"""
    for position, rank in enumerate(ranked):
        if runs and rank == runs[-1][0] + runs[-1][1].bit_length():
            first, mask, at = runs[-1]
            runs[-1] = (first, mask << 1 | 1, at)
        else:
            runs.append((rank, 1, position))
    return [sum((unmet[p] >> first & mask) << at for first, mask, at in runs) for p in ranked]


def first_transposition(rows: Sequence[int], left: Sequence[int], right: int) -> list[int] | None:
    """The lexicographically first permutation of ``right`` pairing ``left[i]`` rematch-free.

    Returns, for each ``i``, the position in ``right`` that ``left[i]`` meets, or ``None``.
    Instead of enumerating permutations, fix ``left[0]``, ``left[1]``, … in turn to the first
    opponent with which a complete pairing still exists, keeping one perfect matching throughout
    and rerouting it along an alternating path when an earlier opponent is tried.
    """
    mate = [-1] * len(rows)
    taken = 0
    unmatched = []
    for u in left:
        options = rows[u] & right & ~taken
        if options:
            v = lowest(options)
            mate[u], mate[v] = v, u
            taken |= 1 << v
        else:
            unmatched.append(u)
    for u in unmatched:
        if not _augment(u, rows, right, mate, 0, 0):
            return None
    fixed_left = 0
    fixed_right = 0
    for u in left:
        fixed_left |= 1 << u
        for v in bits(rows[u] & right & ~fixed_right):
            if mate[u] == v or _reroute(u, v, rows, right, mate, fixed_left, fixed_right):
                break
        fixed_right |= 1 << mate[u]
    return [mate[u] for u in left]


def bipartite_deficiency(rows: Sequence[int], left: Sequence[int], right: int) -> int:
    """How many of ``left`` stay unpaired in a largest rematch-free pairing against ``right``."""
    mate = [-1] * len(rows)
    return sum(1 for u in left if not _augment(u, rows, right, mate, 0, 0))


def _reroute(
    u: int,
    v: int,
    rows: Sequence[int],
    right: int,
    mate: list[int],
    fixed_left: int,
    fixed_right: int,
) -> bool:
    """Give ``u`` the opponent ``v`` if the rest can still be completed."""
    old_right = mate[u]
    old_left = mate[v]
    mate[u], mate[v] = v, u
    mate[old_left] = mate[old_right] = -1
    if _augment(old_left, rows, right, mate, fixed_left, fixed_right | 1 << v):
        return True
    mate[u], mate[old_right] = old_right, u
    mate[old_left], mate[v] = v, old_left
    return False


def _augment(
    start: int,
    rows: Sequence[int],
    right: int,
    mate: list[int],
    blocked_left: int,
    blocked_right: int,
) -> bool:
    """Breadth-first augmenting path from the free ``start``, avoiding blocked players."""
    reached_from: dict[int, int] = {}
    reached = blocked_right
    queue = [start]
    for u in queue:
        options = rows[u] & right & ~reached
        reached |= options
        while options:
            v = lowest(options)
            options &= options - 1
            reached_from[v] = u
            owner = mate[v]
            if owner == -1:
                while True:
                    u = reached_from[v]
                    previous = mate[u]
                    mate[u], mate[v] = v, u
                    if u == start:
                        return True
                    v = previous
            if not blocked_left >> owner & 1:
                queue.append(owner)
    return False
