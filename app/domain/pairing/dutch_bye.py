"""The pairing-allocated bye (C.04.3 Art. 1.5 and criteria C2, C5, C9).

With an odd number of players one is left unpaired and receives the PAB. Only a player who has
not already scored a win's points without playing may get it (C2, in ``dutch_state``). Before
any bracket is paired the score of the assignee is fixed: the lowest score of an eligible player
who can be left out while everybody else is still paired (C5 outranks every quality criterion,
and the completion criterion C4 keeps it reachable in every bracket). Among players of that
score, the one who has played the most games is preferred (C9), in the bracket that sends
exactly one player down to the bye.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from app.domain.pairing.dutch_completion import maximum_matching
from app.domain.pairing.dutch_state import PlayerState
from app.domain.pairing.dutch_types import PairingImpossible
from app.domain.types import Score

__all__ = ["ByePlan", "plan_bye"]


@dataclass(frozen=True, slots=True)
class ByePlan:
    """``score``: the bye assignee's score (``None``: no bye this round). ``played_ranks``: C9's
    rank of a number of played games (more games, lower rank, so more likely the bye).
    ``from_top``: the bye comes from the top scoregroup, the rest of which pairs among
    itself, so C9 already applies to the first bracket."""

    score: Score | None
    played_ranks: Mapping[int, int]
    from_top: bool


def plan_bye(players: Sequence[PlayerState], allowed: Callable[[int, int], bool]) -> ByePlan:
    """Fix the bye's score (C5) and C9's ranks; raise ``PairingImpossible`` when no pairing of
    the round obeys C1–C3 (Art. 1.9.3)."""
    n = len(players)
    everyone = maximum_matching(range(n), allowed)
    if everyone.size < n // 2:
        raise PairingImpossible("no pairing of the round meets the absolute criteria")
    if n % 2 == 0:
        return ByePlan(None, {}, False)
    eligible = [v for v in everyone.exposable() if players[v].bye_eligible]
    if not eligible:
        raise PairingImpossible("nobody who may receive the pairing-allocated bye can be left out")
    score = min(players[v].score for v in eligible)
    games = sorted(
        (player.played_games for player in players if player.score == score), reverse=True
    )
    ranks = {played: rank for rank, played in enumerate(games)}
    top = players[0].score
    return ByePlan(score, ranks, score >= top and _top_pairs_inside(players, allowed, top))


def _top_pairs_inside(
    players: Sequence[PlayerState], allowed: Callable[[int, int], bool], top: Score
) -> bool:
    """The top scoregroup can give the bye and pair all its other players among themselves,
    while everybody below pairs among themselves."""
    group = [v for v, player in enumerate(players) if player.score >= top]
    rest = [v for v, player in enumerate(players) if player.score < top]
    inside = maximum_matching(group, allowed)
    below = maximum_matching(rest, allowed)
    if inside.size < len(group) // 2 or below.size < len(rest) // 2:
        return False
    return any(players[v].bye_eligible for v in inside.exposable())
