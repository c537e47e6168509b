"""Long overrides of ``nearest``: a round that keeps a complete round robin reachable.

The look-ahead of ``pairing-nearest.md`` step 4 is exact on small fields; beyond them
(``lookahead``) it may accept a round it could not decide. In a long override that is where a
round robin goes wrong: close to ``N - 1`` rounds, a round chosen without proof can leave the
unplayed pairs with no split into the rounds still to play, and the last rounds then pair
rematches. A complete round robin exists for every even field, but not every partial one
extends to a full one.

So when the look-ahead accepted a round without proof, in an even field where everyone has
played every round (the unplayed pairs form a ``d``-regular graph; an odd field counts the bye
as one more player, ``engine._with_bye_player``), the engine looks for a proof
instead: a split of the unplayed pairs into ``d`` rounds, the accepted round being one of them
(``factorization.one_factorization``). ``d`` rounds are at least the rounds left, so the later
rounds are then possible. If the accepted round cannot be proven, the round is rebuilt in
search order from the top, pair by pair, keeping each pair only while a split that contains the
pairs kept so far is found: the longest proven prefix of the first round in search order, then
the proven candidate nearest to its next player, then again the first round in order that
follows, and so on. Every round it returns is proven; the splits found along the way carry the
proof from one step to the next, so the search always has a proven round to fall back on when
its budget runs out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.matching import Matching, bits
from app.domain.pairing.nearest.factorization import (
    Mates,
    StepBudget,
    odd_component,
    one_factorization,
    round_of,
)
from app.domain.pairing.search_order import first_round

ROUND_BUDGET = 60_000
"""Walk steps of ``one_factorization`` per round: at most about 0.6 s of CPU on 256 players
(a proof there usually takes 1,000–3,500 steps)."""
PROOF_MAX_PAIRS = 40_000
"""Above this many unplayed pairs no proof is sought and an undecided round stays marked: one
greedy pass alone would cost over 25 ms (0.6 µs a pair), and a rebuild may need dozens. A full
round robin of 256 players has 32,512 unplayed pairs after round 1; one of 1,000 players gets
under the bound at round 920, so its last 80 rounds are proven."""


Pairs = Sequence[tuple[int, int]]


def regular_degree(unplayed: Sequence[int]) -> int | None:
    """The common number of unplayed opponents in an even field, or ``None`` if they differ
    (or the pairs are too many to seek a proof, ``PROOF_MAX_PAIRS``)."""
    if not unplayed or len(unplayed) % 2:
        return None
    degree = unplayed[0].bit_count()
    if len(unplayed) * degree > 2 * PROOF_MAX_PAIRS:
        return None
    return degree if all(row.bit_count() == degree for row in unplayed) else None


def reachable_round(
    unplayed: Sequence[int], first: Pairs, *, deadline: Deadline = NO_DEADLINE
) -> tuple[tuple[int, int], ...] | None:
    """``first`` if a split of the unplayed pairs into rounds proves it, else the round built
    in search order as the module docstring says; ``None`` when nothing could be proven.

    ``unplayed`` must be regular (``regular_degree``); ``first`` is a complete round of it,
    pairs ``(higher, lower)`` in search order.
    """
    budget = StepBudget(ROUND_BUDGET)

    def prove(pinned: Pairs) -> Mates | None:
        return one_factorization(unplayed, pinned=pinned, budget=budget, deadline=deadline)

    if odd_component(unplayed):
        return None
    if prove(first) is not None:
        return tuple(first)
    witness = prove(())
    if witness is None:
        return None
    everyone = (1 << len(unplayed)) - 1
    prefix: list[tuple[int, int]] = []
    current = list(first)
    while budget.left > 0:
        low, high = _agreed(witness, current, len(prefix)), len(current)
        while low < len(current) and high - low > 1 and budget.left > 0:
            middle = (low + high) // 2
            found = prove(current[:middle])
            if found is None:
                high = middle
            else:
                witness = found
                low = _agreed(witness, current, middle)
                if low >= high:  # the failed proof was the walk's, not the round's
                    high = len(current)
        if low == len(current):
            return tuple(current)
        if high - low > 1:
            break
        prefix = current[:low]
        p, nearest = current[low]
        step = _next_pair(unplayed, prefix, p, nearest, witness, prove, deadline)
        if step is None:
            break
        witness = step[1]
        prefix.append((p, step[0]))
        rest = everyone & ~_players(prefix)
        if not rest:
            return tuple(prefix)
        completed = first_round(unplayed, None, players=rest, deadline=deadline)
        if completed is None:  # the witness pairs them: impossible
            break
        current = prefix + list(completed.pairs)
        if prove(current) is not None:
            return tuple(current)
    return tuple(round_of(witness, 0))


def _next_pair(
    unplayed: Sequence[int],
    prefix: Pairs,
    p: int,
    nearest: int,
    witness: Mates,
    prove: Callable[[Pairs], Mates | None],
    deadline: Deadline,
) -> tuple[int, Mates] | None:
    """``p``'s first opponent after ``nearest`` (nearest first) with which a split is found.

    The witness proves the prefix, so its own pair for ``p`` ends the list; only players after
    which the others can still be paired are tried.
    """
    proven = witness[0][p]
    if proven == nearest:
        return nearest, witness
    rest = ((1 << len(unplayed)) - 1) & ~_players(prefix)
    matching = Matching(unplayed, rest, deadline=deadline)
    for q in bits(matching.partners(p) & ~((2 << nearest) - 1)):
        if q == proven:
            return q, witness
        found = prove([*prefix, (p, q)])
        if found is not None:
            return q, found
    return None


def _agreed(witness: Mates, pairs: Pairs, start: int) -> int:
    """How long a prefix of ``pairs`` the witness proves, knowing it proves ``start``."""
    while start < len(pairs) and witness[0][pairs[start][0]] == pairs[start][1]:
        start += 1
    return start


def _players(pairs: Pairs) -> int:
    mask = 0
    for p, q in pairs:
        mask |= (1 << p) | (1 << q)
    return mask
