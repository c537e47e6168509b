"""Pairing system ``lim``: score groups (``pairing-lim.md``): ``engine`` pairs an order of
players; ``groups``, ``halves``, ``search`` and ``unmet`` are its parts."""

from app.domain.pairing.lim.engine import pair_round

__all__ = ["pair_round"]
