"""The names ``lim`` writes in ``RoundPairing.path``, one per rule of ``pairing-lim.md``.

A round's path lists each rule that acted, once, in the order it first acted.
"""

from __future__ import annotations

from typing import Final

from app.domain.pairing.base import FALLBACK

TOP_BOTTOM: Final = "top_bottom"
"""Round 1: one score group, top half against bottom half."""
TOP_DOWN: Final = "top_down"
"""Step 3: a group above the median was paired, from the top group down."""
BOTTOM_UP: Final = "bottom_up"
"""Step 4: a group below the median was paired, from the bottom group up."""
MEDIAN_GROUP: Final = "median_group"
"""Step 5: the median group was paired (last)."""
ISLANDS: Final = "islands"
"""Step 3.1 / 4: a player with no unmet opponent in the group changed group."""
ODD_GROUP_FLOATER: Final = "odd_group_floater"
"""Step 3.2 / 4: an odd group sent its lowest (or, upward, its best) player on."""
MIXED_GROUP: Final = "mixed_group"
"""Step 3.3: a group holding floaters paired them first."""
UNPAIRABLE_FLOATERS: Final = "unpairable_floaters"
"""Step 3.4 / 4: players whose leaving lets the group pair moved on."""
MEDIAN_BLOCKED: Final = "median_blocked"
"""Step 5: the median group was blocked and a neighbouring group was undone into it."""
TRANSPOSITION: Final = "transposition"
"""Step 6: a permutation of S2 other than the first avoided a rematch."""
EXCHANGE: Final = "exchange"
"""Step 6: players were exchanged between S1 and S2."""
FALLBACK_SEARCH: Final = "fallback_search"
"""Step 7: the procedure got stuck; the round comes from the search over unmet pairs."""

__all__ = [
    "BOTTOM_UP",
    "EXCHANGE",
    "FALLBACK",
    "FALLBACK_SEARCH",
    "ISLANDS",
    "MEDIAN_BLOCKED",
    "MEDIAN_GROUP",
    "MIXED_GROUP",
    "ODD_GROUP_FLOATER",
    "TOP_BOTTOM",
    "TOP_DOWN",
    "TRANSPOSITION",
    "UNPAIRABLE_FLOATERS",
]
