"""The look-ahead of pairing ``nearest`` (``pairing-nearest.md`` step 4).

A round is accepted only if the ``later_rounds`` Swiss rounds after it can all be completed
without a rematch: the same active players, pairs disjoint from every earlier pair and from each
other, and with an odd count one bye per round that any player may take (even a second time).
In graph words: the *future graph* (unplayed pairs once this round is paired) must hold
``later_rounds`` edge-disjoint perfect matchings, near-perfect ones for an odd count.

Players are rank indices ``0..n-1``; a graph is a tuple of adjacency bit masks.

**Exact** (no budget) when ``n <= 16`` and ``later_rounds <= 4``: a depth-first search over the
later rounds with memoised sub-graphs. **Beyond that** the spec allows a sufficient condition or
a bounded search that never rejects a round leaving the later rounds possible:

* the *Dirac condition* below accepts at once (it is a theorem, so it is also used, exactly,
  inside the exact search);
* cheap necessary conditions (degrees, byes) reject, since they are proofs;
* up to ``BOUNDED_MAX_PLAYERS`` players the exact search runs with a budget of
  ``BOUNDED_BUDGET`` search nodes per round; when it runs out, the round is accepted;
* above that, a round that neither condition decides is accepted.

Dirac condition: *if every player still has at least ``n // 2 + k - 1`` unplayed opponents in
the future graph, the ``k`` later rounds can be completed.* For even ``n``, Dirac's theorem
(minimum degree >= n/2, n >= 3, gives a Hamiltonian cycle, hence a perfect matching) yields
one round; removing it lowers every degree by exactly one, so the condition holds again with
``k - 1`` (for ``n == 2`` the condition means the single pair is unplayed and ``k <= 1``). For
odd ``n``, join a dummy "bye" vertex to everyone: the graph on ``n + 1`` vertices has minimum
degree >= (n + 1) / 2, so it has a perfect matching; the dummy's partner takes the bye, degrees
drop by at most one and the dummy stays joined to all, so induction applies again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence, Set

EXACT_MAX_PLAYERS = 16
EXACT_MAX_LATER_ROUNDS = 4
BOUNDED_MAX_PLAYERS = 64
BOUNDED_BUDGET = 20_000
"""Search nodes per round for the bounded look-ahead (a few tenths of a second at worst)."""

Graph = tuple[int, ...]
Pairs = Sequence[tuple[int, int]]


class _BudgetExhausted(Exception):
    """The bounded search gave up: the round is accepted (err towards accepting)."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def dirac_holds(min_degree: int, n: int, later_rounds: int) -> bool:
    """The sufficient condition of the module docstring."""
    return n <= 1 or min_degree >= n // 2 + later_rounds - 1


def _degrees_allow(degrees: Sequence[int], later_rounds: int, *, odd: bool) -> bool:
    """A necessary condition: a player with ``d`` unplayed opponents plays at most ``d`` rounds.

    With an even count nobody can sit out; with an odd count the missing rounds must be byes,
    and there is one bye per round.
    """
    if not odd:
        return min(degrees, default=later_rounds) >= later_rounds
    return sum(max(0, later_rounds - d) for d in degrees) <= later_rounds


