"""The Swiss standings: per-player figures, Buchholz and the standings order (``standings.md``).

Standings are derived, never patched: ``compute_standings`` rebuilds every figure from the
players, the Swiss games and the byes each time it is called. One pass over the games keeps
counters and, per player, one list of whom they faced; every tiebreak is derived from those
with built-in sums (direct encounter only for players level on points), and one sort with a
tuple key orders the rows. Sonneborn-Berger, the progressive score and direct encounter are in
``app.domain.tiebreaks``. Everything per game or per player is written for speed: it is read
on every standings request, and a 4,096-player field has 26,624 games to read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from itertools import combinations, repeat
from operator import add, attrgetter, itemgetter, neg, sub
from types import MappingProxyType
from typing import TypeVar, cast

from app.domain.errors import UnknownPlayer
from app.domain.tiebreaks import (
    DRAW,
    LOSS,
    WIN,
    bye_result,
    direct_encounter,
    halved,
    progressive_weight,
    sonneborn_berger_shares,
)
from app.domain.types import (
    Forfeit,
    Player,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Score,
    Side,
    Tiebreak,
)

__all__ = [
    "TIEBREAK_CRITERIA",
    "StandingRow",
    "SwissGame",
    "compute_standings",
]


@dataclass(frozen=True, slots=True)
class SwissGame:
    """One match of a Swiss round, as the standings see it; ``result`` is ``None`` until played."""

    round: RoundNumber
    home: PlayerId
    away: PlayerId
    result: Result | None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's line in the standings; every score is in half-points.

    ``sonneborn_berger`` is a ``Fraction`` (a draw halves an opponent's points);
    ``direct_encounter`` is ``None`` unless the player is tied on points with others who have
    all met each other.
    """

    player_id: PlayerId
    rank: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    goals_for: int
    goals_against: int
    points: Score
    buchholz: Score
    median_buchholz: Score
    sonneborn_berger: Fraction
    progressive: Score
    direct_encounter: Score | None
    withdrawn: bool

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    @property
    def points_per_match(self) -> Fraction:
        """Points (in half-points) over the matches played and byes drawn; 0 before any."""
        return _per_match(self.points, self.played + self.byes)


def _per_match(points: int, matches: int) -> Fraction:
    return Fraction(points, matches) if matches else Fraction(0)


_AFTER_CHOICE = ("buchholz", "goal_difference", "goals_for", "start_number")

TIEBREAK_CRITERIA: Mapping[Tiebreak, tuple[str, ...]] = MappingProxyType(
    {
        Tiebreak.BUCHHOLZ: ("points", *_AFTER_CHOICE),
        Tiebreak.GOALS: ("points", "goal_difference", "goals_for", "start_number"),
        Tiebreak.LIM: ("points", "goal_difference", "median_buchholz", "start_number"),
        Tiebreak.SONNEBORN_BERGER: ("points", "sonneborn_berger", *_AFTER_CHOICE),
        Tiebreak.PROGRESSIVE: ("points", "progressive", *_AFTER_CHOICE),
        Tiebreak.DIRECT_ENCOUNTER: ("points", "direct_encounter", *_AFTER_CHOICE),
        Tiebreak.POINTS_PER_MATCH: (
            "points",
            "points_per_match",
            "goal_difference",
            "goals_for",
            "start_number",
        ),
    }
)
"""The standings order of each tiebreak: criteria applied one after the other, every one
"higher first" except ``start_number`` (lower first). Sonneborn-Berger, the progressive score
and direct encounter come right after the points; then the ``buchholz`` order goes on. DYP's
``points_per_match`` (``StandingRow.points_per_match``) is followed by the goals."""


