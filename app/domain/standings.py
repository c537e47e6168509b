"""The Swiss standings: per-player figures, Buchholz and the standings order (``standings.md``).

Standings are derived, never patched: ``compute_standings`` rebuilds every figure from the
players, the Swiss games and the byes each time it is called. It reads the games once, keeps
per-player counters in lists indexed by the player's position, and sorts once with a tuple key.
Sonneborn-Berger, the progressive score and direct encounter are in ``app.domain.tiebreaks``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from app.domain.errors import UnknownPlayer
from app.domain.tiebreaks import (
    DRAW,
    LOSS,
    VIRTUAL,
    WIN,
    bye_result,
    direct_encounter,
    progressive_weights,
    sonneborn_berger,
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


_AFTER_CHOICE = ("buchholz", "goal_difference", "goals_for", "start_number")

TIEBREAK_CRITERIA: Mapping[Tiebreak, tuple[str, ...]] = MappingProxyType(
    {
        Tiebreak.BUCHHOLZ: ("points", *_AFTER_CHOICE),
        Tiebreak.GOALS: ("points", "goal_difference", "goals_for", "start_number"),
        Tiebreak.LIM: ("points", "goal_difference", "median_buchholz", "start_number"),
        Tiebreak.SONNEBORN_BERGER: ("points", "sonneborn_berger", *_AFTER_CHOICE),
        Tiebreak.PROGRESSIVE: ("points", "progressive", *_AFTER_CHOICE),
        Tiebreak.DIRECT_ENCOUNTER: ("points", "direct_encounter", *_AFTER_CHOICE),
    }
)
"""The standings order of each tiebreak: criteria applied one after the other, every one
"higher first" except ``start_number`` (lower first). Sonneborn-Berger, the progressive score
and direct encounter come right after the points; then the ``buchholz`` order goes on."""


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
    encounter between them); a bye counts in points and byes only; a
    match without a result counts for nothing yet. Buchholz sums, over rounds 1 to
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
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    bye_count = [0] * n
    goals_for = [0] * n
    goals_against = [0] * n
    score = [0] * n
    progressive = [0] * n
    # Per player, the (round, opponent index or VIRTUAL, result) of every round that feeds
    # Buchholz and Sonneborn-Berger.
    met: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    # Per player, the points taken from each opponent paired with them: direct encounter.
    against: list[dict[int, int]] = [{} for _ in range(n)]
    games = list(games)
    byes = list(byes)
    requested = list(requested_byes)
    last_round = max(
        max((g.round for g in games), default=0),
        max((number for number, _ in byes), default=0),
        max((number for number, _, _ in requested), default=0),
    )
    weight = progressive_weights(rounds_played, last_round)

    win, draw, loss = points.win, points.draw, points.loss
    for game in games:
        result = game.result
        if result is None:
            continue
        h = _index_of(index, game.home)
        a = _index_of(index, game.away)
        number = game.round
        winning = result.winning_side
        both_absent = result.forfeit is Forfeit.BOTH
        if both_absent:
            losses[h] += 1
            losses[a] += 1
            home_points, away_points, home_result, away_result = loss, loss, LOSS, LOSS
        elif winning is None:
            draws[h] += 1
            draws[a] += 1
            home_points, away_points, home_result, away_result = draw, draw, DRAW, DRAW
        elif winning is Side.HOME:
            wins[h] += 1
            losses[a] += 1
            home_points, away_points, home_result, away_result = win, loss, WIN, LOSS
        else:
            wins[a] += 1
            losses[h] += 1
            home_points, away_points, home_result, away_result = loss, win, LOSS, WIN
        score[h] += home_points
        score[a] += away_points
        progressive[h] += home_points * weight[number]
        progressive[a] += away_points * weight[number]
        if not both_absent:
            against[h][a] = against[h].get(a, 0) + home_points
            against[a][h] = against[a].get(h, 0) + away_points
        if result.forfeit is None:
            goals_for[h] += result.home_goals
            goals_against[h] += result.away_goals
            goals_for[a] += result.away_goals
            goals_against[a] += result.home_goals
            met[h].append((number, a, home_result))
            met[a].append((number, h, away_result))
        else:
            met[h].append((number, VIRTUAL, home_result))
            met[a].append((number, VIRTUAL, away_result))

    bye_counts_as = bye_result(points.bye, points)
    for number, player_id in byes:
        i = _index_of(index, player_id)
        bye_count[i] += 1
        score[i] += points.bye
        progressive[i] += points.bye * weight[number]
        met[i].append((number, VIRTUAL, bye_counts_as))
    for number, player_id, scored in requested:
        i = _index_of(index, player_id)
        score[i] += scored
        progressive[i] += scored * weight[number]
        met[i].append((number, VIRTUAL, bye_result(scored, points)))

    buchholz = [0] * n
    median = [0] * n
    berger = [Fraction(0)] * n
    for i, player in enumerate(players):
        first: int = player.entered_round
        last = rounds_played
        if player.withdrawn_after is not None:
            last = min(last, player.withdrawn_after)
        own = score[i]
        values = []
        results = []
        for played_in, opponent, outcome in met[i]:
            if first <= played_in <= last:
                values.append(own if opponent == VIRTUAL else score[opponent])
                results.append(outcome)
        total = sum(values)
        buchholz[i] = total
        median[i] = total - max(values) - min(values) if len(values) >= 3 else total
        berger[i] = sonneborn_berger(values, results)
    encounter = _direct_encounters(players, score, against)

    columns: dict[str, Sequence[int | Fraction]] = {
        "points": [-s for s in score],
        "buchholz": [-b for b in buchholz],
        "median_buchholz": [-m for m in median],
        "sonneborn_berger": [-b for b in berger],
        "progressive": [-p for p in progressive],
        # Only players level on points share a value here, and they all have one or none.
        "direct_encounter": [-(e or 0) for e in encounter],
        "goal_difference": [ga - gf for gf, ga in zip(goals_for, goals_against, strict=True)],
        "goals_for": [-gf for gf in goals_for],
        "start_number": [player.start_number for player in players],
    }
    # The player id after the criteria keeps the order total even on a duplicated start number.
    ids = [player.id for player in players]
    keys = list(zip(*(columns[name] for name in TIEBREAK_CRITERIA[tiebreak]), ids, strict=True))
    order = sorted(range(n), key=keys.__getitem__)

    return tuple(
        StandingRow(
            player_id=players[i].id,
            rank=rank,
            played=wins[i] + draws[i] + losses[i],
            wins=wins[i],
            draws=draws[i],
            losses=losses[i],
            byes=bye_count[i],
            goals_for=goals_for[i],
            goals_against=goals_against[i],
            points=Score(score[i]),
            buchholz=Score(buchholz[i]),
            median_buchholz=Score(median[i]),
            sonneborn_berger=berger[i],
            progressive=Score(progressive[i]),
            direct_encounter=encounter[i],
            withdrawn=players[i].withdrawn,
        )
        for rank, i in enumerate(order, start=1)
    )


def _direct_encounters(
    players: Sequence[Player], score: Sequence[int], against: Sequence[dict[int, int]]
) -> list[Score | None]:
    """Each player's direct-encounter value among the players level with them on points.

    In the groups variant a player is level only with players of their own group: the others
    are ranked in another table and never met them.
    """
    level: dict[tuple[str | None, int], list[int]] = {}
    for i, player in enumerate(players):
        level.setdefault((player.group, score[i]), []).append(i)
    values: list[Score | None] = [None] * len(score)
    for tied in level.values():
        found = direct_encounter(tied, against)
        if found is not None:
            for i, value in found.items():
                values[i] = Score(value)
    return values


def _index_of(index: Mapping[PlayerId, int], player_id: PlayerId) -> int:
    try:
        return index[player_id]
    except KeyError:
        raise UnknownPlayer(f"player {player_id} is not in the tournament") from None
