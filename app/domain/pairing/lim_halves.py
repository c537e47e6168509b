"""``lim`` step 6, "rule 11.2": top half against bottom half, with transpositions and exchanges.

S2's permutations are never enumerated: the first permutation in lexicographic order that avoids
every rematch is built directly (``first_transposition``). Exchanges are tried in the spec's
order, but only when a matching bound says they can help: one exchange raises the number of
pairs S1 x S2 can form by at most two, two exchanges by at most four.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.lim_matching import bipartite_deficiency, first_transposition
from app.domain.pairing.lim_unmet import Unmet

EXCHANGE_BUDGET = 20_000
"""Exchanges tried at most per group; past it the group has no completion by this rule."""


@dataclass(frozen=True, slots=True)
class Halves:
    """A group paired by rule 11.2: ``pairs`` as (S1 player, S2 player), in S1 order."""

    pairs: tuple[tuple[int, int], ...]
    transposed: bool
    exchanged: bool


def pair_halves(
    players: Sequence[int], unmet: Unmet, *, deadline: Deadline = NO_DEADLINE
) -> Halves | None:
    """Rule 11.2 on an even number of players: S1[i] v S2[i], then transpositions, exchanges.

    Positions are ranks among ``players``. If a pair has met, try S2's permutations in
    lexicographic order; if none works, exchange one player of S1 with one of S2 (smallest
    difference in position first, ties: the lowest-ranked S1 player first), then two at a time
    (smallest sum of differences, then the lowest-ranked S1 players, then the lowest S2
    positions), each from the original halves, re-sorting and retrying the permutations.
    """
    ranked = sorted(players)
    half = len(ranked) // 2
    top, bottom = ranked[:half], ranked[half:]
    first = _transposed(top, bottom, unmet, exchanged=False)
    if first is not None:
        return first
    deficiency = bipartite_deficiency(top, bottom, unmet)
    for tried, (out_of_top, out_of_bottom) in enumerate(_exchanges(half, deficiency)):
        if tried >= EXCHANGE_BUDGET:
            return None
        deadline.check()
        leaving = {ranked[p] for p in out_of_top}
        arriving = {ranked[p] for p in out_of_bottom}
        new_top = sorted((set(top) - leaving) | arriving)
        new_bottom = sorted((set(bottom) - arriving) | leaving)
        found = _transposed(new_top, new_bottom, unmet, exchanged=True)
        if found is not None:
            return found
    return None


def _transposed(
    top: list[int], bottom: list[int], unmet: Unmet, *, exchanged: bool
) -> Halves | None:
    permutation = first_transposition(top, bottom, unmet)
    if permutation is None:
        return None
    return Halves(
        pairs=tuple((p, bottom[j]) for p, j in zip(top, permutation, strict=True)),
        transposed=permutation != list(range(len(top))),
        exchanged=exchanged,
    )


def _exchanges(half: int, deficiency: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Exchanges as (S1 positions, S2 positions), 0-based, in the order rule 11.2 tries them."""
    if deficiency <= 2:
        yield from _single_exchanges(half)
    if deficiency <= 4:
        yield from _double_exchanges(half)


def _single_exchanges(half: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    for difference in range(1, 2 * half):
        for a in range(half - 1, -1, -1):
            b = a + difference
            if half <= b < 2 * half:
                yield (a,), (b,)


def _double_exchanges(half: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    # S1 pairs, lowest-ranked first: compare the lower member, then the other.
    top_pairs = sorted(combinations(range(half), 2), key=lambda t: (-t[1], -t[0]))
    bottom_by_sum: dict[int, list[tuple[int, int]]] = {}
    for pair in combinations(range(half, 2 * half), 2):
        bottom_by_sum.setdefault(pair[0] + pair[1], []).append(pair)
    if not top_pairs or not bottom_by_sum:
        return
    smallest = min(bottom_by_sum) - (2 * half - 3)
    largest = max(bottom_by_sum) - 1
    for difference in range(smallest, largest + 1):
        for a in top_pairs:
            for b in bottom_by_sum.get(a[0] + a[1] + difference, ()):
                yield a, b
