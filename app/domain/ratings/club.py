"""A club's rating of one tournament: every player's rating after it, by the club's system.

The club chooses Elo (with its K factor) or Glicko-2; either rates a tournament as one period
(``elo_period``, ``glicko2_period``). Beside the new ratings, each player's games, score and
performance rating in the period are what the history shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from app.domain.ratings.elo import elo_period
from app.domain.ratings.games import Game, K, halves
from app.domain.ratings.glicko2 import Glicko2, glicko2_period

INITIAL = 1500.0
"""The first rating of a player the club knows no rating of."""
TAU = 0.5
"""Glicko-2's τ (how fast the volatility may move): the paper's example's, within its 0.3–1.2."""
PERFORMANCE_SPREAD = 400.0
"""The linear performance rating: the opponents' average + 400 × (wins − losses) / games."""


class RatingSystem(StrEnum):
    """How a club rates its players: ``elo`` (with its K factor) or ``glicko2``."""

    ELO = "elo"
    GLICKO2 = "glicko2"


@dataclass(frozen=True, slots=True)
class System:
    """The club's rating settings: the system, and Elo's K factor (unused by Glicko-2)."""

    kind: RatingSystem = RatingSystem.ELO
    k: int = 20


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's club rating: Glicko-2 adds the deviation and volatility (None under Elo)."""

    rating: float
    deviation: float | None = None
    volatility: float | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One player's tournament: the rating before and after it, the games, the score (in
    half-points) and the performance rating."""

    before: Rating
    after: Rating
    games: int
    score_halves: int
    performance: float


def start(system: System, rating: float | None) -> Rating:
    """A player's rating before their first rated tournament: the rating they were entered with
    (the register's), else ``INITIAL``; under Glicko-2 with the paper's new-player deviation
    (350) and volatility (0.06)."""
    value = INITIAL if rating is None else float(rating)
    if system.kind is RatingSystem.GLICKO2:
        fresh = Glicko2(value)
        return Rating(value, fresh.deviation, fresh.volatility)
    return Rating(value)


def performance(opponents: Sequence[float], scores: Sequence[Fraction]) -> float:
    """The linear performance rating over a period: the average of the opponents' ratings
    before it + 400 × (wins − losses) / games (a draw counts neither)."""
    return _performance(opponents, sum(halves(s) for s in scores))


def _performance(opponents: Sequence[float], score_halves: int) -> float:
    """``performance`` from the score in half-points: wins − losses = half-points − games."""
    games = len(opponents)
    return sum(opponents) / games + PERFORMANCE_SPREAD * float(score_halves - games) / games


def rate_tournament(
    system: System,
    ratings: Mapping[K, Rating],
    games: Iterable[Game[K]],
    *,
    first: Callable[[K], Rating],
) -> dict[K, Change]:
    """Each player with games: their change over the tournament, a rating period in which every
    expected score comes from the ratings before it (``ratings``; a player missing from it
    starts at ``first(player)``). Players without games are left out: their ratings stay."""
    played = list(games)
    before = {
        p: ratings[p] if p in ratings else first(p)
        for p in sorted({g.player for g in played}, key=repr)
    }
    if system.kind is RatingSystem.GLICKO2:
        as_glicko = {
            p: Glicko2(r.rating, r.deviation or 350.0, r.volatility or 0.06)
            for p, r in before.items()
        }
        new = glicko2_period(as_glicko, played, tau=TAU, initial=Glicko2())
        after = {p: Rating(g.rating, g.deviation, g.volatility) for p, g in new.items()}
    else:
        values = {p: r.rating for p, r in before.items()}
        elo = elo_period(values, played, k=system.k, initial=INITIAL)
        after = {p: Rating(v) for p, v in elo.items()}
    opponents: dict[K, list[float]] = {}
    scored: dict[K, int] = {}
    for game in played:  # in integers of half-points: exact, and no Fraction arithmetic
        opponents.setdefault(game.player, []).append(before[game.opponent].rating)
        scored[game.player] = scored.get(game.player, 0) + halves(game.score)
    return {
        p: Change(
            before[p],
            after[p],
            len(opponents[p]),
            scored[p],
            _performance(opponents[p], scored[p]),
        )
        for p in before
    }
