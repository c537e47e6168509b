"""What the FIDE (Dutch) engine takes and gives back (C.04.3, applied from 1 February 2026).

The engine pairs one round of one tournament. Its input is every player the tournament has
(absent and withdrawn ones included, marked not ``present``), each with their tournament pairing
number (TPN, C.04.2 Art. 2) and one ``RoundRecord`` per earlier round. Scores are not given:
they follow from the records and the tournament's ``PointsTable`` (half-points, like every
``Score``), so the history is the only source of truth.

Its output is the boards of the round, in the order C.04.2 publishes them, with White and Black
named, and the player who gets the pairing-allocated bye (PAB), if any.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from app.domain.errors import DomainError
from app.domain.explanation import NO_EXPLANATION, RoundExplanation
from app.domain.types import PlayerId, PointsTable, RoundNumber, Score

__all__ = [
    "CHESS_POINTS",
    "PLAYED",
    "Board",
    "Colour",
    "DutchInput",
    "DutchPairing",
    "DutchPlayer",
    "InvalidDutchInput",
    "Outcome",
    "RoundRecord",
]

CHESS_POINTS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))
"""The chess table in half-points: 1, ½, 0, and a PAB worth a win (C.04.1 Art. 3)."""


class Colour(StrEnum):
    """A chess colour: White (home) or Black (away)."""

    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Outcome(StrEnum):
    """What one round was for one player.

    Over the board: ``WIN``, ``DRAW``, ``LOSS``. Paired but not played: ``FORFEIT_WIN``,
    ``FORFEIT_LOSS`` (a forfeit is no meeting for C1 and no colour for the preferences,
    C.04.2 Art. 3). Not paired: ``PAIRING_BYE`` (the PAB), the byes a player asked for
    (``HALF_POINT_BYE``, ``FULL_POINT_BYE``, ``ZERO_POINT_BYE``) and ``ABSENT`` (not paired,
    nothing scored, e.g. after withdrawing).
    """

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    PAIRING_BYE = "pairing_bye"
    HALF_POINT_BYE = "half_point_bye"
    FULL_POINT_BYE = "full_point_bye"
    ZERO_POINT_BYE = "zero_point_bye"
    ABSENT = "absent"

    @property
    def played(self) -> bool:
        """The game was played over the board (it counts for C1 and for colours)."""
        return self in PLAYED

    @property
    def has_opponent(self) -> bool:
        """The player was paired with an opponent (played or forfeited)."""
        return self in PLAYED or self in _FORFEITS

    def points(self, table: PointsTable) -> Score:
        """The points this outcome scores under ``table`` (a requested bye scores as named)."""
        if self in (Outcome.WIN, Outcome.FORFEIT_WIN, Outcome.FULL_POINT_BYE):
            return table.win
        if self in (Outcome.DRAW, Outcome.HALF_POINT_BYE):
            return table.draw
        if self is Outcome.PAIRING_BYE:
            return table.bye
        if self in (Outcome.LOSS, Outcome.FORFEIT_LOSS):
            return table.loss
        return Score(0)


PLAYED = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})
"""The outcomes of a game played over the board (``Outcome.played``)."""
_FORFEITS = frozenset({Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS})


class InvalidDutchInput(DomainError):
    """The engine's input contradicts itself (a history that cannot have happened)."""

    code = "invalid_pairing_input"


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One earlier round of one player: the outcome, and for a paired round the opponent and
    the colour the player had. A game needs its colour; a forfeit may keep the colour it was
    scheduled with or have none (the rules ignore it, C.04.2 Art. 3)."""

    outcome: Outcome
    opponent: PlayerId | None = None
    colour: Colour | None = None

    def __post_init__(self) -> None:
        paired = self.outcome.has_opponent
        if paired != (self.opponent is not None):
            raise InvalidDutchInput(
                f"a {self.outcome.value} round needs " + ("an opponent" if paired else "none")
            )
        if self.outcome.played and self.colour is None:
            raise InvalidDutchInput(f"a {self.outcome.value} game needs a colour")
        if not paired and self.colour is not None:
            raise InvalidDutchInput(f"a {self.outcome.value} round has no colour")


@dataclass(frozen=True, slots=True)
class DutchPlayer:
    """A player of the tournament as the Dutch rules see them.

    ``number`` is the tournament pairing number (TPN, C.04.2 Art. 2: the initial order by rating,
    then title, then name, late entries placed by the same rule); lower is higher ranked.
    ``history`` has one record per earlier round, round 1 first (a late entry's missed rounds
    are ``ABSENT`` or the byes the organizer gave). ``present`` is whether the player is to be
    paired in this round (false for a requested bye, an absence or a withdrawal).
    """

    id: PlayerId
    number: int
    history: tuple[RoundRecord, ...] = ()
    present: bool = True

    def score(self, table: PointsTable) -> Score:
        return Score(sum(record.outcome.points(table) for record in self.history))


@dataclass(frozen=True, slots=True)
class DutchInput:
    """One round to pair.

    ``round_number`` is the round being paired (every history has ``round_number - 1``
    records); ``total_rounds`` the rounds the tournament will have (the last round relaxes C3
    for topscorers, Art. 1.8). ``initial_colour`` is the colour drawn before round 1 (Art. 5.1),
    which the higher-ranked player of a board gets when the other rules leave the choice to
    the TPN (Art. 5.2.5). ``points`` values every outcome; its ``bye`` is the PAB.
    ``forbidden`` are pairs of players who may not be paired (hard forbidden pairs, TRF-2026
    ``260``): C1 treats them as having met.
    """

    players: tuple[DutchPlayer, ...]
    round_number: RoundNumber
    total_rounds: int
    initial_colour: Colour = Colour.WHITE
    points: PointsTable = field(default=CHESS_POINTS)
    forbidden: tuple[tuple[PlayerId, PlayerId], ...] = ()

    def __post_init__(self) -> None:
        if self.round_number < 1 or self.total_rounds < self.round_number:
            raise InvalidDutchInput("the round must be between 1 and the total number of rounds")
        ids = {player.id for player in self.players}
        numbers = {player.number for player in self.players}
        if len(ids) != len(self.players) or len(numbers) != len(self.players):
            raise InvalidDutchInput("player ids and pairing numbers must be unique")
        for player in self.players:
            if len(player.history) != self.round_number - 1:
                raise InvalidDutchInput(
                    f"player {player.id} has {len(player.history)} rounds of history, "
                    f"round {self.round_number} needs {self.round_number - 1}"
                )
        _check_meetings(self.players)


def _check_meetings(players: Sequence[DutchPlayer]) -> None:
    """Every paired round must be mirrored by the opponent's record of the same round."""
    by_id = {player.id: player for player in players}
    for player in players:
        for index, record in enumerate(player.history):
            if record.opponent is None:
                continue
            opponent = by_id.get(record.opponent)
            mirror = opponent.history[index] if opponent is not None else None
            if (
                mirror is None
                or mirror.opponent != player.id
                or (record.colour is not None and mirror.colour is record.colour)
                or mirror.outcome.played != record.outcome.played
            ):
                raise InvalidDutchInput(
                    f"round {index + 1}: player {player.id} and {record.opponent} "
                    "do not have matching records"
                )


@dataclass(frozen=True, slots=True)
class Board:
    white: PlayerId
    black: PlayerId


@dataclass(frozen=True, slots=True)
class DutchPairing:
    """The paired round: boards in publication order (C.04.2: by the higher player's score,
    then the lower player's score, then the higher player's rank), the PAB, if any, and why
    (``explanation``: each board's bracket, moved-down players, deciding criterion and
    colour rule; not part of equality: two pairings are equal when their boards and PAB are)."""

    boards: tuple[Board, ...]
    bye: PlayerId | None = None
    explanation: RoundExplanation = field(default=NO_EXPLANATION, compare=False)
