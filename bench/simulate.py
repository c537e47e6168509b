"""A random Swiss tournament for the pairing benchmarks: each player's points, goal difference,
byes and opponents, one paired round at a time, with results drawn from a seeded generator.

Used by ``bench_pairing_nearest.py``, ``bench_pairing_lim.py`` and ``bench_long_override.py``;
each pairs with its own system and builds its own ``PairingContext``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.domain.pairing.base import Entrant, PairingHistory, RoundPairing
from app.domain.types import PlayerId, PointsTable, Score

POINTS = PointsTable.default()

Outcome = Callable[[random.Random], int]
"""Draws a board's result for its better-ranked player: 1 a win, 0 a draw, -1 a loss."""


def thirds(rng: random.Random) -> int:
    """Win, draw or loss, equally likely."""
    return (1, 0, -1)[rng.randrange(3)]


def fifth_drawn(rng: random.Random) -> int:
    """A fifth of the games drawn, the others won by either player equally."""
    roll = rng.random()
    if roll < 0.2:
        return 0
    return 1 if roll < 0.6 else -1


class Simulation:
    """``size`` players, ids 0 .. size − 1 and start numbers 1 .. size, and the rounds played:
    a win scores one goal of difference, the bye scores ``POINTS.bye``."""

    def __init__(self, size: int, *, seed: int, outcome: Outcome = thirds) -> None:
        self.size = size
        self.rng = random.Random(seed)
        self.outcome = outcome
        self.points = [0] * size
        self.goals = [0] * size
        self.byes = [0] * size
        self.opponents: list[set[int]] = [set() for _ in range(size)]
        self.played = 0
        self.rematches = 0

    def order(self, *, by_goals: bool = False) -> list[Entrant]:
        """The standings order: points, then (``by_goals``) goal difference, then start number."""
        if by_goals:
            ranked = sorted(range(self.size), key=lambda p: (-self.points[p], -self.goals[p], p))
        else:
            ranked = sorted(range(self.size), key=lambda p: (-self.points[p], p))
        return [Entrant(PlayerId(p), Score(self.points[p]), self.byes[p], p + 1) for p in ranked]

    def history(self) -> PairingHistory:
        return PairingHistory(
            {PlayerId(p): frozenset(PlayerId(o) for o in s) for p, s in enumerate(self.opponents)}
        )

    def record(self, pairing: RoundPairing) -> None:
        """Play the paired round: the bye scores, every board's result is drawn."""
        self.rematches += len(pairing.rematch_pairs)
        if pairing.bye is not None:
            self.points[pairing.bye] += POINTS.bye
            self.byes[pairing.bye] += 1
        for pair in pairing.pairs:
            a, b = pair.higher, pair.lower
            self.opponents[a].add(b)
            self.opponents[b].add(a)
            result = self.outcome(self.rng)
            self.points[a] += (POINTS.loss, POINTS.draw, POINTS.win)[result + 1]
            self.points[b] += (POINTS.win, POINTS.draw, POINTS.loss)[result + 1]
            self.goals[a] += result
            self.goals[b] -= result
        self.played += 1
