"""Pairing system ``nearest`` (``pairing-nearest.md``). Placeholder until implemented."""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.pairing.base import (
    Entrant,
    PairingContext,
    PairingHistory,
    RoundPairing,
    bye_candidates,
    pair_by_order,
)


def pair_round(
    order: Sequence[Entrant], history: PairingHistory, context: PairingContext
) -> RoundPairing:
    """Placeholder: pairs by the order (to be replaced by the real search)."""
    candidates = bye_candidates(order)
    return pair_by_order(order, history, bye=candidates[0].id if candidates else None)