class LookAhead:
    """Decides whether a (partial) round of one group leaves the later rounds possible.

    One instance serves one round: it memoises sub-graphs and holds the bounded search's budget.
    """

    def __init__(self, played: Sequence[Set[int]], later_rounds: int) -> None:
        self._n = len(played)
        self._k = later_rounds
        self._played = played
        self._counts = [len(s) for s in played]
        exact = self._n <= EXACT_MAX_PLAYERS and later_rounds <= EXACT_MAX_LATER_ROUNDS
        self._searchable = exact or self._n <= BOUNDED_MAX_PLAYERS
        self._budget: int | None = None if exact else BOUNDED_BUDGET
        self._graph: Graph | None = None
        self._memo: dict[tuple[Graph, int, int], bool] = {}
        self.gave_up = False
        """Set once the bounded search ran out of budget: from then on it accepts."""

    def any_round(self) -> bool:
        """Whether this round and every later one can be completed, the bye of this one free."""
        degrees = [self._n - 1 - c for c in self._counts]
        rounds = self._k + 1
        return self._decide(degrees, rounds, lambda: self._rounds(self._full(), rounds, 0))

    def extendable(self, pairs: Pairs, bye: int | None) -> bool:
        """Whether some completion of the partial round ``pairs`` passes the look-ahead.

        For a complete round this is the look-ahead itself. Every completion takes one unplayed
        opponent from each player but the bye, so the future degrees are known in advance.
        """
        complete = 2 * len(pairs) + (bye is not None) == self._n
        if complete and self._k == 0:
            return True
        degrees = [self._n - 2 - c for c in self._counts]
        if bye is not None:
            degrees[bye] += 1
        if complete and dirac_holds(min(degrees, default=0), self._n, self._k):
            return True
        return self._decide(degrees, self._k, lambda: self._complete(pairs, bye))

    def _decide(self, degrees: Sequence[int], k: int, search: Callable[[], bool]) -> bool:
        n = self._n
        if not _degrees_allow(degrees, k, odd=n % 2 == 1):
            return False
        if not self._searchable or self.gave_up:
            return True
        try:
            return search()
        except _BudgetExhausted:
            self.gave_up = True
            return True

    def _full(self) -> Graph:
        if self._graph is None:
            everyone = (1 << self._n) - 1
            self._graph = tuple(
                everyone & ~(1 << v) & ~sum(1 << w for w in self._played[v]) for v in range(self._n)
            )
        return self._graph

    def _spend(self) -> None:
        if self._budget is not None:
            self._budget -= 1
            if self._budget < 0:
                raise _BudgetExhausted

    def _complete(self, pairs: Pairs, bye: int | None) -> bool:
        graph = list(self._full())
        free = (1 << self._n) - 1
        for p, q in pairs:
            graph[p] &= ~(1 << q)
            graph[q] &= ~(1 << p)
            free &= ~((1 << p) | (1 << q))
        if bye is not None:
            free &= ~(1 << bye)
        start = tuple(graph)
        return any(
            self._rounds(_without(start, matching), self._k, 0)
            for matching in self._matchings(start, free)
        )

    def _rounds(self, graph: Graph, k: int, min_bye: int) -> bool:
        """Whether ``graph`` holds ``k`` disjoint rounds, byes (odd count) from ``min_bye`` up."""
        if k == 0:
            return True
        key = (graph, k, min_bye)
        known = self._memo.get(key)
        if known is None:
            self._spend()
            known = self._search_rounds(graph, k, min_bye)
            self._memo[key] = known
        return known

    def _search_rounds(self, graph: Graph, k: int, min_bye: int) -> bool:
        n = self._n
        everyone = (1 << n) - 1
        degrees = [a.bit_count() for a in graph]
        low = min(degrees)
        if dirac_holds(low, n, k):
            return True
        odd_part = _odd_components(graph, everyone)
        if n % 2 == 0:
            if low < k or odd_part:
                return False
            # The rounds are unordered: put first the one where the most constrained player
            # meets their lowest-numbered opponent; later rounds then skip the ones below it.
            v = degrees.index(low)
            for u in _bits(graph[v]):
                below = graph[v] & ((1 << u) - 1)
                for matching in self._matchings(graph, everyone & ~(1 << v) & ~(1 << u)):
                    rest = list(_without(graph, [*matching, (v, u)]))
                    for w in _bits(below):
                        rest[w] &= ~(1 << v)
                    rest[v] &= ~below
                    if self._rounds(tuple(rest), k - 1, 0):
                        return True
            return False
        # Odd count: order the rounds by their bye; a bye lies in the only odd component.
        if (
            sum(max(0, k - d) for d in degrees[min_bye:]) > k
            or min(degrees[:min_bye], default=k) < k
        ):
            return False
        if odd_part.bit_count() == 0 or odd_part != _one_component(graph, odd_part):
            return False
        for b in _bits(odd_part & ~((1 << min_bye) - 1)):
            for matching in self._matchings(graph, everyone & ~(1 << b)):
                if self._rounds(_without(graph, matching), k - 1, b):
                    return True
        return False

    def _matchings(self, graph: Graph, free: int) -> Iterator[list[tuple[int, int]]]:
        """Every perfect matching of the players in ``free``, most constrained player first."""
        if not free:
            yield []
            return
        self._spend()
        pivot, fewest = -1, self._n
        for v in _bits(free):
            count = (graph[v] & free).bit_count()
            if count < fewest:
                pivot, fewest = v, count
                if count <= 1:
                    break
        if fewest == 0:
            return
        for u in _bits(graph[pivot] & free):
            for rest in self._matchings(graph, free & ~(1 << pivot) & ~(1 << u)):
                rest.append((pivot, u))
                yield rest


def _without(graph: Graph, pairs: Pairs) -> Graph:
    rest = list(graph)
    for p, q in pairs:
        rest[p] &= ~(1 << q)
        rest[q] &= ~(1 << p)
    return tuple(rest)


def _one_component(graph: Graph, start: int) -> int:
    """The component of ``graph`` that holds the lowest player of ``start``."""
    seen = frontier = start & -start
    while frontier:
        reach = 0
        for v in _bits(frontier):
            reach |= graph[v]
        frontier = reach & ~seen
        seen |= frontier
    return seen


def _odd_components(graph: Graph, everyone: int) -> int:
    """The players in components of odd size: a round needs none (even count) or one (odd)."""
    odd = 0
    left = everyone
    while left:
        component = _one_component(graph, left)
        if component.bit_count() % 2:
            odd |= component
        left &= ~component
    return odd
