"""Sonneborn-Berger, progressive score and direct encounter (``standings.md``; where it is silent,
the FIDE Tie-Break Regulations, C.07, as ``docs/rules.md`` reads them).

``compute_standings`` gathers what these rules need in its one pass over the games and calls
them; players are indices into its player list. Every value is exact: half-points, or a
``Fraction`` of half-points for Sonneborn-Berger.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import repeat
from operator import mul

from app.domain.types import PointsTable

__all__ = [
    "DRAW",
    "LOSS",
    "WIN",
    "bye_result",
    "direct_encounter",
    "halved",
    "progressive_weight",
    "sonneborn_berger_shares",
]

WIN, DRAW, LOSS = 2, 1, 0
"""A round's result in halves of a game: the share of the opponent Sonneborn-Berger counts."""


def sonneborn_berger_shares(points: Sequence[int]) -> list[int]:
    """What a round adds to twice a player's Sonneborn-Berger score, by opponent and result
    (FIDE C.07, Sonneborn-Berger): item ``j + n * r`` is for opponent ``j`` of the ``n`` players
    and result ``r`` (``LOSS``, ``DRAW``, ``WIN``: 0, 1, 2); ``halved`` of the sum over a
    player's rounds is their score.

    The score sums, over the rounds that count for Buchholz, the opponent's current points
    (``points``, as Buchholz has them: the player's own for the virtual opponent of a round
    without a game) times the player's result in that round: all of them for a win, half for a
    draw, nothing for a loss. Doubled, it is an integer that orders players as the score does.
    """
    # (built in C, a list a result: this runs on every standings read)
    return [
        *map(mul, points, repeat(LOSS)),
        *map(mul, points, repeat(DRAW)),
        *map(mul, points, repeat(WIN)),
    ]


@lru_cache(maxsize=4096)
def halved(doubled: int) -> Fraction:
    """``doubled / 2`` as an exact ``Fraction``, cached: the same values recur across players."""
    return Fraction(doubled, 2)


def bye_result(scored: int, points: PointsTable) -> int:
    """The result a bye scoring ``scored`` counts as in Sonneborn-Berger: the best one whose
    points it reaches.

    A bye worth a win's points is a win (the default table; chess's 1-point PAB), one worth at
    least a draw's a draw (a ½-point bye), anything less a loss (a zero-point bye).
    """
    if scored >= points.win:
        return WIN
    return DRAW if scored >= points.draw else LOSS


def progressive_weight(number: int, rounds_played: int) -> int:
    """How many times the points of round ``number`` count in the progressive score.

    The progressive (cumulative) score is the sum of the player's running score after each
    round 1..``rounds_played`` (FIDE C.07, progressive scores): the points of round ``r`` count
    ``rounds_played - r + 1`` times, those of a later round (none is expected) not at all.
    """
    return rounds_played - number + 1 if 1 <= number <= rounds_played else 0


def direct_encounter(
    tied: Sequence[int], against: Callable[[int], Mapping[int, int]]
) -> dict[int, int] | None:
    """The direct-encounter values of players level on points, in half-points, or ``None``.

    Applies only when every two of the ``tied`` players have met (a match with a result, a
    forfeit included: its result stands between them); each player's value is then the points
    they took in all those matches (FIDE C.07, direct encounter, all tied players having met).
    ``against(i)[j]`` is the points player ``i`` took from ``j``; a pair that never met has no
    key. With fewer than two players, or any pair that never met, it does not apply (and
    ``against`` is not asked about the players after the first who missed one).
    """
    if len(tied) < 2:
        return None
    values: dict[int, int] = {}
    for i in tied:
        mine = against(i)
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
