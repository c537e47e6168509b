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

An accepted round is *proven* only when a condition or a search that ran to its end says the
later rounds can follow it (``proven``); ``nearest`` marks the others, or looks for a proof
with ``round_robin`` in a long override.

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

from collections.abc import Callable, Iterator, Sequence

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.matching import component

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

    def __init__(
        self, unplayed: Sequence[int], later_rounds: int, *, deadline: Deadline = NO_DEADLINE
    ) -> None:
        self._n = len(unplayed)
        self._k = later_rounds
        self._unplayed = unplayed
        self._deadline = deadline
        self._counts = [self._n - 1 - row.bit_count() for row in unplayed]
        exact = self._n <= EXACT_MAX_PLAYERS and later_rounds <= EXACT_MAX_LATER_ROUNDS
        self._searchable = exact or self._n <= BOUNDED_MAX_PLAYERS
        self._budget: int | None = None if exact else BOUNDED_BUDGET
        self._graph: Graph | None = None
        self._memo: dict[tuple[Graph, int], bool] = {}
        self._gave_up = False
        """Set once the bounded search ran out of budget: from then on it accepts."""
        self._proven: set[tuple[tuple[tuple[int, int], ...], int | None]] = set()
        """The complete rounds accepted with a proof."""

    def any_round(self) -> bool:
        """Whether this round and every later one can be completed, the bye of this one free.

        ``False`` only on proof.
        """
        degrees = [self._n - 1 - c for c in self._counts]
        rounds = self._k + 1
        return self._decide(degrees, rounds, lambda: self._rounds(self._full(), rounds))[0]

    def proven(self, pairs: Pairs, bye: int | None) -> bool:
        """Whether ``extendable`` accepted the complete round ``pairs`` on proof: a condition,
        or a search that ran to its end (always, where the look-ahead is exact)."""
        return (tuple(sorted(pairs)), bye) in self._proven

    def extendable(self, pairs: Pairs, bye: int | None) -> bool:
        """Whether some completion of the partial round ``pairs`` passes the look-ahead.

        For a complete round this is the look-ahead itself. Every completion takes one unplayed
        opponent from each player but the bye, so the future degrees are known in advance.
        """
        complete = 2 * len(pairs) + (bye is not None) == self._n
        degrees = [self._n - 2 - c for c in self._counts]
        if bye is not None:
            degrees[bye] += 1
        if complete and (self._k == 0 or dirac_holds(min(degrees, default=0), self._n, self._k)):
            accepted, decided = True, True
        else:
            accepted, decided = self._decide(degrees, self._k, lambda: self._complete(pairs, bye))
        if complete and accepted and decided:
            self._proven.add((tuple(sorted(pairs)), bye))
        return accepted

    def _decide(
        self, degrees: Sequence[int], k: int, search: Callable[[], bool]
    ) -> tuple[bool, bool]:
        """The answer, and whether it is a proof (undecided answers are ``True``)."""
        n = self._n
        if not _degrees_allow(degrees, k, odd=n % 2 == 1):
            return False, True
        if not self._searchable or self._gave_up:
            return True, False
        try:
            return search(), True
        except _BudgetExhausted:
            self._gave_up = True
            return True, False

    def _full(self) -> Graph:
        """The unplayed graph; with an odd count, plus the bye vertex ``n`` joined to everyone.

        The bye vertex's edges are never used up: any player may take a bye in any round.
        """
        if self._graph is None:
            n = self._n
            odd = n % 2
            everyone = (1 << (n + odd)) - 1
            rows = [row | (odd << n) for row in self._unplayed]
            if odd:
                rows.append(everyone & ~(1 << n))
            self._graph = tuple(rows)
        return self._graph

    def _spend(self) -> None:
        self._deadline.check()
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
            self._rounds(self._without(start, matching), self._k)
            for matching in self._matchings(start, free)
        )

    def _rounds(self, graph: Graph, k: int) -> bool:
        """Whether ``graph`` holds ``k`` edge-disjoint rounds (memoised)."""
        if k == 0 or self._n <= 1:
            return True
        key = (graph, k)
        known = self._memo.get(key)
        if known is None:
            self._spend()
            known = self._search_rounds(graph, k)
            self._memo[key] = known
        return known

    def _search_rounds(self, graph: Graph, k: int) -> bool:
        n = self._n
        size = len(graph)
        degrees = [row.bit_count() for row in graph[:n]]
        low = min(degrees)
        # Dirac on the graph with the bye vertex (see the module docstring).
        if low >= size // 2 + k - 1 and (size == n or graph[n].bit_count() >= size // 2):
            return True
        if size == n:
            if low < k:
                return False
        else:
            may_sit_out = graph[n]
            short = 0
            for v, degree in enumerate(degrees):
                played_rounds = degree - (may_sit_out >> v & 1)
                if played_rounds < k:
                    if not may_sit_out >> v & 1:
                        return False
                    short += k - played_rounds
            if short > k:
                return False
        if _odd_components(graph, (1 << size) - 1):
            return False
        # The rounds are unordered: put first the one where the most constrained player meets
        # its smallest partner (the bye counting as smallest); later rounds skip those below.
        v = degrees.index(low)
        row = graph[v]
        bye_vertex = (1 << n) if size > n else 0
        for u in ([n] if row & bye_vertex else []) + list(_bits(row & ((1 << n) - 1))):
            below = 0 if u == n else (row & ((1 << u) - 1)) | bye_vertex
            for matching in self._matchings(graph, (1 << size) - 1 & ~(1 << v) & ~(1 << u)):
                rest = list(self._without(graph, [*matching, (v, u)]))
                for w in _bits(below):
                    rest[w] &= ~(1 << v)
                rest[v] &= ~below
                if self._rounds(tuple(rest), k - 1):
                    return True
        return False

    def _without(self, graph: Graph, pairs: Pairs) -> Graph:
        """``graph`` less the pairs of a round (a bye uses nothing up)."""
        rest = list(graph)
        n = self._n
        for p, q in pairs:
            if p != n and q != n:
                rest[p] &= ~(1 << q)
                rest[q] &= ~(1 << p)
        return tuple(rest)

    def _matchings(self, graph: Graph, free: int) -> Iterator[list[tuple[int, int]]]:
        return _perfect_matchings(graph, free, self._spend)


def _perfect_matchings(
    graph: Graph, free: int, spend: Callable[[], None] | None
) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of the players in ``free``, most constrained player first."""
    if not free:
        yield []
        return
    if spend is not None:
        spend()
    pivot, fewest = -1, len(graph)
    for v in _bits(free):
        count = (graph[v] & free).bit_count()
        if count < fewest:
            pivot, fewest = v, count
            if count <= 1:
                break
    if fewest == 0:
        return
    for u in _bits(graph[pivot] & free):
        for rest in _perfect_matchings(graph, free & ~(1 << pivot) & ~(1 << u), spend):
            rest.append((pivot, u))
            yield rest


def _odd_components(graph: Graph, everyone: int) -> int:
    """The players in components of odd size: a round needs none (even count) or one (odd)."""
    odd = 0
    left = everyone
    while left:
        seen = component(graph, left)
        if seen.bit_count() % 2:
            odd |= seen
        left &= ~seen
    return odd
