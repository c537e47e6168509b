"""Maximum-weight matching in a general graph (the Dutch engine's exact optimiser).

C.04.3 lets the pairing be made "with completely different methods, provided it yields
identical results"; the engine's exact path states each bracket as a weighted matching whose
weights order the pairing criteria, and this module finds a matching of maximum total weight.

It is the primal-dual blossom method (Edmonds; Gabow and Galil's O(n³) form): it grows
alternating trees from the free vertices over edges of zero slack, shrinks odd cycles into
blossoms, augments when two trees meet (and lets the other trees grow on), and otherwise moves
the dual variables by the largest step that keeps them feasible. Weights are integers of any
size (the engine packs its criteria into one big integer), so duals stay exact: they are kept
doubled.

``max_weight_perfect_matching`` is the same search for the heaviest *perfect* matching (Edmonds'
original problem: the vertex duals may take any sign), started from any feasible duals and any
pairs tight under them. A caller that knows most of the answer (a big part of the graph whose
edges all weigh the same, already paired) then needs one augmentation per pair still to be
made instead of one per pair of the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.domain.pairing.matching import members

__all__ = ["ZeroPairs", "max_weight_matching", "max_weight_perfect_matching"]


class ZeroPairs:
    """Pairs of weight 0 for ``max_weight_perfect_matching``, laid out as its search reads
    them: the two ends of each pair (``head``) and each vertex's ends (``incident``), for
    one search, which takes the lists over and adds its other pairs to them.

    The pairs are those of ``rows`` (bit sets of neighbours) with their higher end at
    ``top`` or beyond, lower end first, by lower end then higher end."""

    __slots__ = ("head", "incident")

    def __init__(self, rows: Sequence[int], top: int) -> None:
        head: list[int] = []
        incident: list[list[int]] = [[] for _ in rows]
        for u, row in enumerate(rows):
            low = max(u + 1, top)
            ends = [v + low for v in members(row >> low)]
            if not ends:
                continue
            first = len(head)
            pairs = [u, u] * len(ends)
            pairs[1::2] = ends
            head.extend(pairs)
            # Pair ``t`` of these: end ``first + 2t + 1`` leads from ``u`` to its ``v``.
            incident[u].extend(range(first + 1, first + 2 * len(ends), 2))
            for k, v in enumerate(ends, start=first // 2):
                incident[v].append(2 * k)  # pair ``k``'s end that leads to ``u``
        self.head = head
        self.incident = incident


def max_weight_matching(
    size: int,
    edges: Sequence[tuple[int, int, int]],
    *,
    check: Callable[[], None] | None = None,
    final_dual: list[int] | None = None,
) -> list[int]:
    """Return ``mate`` with ``mate[v]`` the vertex matched to ``v`` (``-1`` when free).

    ``edges`` are ``(u, v, weight)`` with ``0 <= u, v < size``, ``u != v`` and positive weights
    (an edge of weight 0 or less is never worth taking and is skipped). ``check`` is called before
    every move of the duals, so a caller's deadline can stop a long run.

    ``final_dual``, when given, is filled with the duals the search ends with, each vertex's
    own plus those of the blossoms around it: all at least 0, ``final_dual[u] + final_dual[v]
    >= 2 * weight`` for every edge, and equal for the pairs of the matching outside blossoms
    (a start for ``max_weight_perfect_matching``).
    """
    blossom = _Blossom(size, edges, check)
    mate = blossom.solve(settle=final_dual is not None)
    if final_dual is not None:
        final_dual[:] = blossom.flat_duals()
    return mate


def max_weight_perfect_matching(
    size: int,
    edges: Sequence[tuple[int, int, int]],
    *,
    dual: Sequence[int],
    zero: ZeroPairs | None = None,
    matched: Sequence[int] = (),
    mates: Sequence[tuple[int, int]] = (),
    check: Callable[[], None] | None = None,
    final_dual: list[int] | None = None,
) -> list[int]:
    """The heaviest perfect matching, as ``mate`` (``mate[v]`` the vertex matched to ``v``).
    When the graph has no perfect matching, some vertex is left with ``-1``.

    Every edge counts, whatever its weight's sign (``u != v``), and so does every pair of
    ``zero`` (an edge of weight 0, numbered before those of ``edges``; the search takes its
    lists over, so a ``ZeroPairs`` serves one search). The search starts
    from the vertex duals ``dual``, which must be feasible for the doubled weights
    (``dual[u] + dual[v] >= 2 * weight`` for every edge), and from the edges ``matched``
    (indices into ``edges``, disjoint, each tight: ``dual[u] + dual[v] == 2 * weight``) and
    the pairs ``mates`` (vertices, each pair's first edge in ``edges`` taken; the same rules).

    ``final_dual``, when given, is filled with the duals the search ends with, each vertex's
    own plus those of the blossoms around it, doubled once more: ``final_dual[u] +
    final_dual[v] >= 4 * weight`` for every edge, and most pairs of the matching are tight
    under them, so that a search of a similar graph can start from them (halved).
    """
    blossom = _Blossom(size, edges, check, dual=dual, zero=zero, matched=matched, mates=mates)
    mate = blossom.solve()
    if final_dual is not None:
        final_dual[:] = blossom.flat_duals()
    return mate


class _Blossom:
    """One run of the algorithm. Vertices are ``0..n-1``; blossoms ``n..2n-1``.

    An edge ``k`` has two *ends*: ``2k`` points to its first vertex and ``2k + 1`` to its second;
    ``end ^ 1`` is the other end. A matched vertex stores the end that leads to its mate.
    """

    def __init__(
        self,
        n: int,
        edges: Sequence[tuple[int, int, int]],
        check: Callable[[], None] | None,
        *,
        dual: Sequence[int] | None = None,
        zero: ZeroPairs | None = None,
        matched: Sequence[int] = (),
        mates: Sequence[tuple[int, int]] = (),
    ) -> None:
        self.n = n
        self.check = check
        self.perfect = dual is not None
        """Edmonds' perfect matching: no vertex dual is bounded below, so the search never ends
        on one reaching 0."""
        kept = list(edges) if self.perfect else [(u, v, w) for u, v, w in edges if w > 0 and u != v]
        # The step that makes an edge between two S-blossoms tight is half its slack. That
        # slack is even when every free vertex's dual has the same parity (the tree edges are
        # tight and each step moves every free vertex alike): so it is with the equal duals of
        # ``max_weight_matching``, but a caller's duals may mix parities, and the half step
        # would then round down and leave the edge one short of tight, yet taken. So the
        # perfect search doubles them (and the weights) once more: every dual starts even.
        scale = 4 if self.perfect else 2
        # The pairs of weight 0 come first: the search takes their lists over (``ZeroPairs``)
        # and extends them in place.
        first = len(zero.head) // 2 if zero is not None else 0
        self.weight = [0] * first + [scale * w for _, _, w in kept]
        self.head = zero.head if zero is not None else []
        self.head.extend([x for u, v, _ in kept for x in (u, v)])
        incident = zero.incident if zero is not None else []
        incident.extend([] for _ in range(n - len(incident)))
        self.incident = incident
        for k, (u, v, _) in enumerate(kept, start=first):
            incident[u].append(2 * k + 1)
            incident[v].append(2 * k)
        top = max(self.weight, default=0)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.label_end = [-1] * (2 * n)
        self.owner = list(range(n))
        self.parent = [-1] * (2 * n)
        # A blossom's lists are replaced, never changed in place: all start as one empty list.
        self.children: list[list[int]] = [[]] * (2 * n)
        self.base = list(range(n)) + [-1] * n
        self.links: list[list[int]] = [[]] * (2 * n)
        self.best_edge = [-1] * (2 * n)
        self.best_edges: list[list[int] | None] = [None] * (2 * n)
        self.free_ids = list(range(n, 2 * n))
        self.in_use: set[int] = set()
        """The blossoms (ids ``n..2n-1``) that exist now, top-level or nested."""
        self.dual = [top // 2] * n + [0] * n if dual is None else [*(2 * d for d in dual), *[0] * n]
        for k in (first + k for k in matched):
            self.mate[self.head[2 * k]] = 2 * k + 1
            self.mate[self.head[2 * k + 1]] = 2 * k
        for u, v in mates:
            p = next(p for p in self.incident[u] if self.head[p] == v)
            self.mate[u] = p
            self.mate[v] = p ^ 1
        self.tight = [False] * len(self.weight)
        self.queue: list[int] = []
        self.root = [-1] * (2 * n)
        """The root of the alternating tree of each labelled top-level blossom (the perfect
        search grows the other trees on after an augmentation, ``retire``)."""

    # -- helpers ---------------------------------------------------------------------------

    def slack(self, k: int) -> int:
        return self.dual[self.head[2 * k]] + self.dual[self.head[2 * k + 1]] - self.weight[k]

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            x = stack.pop()
            if x < self.n:
                out.append(x)
            else:
                stack.extend(self.children[x])
        return out

    def assign_label(self, w: int, t: int, end: int) -> None:
        b = self.owner[w]
        self.label[w] = self.label[b] = t
        self.label_end[w] = self.label_end[b] = end
        self.best_edge[w] = self.best_edge[b] = -1
        self.root[b] = w if end == -1 else self.root[self.owner[self.head[end]]]
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign_label(self.head[self.mate[base]], 1, self.mate[base] ^ 1)

    def find_cycle(self, v: int, w: int) -> int:
        """Walk up from ``v`` and ``w``; return the base of a new blossom, or -1 for a path."""
        marked: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = self.owner[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            marked.append(b)
            self.label[b] = 5
            if self.label_end[b] == -1:
                v = -1
            else:
                v = self.head[self.label_end[b]]
                b = self.owner[v]
                v = self.head[self.label_end[b]]
            if w != -1:
                v, w = w, v
        for b in marked:
            self.label[b] = 1
        return base

    # -- blossoms -----------------------------------------------------------------------------

    def add_blossom(self, base: int, k: int) -> None:
        v, w = self.head[2 * k], self.head[2 * k + 1]
        bb, bv, bw = self.owner[base], self.owner[v], self.owner[w]
        b = self.free_ids.pop()
        self.in_use.add(b)
        self.base[b] = base
        self.root[b] = self.root[bb]
        self.parent[b] = -1
        self.parent[bb] = b
        path: list[int] = []
        ends: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            ends.append(self.label_end[bv])
            v = self.head[self.label_end[bv]]
            bv = self.owner[v]
        path.append(bb)
        path.reverse()
        ends.reverse()
        ends.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            ends.append(self.label_end[bw] ^ 1)
            w = self.head[self.label_end[bw]]
            bw = self.owner[w]
        self.children[b] = path
        self.links[b] = ends
        self.label[b] = 1
        self.label_end[b] = self.label_end[bb]
        self.dual[b] = 0
        for leaf in self.leaves(b):
            if self.label[self.owner[leaf]] == 2:
                self.queue.append(leaf)
            self.owner[leaf] = b
        # The least-slack edge from the new blossom to each S-blossom (slacks read in place):
        # a vertex child's edges are read off its own list, a blossom child's off the list it
        # kept (one edge per S-blossom). Keyed by S-blossom, sorted below: ties keep going to
        # the lowest one.
        head, owner, label, dual, weight = self.head, self.owner, self.label, self.dual, self.weight
        best_to: dict[int, int] = {}
        best_slack: dict[int, int] = {}
        for child in path:
            lists = self.best_edges[child]
            if lists is None:
                for leaf in self.leaves(child):
                    dual_leaf = dual[leaf]
                    for p in self.incident[leaf]:
                        bj = owner[head[p]]
                        if bj != b and label[bj] == 1:
                            s = dual_leaf + dual[head[p]] - weight[p >> 1]
                            if bj not in best_slack or s < best_slack[bj]:
                                best_to[bj] = p >> 1
                                best_slack[bj] = s
            else:
                for kk in lists:
                    i, j = head[2 * kk], head[2 * kk + 1]
                    bj = owner[j]
                    if bj == b:
                        bj = owner[i]
                    if bj != b and label[bj] == 1:
                        s = dual[i] + dual[j] - weight[kk]
                        if bj not in best_slack or s < best_slack[bj]:
                            best_to[bj] = kk
                            best_slack[bj] = s
            self.best_edges[child] = None
            self.best_edge[child] = -1
        found = sorted(best_to)
        self.best_edges[b] = [best_to[bj] for bj in found]
        best = -1
        for bj in found:
            if best == -1 or best_slack[bj] < best_slack[best]:
                best = bj
        self.best_edge[b] = best_to[best] if best != -1 else -1

    def expand_blossom(self, b: int, end_stage: bool) -> None:
        for child in self.children[b]:
            self.parent[child] = -1
            self.root[child] = self.root[b]
            if child < self.n:
                self.owner[child] = child
            elif end_stage and self.dual[child] == 0:
                self.expand_blossom(child, end_stage)
            else:
                for leaf in self.leaves(child):
                    self.owner[leaf] = child
        if not end_stage and self.label[b] == 2:
            entry = self.owner[self.head[self.label_end[b] ^ 1]]
            j = self.children[b].index(entry)
            count = len(self.children[b])
            if j & 1:
                j -= count
                step, shift = 1, 0
            else:
                step, shift = -1, 1
            p = self.label_end[b]
            while j != 0:
                # Relabel the T sub-blossom, step to the next S one, then to the next T one.
                self.label[self.head[p ^ 1]] = 0
                self.label[self.head[self.links[b][j - shift] ^ shift ^ 1]] = 0
                self.assign_label(self.head[p ^ 1], 2, p)
                self.tight[self.links[b][j - shift] // 2] = True
                j += step
                p = self.links[b][j - shift] ^ shift
                self.tight[p // 2] = True
                j += step
            child = self.children[b][j]
            self.label[self.head[p ^ 1]] = self.label[child] = 2
            self.label_end[self.head[p ^ 1]] = self.label_end[child] = p
            self.best_edge[child] = -1
            j += step
            while self.children[b][j] != entry:
                child = self.children[b][j]
                if self.label[child] == 1:
                    j += step
                    continue
                for leaf in self.leaves(child):
                    if self.label[leaf] != 0:
                        break
                else:
                    leaf = -1
                if leaf != -1:
                    self.label[leaf] = 0
                    self.label[self.head[self.mate[self.base[child]]]] = 0
                    self.assign_label(leaf, 2, self.label_end[leaf])
                j += step
        self.label[b] = self.label_end[b] = -1
        self.children[b] = []
        self.links[b] = []
        self.base[b] = -1
        self.best_edges[b] = None
        self.best_edge[b] = -1
        self.free_ids.append(b)
        self.in_use.discard(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Rotate blossom ``b`` so that its base becomes the leaf ``v``; match along the way."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        i = j = self.children[b].index(t)
        count = len(self.children[b])
        if i & 1:
            j -= count
            step, shift = 1, 0
        else:
            step, shift = -1, 1
        while j != 0:
            j += step
            t = self.children[b][j]
            p = self.links[b][j - shift] ^ shift
            if t >= self.n:
                self.augment_blossom(t, self.head[p])
            j += step
            t = self.children[b][j]
            if t >= self.n:
                self.augment_blossom(t, self.head[p ^ 1])
            self.mate[self.head[p]] = p ^ 1
            self.mate[self.head[p ^ 1]] = p
        self.children[b] = self.children[b][i:] + self.children[b][:i]
        self.links[b] = self.links[b][i:] + self.links[b][:i]
        self.base[b] = self.base[self.children[b][0]]

    def augment(self, k: int) -> None:
        v, w = self.head[2 * k], self.head[2 * k + 1]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = self.owner[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.label_end[bs] == -1:
                    break
                t = self.head[self.label_end[bs]]
                bt = self.owner[t]
                s = self.head[self.label_end[bt]]
                j = self.head[self.label_end[bt] ^ 1]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.label_end[bt]
                p = self.label_end[bt] ^ 1

    def flat_duals(self) -> list[int]:
        """Each vertex's dual plus the duals of the blossoms that contain it. An edge's two
        ends then count every blossom around both twice, as its slack does, and a blossom
        around one end only once more: feasible without the blossoms (the searches'
        ``final_dual``). In the search's own scale: the weights doubled (``max_weight_
        matching``) or doubled twice (the perfect search)."""
        flat = self.dual[: self.n]
        for b in range(self.n, 2 * self.n):
            if self.base[b] >= 0 and self.dual[b]:
                for leaf in self.leaves(b):
                    flat[leaf] += self.dual[b]
        return flat

    # -- the search ---------------------------------------------------------------------------

    def solve(self, *, settle: bool = False) -> list[int]:
        """One stage: alternating trees grow from every free vertex, and after each
        augmentation the other trees grow on (``retire``) instead of starting again, until no
        dual move is left (``dual_step``'s kind 1): then every free vertex's dual is 0 (the
        heaviest matching) or no augmenting path is left (the perfect one), and the matching
        is optimal. It ends as soon as no augmentation is left to make (no free vertex, or
        one for the heaviest matching), unless ``settle``: the heaviest matching's duals are
        then brought to their end (a free vertex's dual to 0)."""
        n = self.n
        # Only an augmentation changes the matching, and it pairs two free vertices: with
        # fewer than two left, the matching is the one the search would end with.
        last = 2 if self.perfect or not settle else 0
        free = self.mate.count(-1)
        for v in range(n):
            if self.mate[v] == -1 and self.label[self.owner[v]] == 0:
                self.assign_label(v, 1, -1)
        # The scan below runs for every edge the trees reach: its lists are read through
        # locals and the slack is computed in place (the lists change in place only).
        label, owner, tight, best_edge = self.label, self.owner, self.tight, self.best_edge
        dual, head, weight, queue = self.dual, self.head, self.weight, self.queue
        root, incident = self.root, self.incident
        while True:
            if self.check is not None:
                self.check()
            while queue:
                v = queue.pop()
                if label[owner[v]] != 1:
                    continue  # its tree was retired after an augmentation
                dual_v = dual[v]
                bv = owner[v]
                for p in incident[v]:
                    w = head[p]
                    bw = owner[w]
                    if bv == bw or (bw == w and label[w] == 2):
                        continue  # inside, or an inner vertex already (whatever the slack)
                    k = p >> 1
                    if tight[k]:
                        s = 0
                    else:
                        s = dual_v + dual[w] - weight[k]
                        if s <= 0:
                            tight[k] = True
                    if s <= 0:
                        if label[bw] == 0:
                            self.assign_label(w, 2, p ^ 1)
                        elif label[bw] == 1:
                            base = self.find_cycle(v, w)
                            if base >= 0:
                                self.add_blossom(base, k)
                                bv = owner[v]
                            else:
                                trees = (root[bv], root[bw])
                                self.augment(k)
                                free -= 2
                                if free < last:
                                    return self.mates()
                                self.retire(trees)
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            self.label_end[w] = p ^ 1
                    elif label[bw] == 1:
                        best = best_edge[bv]
                        if best == -1 or s < (
                            dual[head[2 * best]] + dual[head[2 * best + 1]] - weight[best]
                        ):
                            best_edge[bv] = k
                    elif label[w] == 0:
                        best = best_edge[w]
                        if best == -1 or s < (
                            dual[head[2 * best]] + dual[head[2 * best + 1]] - weight[best]
                        ):
                            best_edge[w] = k
            kind, delta, edge, blossom = self.dual_step()
            if delta:
                # S-vertices down, T-vertices up; top-level S-blossoms up, T ones down.
                dual[:n] = [
                    d - delta if lab == 1 else d + delta if lab == 2 else d
                    for d, lab in zip(dual[:n], [label[b] for b in owner], strict=True)
                ]
                parent = self.parent
                for b in self.in_use:
                    if parent[b] == -1:
                        if label[b] == 1:
                            dual[b] += delta
                        elif label[b] == 2:
                            dual[b] -= delta
            if kind == 1:
                break
            if kind == 2:
                self.tight[edge] = True
                i = self.head[2 * edge]
                if self.label[self.owner[i]] == 0:
                    i = self.head[2 * edge + 1]
                self.queue.append(i)
            elif kind == 3:
                self.tight[edge] = True
                self.queue.append(self.head[2 * edge])
            else:
                self.expand_blossom(blossom, False)
        return self.mates()

    def mates(self) -> list[int]:
        return [self.head[p] if p != -1 else -1 for p in self.mate]

    def retire(self, trees: tuple[int, int]) -> None:
        """After an augmentation joined the trees rooted at ``trees``, unlabel their blossoms
        and vertices (all matched now) and mend what the other trees recorded about them, so
        that the search goes on with the other trees instead of starting again from every free
        vertex: a retired vertex is an unlabelled one, whose least-slack edge from an S-vertex
        is looked up again; an S-blossom whose least-slack edge led to it, and an unlabelled
        or inner vertex whose did, look theirs up again; an inner vertex of a T-blossom that
        it had reached is reached again by another tight edge or left unlabelled; and the
        edges around it are no longer taken as tight without a look at their slack."""
        n = self.n
        label, label_end, owner, root = self.label, self.label_end, self.owner, self.root
        best_edge, best_edges, children = self.best_edge, self.best_edges, self.children
        dead = [x for x in range(n) if label[owner[x]] and root[owner[x]] in trees]
        tops = {owner[x] for x in dead}
        for b in tops:
            stack = [b]
            while stack:
                y = stack.pop()
                label[y] = 0
                label_end[y] = -1
                best_edge[y] = -1
                if y >= n:
                    best_edges[y] = None
                    stack.extend(children[y])
        # Blossoms without dual go, as at the end of a classic stage (else each would cost a
        # dual step of 0 once another tree reached it).
        for b in tops:
            if b >= n and self.dual[b] == 0:
                self.expand_blossom(b, True)
        head, dual, weight = self.head, self.dual, self.weight
        # The tight marks are a cache of a slack of 0, which a retired vertex's edges may no
        # longer have once the other trees move their duals: all are looked at again.
        self.tight[:] = [False] * len(weight)
        inner: list[int] = []
        reached: list[tuple[int, int]] = []
        alive = [y for y in range(n) if label[owner[y]] == 1]
        if len(alive) < len(dead):
            # Fewer S-vertices are left than were retired (a tree that spread over the
            # players below): the edges are read from the S side.
            retired = bytearray(n)
            for x in dead:
                retired[x] = 1
            least: dict[int, int] = {}
            for y in alive:
                dual_y = dual[y]
                for p in self.incident[y]:
                    x = head[p]
                    if retired[x]:
                        s = dual_y + dual[x] - weight[p >> 1]
                        if x not in least or s < least[x]:
                            least[x] = s
                            best_edge[x] = p >> 1
            for w in range(n):
                if (
                    label[w] == 2
                    and w != owner[w]
                    and label[owner[w]] != 1
                    and label_end[w] >= 0
                    and retired[head[label_end[w]]]
                ):
                    label[w] = 0
                    label_end[w] = -1
                    inner.append(w)
            for x in dead:
                if x in least and least[x] <= 0:
                    k = best_edge[x]
                    reached.append((x, 2 * k + (head[2 * k] == x)))
        else:
            for x in dead:
                dual_x = dual[x]
                best, smallest, end = -1, 0, -1
                for p in self.incident[x]:
                    w = head[p]
                    bw = owner[w]
                    if label[bw] == 1:
                        s = dual_x + dual[w] - weight[p >> 1]
                        if best == -1 or s < smallest:
                            best, smallest, end = p >> 1, s, p
                    elif label[w] == 2 and w != bw and label_end[w] == p ^ 1:
                        label[w] = 0
                        label_end[w] = -1
                        inner.append(w)
                best_edge[x] = best
                if best != -1 and smallest <= 0:
                    reached.append((x, end))
        for w in inner:
            for p in self.incident[w]:
                u = head[p]
                if (
                    owner[u] != owner[w]
                    and label[owner[u]] == 1
                    and dual[u] + dual[w] - weight[p >> 1] <= 0
                ):
                    label[w] = 2
                    label_end[w] = p
                    break
        # A retired vertex with a tight edge from an S-vertex joins that tree at once (what
        # a dual step of 0 would lead to).
        for x, end in reached:
            if label[owner[x]] == 0:
                self.tight[end >> 1] = True
                self.assign_label(x, 2, end)

    def least_slack(self, leaves: Sequence[int], own: int) -> int:
        """The least-slack edge from ``leaves`` to an S-blossom other than ``own`` (-1: none)."""
        head, owner, label, dual, weight = self.head, self.owner, self.label, self.dual, self.weight
        best, least = -1, 0
        for x in leaves:
            for p in self.incident[x]:
                u = head[p]
                if owner[u] != own and label[owner[u]] == 1:
                    k = p >> 1
                    s = dual[x] + dual[u] - weight[k]
                    if best == -1 or s < least:
                        best, least = k, s
        return best

    def dual_step(self) -> tuple[int, int, int, int]:
        """The largest dual move: (kind, delta, edge, blossom); kind 1 ends the search (a free
        vertex's dual reached 0, or, for a perfect matching, no move is left: no augmenting
        path exists)."""
        n = self.n
        label, owner, best_edge, parent = self.label, self.owner, self.best_edge, self.parent
        dual, head, weight = self.dual, self.head, self.weight
        # Edmonds' perfect matching bounds no vertex dual: kind 0 until a move is found.
        kind, delta, edge, blossom = (
            (0, 0, -1, -1) if self.perfect else (1, min(dual[:n], default=0), -1, -1)
        )
        # The candidates of each kind are picked out first (a comprehension reads the lists
        # far faster than the loop would); ties go to the lowest vertex or blossom.
        for v in [v for v in range(n) if best_edge[v] != -1 and label[owner[v]] == 0]:
            k = best_edge[v]
            i, j = head[2 * k], head[2 * k + 1]
            if label[owner[j if i == v else i]] != 1:
                # Its S-end was retired (``retire``): look the least slack up again.
                k = best_edge[v] = self.least_slack([v], owner[v])
                if k == -1:
                    continue
            d = dual[head[2 * k]] + dual[head[2 * k + 1]] - weight[k]
            if kind == 0 or d < delta:
                kind, delta, edge = 2, d, k
        in_use = sorted(self.in_use)
        # Between two S-blossoms the step is half the least slack (even: see ``__init__``).
        least, nearest = 0, -1
        for b in [
            b
            for b in [*range(n), *in_use]
            if best_edge[b] != -1 and parent[b] == -1 and label[b] == 1
        ]:
            k = best_edge[b]
            i, j = head[2 * k], head[2 * k + 1]
            other = owner[j] if owner[i] == b else owner[i]
            if label[other] != 1 or other == b:
                k = best_edge[b] = self.least_slack(self.leaves(b), b)
                if k == -1:
                    continue
            d = dual[head[2 * k]] + dual[head[2 * k + 1]] - weight[k]
            if nearest == -1 or d < least:
                least, nearest = d, k
        if nearest != -1 and (kind == 0 or least // 2 < delta):
            kind, delta, edge = 3, least // 2, nearest
        for b in in_use:
            if parent[b] == -1 and label[b] == 2 and (kind == 0 or dual[b] < delta):
                kind, delta, blossom = 4, dual[b], b
        if kind == 0:
            return 1, 0, -1, -1
        return kind, max(delta, 0), edge, blossom
