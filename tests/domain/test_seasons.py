"""Season tables by each rule, against a table worked by hand (``app/domain/seasons.py``)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st

from app.domain.ratings.games import DRAW, LOSS, WIN, Game
from app.domain.seasons import Evening, Placing, SeasonRule, SeasonScoring, season_standings


def evening(*placings: tuple[str, int, int], games: tuple[Game[str], ...] = ()) -> Evening[str]:
    """Placings as (player, points, matches), in final order."""
    return Evening(
        tuple(Placing(p, place, 2 * points, m) for place, (p, points, m) in enumerate(placings, 1)),
        games,
    )


def beat(winner: str, loser: str) -> tuple[Game[str], Game[str]]:
    return Game(winner, loser, WIN), Game(loser, winner, LOSS)


def drew(a: str, b: str) -> tuple[Game[str], Game[str]]:
    return Game(a, b, DRAW), Game(b, a, DRAW)


# Evening 1: A B C D (3, 2, 1, 0 points of 3 matches), A beat B; evening 2: B C A (3, 2, 1 of 3),
# A and B drew; evening 3: C D (2, 1 of 2).
SEASON = [
    evening(("A", 3, 3), ("B", 2, 3), ("C", 1, 3), ("D", 0, 3), games=beat("A", "B")),
    evening(("B", 3, 3), ("C", 2, 3), ("A", 1, 3), games=drew("A", "B")),
    evening(("C", 2, 2), ("D", 1, 2)),
]


def table(rule: SeasonRule) -> list[tuple[int, str, F]]:
    return [(r.rank, r.player, r.score) for r in season_standings(SEASON, rule)]


def test_points_by_place() -> None:
    """25-18-15-12: A 25 + 15, B 18 + 25, C 15 + 18 + 25, D 12 + 18."""
    assert table(SeasonRule(SeasonScoring.PLACES)) == [
        (1, "C", 58),
        (2, "B", 43),
        (3, "A", 40),
        (4, "D", 30),
    ]


def test_best_evening_by_place_ties_broken_by_evenings_then_head_to_head() -> None:
    """Best 1: A, B and C all have a win (25). C came to three evenings; A and B to two, each
    with a first place, so head to head: A 1 + ½, B 0 + ½."""
    rows = season_standings(SEASON, SeasonRule(SeasonScoring.PLACES, best=1))
    assert [(r.rank, r.player, r.score, r.counted, r.head_to_head) for r in rows] == [
        (1, "C", 25, 1, None),
        (2, "A", 25, 1, F(3, 2)),
        (3, "B", 25, 1, F(1, 2)),
        (4, "D", 18, 1, None),
    ]


def test_sum_of_points() -> None:
    """A 3 + 1, B 2 + 3, C 1 + 2 + 2, D 0 + 1; B and C on 5: C came to more evenings."""
    assert table(SeasonRule(SeasonScoring.POINTS)) == [
        (1, "C", 5),
        (2, "B", 5),
        (3, "A", 4),
        (4, "D", 1),
    ]


def test_average_points_per_match() -> None:
    """A 4/6, B 5/6, C 5/8, D 1/5."""
    assert table(SeasonRule(SeasonScoring.AVERAGE)) == [
        (1, "B", F(5, 6)),
        (2, "A", F(2, 3)),
        (3, "C", F(5, 8)),
        (4, "D", F(1, 5)),
    ]
    rows = {r.player: r for r in season_standings(SEASON, SeasonRule(SeasonScoring.AVERAGE))}
    assert (rows["C"].evenings, rows["C"].points, rows["C"].matches, rows["C"].best_place) == (
        3,
        5,
        8,
        1,
    )


def test_average_over_the_best_evening() -> None:
    """Best 1 by evening average: A 1 (3/3), B 1, C 1 (2/2), D 1/2 (1/2); A, B, C level on
    score; C has three evenings; A and B by head to head."""
    assert table(SeasonRule(SeasonScoring.AVERAGE, best=1)) == [
        (1, "C", 1),
        (2, "A", 1),
        (3, "B", 1),
        (4, "D", F(1, 2)),
    ]


def test_players_still_equal_share_a_rank() -> None:
    season = [evening(("X", 2, 2), ("Z", 0, 2)), evening(("Y", 2, 2), ("W", 0, 2))]
    assert [
        (r.rank, r.player) for r in season_standings(season, SeasonRule(SeasonScoring.PLACES))
    ] == [
        (1, "X"),
        (1, "Y"),
        (3, "Z"),
        (3, "W"),
    ]


@st.composite
def seasons(draw: st.DrawFn) -> list[Evening[int]]:
    players = list(range(draw(st.integers(min_value=1, max_value=8))))
    result = []
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        came = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        points = sorted((draw(st.integers(0, 10)) for _ in came), reverse=True)
        result.append(
            Evening(
                tuple(
                    Placing(p, i + 1, points[i], draw(st.integers(0, 5)))
                    for i, p in enumerate(came)
                )
            )
        )
    return result


@given(seasons(), st.sampled_from(SeasonScoring), st.integers(min_value=1, max_value=7))
def test_every_player_once_ranked_in_order(
    season: list[Evening[int]], scoring: SeasonScoring, best: int
) -> None:
    rows = season_standings(season, SeasonRule(scoring, best=best))
    came = {p.player for e in season for p in e.placings}
    assert sorted(r.player for r in rows) == sorted(came)
    assert rows[0].rank == 1
    for i, (before, row) in enumerate(itertools.pairwise(rows), start=2):
        assert row.rank in (before.rank, i) and before.score >= row.score
        assert row.counted == min(best, row.evenings)
    if best >= len(season):
        assert rows == season_standings(season, SeasonRule(scoring))


def test_head_to_head_games_are_asked_for_the_tied_players_only() -> None:
    """``games_among`` gets the players level on score, evenings and best place (A and B with
    best 1), and gives the table the evenings' own games would."""
    asked: list[set[str]] = []
    season_games = [g for e in SEASON for g in e.games]
    bare = [Evening(e.placings) for e in SEASON]

    def games_among(tied: object) -> list[Game[str]]:
        assert isinstance(tied, set)
        asked.append(tied)
        return [g for g in season_games if g.player in tied and g.opponent in tied]

    rule = SeasonRule(SeasonScoring.PLACES, best=1)
    assert season_standings(bare, rule, games_among=games_among) == season_standings(SEASON, rule)
    assert asked == [{"A", "B"}]
    asked.clear()
    season_standings(bare, SeasonRule(SeasonScoring.PLACES), games_among=games_among)
    assert asked == []  # no tie: no games asked for