def compute_standings(
    players: Sequence[Player],
    games: Iterable[SwissGame],
    byes: Iterable[tuple[RoundNumber, PlayerId]],
    *,
    rounds_played: int,
    points: PointsTable,
    tiebreak: Tiebreak,
    requested_byes: Iterable[tuple[RoundNumber, PlayerId, Score]] = (),
) -> tuple[StandingRow, ...]:
    """Rank every player, withdrawn ones included, by the tournament's tiebreak.

    Points come from the points table; a forfeit is a win with no goals for the side present
    and a loss for the side absent, played by both (a double forfeit: a loss for both, and no
    encounter between them); a bye counts in points and byes only; a match without a result
    counts for nothing yet. Buchholz sums, over rounds 1 to
    ``rounds_played`` in which the player was in the tournament, the current points of the
    opponent met, or the player's own current points for a bye or a forfeit (the virtual
    opponent). Median Buchholz drops the single highest and lowest of those values.
    Sonneborn-Berger counts the same rounds, weighted by the result; the progressive score
    counts every result; direct encounter the results among players level on points
    (``app.domain.tiebreaks`` has each rule).

    A requested bye (round, player, the points it scored) counts in points, not in ``byes``; in
    Buchholz and Sonneborn-Berger as a round against the virtual opponent, with the result its
    points reach; in the progressive score with its points.

    Raises ``UnknownPlayer`` when a game or a bye names a player not in ``players``.
    """
    index = {player.id: i for i, player in enumerate(players)}
    n = len(players)
    value = (points.loss, points.draw, points.win)  # the points of each outcome
    # The rounds that count for player i's Buchholz are first[i] to last[i]; in those rounds,
    # weighted[r] has the points of each outcome times round r's progressive weight.
    first: list[int] = list(map(_ENTERED, players))
    last = [
        rounds_played if withdrawn is None else min(rounds_played, withdrawn)
        for withdrawn in map(_WITHDRAWN_AFTER, players)
    ]
    weighted = [
        (points.loss * weight, points.draw * weight, points.win * weight)
        for weight in [progressive_weight(r, rounds_played) for r in range(rounds_played + 1)]
    ]
    # Per player, one item per game in a round that counts for their Buchholz: ``j + n * r``,
    # where j is the player whose current points stand for the opponent (the opponent, or the
    # player for the virtual opponent) and r the outcome (LOSS, DRAW or WIN: 0, 1 or 2).
    # ``score * 3`` then reads j's points from an item, and ``sonneborn_berger_shares`` the
    # share of them the outcome earns: one list per player and one lookup per item, where a
    # list per outcome cost a tenth more at 16 players.
    faced: list[list[int]] = [[] for _ in range(n)]
    tally = ([0] * n, [0] * n, [0] * n)  # games lost, drawn and won, by player
    goals_for = [0] * n
    goals_against = [0] * n
    progressive = [0] * n
    bye_count = [0] * n
    # Rarer facts, by player: games in rounds that do not count for their Buchholz (round,
    # outcome, whose points); forfeits (opponent, outcome), which direct encounter counts;
    # byes and requested byes (round, points, outcome).
    aside: dict[int, list[tuple[int, int, int]]] = {}
    forfeited: dict[int, list[tuple[int, int]]] = {}
    absent: dict[int, list[tuple[int, int, int]]] = {}
    home_side, home_absent, both_absent = Side.HOME, Forfeit.HOME, Forfeit.BOTH
    try:
        # The one pass over the games: appends and counters, no object made per game.
        for game in games:
            result = game.result
            if result is None:
                continue
            h = index[game.home]
            a = index[game.away]
            number = game.round
            forfeit = result.forfeit
            # Who won is ``Result.winning_side``, written out here: a property call a game
            # cost a twentieth of the call at 16 players.
            if forfeit is None:  # played: the goals count, and each faced the other
                home_goals, away_goals = result.home_goals, result.away_goals
                goals_for[h] += home_goals
                goals_against[h] += away_goals
                goals_for[a] += away_goals
                goals_against[a] += home_goals
                home_faced, away_faced = a, h
                if home_goals > away_goals:
                    home, away = WIN, LOSS
                elif away_goals > home_goals:
                    home, away = LOSS, WIN
                elif result.winner is None:
                    home, away = DRAW, DRAW
                else:  # level, and a winner named
                    home, away = (WIN, LOSS) if result.winner is home_side else (LOSS, WIN)
            elif forfeit is both_absent:  # the virtual opponent each; they did not meet
                home, away = LOSS, LOSS
                home_faced, away_faced = h, a
            else:  # each faced the virtual opponent; the result stands between the two
                home, away = (LOSS, WIN) if forfeit is home_absent else (WIN, LOSS)
                home_faced, away_faced = h, a
                forfeited.setdefault(h, []).append((a, home))
                forfeited.setdefault(a, []).append((h, away))
            tally[home][h] += 1
            tally[away][a] += 1
            if first[h] <= number <= last[h]:
                faced[h].append(home_faced + n * home)
                progressive[h] += weighted[number][home]
            else:
                aside.setdefault(h, []).append((number, home, home_faced))
            if first[a] <= number <= last[a]:
                faced[a].append(away_faced + n * away)
                progressive[a] += weighted[number][away]
            else:
                aside.setdefault(a, []).append((number, away, away_faced))
        by_the_table = bye_result(points.bye, points)
        for number, player_id in byes:
            i = index[player_id]
            bye_count[i] += 1
            absent.setdefault(i, []).append((number, points.bye, by_the_table))
        for number, player_id, scored in requested_byes:
            i = index[player_id]
            absent.setdefault(i, []).append((number, scored, bye_result(scored, points)))
    except KeyError as unknown:
        raise UnknownPlayer(f"player {unknown.args[0]} is not in the tournament") from None

    losses, draws, wins = tally
    played = list(map(add, losses, map(add, draws, wins)))
    for i, rounds in aside.items():
        for when, outcome, _ in rounds:
            progressive[i] += value[outcome] * progressive_weight(when, rounds_played)
    score = [
        won * points.win + drawn * points.draw + lost * points.loss
        for won, drawn, lost in zip(wins, draws, losses, strict=True)
    ]
    for i, rounds in absent.items():
        for when, bye_points, _ in rounds:
            score[i] += bye_points
            progressive[i] += bye_points * progressive_weight(when, rounds_played)

    # Buchholz and Sonneborn-Berger (doubled), a whole column at a time.
    points_of = (score * 3).__getitem__
    share_of = sonneborn_berger_shares(score).__getitem__
    counted = [list(map(points_of, mine)) for mine in faced]
    berger = [sum(map(share_of, mine)) for mine in faced]
    for i, rounds in absent.items():  # a bye: the virtual opponent, and the result it counts as
        for when, _, outcome in rounds:
            if first[i] <= when <= last[i]:
                counted[i].append(score[i])
                berger[i] += score[i] * outcome
    buchholz = list(map(sum, counted))
    median = [
        total - max(values) - min(values) if len(values) >= 3 else total
        for total, values in zip(buchholz, counted, strict=True)
    ]
    encounter = _direct_encounters(players, score, played, faced, aside, forfeited, value)

    # The player id after the criteria keeps the order total even on a duplicated start number.
    ids = list(map(_ID, players))
    figures = {
        "points": score,
        "buchholz": buchholz,
        "median_buchholz": median,
        "sonneborn_berger": berger,
        "progressive": progressive,
        "goals_for": goals_for,
    }
    columns = [
        list(map(_START_NUMBER, players))
        if name == "start_number"
        else list(map(sub, goals_against, goals_for))
        if name == "goal_difference"
        # Only players level on points share a value here, and they all have one or none.
        else [-(e or 0) for e in encounter]
        if name == "direct_encounter"
        else [-_per_match(p, m) for p, m in zip(score, map(add, played, bye_count), strict=True)]
        if name == "points_per_match"
        else list(map(neg, figures[name]))
        for name in TIEBREAK_CRITERIA[tiebreak]
    ]
    keys = list(zip(*columns, ids, strict=True))
    order = sorted(range(n), key=keys.__getitem__)

    # The rows, column by column: each column picked in the standings order, then set on every
    # row at once (``_rows``).
    pick = _picker(order)
    return _rows(
        n,
        (
            pick(ids),
            range(1, n + 1),
            pick(played),
            pick(wins),
            pick(draws),
            pick(losses),
            pick(bye_count),
            pick(goals_for),
            pick(goals_against),
            pick(score),
            pick(buchholz),
            pick(median),
            map(halved, pick(berger)),
            pick(progressive),
            pick(encounter),
            map(_WITHDRAWN, pick(players)),
        ),
    )


