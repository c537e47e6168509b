"""Pairing system ``dyp``, draw your partner (``docs/rules.md``, "DYP"): ``draw`` draws one
round's teams and matches from an order of players and the partners, opponents and byes so far;
``round`` is the system's entry point, which reads the tournament."""

from app.domain.pairing.dyp.round import pair_round

__all__ = ["pair_round"]
