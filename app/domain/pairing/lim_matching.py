"""Matching tests behind ``lim``'s "can the rest still be paired" questions.

Players are their ranks (0 = best) among the players to pair; ``met[r]`` holds the ranks ``r``
has already played. Unmet pairs are the edges. Score groups are dense (a player has met at most
a few of them), so the cheap Dirac condition answers most questions; Edmonds' blossom algorithm
answers the rest exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

Met = Sequence[frozenset[int]]


def has_perfect_matching(players: Sequence[int], met: Met) -> bool:
    """Whether ``players`` can all be paired with unmet opponents among themselves."""
    return unmatched_count(players, met) == 0


def unmatched_count(players: Sequence[int], met: Met) -> int:
    """How many of ``players`` stay unpaired in a largest rematch-free pairing of them."""
    size = len(players)
    if size == 0:
        return 0
    if size == 2:
        return 2 if players[1] in met[players[0]] else 0
    inside = set(players)
    # Dirac: minimum degree >= n/2 gives a Hamiltonian cycle, so a perfect matching (n even).
    if size % 2 == 0 and all(2 * (size - 1 - len(met[p] & inside)) >= size for p in players):
        return 0
    adjacency = [
        [j for j, q in enumerate(players) if j != i and q not in met[p]]
        for i, p in enumerate(players)
    ]
    return _blossom_unmatched(adjacency)


def _blossom_unmatched(adjacency: list[list[int]]) -> int:
    size = len(adjacency)
    mate = [-1] * size
    for v in range(size):
        if mate[v] == -1:
            for u in adjacency[v]:
                if mate[u] == -1:
                    mate[v], mate[u] = u, v
                    break
    unmatched = 0
    for root in range(size):
        if mate[root] == -1 and not _augment(adjacency, mate, root):
            unmatched += 1
    return unmatched


def _augment(adjacency: list[list[int]], mate: list[int], root: int) -> bool:
    """Edmonds: grow an alternating tree from ``root``, shrinking blossoms; flip a found path."""
    size = len(adjacency)
    used = [False] * size
    parent = [-1] * size
    base = list(range(size))
    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adjacency[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                top = _common_base(v, to, base, mate, parent)
                blossom = [False] * size
                _mark_path(v, top, to, base, mate, parent, blossom)
                _mark_path(to, top, v, base, mate, parent, blossom)
                for i in range(size):
                    if blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    end = to
                    while end != -1:
                        previous = parent[end]
                        following = mate[previous]
                        mate[end], mate[previous] = previous, end
                        end = following
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def _common_base(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark_path(
    v: int,
    top: int,
    child: int,
    base: list[int],
    mate: list[int],
    parent: list[int],
    blossom: list[bool],
) -> None:
    while base[v] != top:
        blossom[base[v]] = blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def first_transposition(left: Sequence[int], right: Sequence[int], met: Met) -> list[int] | None:
    """The lexicographically first permutation of ``right`` pairing ``left[i]`` rematch-free.

    Returns, for each ``i``, the index into ``right`` of ``left[i]``'s opponent, or ``None``.
    Instead of enumerating permutations, fix ``left[0]``, ``left[1]``, … in turn to the first
    opponent with which a complete pairing still exists, keeping one perfect matching throughout
    and rerouting it along an alternating path when an earlier opponent is tried.
    """
    size = len(left)
    adjacency = [[j for j, r in enumerate(right) if r not in met[p]] for p in left]
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


def bipartite_deficiency(left: Sequence[int], right: Sequence[int], met: Met) -> int:
    """How many of ``left`` stay unpaired in a largest rematch-free pairing against ``right``."""
    size = len(left)
    adjacency = [[j for j, r in enumerate(right) if r not in met[p]] for p in left]
    mate_left = [-1] * size
    mate_right = [-1] * len(right)
    blocked_left = [False] * size
    blocked_right = [False] * len(right)
    return sum(
        1
        for i in range(size)
        if not _augment_bipartite(i, adjacency, mate_left, mate_right, blocked_left, blocked_right)
    )


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
