"""A season table: a club's evenings summed up by one scoring rule (issue 25).

Scoring rules: ``places`` (points by final place from a table such as 25-18-15-…), ``points``
(the sum of the evenings' tournament points) or ``average`` (points per match played, fair when
players come to different numbers of evenings); each optionally over a player's best N
evenings. Ties are broken by evenings played (more first), best place (lower first), then head
to head (the points the tied players scored in their games against each other, over the whole
season); players still equal share a rank.
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
    """One player's evening: final place, tournament points and matches played."""

    player: K
    place: int
    points: Fraction
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


def _evening_score(rule: SeasonRule, placing: Placing[K]) -> Fraction:
    if rule.scoring is SeasonScoring.PLACES:
        table = rule.place_points
        return Fraction(table[placing.place - 1]) if placing.place <= len(table) else Fraction(0)
    if rule.scoring is SeasonScoring.POINTS:
        return placing.points
    return placing.points / placing.matches if placing.matches else Fraction(0)


def _counted(rule: SeasonRule, placings: Sequence[Placing[K]]) -> list[Placing[K]]:
    """The evenings that count: all, or the ``best`` N by the rule's evening score (on equal
    scores the earlier evening)."""
    if rule.best is None or len(placings) <= rule.best:
        return list(placings)
    order = sorted(range(len(placings)), key=lambda i: (-_evening_score(rule, placings[i]), i))
    return [placings[i] for i in sorted(order[: rule.best])]


def _score(rule: SeasonRule, counted: Sequence[Placing[K]]) -> Fraction:
    if rule.scoring is SeasonScoring.AVERAGE:
        matches = sum(p.matches for p in counted)
        return sum((p.points for p in counted), Fraction(0)) / matches if matches else Fraction(0)
    return sum((_evening_score(rule, p) for p in counted), Fraction(0))


class _Tally(NamedTuple):
    score: Fraction
    evenings: int
    best_place: int
    points: Fraction
    matches: int
    counted: int

    def key(self) -> tuple[Fraction, int, int]:
        """Rule score (higher first), evenings played (more first), best place (lower first)."""
        return (-self.score, -self.evenings, self.best_place)


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
            points=sum((p.points for p in played), Fraction(0)),
            matches=sum(p.matches for p in played),
            counted=len(counted),
        )
    order = sorted(tally, key=lambda k: tally[k].key())
    groups: list[list[K]] = []
    for player in order:
        if groups and tally[groups[-1][0]].key() == tally[player].key():
            groups[-1].append(player)
        else:
            groups.append([player])
    level = [g for g in groups if len(g) > 1]
    if games_among is not None and level:
        games += games_among({player for group in level for player in group})
    among = _head_to_head(level, games)
    table: list[SeasonRow[K]] = []
    for tied in groups:
        start = len(table)
        tied.sort(key=lambda k: -among.get(k, Fraction(0)))
        for i, player in enumerate(tied):
            shared = i > 0 and among.get(player) == among.get(tied[i - 1])
            t = tally[player]
            table.append(
                SeasonRow(
                    rank=table[-1].rank if shared else start + i + 1,
                    player=player,
                    score=t.score,
                    evenings=t.evenings,
                    counted=t.counted,
                    best_place=t.best_place,
                    points=t.points,
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
