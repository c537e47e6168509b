"""Can the players not yet paired still all be paired? (C.04.3 Art. 2.2, criterion C4.)

The completion criterion asks, at every bracket, that a pairing obeying the absolute criteria
C1–C3 still exists for everybody left, with at most one player unpaired, who must be able to
take the pairing-allocated bye (C2, C5). That is a question about a *maximum cardinality
matching* in the graph of allowed meetings, answered here with Edmonds' augmenting paths
(odd cycles shrunk into blossoms).

Graphs are given implicitly: a list of vertices and a predicate ``allowed(a, b)``, because the
graph of allowed meetings is dense (in a Swiss field almost everybody may still meet almost
everybody) and scanning the vertex list is as cheap as building adjacency lists.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

__all__ = ["Matching", "maximum_matching"]

Allowed = Callable[[int, int], bool]


class Matching:
    """A maximum matching of ``vertices`` (any hashable ints) under ``allowed``.

    ``mate`` maps a matched vertex to its partner. ``exposable()`` lists the vertices that some
    maximum matching leaves unpaired (Gallai–Edmonds): only they can take the bye.
    """

    def __init__(self, vertices: Sequence[int], allowed: Allowed) -> None:
        self.vertices = list(vertices)
        self.index = {v: i for i, v in enumerate(self.vertices)}
        self.allowed = allowed
        n = len(self.vertices)
        self.match = [-1] * n
        self._greedy()
        for i in range(n):
            if self.match[i] == -1:
                self._augment_from(i)

    @property
    def size(self) -> int:
        return sum(1 for m in self.match if m != -1) // 2

    @property
    def mate(self) -> dict[int, int]:
        return {self.vertices[i]: self.vertices[m] for i, m in enumerate(self.match) if m != -1}

    def exposed(self) -> list[int]:
        return [self.vertices[i] for i, m in enumerate(self.match) if m == -1]

    def exposable(self) -> set[int]:
        """Every vertex left unpaired by at least one maximum matching."""
        out: set[int] = set()
        for i, m in enumerate(self.match):
            if m == -1:
                outer, _ = self._search(i)
                out.update(self.vertices[j] for j in outer)
        return out

    # -- internals ---------------------------------------------------------------------------

    def _edge(self, i: int, j: int) -> bool:
        return i != j and self.allowed(self.vertices[i], self.vertices[j])

    def _greedy(self) -> None:
        n = len(self.vertices)
        for i in range(n):
            if self.match[i] != -1:
                continue
            for j in range(i + 1, n):
                if self.match[j] == -1 and self._edge(i, j):
                    self.match[i], self.match[j] = j, i
                    break

    def _augment_from(self, root: int) -> bool:
        _, end = self._search(root)
        if end is None:
            return False
        parent = self._parent
        v = end
        while v != -1:
            pv = parent[v]
            ppv = self.match[pv]
            self.match[v], self.match[pv] = pv, v
            v = ppv
        return True

    def _search(self, root: int) -> tuple[list[int], int | None]:
        """Grow the alternating tree from ``root``: (outer vertices, end of an augmenting path)."""
        n = len(self.vertices)
        match = self.match
        parent = [-1] * n
        base = list(range(n))
        outer = [False] * n
        outer[root] = True
        queue = deque([root])
        order = [root]
        self._parent = parent

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark_path(v: int, b: int, child: int, in_blossom: list[bool]) -> None:
            while base[v] != b:
                in_blossom[base[v]] = in_blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for u in range(n):
                if u == v or base[v] == base[u] or match[v] == u or not self._edge(v, u):
                    continue
                if u == root or (match[u] != -1 and parent[match[u]] != -1):
                    b = lca(v, u)
                    in_blossom = [False] * n
                    mark_path(v, b, u, in_blossom)
                    mark_path(u, b, v, in_blossom)
                    for i in range(n):
                        if in_blossom[base[i]]:
                            base[i] = b
                            if not outer[i]:
                                outer[i] = True
                                queue.append(i)
                                order.append(i)
                elif parent[u] == -1:
                    parent[u] = v
                    if match[u] == -1:
                        return order, u
                    w = match[u]
                    outer[w] = True
                    queue.append(w)
                    order.append(w)
        return order, None


def maximum_matching(vertices: Sequence[int], allowed: Allowed) -> Matching:
    """A maximum matching of ``vertices`` where ``allowed(a, b)`` says who may meet."""
    return Matching(vertices, allowed)
