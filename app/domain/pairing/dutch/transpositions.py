"""Art. 4's candidates walked in order, for large brackets (the exact matching is too slow there).

Candidate by candidate the rules would take ages; here each decision of Art. 4 is taken in turn,
keeping the first choice that still allows a best candidate:

1. each MDP in order takes the highest resident it can (4.4, 4.2), or floats;
2. the remainder is split in S1 and S2 with no exchange (4.3: none is best when it allows a best
   candidate);
3. each S1 player in order takes the highest S2 player it can (4.2).

"Still allows a best candidate" is judged with the prices of ``kinds``: a best candidate
pairs tight kinds only and pairs every priced player. For the MDPs the judgement is made on
kinds (ignoring who met whom); for the transpositions on the players themselves, with the
maximum matching of ``matching.py``. The result is certain only when it reaches the bound of
the kinds: then it is a best candidate, every choice kept was possible and every choice passed
over was not, so it is the first best candidate. Otherwise ``pair_in_order`` returns ``None``
and the caller solves the bracket exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from app.domain.pairing.dutch.brackets import BracketPairing, Scope
from app.domain.pairing.dutch.completion import maximum_matching
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.kinds import Plan, feasible, kinds_of, transport
from app.domain.pairing.matching import Matching, lowest

__all__ = ["pair_in_order"]


class _Worth:
    """The worth of pairing two players of the bracket, by their kinds."""

    def __init__(
        self, criteria: Criteria, bracket: Sequence[int], mdps: Sequence[int], scope: Scope
    ) -> None:
        self.criteria = criteria
        self.scope = scope
        self.mdps = set(mdps)
        players = criteria.players

        def key(v: int) -> Hashable:
            p = players[v]
            games = p.played_games if scope.bye_games and p.score == criteria.bye_score else -1
            return (
                v in self.mdps,
                p.score,
                p.preference,
                p.strength,
                p.imbalance,
                p.repeated,
                p.last_float,
                p.float_before,
                criteria.candidate[v] if scope.completion else False,
                games,
                criteria.topscorer[v],
            )

        kinds, counts = kinds_of(bracket, key)
        self.kind = dict(zip(bracket, kinds, strict=True))
        self.counts = counts
        self.rep: list[int] = [0] * len(counts)
        for v in reversed(bracket):
            self.rep[self.kind[v]] = v
        self.table: dict[tuple[int, int], int] = {}
        for s in range(len(counts)):
            for t in range(len(counts)):
                self.table[(s, t)] = self._kinds_worth(s, t)

    def _kinds_worth(self, s: int, t: int) -> int:
        a, b = self.rep[s], self.rep[t]
        if a in self.mdps and b in self.mdps:
            return 0
        if s == t and self.counts[s] < 2:
            return 0
        if not self.criteria.colours_allowed(a, b):
            return 0
        if a > b:
            a, b = b, a
        return self.criteria.quality(
            a,
            b,
            in_bracket=True,
            in_next=False,
            completion=self.scope.completion,
            bye_games=self.scope.bye_games,
        )

    def of(self, a: int, b: int) -> int:
        """The worth of the pair ``a``, ``b`` (0 when they may not meet)."""
        if not self.criteria.allowed(a, b):
            return 0
        return self.table[(self.kind[a], self.kind[b])]


def pair_in_order(
    criteria: Criteria,
    mdps: Sequence[int],
    residents: Sequence[int],
    scope: Scope,
    *,
    check: Callable[[], None] | None = None,
) -> BracketPairing | None:
    """The bracket's pairing by Art. 3–4, or ``None`` when it cannot be certain of it.
    ``check`` is called once per decision (a deadline raises there)."""
    bracket = [*mdps, *residents]
    worth = _Worth(criteria, bracket, mdps, scope)
    most = maximum_matching(criteria, bracket, apart=set(mdps)).size
    doubled = transport(worth.counts, worth.counts, worth.table, cap=2 * most)
    target = doubled.value  # twice the bound of the bracket
    counts = list(worth.counts)
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    gained = 0
    used: set[int] = set()
    for mdp in mdps:
        if check is not None:
            check()
        s = worth.kind[mdp]
        partner = None
        for r in residents:
            if r in used:
                continue
            w = worth.of(mdp, r)
            if w == 0:
                continue
            t = worth.kind[r]
            if not (doubled.tight(s, t, w) and doubled.tight(t, s, w)):
                continue
            trial = list(counts)
            trial[s] -= 1
            trial[t] -= 1
            if _kinds_feasible(doubled, worth, trial, 2 * (most - len(pairs) - 1)):
                partner = r
                break
        if partner is None:
            trial = list(counts)
            trial[s] -= 1
            if (
                doubled.left[s]
                or doubled.right[s]
                or not _kinds_feasible(doubled, worth, trial, 2 * (most - len(pairs)))
            ):
                return None
            counts = trial
            floaters.append(mdp)
            continue
        counts[s] -= 1
        counts[worth.kind[partner]] -= 1
        pairs.append((mdp, partner))
        used.update((mdp, partner))
        gained += 2 * worth.of(mdp, partner)
    remainder = [r for r in residents if r not in used]
    size = maximum_matching(criteria, remainder).size
    s1, s2 = remainder[:size], remainder[size:]
    upper = _Sides(s1, s2, worth)
    if upper.plan is None or 2 * upper.plan.value != target - gained:
        return None
    chosen = upper.pair_in_order(check)
    if chosen is None:
        return None
    taken: set[int] = set()
    for a, b in chosen:
        pairs.append((a, b))
        taken.update((a, b))
    floaters.extend(v for v in s2 if v not in taken)
    floaters.sort()
    return BracketPairing(pairs, floaters)


def _kinds_feasible(plan: Plan, worth: _Worth, counts: Sequence[int], pairs: int) -> bool:
    """The doubled transportation can still be met on tight pairs with ``counts`` players
    (and ``pairs`` players sent when the cap on pairs is priced)."""
    arcs = [
        (s, t)
        for (s, t), w in worth.table.items()
        if w > 0 and counts[s] > 0 and counts[t] > 0 and plan.tight(s, t, w)
    ]
    must_left = [price > 0 for price in plan.left]
    must_right = [price > 0 for price in plan.right]
    total = pairs if plan.cap > 0 else None
    return feasible(counts, counts, arcs, must_left, must_right, total=total)


class _Sides:
    """S1 against S2 with no exchange: the bound of the kinds, then the transpositions."""

    def __init__(self, s1: Sequence[int], s2: Sequence[int], worth: _Worth) -> None:
        self.s1, self.s2, self.worth = list(s1), list(s2), worth
        self.plan: Plan | None = None
        if not s1:
            self.plan = Plan(0, {}, [], [])
            return
        left_kinds = sorted({worth.kind[v] for v in s1})
        right_kinds = sorted({worth.kind[v] for v in s2})
        self.left_index = {k: i for i, k in enumerate(left_kinds)}
        self.right_index = {k: j for j, k in enumerate(right_kinds)}
        left_counts = [0] * len(left_kinds)
        right_counts = [0] * len(right_kinds)
        for v in s1:
            left_counts[self.left_index[worth.kind[v]]] += 1
        for v in s2:
            right_counts[self.right_index[worth.kind[v]]] += 1
        table = {
            (i, j): worth.table[(ki, kj)]
            for ki, i in self.left_index.items()
            for kj, j in self.right_index.items()
        }
        self.plan = transport(left_counts, right_counts, table)

    def pair_in_order(self, check: Callable[[], None] | None) -> list[tuple[int, int]] | None:
        """Each S1 player in order with the highest S2 player that keeps a best candidate.

        A best candidate pairs every S1 player along a tight pair and every S2 player of a
        priced kind. Give the S2 players of unpriced kinds |S2| − |S1| stand-ins they may pair
        with instead, and that is a perfect matching of S1, S2 and the stand-ins: each S1
        player in order takes the first S2 player after which the others can still be matched
        perfectly (``Matching.first_partner``), or ``None`` when none is possible at all.
        """
        s1, s2 = self.s1, self.s2
        if not s1:
            return []
        graph = self._graph()
        matching = Matching(graph, (1 << len(graph)) - 1)
        if not matching.perfect:
            return None
        pairs = []
        for x in range(len(s1)):
            if check is not None:
                check()
            # Most often the highest tight S2 player left is possible: one cheap test first.
            y = lowest(graph[x] & matching.free)
            if not matching.try_pair(x, y):
                y, _ = matching.first_partner(x)
                matching.pair(x, y)
            pairs.append((s1[x], s2[y - len(s1)]))
        return pairs

    def _graph(self) -> list[int]:
        """Vertices: S1 in order, S2 in order, then the stand-ins; edges: the tight pairs that
        C1 allows, and every stand-in with every S2 player of an unpriced kind."""
        plan, worth = self.plan, self.worth
        assert plan is not None
        criteria = worth.criteria
        k, m = len(self.s1), len(self.s2)
        left_bits = [0] * len(self.left_index)
        right_bits = [0] * len(self.right_index)
        for x, v in enumerate(self.s1):
            left_bits[self.left_index[worth.kind[v]]] |= 1 << x
        for y, v in enumerate(self.s2, start=k):
            right_bits[self.right_index[worth.kind[v]]] |= 1 << y
        left_to = [0] * len(left_bits)
        right_to = [0] * len(right_bits)
        optional = 0
        for kj, j in self.right_index.items():
            if plan.right[j] == 0:
                optional |= right_bits[j]
            for ki, i in self.left_index.items():
                w = worth.table[(ki, kj)]
                if w != 0 and plan.tight(i, j, w):
                    left_to[i] |= right_bits[j]
                    right_to[j] |= left_bits[i]
        place = {criteria.ids[v]: x for x, v in enumerate([*self.s1, *self.s2])}

        def unmet(v: int, mask: int) -> int:
            for opponent in criteria.opponents[v]:
                at = place.get(opponent)
                if at is not None:
                    mask &= ~(1 << at)
            return mask

        stand_ins = ((1 << (m - k)) - 1) << (k + m)
        graph = [unmet(v, left_to[self.left_index[worth.kind[v]]]) for v in self.s1]
        for y, v in enumerate(self.s2, start=k):
            mask = unmet(v, right_to[self.right_index[worth.kind[v]]])
            graph.append(mask | (stand_ins if optional >> y & 1 else 0))
        graph.extend(optional for _ in range(m - k))
        return graph
