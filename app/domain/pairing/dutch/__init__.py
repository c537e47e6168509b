"""Pairing system ``dutch``: the FIDE (Dutch) System, C.04.3 as applied from 1 February 2026.

``engine`` pairs one round from the players' records (``types``), one module per part of the
rules (``docs/dutch.md``); ``round`` is the system's entry point, which reads the tournament.
"""

from app.domain.pairing.dutch.engine import pair_dutch

__all__ = ["pair_dutch"]
