"""One-factorizations of the unplayed pairs: the proof behind long overrides of ``nearest``.

In an even field where everyone has played every round, the unplayed pairs form a *regular*
graph: each player has the same number ``d`` of possible opponents. Its ``d`` rounds can all be
paired without a rematch exactly when its pairs split into ``d`` perfect matchings (a
*one-factorization*), that is when they can be coloured with ``d`` colours, no two pairs of one
colour sharing a player. Deciding that is hard in general, but *finding* such a colouring, when
one exists, is quick in practice with Kempe chains, and a colouring found is a proof.

``one_factorization`` colours greedily, then takes the uncoloured pairs one at a time: a pair
``u``–``v`` takes a colour missing at both players; if there is none, with ``a`` missing at
``u`` and ``b`` at ``v``, the chain of pairs coloured ``a`` and ``b`` that leaves ``v`` swaps
its two colours, so that ``a`` is missing at ``v`` too (a Kempe chain; unless the chain ends at
``u``, where it would undo itself). When it does end at ``u``, a random pair at ``u`` or ``v``
is uncoloured and queued again: a random walk that, on the graphs a round robin leaves, ends
within a few steps per pair. The walk is seeded (deterministic) and counted against a budget.

Pairs may be *pinned* to colour 0 (the round being paired): they are never recoloured, so the
colouring found proves that the other rounds can follow that round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.matching import bits, component

Mates = list[list[int]]
"""``mates[c][v]``: ``v``'s opponent in the round of colour ``c`` (``-1``: none yet)."""

STEPS_PER_PAIR = 20
STEPS_BASE = 1_000
"""One walk gives up after this many steps per pair the greedy pass left uncoloured, plus the
base: a walk that finds a split takes about 1.2 steps per such pair on a round robin's dense
graphs; on sparse ones (three or four rounds left) the number varies more from walk to walk."""
GREEDY_PAIRS_PER_STEP = 16
"""Pairs the greedy pass colours in the time of one walk step (measured on 256 players:
0.5–0.7 µs a pair, 8–12 µs a step), so that the budget bounds the greedy passes too."""
WALKS = 3
"""Walks per split sought, each with its own seed: where one walk wanders, the next often
finds the split at once (cubic graphs: 19 walks in 20 find one within 1,000 steps)."""
SEARCH_MAX_DEGREE = 3
"""Up to this degree (three rounds left) a depth-first search follows walks that failed: on
cubic graphs the walk's steps have a long tail (a few walks in a thousand wander for 10^5
steps or more), and the search is cheap there."""

_CLOCK_EVERY = 256
"""Walk steps between two looks at the deadline (a step costs microseconds)."""


@dataclass(slots=True)
class StepBudget:
    """Walk steps left for the proofs of one round; shared by every ``one_factorization`` call."""

    left: int


def odd_component(graph: Sequence[int]) -> bool:
    """Whether some component has an odd number of players: then no round pairs everyone."""
    left = (1 << len(graph)) - 1
    while left:
        seen = component(graph, left)
        if seen.bit_count() % 2:
            return True
        left &= ~seen
    return False


def one_factorization(
    graph: Sequence[int],
    *,
    pinned: Sequence[tuple[int, int]] = (),
    budget: StepBudget,
    deadline: Deadline = NO_DEADLINE,
    seed: int = 0,
) -> Mates | None:
    """A split of the ``d``-regular ``graph`` into ``d`` rounds, ``pinned`` in round 0.

    ``graph[v]`` is the bit set of ``v``'s possible opponents; every row must hold ``d`` players
    and ``pinned`` pairs must be in ``graph`` and disjoint. Up to ``WALKS`` walks are tried,
    seeded ``seed``, ``seed + 1``, …; ``None`` when each gave up (``STEPS_PER_PAIR``) or the
    ``budget`` ran out (the steps taken are deducted either way): not a proof that none exists.
    """
    n = len(graph)
    if 2 * len(pinned) == n and n and graph[0].bit_count() > 1:
        rest = list(graph)
        for p, q in pinned:
            rest[p] &= ~(1 << q)
            rest[q] &= ~(1 << p)
        if odd_component(rest):  # a proof: the other rounds cannot pair everyone
            return None
    for attempt in range(WALKS):
        if budget.left <= 0:
            return None
        mates = _walk(graph, pinned, budget, deadline, seed + attempt)
        if mates is not None:
            return mates
    if n and graph[0].bit_count() <= SEARCH_MAX_DEGREE:
        return _search(graph, pinned, budget, deadline)
    return None


