"""Elo over one rating period: K × (score − expected score), expected from the ratings before."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from app.domain.ratings.games import Game, K

SCALE = 400.0
"""A rating difference of 400 makes the stronger player ten times as likely to score."""


def expected_score(rating: float, opponent: float) -> float:
    """The expected score of ``rating`` against ``opponent``: 1 / (1 + 10^((Ro − R) / 400))."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / SCALE))


def elo_period(
    ratings: Mapping[K, float], games: Iterable[Game[K]], *, k: float, initial: float
) -> dict[K, float]:
    """Every player's rating after the period: R + K × Σ(S − E) over the player's games.

    Each expected score E uses both players' ratings from before the period (a player not in
    ``ratings`` starts at ``initial``), so the order of the games does not matter, as in FIDE's
    rating of a whole tournament at once. Only players with games are returned.
    """
    change: dict[K, float] = {}
    for game in games:
        own = ratings.get(game.player, initial)
        other = ratings.get(game.opponent, initial)
        delta = float(game.score) - expected_score(own, other)
        change[game.player] = change.get(game.player, 0.0) + k * delta
    return {player: ratings.get(player, initial) + d for player, d in change.items()}