_SETTERS = tuple(getattr(StandingRow, field.name).__set__ for field in fields(StandingRow))
"""Each field's slot setter, in the order of the fields."""


def _rows(n: int, columns: Sequence[Iterable[object]]) -> tuple[StandingRow, ...]:
    """``n`` rows, the i-th made of the i-th item of each column (one column a field, in the
    order of the fields): the rows ``StandingRow(*line)`` would give.

    The frozen dataclass's ``__init__`` sets its fields one by one through
    ``object.__setattr__``, a Python call each: 16 fields × 16 rows were a third of the call at
    16 players. Here the rows are made empty and each column is set on all of them through its
    slot's setter, in C (``any`` only drives the ``map``: every set returns ``None``). The
    rows are the same frozen dataclasses, every field set.
    """
    rows = cast(tuple[StandingRow, ...], tuple(map(_NEW, repeat(StandingRow, n))))
    for setter, column in zip(_SETTERS, columns, strict=True):
        any(map(setter, rows, column))
    return rows


_NEW = object.__new__


def _picker(order: Sequence[int]) -> Callable[[Sequence[_T]], Sequence[_T]]:
    """A function that takes a column in the players' order to one in ``order``."""
    if len(order) >= 2:
        return itemgetter(*order)  # a tuple, made in C
    return lambda column: [column[i] for i in order]


