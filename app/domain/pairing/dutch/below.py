"""The heaviest matching over a bracket and everybody below it, without searching everybody.

When C4 (completion) fails for a bracket paired on its own or with the next scoregroup, the
bracket is paired by the heaviest matching over everybody left (``Scope.below``). Late in a long
event that happens bracket after bracket, and the matching over a hundred players or more was
most of a round. Its weights have a shape that makes most of that search unnecessary:

- a pair with a player below the next scoregroup weighs only what C4/C5 give it (and C9's
  games, when the bye comes from the top scoregroup), and each of those is a sum of one value
  per player: such a pair weighs ``(p(a) + p(b)) / 2`` for *potentials* ``p``;
- the completion field outweighs everything else, so the heaviest matching pairs everybody
  (all but one player who may take the bye, C2/C5) whenever that can be done.

Among the matchings that pair everybody (all but one), subtracting ``p`` from every pair's
weight changes every matching's weight by the same amount (less the bye's ``p``, given to a
stand-in vertex that takes the bye), and leaves every pair outside the bracket and the next
scoregroup at weight 0. The heaviest *perfect* matching is then searched from duals under which
every pair below, and every pair of the bracket with a player who may meet nobody else below,
is tight, and from a maximum matching of those tight pairs (bit sets): the search only has to
place the players that matching leaves, one stage per pair still to make.

Those duals are priced (``_priced``): the players below that a maximum matching among
themselves leaves out need partners from the bracket and the next scoregroup, so about that
many of those go down and the rest pair among themselves. A pair of the top weighs against
going down at a price: the weight of the first pair that a greedy matching of the top (the
heaviest pairs first) makes beyond the pairs the top keeps. The heaviest matching of the top
alone, with every weight less the price, gives the top the duals (plus the price) that
``_started`` lowers from, and the players below left alone start at minus the price: the
top's heaviest pairs and its players going down start tight together (the first search of
round 181 of a 256-player override: 26 players left to place from the old start at the
highest weight, none from the priced one).

The bracket's pairs are the same in every heaviest matching (the tie fields of ``brackets``
give every candidate a different weight), and so is the number of players of the bracket and
the next scoregroup paired below (what C9's check of the next bracket reads), so the answer is
the search over everybody's. When not everybody can be paired (no perfect matching), ``solve``
answers ``None`` and the caller searches over everybody as before.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.matching import (
    ZeroPairs,
    max_weight_matching,
    max_weight_perfect_matching,
)
from app.domain.pairing.matching import Matching, bits

__all__ = ["Below", "Start"]


_CARRIED_SHORT = 16
"""A carried start (``Start``) that leaves more than this many pairs to make is compared
with the priced start (``_priced``), and the one that pairs more is taken. Fewer is worse:
a search from a carried start a few pairs shorter is still cheaper than the priced start's
own search of the top (instructions pairing four late rounds of the 256-player override:
4 pairs 17,521 M, 16 pairs 16,308 M, priced only when nothing is carried 19,065 M; the
start at the highest weight of before, compared beyond 4 pairs, 18,206 M)."""


class Start:
    """What a matching over everybody below leaves to the next one of the same round: each
    player's dual at its end (``max_weight_perfect_matching``'s ``final_dual``) and the bit of
    the completion field in its weights (``exponent``).

    The players below a bracket are a subset of those below the bracket before, and a pair
    of two of them weighs 0 in both searches: their old duals, scaled to the new weights and
    rounded up, stay feasible for it, and under them most of the players below are paired
    as they were. Only the search's length depends on the start: any feasible start ends
    with a heaviest matching, whose bracket pairs are the same.
    """

    __slots__ = ("dual", "exponent")

    def __init__(self) -> None:
        self.dual: dict[int, int] = {}
        self.exponent = 0


class Below:
    """The players ``everyone`` (indices in pairing order) of a matching over the bracket and
    everybody below: the first ``top`` are the bracket and the next scoregroup, the rest the
    players below. ``apart``: players who may not meet each other (the MDPs).
    ``bye_games``: C9 counts for the pairs below (``Scope.bye_games_below``)."""

    def __init__(
        self,
        criteria: Criteria,
        everyone: Sequence[int],
        top: int,
        *,
        apart: Collection[int],
        bye_games: bool,
        start: Start | None = None,
    ) -> None:
        self.criteria = criteria
        self.start = start
        self.everyone = list(everyone)
        self.top = top
        n = len(self.everyone)
        self.potential = _potentials(criteria, self.everyone, bye_games) if n >= 3 else None
        graph = criteria.adjacency(self.everyone, apart)
        # Pairs with a player below (weight 0 once the potentials are taken off): each
        # player's bit set of them, laid out for each search as it reads them (``ZeroPairs``).
        below_mask = ((1 << n) - 1) >> top << top
        self.rows = [row & below_mask if i < top else row for i, row in enumerate(graph)]
        # The players below whom some maximum matching of the players below leaves out and
        # who may meet none of those others (Gallai–Edmonds: the single players of D; those
        # who may meet nobody below among them): late in a long event, the lowest scores,
        # who have met each other. Their pairs go up, to the players below they may meet
        # (``raised``) or to the bracket and the next scoregroup, which the starting duals
        # make tight (``solve``).
        below = [graph[i] >> top for i in range(top, n)]
        among = Matching(below, (1 << len(below)) - 1) if below else None
        exposable = among.left_out_by_some() if among is not None else 0
        self.deficiency = among.exposed.bit_count() if among is not None else 0
        """How many players below a maximum matching among themselves leaves out: at least
        that many of the bracket and the next scoregroup go down (``_priced``)."""
        self.alone: set[int] = set()
        raised = 0
        for i in bits(exposable):
            if not below[i] & exposable:
                self.alone.add(i + top)
                raised |= below[i]
        self.raised = {i + top for i in bits(raised)}

    def solve(
        self,
        weights: Mapping[tuple[int, int], int],
        width: int,
        removed: Collection[int],
        check: Callable[[], None] | None,
    ) -> dict[int, int] | None:
        """The heaviest matching, as each player's partner, when it pairs everybody not in
        ``removed`` (all but one who may take the bye); else ``None``.

        ``weights``: the weight of each allowed pair of ``everyone[:top]`` (higher player
        first), a pair's ``Criteria.quality`` shifted left by ``width`` plus its tie; a pair
        with a player below weighs ``(p(a) + p(b)) / 2`` shifted the same way, no tie."""
        potential = self.potential
        if potential is None:
            return None
        everyone = self.everyone
        keep = [i for i, v in enumerate(everyone) if v not in removed]
        index = {i: k for k, i in enumerate(keep)}
        place = {v: i for i, v in enumerate(everyone)}
        size = len(keep)
        # The weights are lifted (every one doubled ``lift`` times, which changes no
        # comparison) so that the carried duals scale to them without rounding.
        exponent = self.criteria.layout.under_completion + width
        start = self.start
        carried = start if start is not None and start.dual else None
        if carried is not None and not all(everyone[i] in carried.dual for i in keep):
            carried = None
        lift = max(0, carried.exponent + 1 - exponent) if carried is not None else 0
        shift = width + lift
        edges: list[tuple[int, int, int]] = []
        high = 0
        for (a, b), w in weights.items():
            if a in removed or b in removed:
                continue
            edge = (2 * w << lift) - ((potential[place[a]] + potential[place[b]]) << shift)
            edges.append((index[place[a]], index[place[b]], edge))
            high = max(high, edge)
        if size % 2:
            # The bye: a stand-in vertex meets every player who may take it (C2, C5).
            candidates = [k for k, i in enumerate(keep) if self.criteria.candidate[everyone[i]]]
            if not candidates:
                return None
            edges.extend((k, size, -(potential[keep[k]] << shift)) for k in candidates)
        # What the starting duals are lowered along (``_started``): each vertex's weighted
        # pairs (doubled), and the players below each player of the bracket and the next
        # scoregroup may meet (pairs of weight 0). Only players of the bracket are removed
        # (its MDPs' pairs), so a player below keeps its place less their number.
        incident: list[list[tuple[int, int]]] = [[] for _ in range(size + 1)]
        for i, j, w in edges:
            incident[i].append((j, 2 * w))
            incident[j].append((i, 2 * w))
        gone = [i for i in range(self.top) if i not in index]
        rows = [_without(self.rows[i], gone) for i in keep] if gone else self.rows
        pairs = ZeroPairs(rows, self.top - len(gone))
        # Duals feasible for every pair below: those the round's last search ended with
        # (``Start``) when it had every player, or the priced ones (``_priced``): 0,
        # ``-price`` on the players below left alone and ``price`` on those they may meet (so
        # that the pairs of the ones left alone, with them or with the bracket, are tight;
        # the pairs of the raised ones are feasible), whichever start pairs more.
        # The stand-in (vertex ``size``) is lowered last, after the bracket and the next
        # scoregroup: it starts feasible for the duals it meets.
        top = [k for k, i in enumerate(keep) if i < self.top] + [size] * (size % 2)

        def with_stand_in(dual: list[int]) -> list[int]:
            if size % 2:
                dual.append(max(w - dual[j] for j, w in incident[size]))
            return dual

        found: tuple[list[int], list[tuple[int, int]]] | None = None
        if carried is not None:
            up = exponent + lift - carried.exponent - 1
            found = _started(
                with_stand_in(
                    [high if i < self.top else carried.dual[everyone[i]] << up for i in keep]
                ),
                top,
                edges,
                rows,
                incident,
            )
        if found is None or len(found[1]) < (size + 1) // 2 - _CARRIED_SHORT:
            t = len(top) - size % 2  # the top's players are ``0..t-1``
            price, flat = _priced(edges, t, (t - self.deficiency) // 2, check)
            priced = _started(
                with_stand_in(
                    [
                        price + flat[k]
                        if i < self.top
                        else price
                        if i in self.raised
                        else -price
                        if i in self.alone
                        else 0
                        for k, i in enumerate(keep)
                    ]
                ),
                top,
                edges,
                rows,
                incident,
            )
            if found is None or len(priced[1]) > len(found[1]):
                found = priced
        dual, mates = found
        final: list[int] = []
        mate = max_weight_perfect_matching(
            len(dual), edges, zero=pairs, dual=dual, mates=mates, check=check, final_dual=final
        )
        if start is not None:
            start.dual = {everyone[i]: final[k] for k, i in enumerate(keep)}
            start.exponent = exponent + lift
        if -1 in mate:
            return None
        return {everyone[keep[k]]: everyone[keep[m]] for k, m in enumerate(mate[:size]) if m < size}


def _started(
    dual: list[int],
    lowered: Sequence[int],
    edges: Sequence[tuple[int, int, int]],
    rows: Sequence[int],
    incident: Sequence[Sequence[tuple[int, int]]],
) -> tuple[list[int], list[tuple[int, int]]]:
    """A start for ``max_weight_perfect_matching``: ``dual`` (one per vertex, feasible for
    every pair with no vertex of ``lowered``), each vertex of ``lowered`` in turn set as low
    as its pairs allow (the bracket and the next scoregroup, then the bye's stand-in), which
    makes all feasible and gives each a tight pair; and a maximum matching of the tight
    pairs (bit sets). Returns the duals and the matching's pairs. ``edges``: the pairs of
    non-zero weight (``rows``: each player's pairs of weight 0, as a bit set).

    ``incident``: each vertex's pairs of non-zero weight (doubled) and its pairs with the
    stand-in; a player of the bracket and the next scoregroup has its other pairs, all of
    weight 0, with players below (whose duals ``lowered`` never changes) in ``rows``."""
    # The players below by dual, lowest first (a few values: 0 and the price's, or a
    # carried start's): a row's least dual is the first whose players it meets.
    fixed = set(lowered)
    ascending = sorted(_by_dual(dual, [v for v in range(len(rows)) if v not in fixed]).items())
    for k in lowered:
        lowest = [w - dual[j] for j, w in incident[k]]
        row = rows[k] if k < len(rows) else 0
        if row:
            lowest.append(-next(value for value, members in ascending if row & members))
        if lowest:
            dual[k] = max(lowest)
    graph = [0] * len(dual)
    for i, j, w in edges:
        if dual[i] + dual[j] == 2 * w:
            graph[i] |= 1 << j
            graph[j] |= 1 << i
    # A pair of weight 0 is tight when its duals cancel: each player's with those whose
    # dual is minus its own.
    duals = _by_dual(dual, range(len(rows)))
    for v, row in enumerate(rows):
        graph[v] |= row & duals.get(-dual[v], 0)
    initial = Matching(graph, (1 << len(dual)) - 1).mate
    return dual, [(v, m) for v, m in enumerate(initial) if v < m]


def _by_dual(dual: Sequence[int], vertices: Iterable[int]) -> dict[int, int]:
    """The bit set of ``vertices`` with each dual value."""
    members: dict[int, int] = {}
    for v in vertices:
        members[dual[v]] = members.get(dual[v], 0) | 1 << v
    return members


def _without(row: int, gone: Sequence[int]) -> int:
    """The bit set ``row`` with the bits at positions ``gone`` (ascending) taken out and the
    higher ones moved down in their place."""
    for p in reversed(gone):
        row = (row & ((1 << p) - 1)) | (row >> (p + 1) << p)
    return row


def _priced(
    edges: Sequence[tuple[int, int, int]], t: int, pairs: int, check: Callable[[], None] | None
) -> tuple[int, list[int]]:
    """A start for the top's players ``0..t-1`` of which ``pairs`` pairs are to stay among
    themselves (the others go down): ``(price, duals)``. The price is the weight of the first
    pair a greedy matching of the top (heaviest first) makes beyond ``pairs`` pairs (0 when it
    makes no more), and the duals those of the heaviest matching of the top with every weight
    less the price (at least 0): with ``price`` added, every pair of the top is feasible
    (``dual[u] + dual[v] >= 2 * weight``), its heaviest pairs tight, and a player the
    matching leaves is tight with a player below at ``-price``."""
    heaviest = sorted((e for e in edges if e[0] < t and e[1] < t), key=lambda e: -e[2])
    price, made = 0, 0
    taken: set[int] = set()
    for u, v, w in heaviest:
        if u not in taken and v not in taken:
            if made >= pairs:
                price = max(w, 0)
                break
            taken.update((u, v))
            made += 1
    flat: list[int] = []
    max_weight_matching(
        t, [(u, v, w - price) for u, v, w in heaviest if w > price], check=check, final_dual=flat
    )
    return price, flat


def _potentials(criteria: Criteria, everyone: Sequence[int], bye_games: bool) -> list[int]:
    """``p`` with ``2 * weight(a, b) == p(a) + p(b)`` for every pair with a player below the
    next scoregroup (``weight``: ``Criteria.quality`` of such a pair, every field but C4/C5
    and C9 empty). Each is read off three weights: ``p(v) = w(v, r) + w(v, s) - w(r, s)``."""

    def weight(a: int, b: int) -> int:
        return criteria.quality(
            a, b, in_bracket=False, in_next=False, completion=True, bye_games=bye_games
        )

    r, s, t = everyone[-3:]
    rs = weight(r, s)
    potential = [weight(v, r) + weight(v, s) - rs for v in everyone[:-3]]
    rt, st = weight(r, t), weight(s, t)
    potential.extend((rs + rt - st, rs + st - rt, rt + st - rs))
    return potential
