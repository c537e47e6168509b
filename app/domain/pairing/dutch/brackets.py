"""Pairing one bracket (C.04.3 Art. 3 and 4) as a heaviest matching.

A bracket is the residents of a scoregroup plus the moved-down players (MDPs) left unpaired
above (Art. 1.3). Its pairing is the candidate that best meets the quality criteria, and among
equally good candidates the one generated first (Art. 3.8). Art. 4 orders the candidates:

1. in a heterogeneous bracket, the set of MDPs to pair, the higher MDPs first (4.4), then the
   MDPs' opponents, each MDP in order taking the highest resident it can (4.2 on S2);
2. in the remainder (or a homogeneous bracket), S1 is the first half of the players to pair and
   S2 the rest; the fewest players exchanged between S1 and S2, then the smallest difference
   of the sums of their bracket sequence numbers (BSNs), then the lowest S1 players and the
   highest S2 players exchanged (4.3);
3. then the transpositions of S2: each S1 player in order meets the highest S2 player it can
   (4.2).

Each of these orders is lexicographic, so it adds low fields to the criteria weights of
``criteria``: the heaviest matching is then the first best candidate. Two matchings are
solved per bracket: one that fixes the MDP pairs (step 1) and one for the remainder (steps 2–3),
unless the first already pairs none of the remainder (``_searched_again``).
The matching can be over the bracket alone (the default ``Scope()``), when the caller checks C4
and C8 afterwards, or over everybody left (the next bracket for C8, the rest for C4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from app.domain.pairing.dutch.below import Below, Start
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.matching import max_weight_matching

__all__ = ["BracketPairing", "Scope", "pair_bracket"]


@dataclass(frozen=True, slots=True)
class Scope:
    """Who takes part in the matching besides the bracket.

    ``following``: the next scoregroup (C8), ``below``: everybody lower (C4). ``completion``: the
    C4/C5 field counts (it does whenever the bye is decided in this matching). ``bye_games``:
    C9 counts in this bracket; ``bye_games_below``: it counted when the weights of the lower
    players were first set (the bye comes from the top scoregroup).
    """

    following: Sequence[int] = ()
    below: Sequence[int] = ()
    completion: bool = False
    bye_games: bool = False
    bye_games_below: bool = False


@dataclass(frozen=True, slots=True)
class BracketPairing:
    """The pairs made (higher-ranked player first), the players moved down, and each player's
    partner in the final matching (for the next bracket's C9 check)."""

    pairs: list[tuple[int, int]]
    floaters: list[int]
    partner: dict[int, int] = field(default_factory=dict)


def pair_bracket(
    criteria: Criteria,
    mdps: Sequence[int],
    residents: Sequence[int],
    scope: Scope,
    *,
    check: Callable[[], None] | None = None,
    start: Start | None = None,
    plain: dict[tuple[int, int], int] | None = None,
) -> BracketPairing:
    """Pair the bracket ``mdps + residents`` (indices in pairing order) by Art. 3–4.

    ``start``: what the round's last matching over everybody below left (``below.Start``),
    updated by this bracket's. ``plain``: the weights of the pairs of the bracket and the
    next scoregroup without the C4/C5 and C9 fields, shared by the bracket's matchings (with
    the next scoregroup, then with everybody below): filled by the first, read by the next."""
    bracket = [*mdps, *residents]
    criteria = criteria.within([*bracket, *scope.following])
    following = set(scope.following)
    resident_set = set(residents)
    everyone = [*bracket, *scope.following, *scope.below]
    position = {v: k for k, v in enumerate(everyone)}

    mdp_set = set(mdps)
    top = len(bracket) + len(following)

    def weights(lowers: range) -> dict[tuple[int, int], int]:
        """The weight of every allowed pair whose lower player is ``everyone[k]``, ``k`` in
        ``lowers``."""
        found: dict[tuple[int, int], int] = {}
        graph = criteria.graph()  # ``allowed`` as bit sets
        for k in lowers:
            lower = everyone[k]
            if lower in mdp_set:
                continue  # everybody before it is an MDP: MDPs meet residents only (Art. 3.3)
            meets = graph[lower]
            in_bracket = lower in resident_set
            in_next = lower in following
            for higher in [h for h in everyone[:k] if meets >> h & 1]:
                weight = criteria.quality(
                    higher,
                    lower,
                    in_bracket=in_bracket,
                    in_next=in_next,
                    completion=scope.completion,
                    bye_games=scope.bye_games if (in_bracket or in_next) else scope.bye_games_below,
                )
                if weight:
                    found[(higher, lower)] = weight
        return found

    if plain and scope.completion and not scope.bye_games and following:
        # The same pairs as the matching with the next scoregroup, which left out C4/C5:
        # that field (the highest) added above the others, as ``Criteria.quality`` packs it.
        under = criteria.layout.under_completion
        base = {(a, b): (criteria.completion(a, b) << under) | w for (a, b), w in plain.items()}
    else:
        base = weights(range(top))
        if plain is not None and not scope.completion and not scope.bye_games and following:
            plain.update(base)
    # Over everybody below, the heaviest matching is searched from the players below paired
    # among themselves (``below``); over everybody only when that cannot pair them all.
    below = (
        Below(
            criteria,
            everyone,
            top,
            apart=mdp_set,
            bye_games=scope.bye_games_below,
            start=start if start is not None else Start(),
        )
        if scope.below and scope.completion
        else None
    )

    full = base if top == len(everyone) else None

    def solve(tie: dict[tuple[int, int], int], width: int, removed: set[int]) -> dict[int, int]:
        nonlocal full
        if below is not None:
            packed = {pair: (w << width) + tie.get(pair, 0) for pair, w in base.items()}
            found = below.solve(packed, width, removed, check)
            if found is not None:
                return found
        if full is None:
            full = {**base, **weights(range(top, len(everyone)))}
        edges = [
            (position[a], position[b], (w << width) + tie.get((a, b), 0))
            for (a, b), w in full.items()
            if a not in removed and b not in removed
        ]
        mate = max_weight_matching(len(everyone), edges, check=check)
        return {everyone[i]: everyone[m] for i, m in enumerate(mate) if m != -1}

    pairs: list[tuple[int, int]] = []
    removed: set[int] = set()
    tie, width = _mdp_order(tuple(mdps), tuple(residents))
    mate = solve(tie, width, removed)
    for mdp in mdps:
        partner = mate.get(mdp)
        if partner is not None and partner in resident_set:
            pairs.append((mdp, partner))
            removed.update((mdp, partner))
    remainder = [v for v in residents if v not in removed]
    inner = set(remainder)
    s1_size = sum(1 for v in remainder if mate.get(v, -1) in inner) // 2
    if not _searched_again(s1_size):
        return BracketPairing(pairs, [v for v in bracket if v not in removed], mate)
    tie, width = _remainder_order(remainder, s1_size)
    mate = solve(tie, width, removed)
    for v in remainder:
        partner = mate.get(v)
        if partner is not None and partner in inner and v < partner:
            pairs.append((v, partner))
            removed.update((v, partner))
    floaters = [v for v in bracket if v not in removed]
    return BracketPairing(pairs, floaters, mate)


def _searched_again(remainder_pairs: int) -> bool:
    """Whether the remainder is paired by a second matching (Art. 4.3, 4.2), given the pairs
    the first matching made among its players.

    With none made, no heaviest matching of the rest makes one: C6 counts the pairs in the
    bracket, and the first matching less the MDPs' pairs is a heaviest one of the rest (else
    the first would not be heaviest), so Art. 4 orders nothing more and the first matching is
    the answer. Late in a long event, the residents not paired with an MDP have met each
    other. (With the next scoregroup alone, another of the equally heavy matchings could
    leave other players of it for C4's check: the boards are the same either way, the
    matching with everybody below pairs as the one that passes; ``engine``.)"""
    return remainder_pairs > 0


Ties = dict[tuple[int, int], int]


@lru_cache(maxsize=2)
def _mdp_order(mdps: tuple[int, ...], residents: tuple[int, ...]) -> tuple[Ties, int]:
    """Art. 4.4 then 4.2 for MDPs: the set of paired MDPs (higher MDPs first) above, in base
    ``len(residents) + 1``, one digit per MDP for the rank of its opponent (higher first).
    Kept for the bracket's next matching (with the next scoregroup, then with everybody
    below, the same MDPs and residents); the callers only read it."""
    count = len(mdps)
    if count == 0:
        return {}, 0
    base = len(residents) + 1
    digits = base**count
    tie: Ties = {}
    for k, mdp in enumerate(mdps):
        place = base ** (count - 1 - k)
        paired = (1 << (count - 1 - k)) * digits
        for j, resident in enumerate(residents):
            tie[(mdp, resident)] = paired + (len(residents) - j) * place
    return tie, (1 << count).bit_length() + digits.bit_length() + 1


def _remainder_order(remainder: Sequence[int], s1_size: int) -> tuple[Ties, int]:
    """Art. 4.3 and 4.2 for the remainder; ``s1_size`` players form S1, the rest S2.

    For a pair whose higher player ``a`` sits at position ``p`` of the remainder, the fields
    are: ``a`` in S1 (fewest exchanges); ``size - p`` (smallest sum of BSNs moved to S1); for
    ``a`` in S1, ``2**s1 - 2**p`` (exchange the lowest S1 players); for ``a`` in S2,
    ``2**(size-1-p)`` (exchange the highest S2 players); then the transposition digit, the
    higher the partner the larger, with the S1 players in order as most significant digits.
    """
    size = len(remainder)
    if size < 2:
        return {}, 0
    digit = size + 1
    widths = (
        s1_size.bit_length() + 1,
        (size * size).bit_length() + 1,
        s1_size + s1_size.bit_length() + 1,
        size + 1,
        (digit**size).bit_length() + 1,
    )
    tie: Ties = {}
    for p, a in enumerate(remainder):
        in_s1 = p < s1_size
        head = (
            (
                (((int(in_s1) << widths[1]) | (size - p)) << widths[2])
                | ((1 << s1_size) - (1 << p) if in_s1 else 0)
            )
            << widths[3]
        ) | (0 if in_s1 else 1 << (size - 1 - p))
        place = digit ** (size - 1 - p)
        for q in range(p + 1, size):
            tie[(a, remainder[q])] = (head << widths[4]) | ((size - q) * place)
    return tie, sum(widths)
