"""The Swiss standings: per-player figures, Buchholz and the standings order (``standings.md``).

Standings are derived, never patched: ``compute_standings`` rebuilds every figure from the
players, the Swiss games and the byes each time it is called. It reads the games once, keeps
per-player counters in lists indexed by the player's position, and sorts once with a tuple key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from app.domain.errors import UnknownPlayer
from app.domain.types import (
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

_VIRTUAL = -1
"""Opponent index of a round without a game (a bye, or a forfeit for both players)."""


@dataclass(frozen=True, slots=True)
class SwissGame:
    """One match of a Swiss round, as the standings see it; ``result`` is ``None`` until played."""

    round: RoundNumber
    home: PlayerId
    away: PlayerId
    result: Result | None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's line in the standings; every score is in half-points."""

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
    withdrawn: bool

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against


TIEBREAK_CRITERIA: Mapping[Tiebreak, tuple[str, ...]] = MappingProxyType(
    {
        Tiebreak.BUCHHOLZ: ("points", "buchholz", "goal_difference", "goals_for", "start_number"),
        Tiebreak.GOALS: ("points", "goal_difference", "goals_for", "start_number"),
        Tiebreak.LIM: ("points", "goal_difference", "median_buchholz", "start_number"),
    }
)
"""The standings order of each tiebreak: criteria applied one after the other, every one
"higher first" except ``start_number`` (lower first)."""


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
    and a loss for the side absent, played by both; a bye counts in points and byes only; a
    match without a result counts for nothing yet. Buchholz sums, over rounds 1 to
    ``rounds_played`` in which the player was in the tournament, the current points of the
    opponent met, or the player's own current points for a bye or a forfeit (the virtual
    opponent). Median Buchholz drops the single highest and lowest of those values.

    A requested bye (round, player, its points) counts in points only, and in Buchholz as the
    virtual opponent, like a bye (``docs/rules.md``, "Tournaments paired `dutch`").

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
    # Per player, the (round, opponent index or _VIRTUAL) of every round that feeds Buchholz.
    met: list[list[tuple[int, int]]] = [[] for _ in range(n)]

    win, draw, loss = points.win, points.draw, points.loss
    for game in games:
        result = game.result
        if result is None:
            continue
        h = _index_of(index, game.home)
        a = _index_of(index, game.away)
        number = game.round
        if result.forfeit is None:
            goals_for[h] += result.home_goals
            goals_against[h] += result.away_goals
            goals_for[a] += result.away_goals
            goals_against[a] += result.home_goals
            met[h].append((number, a))
            met[a].append((number, h))
        else:
            met[h].append((number, _VIRTUAL))
            met[a].append((number, _VIRTUAL))
        winning = result.winning_side
        if winning is None:
            draws[h] += 1
            draws[a] += 1
            score[h] += draw
            score[a] += draw
        elif winning is Side.HOME:
            wins[h] += 1
            losses[a] += 1
            score[h] += win
            score[a] += loss
        else:
            wins[a] += 1
            losses[h] += 1
            score[a] += win
            score[h] += loss

    for number, player_id in byes:
        i = _index_of(index, player_id)
        bye_count[i] += 1
        score[i] += points.bye
        met[i].append((number, _VIRTUAL))

    for number, player_id, scored in requested_byes:
        i = _index_of(index, player_id)
        score[i] += scored
        met[i].append((number, _VIRTUAL))

    buchholz = [0] * n
    median = [0] * n
    for i, player in enumerate(players):
        values = [
            score[i] if opponent == _VIRTUAL else score[opponent]
            for number, opponent in met[i]
            if number <= rounds_played and player.in_round(RoundNumber(number))
        ]
        total = sum(values)
        buchholz[i] = total
        median[i] = total - max(values) - min(values) if len(values) >= 3 else total

    columns = {
        "points": [-s for s in score],
        "buchholz": [-b for b in buchholz],
        "median_buchholz": [-m for m in median],
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
            withdrawn=players[i].withdrawn,
        )
        for rank, i in enumerate(order, start=1)
    )


def _index_of(index: Mapping[PlayerId, int], player_id: PlayerId) -> int:
    try:
        return index[player_id]
    except KeyError:
        raise UnknownPlayer(f"player {player_id} is not in the tournament") from None
