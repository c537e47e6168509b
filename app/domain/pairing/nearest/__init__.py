"""Pairing system ``nearest``, "Formula Svizzera" (``pairing-nearest.md``): ``engine`` pairs an
order of players; the search (``..search_order``), the look-ahead (``lookahead``) and the long
overrides (``round_robin``, ``factorization``) are its parts."""

from app.domain.pairing.nearest.engine import pair_round

__all__ = ["pair_round"]
