"""A season table: a club's evenings summed up by one scoring rule (issue 25).

Scoring rules: ``places`` (points by final place from a table such as 25-18-15-…), ``points``
(the sum of the evenings' tournament points) or ``average`` (points per match played, fair when
players come to different numbers of evenings); each optionally over a player's best N
evenings. Ties are broken by evenings played (more first), best place (lower first), then head
to head (the points the tied players scored in their games against each other, over the whole
season); players still equal share a rank.

Points are counted in whole half-points (``Placing.half_points``), as the evenings store them:
a table over a few thousand placings then sums integers, and a ``Fraction`` is made once per
player, for the ``average`` rule's ratio and the row's totals.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence, Set
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

from app.domain.ratings.games import Game

K = TypeVar("K", bound=Hashable)

DEFAULT_PLACE_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
"""Points by final place when a ``places`` season gives no table (places beyond it score 0)."""


class SeasonScoring(StrEnum):
    PLACES = "places"
    POINTS = "points"
    AVERAGE = "average"


@dataclass(frozen=True, slots=True)
class SeasonRule:
    """How a season scores its evenings. ``best``: count only each player's best N evenings
    (``None``: all of them)."""

    scoring: SeasonScoring
    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    best: int | None = None


@dataclass(frozen=True, slots=True)
class Placing(Generic[K]):
    """One player's evening: final place, tournament points (in half-points: a win at 3-1-0
    is 6, a chess draw 1) and matches played."""

    player: K
    place: int
    half_points: int
    matches: int


@dataclass(frozen=True, slots=True)
class Evening(Generic[K]):
    """A finished tournament of the season: its final ranking and its rated games (for head
    to head)."""

    placings: tuple[Placing[K], ...]
    games: tuple[Game[K], ...] = ()


@dataclass(frozen=True, slots=True)
class SeasonRow(Generic[K]):
    """A line of the season table. ``score`` is what the rule ranks by (for ``average``, the
    points per match of the counted evenings); ``counted`` how many evenings it counts."""

    rank: int
    player: K
    score: Fraction
    evenings: int
    counted: int
    best_place: int
    points: Fraction
    matches: int
    head_to_head: Fraction | None
    """Points scored against the players tied with this one, when head to head was needed."""


def _evening_scores(rule: SeasonRule, placings: Sequence[Placing[K]]) -> list[int | Fraction]:
    """Each evening's score by the rule: place points, half-points, or points per match."""
    if rule.scoring is SeasonScoring.PLACES:
        table = rule.place_points
        return [table[p.place - 1] if p.place <= len(table) else 0 for p in placings]
    if rule.scoring is SeasonScoring.POINTS:
        return [p.half_points for p in placings]
    return [Fraction(p.half_points, 2 * p.matches) if p.matches else 0 for p in placings]


def _counted(rule: SeasonRule, placings: Sequence[Placing[K]]) -> Sequence[Placing[K]]:
    """The evenings that count: all, or the ``best`` N by the rule's evening score (on equal
    scores the earlier evening)."""
    if rule.best is None or len(placings) <= rule.best:
        return placings
    scores = _evening_scores(rule, placings)
    order = sorted(range(len(placings)), key=lambda i: (-scores[i], i))
    return [placings[i] for i in sorted(order[: rule.best])]


def _score(rule: SeasonRule, counted: Sequence[Placing[K]]) -> int | Fraction:
    """What the table ranks by, exactly: place points (an integer), half-points (an integer:
    the same order as points), or points per match (a ``Fraction``)."""
    if rule.scoring is SeasonScoring.PLACES:
        table, size = rule.place_points, len(rule.place_points)
        return sum(table[p.place - 1] for p in counted if p.place <= size)
    half_points = sum(p.half_points for p in counted)
    if rule.scoring is SeasonScoring.POINTS:
        return half_points
    matches = sum(p.matches for p in counted)
    return Fraction(half_points, 2 * matches) if matches else 0


class _Tally(NamedTuple):
    score: int | Fraction
    evenings: int
    best_place: int
    half_points: int
    matches: int
    counted: int


def season_standings(
    evenings: Iterable[Evening[K]],
    rule: SeasonRule,
    *,
    games_among: Callable[[Set[K]], Iterable[Game[K]]] | None = None,
) -> list[SeasonRow[K]]:
    """The season table by ``rule``, best first (players still equal in first-seen order).

    Head to head reads the evenings' ``games`` and, when given, ``games_among(tied)``: the
    season's games between players of ``tied`` (every player level with another on score,
    evenings and best place), asked only when there is such a tie, so a caller can fetch
    those games alone."""
    evenings = list(evenings)
    placings: dict[K, list[Placing[K]]] = {}
    for evening in evenings:
        for placing in evening.placings:
            placings.setdefault(placing.player, []).append(placing)
    games = [g for e in evenings for g in e.games]
    tally: dict[K, _Tally] = {}
    for player, played in placings.items():
        counted = _counted(rule, played)
        tally[player] = _Tally(
            score=_score(rule, counted),
            evenings=len(played),
            best_place=min(p.place for p in played),
            half_points=sum(p.half_points for p in played),
            matches=sum(p.matches for p in played),
            counted=len(counted),
        )
    # Rule score (higher first), evenings played (more first), best place (lower first); the
    # score as its place among the distinct scores, so the sort compares integers only
    above = {s: i for i, s in enumerate(sorted({t.score for t in tally.values()}, reverse=True))}
    keys = {p: (above[t.score], -t.evenings, t.best_place) for p, t in tally.items()}
    order = sorted(tally, key=keys.__getitem__)
    groups: list[list[K]] = []
    for player in order:
        if groups and keys[groups[-1][0]] == keys[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    level = [g for g in groups if len(g) > 1]
    if games_among is not None and level:
        games += games_among({player for group in level for player in group})
    among = _head_to_head(level, games)
    halve = rule.scoring is SeasonScoring.POINTS  # its score is counted in half-points
    table: list[SeasonRow[K]] = []
    for tied in groups:
        start = len(table)
        if len(tied) > 1:
            tied.sort(key=lambda k: -among[k])
        for i, player in enumerate(tied):
            shared = i > 0 and among.get(player) == among.get(tied[i - 1])
            t = tally[player]
            table.append(
                SeasonRow(
                    rank=table[-1].rank if shared else start + i + 1,
                    player=player,
                    score=Fraction(t.score, 2) if halve else Fraction(t.score),
                    evenings=t.evenings,
                    counted=t.counted,
                    best_place=t.best_place,
                    points=Fraction(t.half_points, 2),
                    matches=t.matches,
                    head_to_head=among.get(player),
                )
            )
    return table


def _head_to_head(groups: Sequence[Sequence[K]], games: Iterable[Game[K]]) -> dict[K, Fraction]:
    """Each tied player's points in games against the others tied with them (one pass over the
    season's games for every group of tied players)."""
    group_of = {player: i for i, group in enumerate(groups) for player in group}
    scored = {player: Fraction(0) for player in group_of}
    for game in games:
        group = group_of.get(game.player)
        if group is not None and group_of.get(game.opponent) == group:
            scored[game.player] += game.score
    return scored
