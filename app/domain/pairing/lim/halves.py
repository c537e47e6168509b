"""``lim`` step 6, "rule 11.2": top half against bottom half, with transpositions and exchanges.

S2's permutations are never enumerated: the first permutation in lexicographic order that avoids
every rematch is built directly (``first_transposition``), on bit sets of the group's positions
(``local_rows``) that an exchange only flips. Exchanges are tried in the spec's order, but only
when a matching bound says they can help: one exchange raises the number of pairs S1 x S2 can
form by at most two, two exchanges by at most four; and an exchange whose crossing players have
no unmet partner left in the half they leave cannot work, so it is counted but not tried.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.lim.matching import bipartite_deficiency, first_transposition, local_rows
from app.domain.pairing.lim.unmet import Unmet
from app.domain.pairing.matching import bits, lowest

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
    rows = local_rows(ranked, unmet)
    half = len(ranked) // 2
    top = (1 << half) - 1
    bottom = ((1 << len(ranked)) - 1) & ~top
    first = _transposed(ranked, rows, top, bottom, exchanged=False)
    if first is not None:
        return first
    deficiency = bipartite_deficiency(rows, list(range(half)), bottom)
    tried = 0
    for size, exchanges in _phases(half, deficiency):
        # Each player who crosses must meet someone of the half it leaves (else S1 x S2 could
        # pair as it was), so a phase whose crossing players have nobody there fails as a whole:
        # it is skipped, counted as tried.
        if not _can_cross(rows, top, size) or not _can_cross(rows, bottom, size):
            tried += comb(half, size) ** 2
            continue
        for out_of_top, out_of_bottom in exchanges:
            if tried >= EXCHANGE_BUDGET:
                return None
            tried += 1
            deadline.check()
            moved = sum(1 << p for p in out_of_top + out_of_bottom)
            if not _stays_met(rows, top, out_of_top) or not _stays_met(rows, bottom, out_of_bottom):
                continue
            found = _transposed(ranked, rows, top ^ moved, bottom ^ moved, exchanged=True)
            if found is not None:
                return found
    return None


def _phases(
    half: int, deficiency: int
) -> Iterator[tuple[int, Iterator[tuple[tuple[int, ...], tuple[int, ...]]]]]:
    """The exchanges rule 11.2 tries, in order, by how many players each moves from a half.

    One exchange raises the number of pairs S1 x S2 can form by at most two, two by four.
    """
    if deficiency <= 2:
        yield 1, _single_exchanges(half)
    if deficiency <= 4:
        yield 2, _double_exchanges(half)


def _can_cross(rows: Sequence[int], side: int, size: int) -> bool:
    """Whether ``size`` players of ``side`` can each have their own unmet partner in it.

    An exchange that pairs S1 x S2 without a rematch (when the halves as they were could not)
    pairs each player who crossed with one of the half it left: ``size`` disjoint pairs.
    """
    u = next((p for p in bits(side) if rows[p] & side), -1)
    if u < 0:
        return False
    if size == 1:
        return True
    v = lowest(rows[u] & side)
    rest = side & ~(1 << u | 1 << v)
    if any(rows[p] & rest for p in bits(rest)):
        return True
    # Every pair touches u or v: two disjoint ones are one at u and one at v.
    at_u, at_v = rows[u] & rest, rows[v] & rest
    return bool(at_u) and bool(at_v) and (at_u | at_v).bit_count() >= 2


def _stays_met(rows: Sequence[int], side: int, leaving: tuple[int, ...]) -> bool:
    """Whether the players ``leaving`` ``side`` each have their own unmet partner staying."""
    staying = side & ~sum(1 << p for p in leaving)
    partners = [rows[p] & staying for p in leaving]
    if not all(partners):
        return False
    return len(partners) == 1 or (partners[0] | partners[1]).bit_count() >= 2


def _transposed(
    ranked: Sequence[int], rows: Sequence[int], top: int, bottom: int, *, exchanged: bool
) -> Halves | None:
    left = list(bits(top))
    opponents = first_transposition(rows, left, bottom)
    if opponents is None:
        return None
    return Halves(
        pairs=tuple((ranked[u], ranked[v]) for u, v in zip(left, opponents, strict=True)),
        transposed=opponents != list(bits(bottom)),
        exchanged=exchanged,
    )


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