_T = TypeVar("_T")
_ID = attrgetter("id")
_WITHDRAWN = attrgetter("withdrawn")
_ENTERED = attrgetter("entered_round")
_WITHDRAWN_AFTER = attrgetter("withdrawn_after")
_START_NUMBER = attrgetter("start_number")
_GROUP = attrgetter("group")


def _direct_encounters(
    players: Sequence[Player],
    score: Sequence[int],
    played: Sequence[int],
    faced: Sequence[Sequence[int]],
    aside: Mapping[int, Sequence[tuple[int, int, int]]],
    forfeited: Mapping[int, Sequence[tuple[int, int]]],
    value: Sequence[int],
) -> list[Score | None]:
    """Each player's direct-encounter value among the players level with them on points.

    In the groups variant a player is level only with players of their own group: the others
    are ranked in another table and never met them.
    """
    n = len(score)
    level: dict[object, list[int]] = {}
    # Keyed by points alone unless there are groups: tuple keys cost twice as much.
    keys: Iterable[object] = (
        zip(map(_GROUP, players), score, strict=True) if any(map(_GROUP, players)) else score
    )
    for i, key in enumerate(keys):
        members = level.get(key)
        if members is None:
            level[key] = [i]
        else:
            members.append(i)

    def met(i: int, j: int) -> bool:
        """Whether players ``i`` and ``j`` met: a quick test, so that ``taken_by`` runs only
        for levels where every two players met."""
        mine = faced[i]
        return (
            j + n * LOSS in mine
            or j + n * DRAW in mine
            or j + n * WIN in mine
            or (i in aside and any(k == j for _, _, k in aside[i]))
            or (i in forfeited and any(k == j for k, _ in forfeited[i]))
        )

    def taken_by(i: int) -> dict[int, int]:
        """The points player ``i`` took from each opponent they met (and, under their own
        index, from the virtual opponent, which ``direct_encounter`` never asks about: a
        forfeit's real opponent is in ``forfeited``)."""
        taken: dict[int, int] = {}
        for item in faced[i]:
            outcome, j = divmod(item, n)
            taken[j] = taken.get(j, 0) + value[outcome]
        for _, outcome, j in aside.get(i, ()):
            taken[j] = taken.get(j, 0) + value[outcome]
        for j, outcome in forfeited.get(i, ()):
            taken[j] = taken.get(j, 0) + value[outcome]
        return taken

    values: list[Score | None] = [None] * n
    for tied in level.values():
        if len(tied) < 2 or not all(met(i, j) for i, j in combinations(tied, 2)):
            continue
        found = direct_encounter(tied, taken_by)
        if found is not None:
            for i, points in found.items():
                values[i] = Score(points)
    return values
