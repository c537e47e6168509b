"""What the Dutch rules need to know about each player before a round (C.04.3 Art. 1).

From a player's history this module derives their score, whom they have met (C1), their colour
difference and colour preference (Art. 1.6, 1.7), the floats they received in the two previous
rounds (Art. 1.4), whether they may still receive the pairing-allocated bye (C2, from C.04.1
Art. 4) and how many games they have played (C9).

Unplayed rounds (forfeits, byes, absences) are no games: they count neither for meetings nor for
colours (C.04.2 Art. 3), which is the same as moving them to the start of the colour history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import accumulate
from typing import cast

from app.domain.pairing.dutch.types import (
    PLAYED,
    Colour,
    DutchInput,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.types import PlayerId, PointsTable, Score

__all__ = ["Float", "PlayerState", "Strength", "player_states"]


class Strength(Enum):
    """How much a player wants their preferred colour (Art. 1.7), weakest first."""

    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


class Float(Enum):
    DOWN = "down"
    UP = "up"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player as the pairing of this round sees them.

    ``rank`` is the player's place (0-based) among the players who take part in the pairing
    now or did in an earlier round, by pairing number: its parity decides colours that nothing
    else decides (Art. 5.2.5). ``imbalance`` is the absolute colour difference and ``repeated``
    the colour of the last two games when they had the same one.
    """

    id: PlayerId
    number: int
    rank: int
    score: Score
    opponents: frozenset[PlayerId]
    colours: tuple[Colour, ...]
    preference: Colour | None
    strength: Strength
    imbalance: int
    repeated: Colour | None
    bye_eligible: bool
    played_games: int
    last_float: Float | None
    float_before: Float | None

    @property
    def absolute(self) -> bool:
        return self.strength is Strength.ABSOLUTE


def player_states(round_: DutchInput) -> dict[PlayerId, PlayerState]:
    """The state of every player of ``round_`` (absent ones included: opponents need them)."""
    table = round_.points
    ranked = sorted(
        (player for player in round_.players if player.present or _took_part(player)),
        key=lambda player: player.number,
    )
    rank = {player.id: index for index, player in enumerate(ranked)}
    # Each player's records read once (late in a long event 256 histories of 200 records,
    # and a record read again is a record fetched again from memory), then the score before
    # every round: floats compare them (Art. 1.4).
    columns = {player.id: _columns(player.history) for player in round_.players}
    value = {outcome: outcome.points(table) for outcome in Outcome}
    scores = {
        player: cast(list[Score], list(accumulate(map(value.__getitem__, read[0]), initial=0)))
        for player, read in columns.items()
    }
    return {
        player.id: _state(
            player, columns[player.id], scores, table, rank.get(player.id, len(ranked))
        )
        for player in round_.players
    }


Columns = tuple[list[Outcome], list[PlayerId | None], list[Colour | None]]
"""A history's outcomes, and the opponents and colours of its games (played rounds)."""


def _columns(history: Sequence[RoundRecord]) -> Columns:
    outcomes: list[Outcome] = []
    opponents: list[PlayerId | None] = []
    colours: list[Colour | None] = []
    for record in history:
        outcome = record.outcome
        outcomes.append(outcome)
        if outcome in PLAYED:  # a game: it has an opponent and a colour (``RoundRecord``)
            opponents.append(record.opponent)
            colours.append(record.colour)
    return outcomes, opponents, colours


def _took_part(player: DutchPlayer) -> bool:
    """Paired (or given the PAB) in an earlier round."""
    return any(
        record.outcome.has_opponent or record.outcome is Outcome.PAIRING_BYE
        for record in player.history
    )


def _state(
    player: DutchPlayer,
    columns: Columns,
    scores: Mapping[PlayerId, Sequence[Score]],
    table: PointsTable,
    rank: int,
) -> PlayerState:
    outcomes, opponents, played_colours = columns
    colours = cast(tuple[Colour, ...], tuple(played_colours))
    preference, strength, imbalance, repeated = colour_preference(colours)
    return PlayerState(
        id=player.id,
        number=player.number,
        rank=rank,
        score=scores[player.id][-1],
        opponents=cast(frozenset[PlayerId], frozenset(opponents)),
        colours=colours,
        preference=preference,
        strength=strength,
        imbalance=imbalance,
        repeated=repeated,
        bye_eligible=_spoiling(table).isdisjoint(outcomes),
        played_games=len(colours),
        last_float=float_in(player, 1, scores, table),
        float_before=float_in(player, 2, scores, table),
    )


def colour_preference(
    colours: tuple[Colour, ...],
) -> tuple[Colour | None, Strength, int, Colour | None]:
    """Art. 1.6–1.7: (preferred colour, strength, |colour difference|, repeated colour).

    Absolute: the colour difference is beyond ±1, or the last two games had the same colour
    (prefer the other). Strong: a difference of ±1 (prefer the colour that evens it). Mild: no
    difference (prefer to alternate from the last game). None: no game played yet.
    """
    whites = colours.count(Colour.WHITE)
    difference = 2 * whites - len(colours)
    imbalance = abs(difference)
    evening = Colour.BLACK if difference > 0 else Colour.WHITE
    last = colours[-1] if colours else None
    repeated = last if len(colours) >= 2 and colours[-2] is last else None
    if imbalance > 1:
        return evening, Strength.ABSOLUTE, imbalance, repeated
    if repeated is not None:
        return repeated.other, Strength.ABSOLUTE, imbalance, repeated
    if imbalance == 1:
        return evening, Strength.STRONG, imbalance, None
    if last is not None:
        return last.other, Strength.MILD, imbalance, None
    return None, Strength.NONE, 0, None


@cache
def _spoiling(table: PointsTable) -> frozenset[Outcome]:
    """C2 (C.04.1 Art. 4): no PAB for a player who already scored, in one single round and
    without playing, as many points as a win (a PAB, a forfeit win, a full-point bye): the
    outcomes that end the eligibility under ``table``, worked out once per table."""
    return frozenset(
        outcome for outcome in Outcome if not outcome.played and outcome.points(table) >= table.win
    )


def float_in(
    player: DutchPlayer,
    rounds_back: int,
    scores: Mapping[PlayerId, Sequence[Score]],
    table: PointsTable,
) -> Float | None:
    """Art. 1.4: the float ``rounds_back`` rounds before this one; ``scores`` holds every
    player's score before each round.

    A game between different scores gives the higher-ranked player a downfloat and the other an
    upfloat (1.4.2); a round not played that scored more than a loss is a downfloat (1.4.3);
    nothing else is a float (1.4.4).
    """
    index = len(player.history) - rounds_back
    if index < 0:
        return None
    record = player.history[index]
    if not record.outcome.played:
        return Float.DOWN if record.outcome.points(table) > table.loss else None
    if record.opponent is None:  # never: a played round has an opponent (RoundRecord)
        return None
    mine = scores[player.id][index]
    theirs = scores[record.opponent][index]
    if mine > theirs:
        return Float.DOWN
    if mine < theirs:
        return Float.UP
    return None
