"""Pairing system ``lim``: score groups, as a gomoku league runs it (``pairing-lim.md``).

Two players meet at most once; pairs are formed from players with the same or the nearest
number of points. The score groups are paired from the top down to the median, from the bottom
up to the median, and the median group last (``groups``), each by top half against bottom
half (``halves``); when that procedure gets stuck a search over the unmet pairs takes over
(``search``), and only when no rematch-free round exists at all are rematches paired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.domain.pairing.base import (
    Entrant,
    PairingContext,
    PairingHistory,
    RoundPairing,
    bye_candidates,
    pair_by_order,
)
from app.domain.pairing.lim import explanation as explain
from app.domain.pairing.lim import paths
from app.domain.pairing.lim.groups import pair_groups
from app.domain.pairing.lim.search import search_round
from app.domain.pairing.lim.unmet import unmet_rows, without
from app.domain.types import Pair, PlayerId


def pair_round(
    order: Sequence[Entrant], history: PairingHistory, context: PairingContext
) -> RoundPairing:
    """Pair one round by the ``lim`` rules, ``order`` being the standings order (tiebreak lim).

    Step 1: with an odd number, the lowest-ranked player who has not had a bye gets it (all
    have: the lowest-ranked). Round 1 pairs the top half against the bottom half. Later rounds
    pair the score groups (steps 2–6); step 7 searches the unmet pairs when they get stuck, and
    only with no rematch-free round at all are the players paired by the order, marked.
    """
    candidates = bye_candidates(order)
    bye = candidates[0].id if candidates else None
    everyone = unmet_rows([e.id for e in order], history)
    rank = {e.id: r for r, e in enumerate(order)}
    players = [e for e in order if e.id != bye]
    unmet = everyone if bye is None else without(everyone, rank[bye])
    if context.round_number == 1:
        # Round 1: top half v bottom half, unless it pairs a hard forbidden pair (the only
        # history a first round has); then the one group of 0 points is paired by the rules.
        half = len(players) // 2
        pairs = [(r, r + half) for r in range(half)]
        if all(unmet[a] >> b & 1 for a, b in pairs):
            pairing = _round(players, pairs, bye, (paths.TOP_BOTTOM,))
            return replace(pairing, explanation=explain.top_bottom(order, pairing))
    doubled_median = context.points.win * (context.round_number - 1)
    grouped = pair_groups(
        [e.points for e in players],
        unmet,
        doubled_median=doubled_median,
        deadline=context.deadline,
    )
    if grouped is not None:
        pairing = _round(players, list(grouped.pairs), bye, grouped.path)
        explanation = explain.by_groups(
            order, players, grouped, pairing, doubled_median=doubled_median
        )
        return replace(pairing, explanation=explanation)
    byes: list[PlayerId | None] = [c.id for c in candidates] or [None]
    for left in byes:
        others = [e for e in order if e.id != left]
        rows = everyone if left is None else without(everyone, rank[left])
        found = search_round([e.points for e in others], rows, deadline=context.deadline)
        if found is not None:
            pairing = _round(others, found, left, (paths.FALLBACK_SEARCH,))
            return replace(pairing, explanation=explain.searched(order, pairing))
    pairing = pair_by_order(order, history, bye=bye)
    return replace(pairing, explanation=explain.fallback(order, pairing))


def _round(
    players: Sequence[Entrant],
    pairs: Sequence[tuple[int, int]],
    bye: PlayerId | None,
    path: tuple[str, ...],
) -> RoundPairing:
    """Pairs better-ranked first, boards sorted by the better player's rank."""
    boards = sorted((min(a, b), max(a, b)) for a, b in pairs)
    return RoundPairing(
        pairs=tuple(Pair(players[a].id, players[b].id) for a, b in boards),
        bye=bye,
        path=path,
    )
