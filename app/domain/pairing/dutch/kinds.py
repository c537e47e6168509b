"""Players of a bracket counted by kind: a bound on the best candidate, and its tight pairs.

Two players of a bracket are of the same *kind* when every quality criterion (C6–C21) sees
them alike: same score, colour preference and its strength, colour difference and repeated
colour, floats of the two previous rounds, and, where the bye is decided, whether they may take
it and how many games they played. Only C1 (who already met) tells them apart, and meetings are
few; so a large bracket has few kinds, and the best candidate can be bounded by a *transportation
problem* between kinds: how many pairs of each two kinds, at most as many players of a kind as
there are. Its optimal dual values give every kind a price; a pair of kinds whose prices add up
exactly to the pair's worth is *tight*, and every best candidate pairs only tight kinds and
pairs every player of a priced kind (complementary slackness). ``transpositions`` walks
Art. 4's order over tight pairs only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Plan", "feasible", "kinds_of", "transport"]


def kinds_of(players: Sequence[int], key: Callable[[int], Hashable]) -> tuple[list[int], list[int]]:
    """Number the kinds of ``players`` in order of appearance: (kind of each player, count of
    each kind)."""
    ids: dict[Hashable, int] = {}
    kind = []
    for v in players:
        kind.append(ids.setdefault(key(v), len(ids)))
    counts = [0] * len(ids)
    for k in kind:
        counts[k] += 1
    return kind, counts


@dataclass(frozen=True, slots=True)
class Plan:
    """An optimal transportation: its total worth, the flow between kinds, and the prices of
    the left and right kinds and of the cap on the number sent (``left[i] + right[j] + cap >=
    worth(i, j)`` everywhere, equal where players are sent; a price is zero unless its kind,
    or the cap, is used in full)."""

    value: int
    flow: Mapping[tuple[int, int], int]
    left: Sequence[int]
    right: Sequence[int]
    cap: int = 0

    def tight(self, i: int, j: int, worth: int) -> bool:
        return self.left[i] + self.right[j] + self.cap == worth


class _Network:
    """A small flow network with costs: arcs as parallel lists, ``arc ^ 1`` the reverse."""

    def __init__(self, nodes: int) -> None:
        self.out: list[list[int]] = [[] for _ in range(nodes)]
        self.head: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []

    def add(self, a: int, b: int, cap: int, cost: int) -> int:
        arc = len(self.head)
        for tail, to, c, k in ((a, b, cap, cost), (b, a, 0, -cost)):
            self.out[tail].append(len(self.head))
            self.head.append(to)
            self.cap.append(c)
            self.cost.append(k)
        return arc

    def push(self, via: Sequence[int], source: int, sink: int, limit: int | None) -> int:
        """Send as much as the narrowest arc of the path ``via`` (sink back to source) allows,
        at most ``limit``; return the amount."""
        amount = limit
        b = sink
        while b != source:
            arc = via[b]
            amount = self.cap[arc] if amount is None else min(amount, self.cap[arc])
            b = self.head[arc ^ 1]
        assert amount is not None  # a path has at least one arc
        b = sink
        while b != source:
            arc = via[b]
            self.cap[arc] -= amount
            self.cap[arc ^ 1] += amount
            b = self.head[arc ^ 1]
        return amount

    def distances(self, source: int | None) -> tuple[list[int | None], list[int]]:
        """Cheapest residual paths (no negative cycles) from ``source``, or from everywhere at
        once when ``source`` is ``None`` (node potentials): distance and arc in."""
        n = len(self.out)
        dist: list[int | None] = [None] * n
        via = [-1] * n
        starts = range(n) if source is None else (source,)
        for start in starts:
            dist[start] = 0
        queue = deque(starts)
        queued = [False] * n
        for start in starts:
            queued[start] = True
        while queue:
            a = queue.popleft()
            queued[a] = False
            base = dist[a]
            assert base is not None
            for arc in self.out[a]:
                if self.cap[arc] <= 0:
                    continue
                b = self.head[arc]
                d = base + self.cost[arc]
                current = dist[b]
                if current is None or d < current:
                    dist[b] = d
                    via[b] = arc
                    if not queued[b]:
                        queued[b] = True
                        queue.append(b)
        return dist, via


def transport(
    left: Sequence[int],
    right: Sequence[int],
    worth: Mapping[tuple[int, int], int],
    *,
    cap: int | None = None,
) -> Plan:
    """Send at most ``left[i]`` players of left kind ``i`` to right kinds, at most ``right[j]``
    to right kind ``j``, at most ``cap`` in all, along pairs with a positive ``worth``, for the
    largest total worth.

    Successive cheapest paths with costs ``-worth``; an arc from source to sink that costs
    nothing lets players stay unsent, and one unit more than the left can send always takes it,
    so the node potentials at the end are exact prices.
    """
    m, k = len(left), len(right)
    source, sink, hub = 0, m + k + 1, m + k + 2
    net = _Network(m + k + 3)
    pair_arcs = {}
    net.add(source, hub, sum(left) if cap is None else cap, 0)
    for i, count in enumerate(left):
        net.add(hub, 1 + i, count, 0)
    for j, cap in enumerate(right):
        net.add(1 + m + j, sink, cap, 0)
    total = sum(left) + 1
    for (i, j), w in worth.items():
        if w > 0 and left[i] > 0 and right[j] > 0:
            pair_arcs[(i, j)] = net.add(1 + i, 1 + m + j, total, -w)
    net.add(source, sink, total, 0)
    sent = 0
    while sent < total:
        _, via = net.distances(source)
        sent += net.push(via, source, sink, total - sent)
    flow = {pair: net.cap[arc ^ 1] for pair, arc in pair_arcs.items() if net.cap[arc ^ 1] > 0}
    value = sum(worth[pair] * amount for pair, amount in flow.items())
    # Potentials of the final residual network give the prices. Source and sink share one
    # (the free arc between them carries flow both ways), from which the others are read.
    potential = [d or 0 for d in net.distances(None)[0]]
    base = potential[source]
    at_cap = max(0, potential[hub] - base)
    prices_left = [max(0, p - base - at_cap) for p in potential[1 : 1 + m]]
    prices_right = [max(0, base - p) for p in potential[1 + m : 1 + m + k]]
    return Plan(value, flow, prices_left, prices_right, at_cap)


def feasible(
    left: Sequence[int],
    right: Sequence[int],
    arcs: Sequence[tuple[int, int]],
    must_left: Sequence[bool],
    must_right: Sequence[bool],
    *,
    total: int | None = None,
) -> bool:
    """Can players be sent along ``arcs`` (pairs of kinds) so that every left kind marked
    ``must_left`` sends all its players, every right kind marked ``must_right`` receives its
    full count, and exactly ``total`` are sent if given? (A flow with lower bounds, checked as
    a circulation.)"""
    m, k = len(left), len(right)
    source, sink, super_source, super_sink = 0, m + k + 1, m + k + 2, m + k + 3
    hub = m + k + 4
    net = _Network(m + k + 5)
    need = 0
    if total is None:
        net.add(source, hub, sum(left), 0)
    else:
        net.add(super_source, hub, total, 0)
        net.add(source, super_sink, total, 0)
        need += total
    for i, cap in enumerate(left):
        if must_left[i] and cap > 0:
            net.add(super_source, 1 + i, cap, 0)
            net.add(hub, super_sink, cap, 0)
            need += cap
        else:
            net.add(hub, 1 + i, cap, 0)
    for j, cap in enumerate(right):
        if must_right[j] and cap > 0:
            net.add(super_source, sink, cap, 0)
            net.add(1 + m + j, super_sink, cap, 0)
            need += cap
        else:
            net.add(1 + m + j, sink, cap, 0)
    big = sum(left) + sum(right) + 1
    for i, j in arcs:
        net.add(1 + i, 1 + m + j, big, 0)
    net.add(sink, source, big, 0)
    return _max_flow(net, super_source, super_sink) == need


def _max_flow(net: _Network, source: int, sink: int) -> int:
    total = 0
    while True:
        via = [-1] * len(net.out)
        seen = [False] * len(net.out)
        seen[source] = True
        queue = deque([source])
        while queue and not seen[sink]:
            a = queue.popleft()
            for arc in net.out[a]:
                b = net.head[arc]
                if net.cap[arc] > 0 and not seen[b]:
                    seen[b] = True
                    via[b] = arc
                    queue.append(b)
        if not seen[sink]:
            return total
        total += net.push(via, source, sink, None)
