"""``lim`` step 7, "never stuck": a search over the unmet pairs when the procedure got stuck.

The search order is ``pairing-nearest.md``'s depth-first order: the highest-ranked unpaired
player takes the nearest unpaired, unmet player below it, backtracking on dead ends. Up to
``EXACT_LIMIT`` players the search is exact: the fewest pairs across score groups, then the
smallest sum of point differences, ties to the first in that order (a dynamic programme over the
sets of unpaired players). Above it, the first rematch-free round in that order.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.lim.unmet import Unmet
from app.domain.pairing.search_order import first_round

EXACT_LIMIT = 20

Cost = tuple[int, int]


def search_round(
    points: Sequence[int], unmet: Unmet, *, deadline: Deadline = NO_DEADLINE
) -> list[tuple[int, int]] | None:
    """The step-7 round over ranks ``0..n-1``, or ``None`` when no rematch-free round exists.

    ``unmet[r]``: the bit set of the ranks ``r`` has not met."""
    if len(points) <= EXACT_LIMIT:
        return _cheapest(points, unmet, deadline)
    return _first_in_order(unmet, deadline)


def _cheapest(
    points: Sequence[int], unmet: Unmet, deadline: Deadline
) -> list[tuple[int, int]] | None:
    size = len(points)
    best: dict[int, Cost | None] = {0: (0, 0)}
    choice: dict[int, int] = {}

    def solve(mask: int) -> Cost | None:
        if mask in best:
            return best[mask]
        deadline.check()
        player = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << player)
        options = rest & unmet[player]
        found: Cost | None = None
        while options:
            low = options & -options
            options ^= low
            below = solve(rest & ~low)
            if below is None:
                continue
            opponent = low.bit_length() - 1
            gap = abs(points[player] - points[opponent])
            cost = (below[0] + (gap > 0), below[1] + gap)
            if found is None or cost < found:
                found = cost
                choice[mask] = opponent
        best[mask] = found
        return found

    mask = (1 << size) - 1
    if solve(mask) is None:
        return None
    pairs: list[tuple[int, int]] = []
    while mask:
        player = (mask & -mask).bit_length() - 1
        opponent = choice[mask]
        pairs.append((player, opponent))
        mask &= ~((1 << player) | (1 << opponent))
    return pairs


def _first_in_order(unmet: Unmet, deadline: Deadline) -> list[tuple[int, int]] | None:
    """The first rematch-free round in the nearest order: the same search ``nearest`` runs."""
    found = first_round(unmet, None, deadline=deadline)
    return None if found is None else list(found.pairs)
