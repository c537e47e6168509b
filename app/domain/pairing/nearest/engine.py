"""Pairing system ``nearest``, "Formula Svizzera" (``pairing-nearest.md``).

Round 1 is a seeded draw (a hard forbidden pair the draw would pair sends the round to the
search over the drawn order, ``_draw_apart``). Later rounds follow the standings: the bye rule
(step 1) picks the first candidate with which an accepted round exists, the search (steps 2–3,
``search_order``) gives the first complete rematch-free pairing in search order, and the
look-ahead (step 4, ``lookahead``) skips the rounds after which the later rounds could not be
completed. A round it accepted without proof is proven, or rebuilt, by a split of the unplayed
pairs into rounds where it can be (``round_robin``: long overrides; in an odd field the bye is
one more player), and marked otherwise.

``RoundPairing.path`` names the rules that acted, in order, with the constants below.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from app.domain.deadline import Deadline
from app.domain.pairing.base import (
    FALLBACK,
    Entrant,
    PairingContext,
    PairingHistory,
    RoundPairing,
    bye_candidates,
    pair_by_order,
)
from app.domain.pairing.matching import Matching
from app.domain.pairing.nearest.explanation import explain_round
from app.domain.pairing.nearest.lookahead import LookAhead
from app.domain.pairing.nearest.round_robin import reachable_round, regular_degree
from app.domain.pairing.search_order import Found, first_round
from app.domain.types import Pair

DRAW = "draw"
"""Round 1: the seeded random draw."""
SECOND_BYE = "second_bye"
"""The bye went to a player who already had one: nobody without one allowed an accepted round."""
SEARCH = "search"
"""Steps 2–3: the round comes from the search in standings order."""
BACKTRACK = "backtrack"
"""The search met a dead end (the players left had all played each other) and went back; also
set when a bye candidate was passed over because no rematch-free round exists with it."""
LOOKAHEAD = "lookahead"
"""The look-ahead rejected the first rematch-free round (or a bye candidate) and changed the
round."""
LOOKAHEAD_IGNORED = "lookahead_ignored"
"""No round passed the look-ahead with any bye: the first rematch-free round was taken."""
LOOKAHEAD_UNPROVEN = "lookahead_unproven"
"""The round was accepted without proof that the later rounds can follow it: the bounded
look-ahead ran out of budget, or the field is too large for it and no condition decided (never
set when the look-ahead is exact)."""
FACTORIZATION = "factorization"
"""Long override: the look-ahead could not prove the first accepted round, and the round was
rebuilt so that a split of the unplayed pairs (with the bye as one more player in an odd field)
into rounds proves it (``round_robin``)."""
__all__ = [
    "BACKTRACK",
    "DRAW",
    "FACTORIZATION",
    "FALLBACK",
    "LOOKAHEAD",
    "LOOKAHEAD_IGNORED",
    "LOOKAHEAD_UNPROVEN",
    "SEARCH",
    "SECOND_BYE",
    "pair_round",
]


def pair_round(
    order: Sequence[Entrant], history: PairingHistory, context: PairingContext
) -> RoundPairing:
    """Pair one round of ``nearest``: the draw in round 1, then steps 1–5 of the spec.

    ``order`` is the standings order of the active players, best first. The round is the first
    complete rematch-free pairing in search order that passes the look-ahead, with the first bye
    candidate that allows one; failing that, the first rematch-free one ignoring the look-ahead;
    failing that, the marked fallback pairing by order. The round carries its explanation
    (``nearest_explanation``).
    """
    unplayed = _unplayed(order, history) if context.round_number > 1 else []
    pairing = _pair(order, history, context, unplayed)
    explanation = explain_round(order, unplayed, context, pairing, deadline=context.deadline)
    return replace(pairing, explanation=explanation)


def _pair(
    order: Sequence[Entrant],
    history: PairingHistory,
    context: PairingContext,
    unplayed: Sequence[int],
) -> RoundPairing:
    if context.round_number <= 1:
        drawn = _draw(order, context.rng_seed)
        if any(history.have_played(p.higher, p.lower) for p in drawn.pairs):
            return _draw_apart(order, history, context)
        return drawn
    rank = {entrant.id: i for i, entrant in enumerate(order)}
    candidates: list[int | None] = [rank[e.id] for e in bye_candidates(order)] or [None]
    deadline = context.deadline
    byes = _byes_allowing_a_round(unplayed, deadline)
    look = LookAhead(unplayed, context.later_rounds, deadline=deadline)
    feasible = look.any_round()
    passed_over: set[str] = set()
    first_free: tuple[int | None, Found] | None = None
    for bye in candidates:
        plain = None
        if bye is None or byes >> bye & 1:
            plain = first_round(unplayed, bye, deadline=deadline)
        if plain is None:
            passed_over.add(BACKTRACK)
            continue
        if first_free is None:
            first_free = (bye, plain)
            if not feasible:
                break
        if look.extendable(plain.pairs, bye):
            rules = {*passed_over, *_rules(plain)}
            pairs = _proven(order, plain.pairs, bye, unplayed, look, rules, context)
            return _round(order, bye, pairs, rules)
        guided = first_round(unplayed, bye, viable=look.extendable, deadline=deadline)
        if guided is not None:
            rules = {*passed_over, *_rules(plain), LOOKAHEAD}
            pairs = _proven(order, guided.pairs, bye, unplayed, look, rules, context)
            return _round(order, bye, pairs, rules)
        passed_over.add(LOOKAHEAD)
    if first_free is not None:
        bye, plain = first_free
        return _round(order, bye, plain.pairs, {*_rules(plain), LOOKAHEAD_IGNORED})
    first = candidates[0]
    fallback = pair_by_order(order, history, bye=None if first is None else order[first].id)
    if first is not None and order[first].byes > 0:
        return replace(fallback, path=(SECOND_BYE, FALLBACK))
    return fallback


_PATH_ORDER = (
    SECOND_BYE,
    SEARCH,
    BACKTRACK,
    LOOKAHEAD,
    FACTORIZATION,
    LOOKAHEAD_IGNORED,
    LOOKAHEAD_UNPROVEN,
)


def _rules(found: Found) -> set[str]:
    return {BACKTRACK} if found.backtracked else set()


def _proven(
    order: Sequence[Entrant],
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    unplayed: Sequence[int],
    look: LookAhead,
    rules: set[str],
    context: PairingContext,
) -> Sequence[tuple[int, int]]:
    """The accepted round if the look-ahead proved it. Otherwise, where the unplayed pairs
    are regular (an odd field counting the bye as one more player, ``_with_bye_player``), the
    round ``round_robin`` proves (the same one, or rebuilt; the bye stays with ``bye``);
    failing that, the accepted round, marked ``lookahead_unproven``."""
    if look.proven(pairs, bye):
        return pairs
    n = len(unplayed)
    graph, first = unplayed, list(pairs)
    if bye is not None:  # the bye pinned first: the rebuild pairs the others in search order
        graph, first = _with_bye_player(order, unplayed), [(bye, n), *pairs]
    degree = regular_degree(graph)
    if degree is not None and degree > context.later_rounds:
        reachable = reachable_round(graph, first, deadline=context.deadline)
        # A split that proves a round with a bye proves one with each player it may go to
        # (every pair with the bye player is in one of its rounds), so only ``bye`` is tried.
        if reachable is not None and (bye is None or _bye_of(reachable, n) == bye):
            found = [pair for pair in reachable if n not in pair]
            if sorted(found) != sorted(pairs):
                rules.add(FACTORIZATION)
            return found
    rules.add(LOOKAHEAD_UNPROVEN)
    return pairs


def _with_bye_player(order: Sequence[Entrant], unplayed: Sequence[int]) -> list[int]:
    """An odd field's unplayed pairs with the bye as one more player (index ``len(order)``),
    whom every player without a bye may meet. In a complete round robin of an odd field
    everyone sits out once, so its rounds are the rounds of this even field: they split the
    same way, and a player who met the bye player has had the bye."""
    n = len(unplayed)
    free = 0
    for i, entrant in enumerate(order):
        if entrant.byes == 0:
            free |= 1 << i
    return [row | (1 << n) if free >> i & 1 else row for i, row in enumerate(unplayed)] + [free]


def _bye_of(pairs: Sequence[tuple[int, int]], n: int) -> int | None:
    """Who meets the bye player ``n`` in ``pairs``."""
    return next((p if q == n else q for p, q in pairs if n in (p, q)), None)


def _round(
    order: Sequence[Entrant],
    bye: int | None,
    pairs: Sequence[tuple[int, int]],
    rules: set[str],
) -> RoundPairing:
    rules.add(SEARCH)
    if bye is not None and order[bye].byes > 0:
        rules.add(SECOND_BYE)
    return RoundPairing(
        pairs=tuple(Pair(order[p].id, order[q].id) for p, q in sorted(pairs)),
        bye=None if bye is None else order[bye].id,
        path=tuple(rule for rule in _PATH_ORDER if rule in rules),
    )


def _shuffled(order: Sequence[Entrant], seed: str) -> list[int]:
    shuffled = list(range(len(order)))
    random.Random(seed).shuffle(shuffled)
    return shuffled


def _draw_apart(
    order: Sequence[Entrant], history: PairingHistory, context: PairingContext
) -> RoundPairing:
    """Round 1 when the draw would pair two players who may not meet (a hard forbidden pair:
    the only history a first round has): the search of steps 2–3 over the drawn order, which
    gives the draw's own pairs wherever it can; odd: the bye from the last drawn up. No round
    at all: the marked fallback (``by_standings`` refuses it if it pairs a forbidden pair)."""
    drawn = [order[i] for i in _shuffled(order, context.rng_seed)]
    rank = {e.id: i for i, e in enumerate(order)}
    unplayed = _unplayed(drawn, history)
    byes: list[int | None] = list(range(len(drawn) - 1, -1, -1)) if len(drawn) % 2 else [None]
    for bye in byes:
        found = first_round(unplayed, bye, deadline=context.deadline)
        if found is not None:
            at = [rank[e.id] for e in drawn]
            pairs = sorted((min(at[p], at[q]), max(at[p], at[q])) for p, q in found.pairs)
            return RoundPairing(
                pairs=tuple(Pair(order[p].id, order[q].id) for p, q in pairs),
                bye=None if bye is None else drawn[bye].id,
                path=(DRAW, SEARCH),
            )
    return pair_by_order(order, history, bye=None if byes[0] is None else drawn[byes[0]].id)


def _byes_allowing_a_round(unplayed: Sequence[int], deadline: Deadline) -> int:
    """With an odd count, the players whose bye leaves a rematch-free round (one matching)."""
    if len(unplayed) % 2 == 0:
        return 0
    matching = Matching(unplayed, (1 << len(unplayed)) - 1, deadline=deadline)
    return matching.left_out_by_some() if matching.exposed.bit_count() == 1 else 0


def _unplayed(order: Sequence[Entrant], history: PairingHistory) -> list[int]:
    """Each player's possible opponents, by rank index, as a bit set: the others of ``order``
    not yet played (a meeting recorded on either side counts)."""
    n = len(order)
    rank = {entrant.id: i for i, entrant in enumerate(order)}
    # The played pairs as a bit matrix in one bytearray, both ways round, then each row read
    # as an integer: or-ing single bits into big integers would cost a copy each.
    width = (n + 7) >> 3
    grid = bytearray(n * width)
    for player, opponents in history.opponents.items():
        i = rank.get(player)
        if i is None:
            continue
        row, column, bit = i * width, i >> 3, 1 << (i & 7)
        for opponent in opponents:
            j = rank.get(opponent)
            if j is not None:
                grid[row + (j >> 3)] |= 1 << (j & 7)
                grid[j * width + column] |= bit
    for i in range(n):
        grid[i * width + (i >> 3)] |= 1 << (i & 7)  # nobody plays themselves
    everyone = (1 << n) - 1
    return [
        everyone ^ int.from_bytes(grid[i * width : (i + 1) * width], "little") for i in range(n)
    ]


def _draw(order: Sequence[Entrant], seed: str) -> RoundPairing:
    """Round 1: shuffle with the seeded PRNG, pair 1st–2nd, 3rd–4th, …; odd: the last sits out."""
    shuffled = _shuffled(order, seed)
    bye = shuffled.pop() if len(shuffled) % 2 else None
    pairs = sorted(
        (min(a, b), max(a, b)) for a, b in zip(shuffled[::2], shuffled[1::2], strict=True)
    )
    return RoundPairing(
        pairs=tuple(Pair(order[p].id, order[q].id) for p, q in pairs),
        bye=None if bye is None else order[bye].id,
        path=(DRAW,),
    )