def _walk(
    graph: Sequence[int],
    pinned: Sequence[tuple[int, int]],
    budget: StepBudget,
    deadline: Deadline,
    seed: int,
) -> Mates | None:
    """One greedy colouring and one walk (the module docstring)."""
    n = len(graph)
    degree = graph[0].bit_count() if n else 0
    rng = random.Random(seed)
    mates: Mates = [[-1] * n for _ in range(degree)]
    missing = [(1 << degree) - 1] * n
    fixed: set[int] = set()
    for p, q in pinned:
        mates[0][p], mates[0][q] = q, p
        missing[p] &= ~1
        missing[q] &= ~1
        fixed.add(min(p, q) * n + max(p, q))
    waiting: list[tuple[int, int]] = []
    # The greedy pass costs about a step per GREEDY_PAIRS_PER_STEP pairs: charged up front.
    budget.left -= n * (graph[0].bit_count() if n else 0) // (2 * GREEDY_PAIRS_PER_STEP)
    for u in range(n):
        if not u % 64:
            deadline.check()
        for v in bits(graph[u] >> (u + 1) << (u + 1)):
            if u * n + v in fixed:
                continue
            common = missing[u] & missing[v]
            if common:
                _colour(mates, missing, u, v, (common & -common).bit_length() - 1)
            else:
                waiting.append((u, v))
    steps = 0
    limit = min(budget.left, STEPS_PER_PAIR * len(waiting) + STEPS_BASE)
    try:
        while waiting:
            if steps == limit:
                return None
            steps += 1
            if not steps % _CLOCK_EVERY:
                deadline.check()
            i = rng.randrange(len(waiting))
            waiting[i], waiting[-1] = waiting[-1], waiting[i]
            u, v = waiting.pop()
            if rng.random() < 0.5:
                u, v = v, u
            common = missing[u] & missing[v]
            if common:
                _colour(mates, missing, u, v, (common & -common).bit_length() - 1)
                continue
            a = _pick(missing[u], rng)
            b = _pick(missing[v], rng)
            path = _chain(mates, v, a, b, fixed, n)
            if path is not None and path[-1] != u:
                _swap(mates, missing, path, a, b)
                _colour(mates, missing, u, v, a)
                continue
            # The chain ends at u (or holds a pinned pair): uncolour a random pair at u or v.
            w = u if rng.random() < 0.5 else v
            c = rng.randrange(degree)
            x = mates[c][w]
            if x >= 0 and not (c == 0 and min(w, x) * n + max(w, x) in fixed):
                mates[c][w] = mates[c][x] = -1
                missing[w] |= 1 << c
                missing[x] |= 1 << c
                waiting.append((w, x))
            waiting.append((u, v))
    finally:
        budget.left -= steps
    return mates


def _search(
    graph: Sequence[int], pinned: Sequence[tuple[int, int]], budget: StepBudget, deadline: Deadline
) -> Mates | None:
    """A depth-first search for the split, exact if it runs to its end: the player and round
    with the fewest opponents left first; rounds other than 0 not yet begun are alike, so only
    the first of them is tried. Each node costs one step of ``budget``."""
    n = len(graph)
    degree = graph[0].bit_count()
    everyone = (1 << n) - 1
    free = list(graph)
    covered = [0] * degree
    mates: Mates = [[-1] * n for _ in range(degree)]
    for p, q in pinned:
        free[p] &= ~(1 << q)
        free[q] &= ~(1 << p)
        covered[0] |= (1 << p) | (1 << q)
        mates[0][p], mates[0][q] = q, p

    def pick() -> tuple[int, int, int]:
        best, fewest = (-1, -1, 0), n + 1
        begun = False
        for c in range(degree):
            if c > 0 and not covered[c]:
                if begun:
                    continue
                begun = True
            for v in bits(everyone & ~covered[c]):
                options = free[v] & ~covered[c]
                count = options.bit_count()
                if count < fewest:
                    best, fewest = (v, c, options), count
                    if count <= 1:
                        return best
        return best

    frames: list[list[int]] = []
    """``[v, c, candidates left, opponent taken]`` for each pair taken, in order."""
    while True:
        if budget.left <= 0:
            return None
        budget.left -= 1
        if not budget.left % _CLOCK_EVERY:
            deadline.check()
        v, c, options = pick()
        if v < 0:
            for v, c, _, u in frames:
                mates[c][v], mates[c][u] = u, v
            return mates
        frames.append([v, c, options, -1])
        while frames:  # take the next candidate of the last player, going back when none
            frame = frames[-1]
            v, c, options, u = frame
            if u >= 0:
                covered[c] &= ~((1 << v) | (1 << u))
                free[v] |= 1 << u
                free[u] |= 1 << v
            if not options:
                frames.pop()
                continue
            u = (options & -options).bit_length() - 1
            frame[2], frame[3] = options & ~(1 << u), u
            free[v] &= ~(1 << u)
            free[u] &= ~(1 << v)
            covered[c] |= (1 << v) | (1 << u)
            break
        else:
            return None


def round_of(mates: Mates, colour: int) -> list[tuple[int, int]]:
    """The pairs of one colour, lower index first, by the lower index."""
    return [(v, w) for v, w in enumerate(mates[colour]) if v < w]


def _colour(mates: Mates, missing: list[int], u: int, v: int, c: int) -> None:
    mates[c][u], mates[c][v] = v, u
    missing[u] &= ~(1 << c)
    missing[v] &= ~(1 << c)


def _pick(mask: int, rng: random.Random) -> int:
    options = list(bits(mask))
    return options[rng.randrange(len(options))]


def _chain(mates: Mates, v: int, a: int, b: int, fixed: set[int], n: int) -> list[int] | None:
    """The players along the chain of pairs coloured ``a``, ``b``, ``a``, … from ``v`` (which
    misses ``b``), or ``None`` if it holds a pinned pair. It is a path: ``v`` ends it."""
    path = [v]
    x, c, other = v, a, b
    while (y := mates[c][x]) >= 0:
        if c == 0 and min(x, y) * n + max(x, y) in fixed:
            return None
        path.append(y)
        x, c, other = y, other, c
    return path


def _swap(mates: Mates, missing: list[int], path: list[int], a: int, b: int) -> None:
    """Swap colours ``a`` and ``b`` along ``path`` (its first pair is coloured ``a``)."""
    for x, y in pairwise(path):
        mates[a][x] = mates[a][y] = mates[b][x] = mates[b][y] = -1
    for i, (x, y) in enumerate(pairwise(path)):
        c = b if i % 2 == 0 else a
        mates[c][x], mates[c][y] = y, x
    both = (1 << a) | (1 << b)
    missing[path[0]] ^= both
    if len(path) > 1:
        missing[path[-1]] ^= both
