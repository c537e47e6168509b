"""Glicko-2 over one rating period, as Glickman's "Example of the Glicko-2 system" sets it out.

Steps 1–8 of the paper: convert to the Glicko-2 scale, compute the estimated variance ``v`` and
improvement ``Δ``, the new volatility by the Illinois algorithm (step 5), then the new
deviation and rating, and convert back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from app.domain.ratings.games import Game, K

GLICKO_SCALE = 173.7178
"""Ratings to the Glicko-2 scale: μ = (r − 1500) / 173.7178 (step 2)."""
CENTRE = 1500.0
CONVERGENCE = 1e-6
"""ε of step 5: the volatility iteration stops when its bracket is this narrow."""
MAX_ITERATIONS = 100
"""A bound on step 5's iteration (it converges in a handful; the bound keeps the work finite)."""


@dataclass(frozen=True, slots=True)
class Glicko2:
    """A Glicko-2 rating: rating ``r``, rating deviation ``RD`` and volatility ``σ``."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(
    player: Glicko2, results: Sequence[tuple[Glicko2, float]], *, tau: float
) -> Glicko2:
    """The player's rating after one period with ``results`` (opponent, score) (steps 1–8).

    Without games only the deviation grows (step 6: φ* = √(φ² + σ²)); ``tau`` constrains how
    fast the volatility moves (the paper suggests 0.3–1.2).
    """
    mu = (player.rating - CENTRE) / GLICKO_SCALE
    phi = player.deviation / GLICKO_SCALE
    sigma = player.volatility
    if not results:
        return Glicko2(player.rating, math.sqrt(phi * phi + sigma * sigma) * GLICKO_SCALE, sigma)
    variance_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - CENTRE) / GLICKO_SCALE
        phi_j = opponent.deviation / GLICKO_SCALE
        expected = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        variance_inverse += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / variance_inverse
    delta = v * improvement
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko2(mu_new * GLICKO_SCALE + CENTRE, phi_new * GLICKO_SCALE, sigma_new)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        step = 1
        while f(a - step * tau) < 0 and step < MAX_ITERATIONS:
            step += 1
        big_b = a - step * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2_period(
    ratings: Mapping[K, Glicko2], games: Iterable[Game[K]], *, tau: float, initial: Glicko2
) -> dict[K, Glicko2]:
    """Every player's rating after the period (a tournament), each computed from the ratings
    all had before it (a player not in ``ratings`` starts at ``initial``). Only players with
    games are returned: a club's tournament is a period for those who played in it."""
    results: dict[K, list[tuple[Glicko2, float]]] = {}
    for game in games:
        opponent = ratings.get(game.opponent, initial)
        results.setdefault(game.player, []).append((opponent, float(game.score)))
    return {
        player: glicko2_update(ratings.get(player, initial), played, tau=tau)
        for player, played in results.items()
    }
