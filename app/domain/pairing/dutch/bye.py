"""The pairing-allocated bye (C.04.3 Art. 1.5 and criteria C2, C5, C9).

With an odd number of players one is left unpaired and receives the PAB. Only a player who has
not already scored a win's points without playing may get it (C2, in ``state``). Before
any bracket is paired the score of the assignee is fixed: the lowest score of an eligible player
who can be left out while everybody else is still paired (C5 outranks every quality criterion,
and the completion criterion C4 keeps it reachable in every bracket). Among players of that
score, the one who has played the most games is preferred (C9), in the bracket that sends
exactly one player down to the bye.

When no pairing of the round keeps C1–C3 with an eligible PAB (Art. 1.9.3), the refusal names
the players who cannot all be given an opponent (``_unpairable``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass

from app.domain.errors import PairingImpossible
from app.domain.pairing.dutch.completion import maximum_matching
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.state import PlayerState
from app.domain.types import PlayerId, Score

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


def plan_bye(criteria: Criteria) -> ByePlan:
    """Fix the bye's score (C5) and C9's ranks; raise ``PairingImpossible`` when no pairing of
    the round obeys C1–C3 (Art. 1.9.3)."""
    players = criteria.players
    n = len(players)
    everyone = maximum_matching(criteria, range(n))
    if everyone.size < n // 2:
        raise PairingImpossible(
            "no pairing of the round meets the absolute criteria C1–C3",
            players=_ids(players, _unpairable(everyone.exposable(), criteria.allowed)),
        )
    if n % 2 == 0:
        return ByePlan(None, {}, False)
    left_out = everyone.exposable()
    eligible = [v for v in left_out if players[v].bye_eligible]
    if not eligible:
        raise PairingImpossible(
            "nobody who may receive the pairing-allocated bye can be left out (C2)",
            players=_ids(players, left_out),
        )
    score = min(players[v].score for v in eligible)
    games = sorted(
        (player.played_games for player in players if player.score == score), reverse=True
    )
    ranks = {played: rank for rank, played in enumerate(games)}
    top = players[0].score
    return ByePlan(score, ranks, score >= top and _top_pairs_inside(criteria, top))


def _top_pairs_inside(criteria: Criteria, top: Score) -> bool:
    """The top scoregroup can give the bye and pair all its other players among themselves,
    while everybody below pairs among themselves."""
    players = criteria.players
    group = [v for v, player in enumerate(players) if player.score >= top]
    rest = [v for v, player in enumerate(players) if player.score < top]
    inside = maximum_matching(criteria, group)
    below = maximum_matching(criteria, rest)
    if inside.size < len(group) // 2 or below.size < len(rest) // 2:
        return False
    return any(players[v].bye_eligible for v in inside.exposable())


def _unpairable(left_out: Set[int], allowed: Callable[[int, int], bool]) -> set[int]:
    """The players who cannot all be given an opponent, from those a maximum matching may
    leave out (Gallai–Edmonds): these fall into groups whose players may meet no one else of
    the groups. Every group is named (a player who has met everybody left, three who may only
    meet one another…) except the largest when it is larger than every other: that one is the
    rest of the field, which pairs once the others are dealt with."""
    groups: list[list[int]] = []
    seen: set[int] = set()
    for start in sorted(left_out):
        if start in seen:
            continue
        seen.add(start)
        group, queue = [start], [start]
        while queue:
            v = queue.pop()
            for w in left_out:
                if w not in seen and allowed(v, w):
                    seen.add(w)
                    group.append(w)
                    queue.append(w)
        groups.append(group)
    sizes = sorted((len(group) for group in groups), reverse=True)
    if len(sizes) > 1 and sizes[0] > sizes[1]:
        groups = [group for group in groups if len(group) < sizes[0]]
    return {v for group in groups for v in group}


def _ids(players: Sequence[PlayerState], indices: Iterable[int]) -> list[PlayerId]:
    """The ids of ``indices``, in pairing order (score, then TPN)."""
    return [players[v].id for v in sorted(indices)]
