"""The standings as ``app/domain/standings.py`` computed them from commit 559797f (the three
new tiebreaks), with 97724df's double forfeits, before the one-pass rewrite: counters kept per
game, an ``against`` table per player, a ``Fraction`` per player. ``test_standings_reference``
checks that the code of today gives the same rows, every field, on random tournaments; keep
this copy as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from operator import mul

from app.domain.errors import UnknownPlayer
from app.domain.standings import TIEBREAK_CRITERIA, StandingRow, SwissGame
from app.domain.types import (
    Forfeit,
    Player,
    PlayerId,
    PointsTable,
    RoundNumber,
    Score,
    Side,
    Tiebreak,
)

VIRTUAL = -1
"""Opponent index of a round without a game (a bye, or a forfeit for both players)."""

WIN, DRAW, LOSS = 2, 1, 0
"""A round's result in halves of a game: the share of the opponent Sonneborn-Berger counts."""


def sonneborn_berger(values: Sequence[int], results: Sequence[int]) -> Fraction:
    """A player's Sonneborn-Berger score, in half-points (FIDE C.07, Sonneborn-Berger).

    The sum, over the rounds that count for Buchholz, of the opponent's current points
    (``values``, as Buchholz has them: the virtual opponent's for a round without a game) times
    the player's result in that round (``results``: ``WIN``, ``DRAW`` or ``LOSS``): all of them
    for a win, half for a draw, nothing for a loss.
    """
    return Fraction(sum(map(mul, values, results)), 2)


def bye_result(scored: int, points: PointsTable) -> int:
    """The result a bye scoring ``scored`` counts as in Sonneborn-Berger: the best one whose
    points it reaches.

    A bye worth a win's points is a win (the default table; chess's 1-point PAB), one worth at
    least a draw's a draw (a ½-point bye), anything less a loss (a zero-point bye).
    """
    if scored >= points.win:
        return WIN
    return DRAW if scored >= points.draw else LOSS


def progressive_weights(rounds_played: int, last_round: int) -> list[int]:
    """How many times the points of each round 0..``last_round`` count in the progressive score.

    The progressive (cumulative) score is the sum of the player's running score after each
    round 1..``rounds_played`` (FIDE C.07, progressive scores): the points of round ``r`` count
    ``rounds_played - r + 1`` times, those of a later round (none is expected) not at all.
    """
    return [max(rounds_played - r + 1, 0) if r >= 1 else 0 for r in range(last_round + 1)]


def direct_encounter(
    tied: Sequence[int], against: Sequence[Mapping[int, int]]
) -> dict[int, int] | None:
    """The direct-encounter values of players level on points, in half-points, or ``None``.

    Applies only when every two of the ``tied`` players have met (a match with a result, a
    forfeit included: its result stands between them); each player's value is then the points
    they took in all those matches (FIDE C.07, direct encounter, all tied players having met).
    ``against[i][j]`` is the points player ``i`` took from ``j``; a pair that never met has no
    key. With fewer than two players, or any pair that never met, it does not apply.
    """
    if len(tied) < 2:
        return None
    values: dict[int, int] = {}
    for i in tied:
        mine = against[i]
        total = 0
        for j in tied:
            if j == i:
                continue
            taken = mine.get(j)
            if taken is None:
                return None
            total += taken
        values[i] = total
    return values


def reference_standings(
    players: Sequence[Player],
    games: Iterable[SwissGame],
    byes: Iterable[tuple[RoundNumber, PlayerId]],
    *,
    rounds_played: int,
    points: PointsTable,
    tiebreak: Tiebreak,
    requested_byes: Iterable[tuple[RoundNumber, PlayerId, Score]] = (),
) -> tuple[StandingRow, ...]:
    """``compute_standings`` as it stood before the one-pass rewrite."""
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
        # DYP: points over the matches played and the byes drawn (0 before any)
        "points_per_match": [
            -Fraction(score[i], wins[i] + draws[i] + losses[i] + bye_count[i])
            if wins[i] + draws[i] + losses[i] + bye_count[i]
            else 0
            for i in range(n)
        ],
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
