"""Art. 4's candidates walked in order, for large brackets (the exact matching is too slow there).

Candidate by candidate the rules would take ages; here each decision of Art. 4 is taken in turn,
keeping the first choice that still allows a best candidate:

1. each MDP in order takes the highest resident it can (4.4, 4.2), or floats;
2. the remainder is split in S1 and S2 with no exchange (4.3: none is best when it allows a best
   candidate);
3. each S1 player in order takes the highest S2 player it can (4.2).

"Still allows a best candidate" is judged with the prices of ``dutch_kinds``: a best candidate
pairs tight kinds only and pairs every priced player. For the MDPs the judgement is made on
kinds (ignoring who met whom); for the transpositions on the players themselves, with
alternating paths. The result is certain only when it reaches the bound of the kinds: then it is
a best candidate, every choice kept was possible and every choice passed over was not, so it is
the first best candidate. Otherwise ``pair_in_order`` returns ``None`` and the caller solves the
bracket exactly.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Sequence

from app.domain.pairing.dutch_brackets import BracketPairing, Scope
from app.domain.pairing.dutch_completion import maximum_matching
from app.domain.pairing.dutch_criteria import Criteria
from app.domain.pairing.dutch_kinds import Plan, feasible, kinds_of, transport

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

    def _tight(self, x: int, y: int) -> bool:
        w = self.worth.of(x, y)
        if w == 0 or self.plan is None:
            return False
        i = self.left_index[self.worth.kind[x]]
        j = self.right_index[self.worth.kind[y]]
        return self.plan.tight(i, j, w)

    def _required(self, y: int) -> bool:
        assert self.plan is not None
        return self.plan.right[self.right_index[self.worth.kind[y]]] > 0

    def pair_in_order(self, check: Callable[[], None] | None) -> list[tuple[int, int]] | None:
        """Each S1 player in order with the highest S2 player that keeps a best candidate."""
        s1, s2 = self.s1, self.s2
        if not s1:
            return []
        mate: dict[int, int] = {}
        fixed: set[int] = set()
        for x in s1:
            if not self._augment(x, mate, fixed):
                return None
        for y in s2:
            if self._required(y) and y not in mate and not self._cover(y, mate, fixed):
                return None
        pairs = []
        for x in s1:
            if check is not None:
                check()
            for y in s2:
                if y in fixed or not self._tight(x, y):
                    continue
                if self._fix(x, y, mate, fixed):
                    pairs.append((x, y))
                    break
            else:
                return None
        return pairs

    def _fix(self, x: int, y: int, mate: dict[int, int], fixed: set[int]) -> bool:
        """Pair ``x`` with ``y`` and repair the rest; undo and say no if it cannot be."""
        if mate.get(x) == y:
            fixed.update((x, y))
            return True
        saved = dict(mate)
        old_y = mate.pop(x)
        del mate[old_y]
        other_x = mate.pop(y, None)
        if other_x is not None:
            del mate[other_x]
        mate[x], mate[y] = y, x
        fixed.update((x, y))
        ok = other_x is None or self._augment(other_x, mate, fixed)
        if ok and old_y not in mate and self._required(old_y):
            ok = self._cover(old_y, mate, fixed)
        if not ok:
            mate.clear()
            mate.update(saved)
            fixed.difference_update((x, y))
        return ok

    def _augment(self, x: int, mate: dict[int, int], fixed: set[int]) -> bool:
        """Find S2 players for ``x`` along an alternating path of tight pairs."""
        parent: dict[int, int] = {}
        seen_x = {x}
        queue = deque([x])
        while queue:
            a = queue.popleft()
            for y in self.s2:
                if y in fixed or y in parent or not self._tight(a, y):
                    continue
                parent[y] = a
                if y not in mate:
                    while True:
                        a = parent[y]
                        previous = mate.get(a)
                        mate[a], mate[y] = y, a
                        if a == x:
                            return True
                        assert previous is not None
                        y = previous
                b = mate[y]
                if b not in seen_x:
                    seen_x.add(b)
                    queue.append(b)
        return False

    def _cover(self, y: int, mate: dict[int, int], fixed: set[int]) -> bool:
        """Give the unpaired but priced ``y`` a partner by freeing an unpriced S2 player."""
        parent: dict[int, int] = {}
        seen_y = {y}
        queue = deque([y])
        while queue:
            b = queue.popleft()
            for x in self.s1:
                if x in fixed or x in parent or not self._tight(x, b):
                    continue
                parent[x] = b
                y2 = mate[x]
                if y2 in seen_y:
                    continue
                seen_y.add(y2)
                parent[y2] = x
                if not self._required(y2):
                    # Flip the path: y2 goes free, every x on the way takes the S2 player before.
                    del mate[y2]
                    cur = y2
                    while cur != y:
                        xx = parent[cur]
                        nb = parent[xx]
                        mate[xx], mate[nb] = nb, xx
                        cur = nb
                    return True
                queue.append(y2)
        return False
