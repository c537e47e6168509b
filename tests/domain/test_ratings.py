"""Club ratings: Glickman's worked Glicko-2 example, hand-computed Elo, and their properties."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.colours import ColourRule
from app.domain.matches import Match
from app.domain.ratings.club import (
    INITIAL,
    Rating,
    RatingSystem,
    System,
    performance,
    rate_tournament,
    start,
)
from app.domain.ratings.elo import elo_period, expected_score
from app.domain.ratings.games import DRAW, LOSS, WIN, Game, game_pair, rated_games, renamed
from app.domain.ratings.glicko2 import GLICKO_SCALE, Glicko2, glicko2_period, glicko2_update
from app.domain.types import DecidedBy, Forfeit, PlayerId, Result, RoundNumber, Side, Stage


def match(mid: int, home: int, away: int, result: Result | None) -> Match:
    return Match(
        mid,
        Stage.SWISS,
        RoundNumber(1),
        None,
        mid,
        PlayerId(home),
        PlayerId(away),
        ColourRule.LOT,
        result,
    )


def test_glickmans_example() -> None:
    """The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 (τ 0.5):
    r' = 1464.06, RD' = 151.52, σ' = 0.05999."""
    after = glicko2_update(
        Glicko2(1500, 200, 0.06),
        [(Glicko2(1400, 30), 1.0), (Glicko2(1550, 100), 0.0), (Glicko2(1700, 300), 0.0)],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_without_games_only_the_deviation_grows() -> None:
    """Step 6 alone: φ* = √(φ² + σ²) = √(1.15129² + 0.06²) = 1.15285, RD 200.27."""
    after = glicko2_update(Glicko2(1500, 200, 0.06), [], tau=0.5)
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert after.deviation == pytest.approx(200.27, abs=0.01)


def test_elo_by_hand() -> None:
    """1600 v 1400, K 20: E = 1/(1 + 10^(−200/400)) = 0.7597; a win moves 20 × 0.2403 = 4.81
    each way, a draw 20 × (0.5 − 0.7597) = −5.19 for the stronger."""
    assert expected_score(1600, 1400) == pytest.approx(0.7597, abs=0.0001)
    won = elo_period(
        {"a": 1600, "b": 1400}, [Game("a", "b", WIN), Game("b", "a", LOSS)], k=20, initial=1500
    )
    assert won == pytest.approx({"a": 1604.81, "b": 1395.19}, abs=0.01)
    drawn = elo_period(
        {"a": 1600, "b": 1400}, [Game("a", "b", DRAW), Game("b", "a", DRAW)], k=20, initial=1500
    )
    assert drawn == pytest.approx({"a": 1594.81, "b": 1405.19}, abs=0.01)


def test_elo_newcomer_starts_at_the_initial_rating() -> None:
    after = elo_period({}, [Game("n", "m", WIN), Game("m", "n", LOSS)], k=32, initial=1500)
    assert after == pytest.approx({"n": 1516.0, "m": 1484.0})


def test_rated_games_leave_out_forfeits_and_open_matches() -> None:
    matches = [
        match(1, 1, 2, Result(2, 1)),
        match(2, 3, 4, Result(1, 1)),
        match(3, 5, 6, Result(0, 0, forfeit=Forfeit.HOME)),
        match(4, 7, 8, Result(0, 0, forfeit=Forfeit.BOTH)),
        match(5, 9, 10, None),
        match(6, 11, 12, Result(1, 1, winner=Side.AWAY, decided_by=DecidedBy.PENALTIES)),
        replace(  # two against two (DYP): no game of one player against another
            match(7, 13, 14, Result(10, 3)), home_partner=PlayerId(15), away_partner=PlayerId(16)
        ),
    ]
    assert [(g.player, g.opponent, g.score) for g in rated_games(matches)] == [
        (1, 2, WIN),
        (2, 1, LOSS),
        (3, 4, DRAW),
        (4, 3, DRAW),
        (11, 12, LOSS),
        (12, 11, WIN),
    ]
    ids = {PlayerId(1): "ada", PlayerId(2): "bo"}
    assert renamed(rated_games(matches), ids) == [Game("ada", "bo", WIN), Game("bo", "ada", LOSS)]


scores = st.sampled_from([WIN, DRAW, LOSS])
ratings = st.floats(min_value=800, max_value=2800, allow_nan=False)


@st.composite
def periods(draw: st.DrawFn) -> tuple[dict[int, float], list[Game[int]]]:
    players = draw(st.integers(min_value=2, max_value=8))
    rated = {p: draw(ratings) for p in range(players)}
    games: list[Game[int]] = []
    for _ in range(draw(st.integers(min_value=1, max_value=12))):
        a, b = draw(st.lists(st.sampled_from(range(players)), min_size=2, max_size=2, unique=True))
        score = draw(scores)
        games += [Game(a, b, score), Game(b, a, 1 - score)]
    return rated, games


@given(periods())
def test_elo_with_one_k_gives_what_it_takes(
    period: tuple[dict[int, float], list[Game[int]]],
) -> None:
    """With one K for everybody, the points won are the points lost, and the order of the
    games does not matter."""
    rated, games = period
    after = elo_period(rated, games, k=24, initial=1500)
    assert sum(after.values()) == pytest.approx(sum(rated[p] for p in after))
    assert elo_period(rated, list(reversed(games)), k=24, initial=1500) == pytest.approx(after)


@given(
    st.floats(min_value=1000, max_value=2500),
    st.floats(min_value=30, max_value=350),
    st.lists(
        st.tuples(
            st.floats(min_value=1000, max_value=2500),
            st.floats(min_value=30, max_value=350),
            scores,
        ),
        min_size=1,
        max_size=9,
    ),
)
def test_glicko2_moves_with_the_results(
    rating: float, deviation: float, opponents: list[tuple[float, float, Fraction]]
) -> None:
    """Games only shrink the deviation below φ* (step 7), and winning every game never lowers
    a rating (losing every one never raises it); the volatility stays positive and finite."""
    player = Glicko2(rating, deviation, 0.06)
    played = [(Glicko2(r, d), float(s)) for r, d, s in opponents]
    after = glicko2_update(player, played, tau=0.5)
    widened = math.hypot(deviation, after.volatility * GLICKO_SCALE)  # φ* with the new σ
    assert after.deviation <= widened
    assert 0 < after.volatility < 1
    if all(s == WIN for _, _, s in opponents):
        assert after.rating >= rating
    if all(s == LOSS for _, _, s in opponents):
        assert after.rating <= rating


def test_glicko2_period_rates_from_the_ratings_before_it() -> None:
    games = [Game("a", "b", WIN), Game("b", "a", LOSS)]
    start = Glicko2(1500, 200, 0.06)
    after = glicko2_period({"a": start}, games, tau=0.5, initial=Glicko2())
    assert after["a"] == glicko2_update(start, [(Glicko2(), 1.0)], tau=0.5)
    assert after["b"] == glicko2_update(Glicko2(), [(start, 0.0)], tau=0.5)


# -- a club's tournament as a period -----------------------------------------------------------


def test_a_tournament_by_elo_gives_each_player_its_change_score_and_performance() -> None:
    """K 32: "a" (1600) loses to "b" (1400) and draws "c" (1500); "b" also loses to "c".
    a: E = 0.759747 vs b, 0.640065 vs c: 1600 + 32 × (0 + ½ − 1.399812) = 1571.206.
    Its performance: (1400 + 1500) / 2 + 400 × (0 − 1) / 2 = 1250."""
    games = [
        *game_pair("a", "b", Result(0, 1)),
        *game_pair("a", "c", Result(1, 1)),
        *game_pair("b", "c", Result(0, 2)),
        *game_pair("c", "d", Result(0, 0, forfeit=Forfeit.AWAY)),  # no game
    ]
    ratings = {"a": Rating(1600.0), "b": Rating(1400.0)}
    changes = rate_tournament(System(k=32), ratings, games, first=lambda _p: Rating(INITIAL))
    assert set(changes) == {"a", "b", "c"}
    a = changes["a"]
    assert a.after.rating == pytest.approx(1571.206, abs=1e-3)
    assert (a.before, a.games, a.score_halves) == (Rating(1600.0), 2, 1)
    assert a.performance == pytest.approx(1250.0)
    assert changes["c"].score_halves == 3  # a draw and a win
    total = sum(c.after.rating - c.before.rating for c in changes.values())
    assert total == pytest.approx(0.0, abs=1e-9)  # Elo with one K is zero-sum


def test_a_tournament_by_glicko2_is_the_papers_period() -> None:
    ratings = {
        "p": Rating(1500, 200, 0.06),
        "x": Rating(1400, 30, 0.06),
        "y": Rating(1550, 100, 0.06),
        "z": Rating(1700, 300, 0.06),
    }
    games = [
        *game_pair("p", "x", Result(1, 0)),
        *game_pair("p", "y", Result(0, 1)),
        *game_pair("p", "z", Result(0, 1)),
    ]
    system = System(RatingSystem.GLICKO2)
    changes = rate_tournament(system, ratings, games, first=lambda _p: start(system, None))
    p = changes["p"].after
    assert p.rating == pytest.approx(1464.06, abs=0.01)
    assert p.deviation == pytest.approx(151.52, abs=0.01)
    assert p.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_first_rating_is_the_one_entered_else_1500() -> None:
    assert start(System(), 1830) == Rating(1830.0)
    assert start(System(), None) == Rating(1500.0)
    assert start(System(RatingSystem.GLICKO2), None) == Rating(1500.0, 350.0, 0.06)


def test_performance_is_linear_in_the_balance() -> None:
    assert performance([1500.0, 1700.0], [WIN, DRAW]) == 1600 + 400 * 1 / 2
    assert performance([1500.0], [LOSS]) == 1100


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from([WIN, DRAW, LOSS])),
        max_size=20,
    ),
    st.dictionaries(st.integers(0, 5), st.floats(800, 2600), max_size=6),
)
def test_elo_is_zero_sum_and_ignores_the_order_of_the_games(
    played: list[tuple[int, int, Fraction]], known: dict[int, float]
) -> None:
    games = [g for h, a, s in played if h != a for g in (Game(h, a, s), Game(a, h, 1 - s))]
    ratings = {p: Rating(r) for p, r in known.items()}
    first = lambda _p: Rating(INITIAL)  # noqa: E731
    changes = rate_tournament(System(k=20), ratings, games, first=first)
    assert sum(c.after.rating - c.before.rating for c in changes.values()) == pytest.approx(
        0.0, abs=1e-6
    )
    backwards = rate_tournament(System(k=20), ratings, list(reversed(games)), first=first)
    assert {p: pytest.approx(c.after.rating) for p, c in changes.items()} == {
        p: c.after.rating for p, c in backwards.items()
    }
    assert all(c.games == sum(g.player == p for g in games) for p, c in changes.items())
