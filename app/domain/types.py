"""The vocabulary of a Svizzera tournament: small, frozen value types.

Points are exact: every score is an ``int`` of *half-points* (``Score``), so a chess club's
1, ½, 0 table is ``win=2, draw=1, loss=0`` internally and halves never drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NewType

PlayerId = NewType("PlayerId", int)
RoundNumber = NewType("RoundNumber", int)
Score = NewType("Score", int)
"""Points in half-points: 3 points is ``Score(6)``, ½ point is ``Score(1)``."""

GroupName = NewType("GroupName", str)
"""``"A"`` or ``"B"`` in the groups variant."""


class Side(StrEnum):
    HOME = "home"
    AWAY = "away"

    @property
    def other(self) -> Side:
        return Side.AWAY if self is Side.HOME else Side.HOME


class Forfeit(StrEnum):
    """Who did not show for a match: one side, or both (a double forfeit: both lose)."""

    HOME = "home"
    AWAY = "away"
    BOTH = "both"

    @property
    def present(self) -> Side | None:
        """The side that showed up and wins; ``None`` for a double forfeit (nobody wins)."""
        if self is Forfeit.BOTH:
            return None
        return Side.AWAY if self is Forfeit.HOME else Side.HOME

    def absent(self, side: Side) -> bool:
        """Whether ``side`` did not show."""
        return self is Forfeit.BOTH or self.value == side.value


class Role(StrEnum):
    """A player's role in one round (``colours.md``); absent rounds have no role."""

    HOME = "home"
    AWAY = "away"


class DecidedBy(StrEnum):
    EXTRA_TIME = "extra_time"
    PENALTIES = "penalties"
    GOLDEN_GOAL = "golden_goal"
    OTHER = "other"


class Stage(StrEnum):
    SWISS = "swiss"
    ROUND_OF_64 = "round_of_64"
    ROUND_OF_32 = "round_of_32"
    ROUND_OF_16 = "round_of_16"
    QUARTERFINAL = "quarterfinal"
    SEMIFINAL = "semifinal"
    FINAL = "final"
    THIRD_PLACE = "third_place"
    # double elimination (``double_elimination``): the rounds of each bracket, then the
    # grand final and its reset
    WINNERS_ROUND_1 = "winners_round_1"
    WINNERS_ROUND_2 = "winners_round_2"
    WINNERS_ROUND_3 = "winners_round_3"
    WINNERS_ROUND_4 = "winners_round_4"
    LOSERS_ROUND_1 = "losers_round_1"
    LOSERS_ROUND_2 = "losers_round_2"
    LOSERS_ROUND_3 = "losers_round_3"
    LOSERS_ROUND_4 = "losers_round_4"
    LOSERS_ROUND_5 = "losers_round_5"
    LOSERS_ROUND_6 = "losers_round_6"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"


class Tiebreak(StrEnum):
    BUCHHOLZ = "buchholz"
    GOALS = "goals"
    LIM = "lim"
    SONNEBORN_BERGER = "sonneborn_berger"
    PROGRESSIVE = "progressive"
    DIRECT_ENCOUNTER = "direct_encounter"
    POINTS_PER_MATCH = "points_per_match"
    """DYP: points over the matches played and byes drawn (``docs/rules.md``, "DYP")."""


class Entry(StrEnum):
    """What an entry of the tournament is: one player, or a team of two named players who
    play every match together (doubles: the pairing, the standings and the final phase see the
    team as one entry)."""

    PLAYER = "player"
    TEAM = "team"


class PairingSystem(StrEnum):
    NEAREST = "nearest"
    LIM = "lim"
    DUTCH = "dutch"
    DYP = "dyp"
    """Draw your partner: teams of two drawn every round (``pairing.dyp``)."""


class FideTitle(StrEnum):
    """FIDE titles, in the order C.04.2 Art. 2 ranks them (after the rating)."""

    GM = "GM"
    IM = "IM"
    WGM = "WGM"
    FM = "FM"
    WIM = "WIM"
    CM = "CM"
    WFM = "WFM"
    WCM = "WCM"


class ByeKind(StrEnum):
    """A bye a player asked for: it scores a draw's points (``half_point``) or nothing."""

    HALF_POINT = "half_point"
    ZERO_POINT = "zero_point"


class InitialColour(StrEnum):
    """The colour of round 1 (``dutch``, C.04.3 Art. 5.1): chosen, or drawn from the seed."""

    WHITE = "white"
    BLACK = "black"
    DRAW = "draw"


class Status(StrEnum):
    REGISTRATION = "registration"
    SWISS = "swiss"
    FINAL_PHASE = "final_phase"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Points for a win, a draw, a loss and a bye, in half-points."""

    win: Score
    draw: Score
    loss: Score
    bye: Score

    @classmethod
    def default(cls) -> PointsTable:
        return cls(win=Score(6), draw=Score(2), loss=Score(0), bye=Score(6))


@dataclass(frozen=True, slots=True)
class Result:
    """A recorded result. A forfeit names the side that did not show, or both; its goals are
    0–0."""

    home_goals: int
    away_goals: int
    winner: Side | None = None
    decided_by: DecidedBy | None = None
    forfeit: Forfeit | None = None

    @property
    def winning_side(self) -> Side | None:
        """The side that won the match, or ``None`` for a draw or a double forfeit."""
        if self.forfeit is not None:
            return self.forfeit.present
        if self.home_goals > self.away_goals:
            return Side.HOME
        if self.away_goals > self.home_goals:
            return Side.AWAY
        return self.winner


@dataclass(frozen=True, slots=True)
class Pair:
    """Two players paired in a round, better-ranked first (``colours`` decides who is home)."""

    higher: PlayerId
    lower: PlayerId


@dataclass(frozen=True, slots=True)
class RequestedBye:
    """A player's announcement that they will not play Swiss round ``round``."""

    round: RoundNumber
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the tournament as the rules see it.

    ``entered_round`` is the first Swiss round the player could be paired in (1, or later for a
    late entry); ``withdrawn_after`` the last Swiss round they were in, ``None`` while active.
    ``title`` and ``fide_id`` are the chess identity (``title`` orders pairing numbers in
    ``dutch``); ``requested_byes`` the rounds the player asked to skip, by round. ``team`` is
    the player's club, school or family (``forbidden.clean_team``), which the tournament's
    ``avoid_same_team`` may keep apart.
    ``checked_in`` whether they are on round 1's check-in list (``app.domain.attendance``).
    ``members`` the two players of a team entry (``registration.Entry``), none for a player.
    """

    id: PlayerId
    name: str
    start_number: int
    rating: int | None = None
    group: GroupName | None = None
    entered_round: RoundNumber = RoundNumber(1)
    withdrawn_after: RoundNumber | None = None
    title: FideTitle | None = None
    fide_id: int | None = None
    requested_byes: tuple[RequestedBye, ...] = ()
    team: str | None = None
    checked_in: bool = False
    members: tuple[str, ...] = ()

    def requested_bye(self, number: RoundNumber) -> ByeKind | None:
        """The bye the player asked for in round ``number``, if any."""
        for bye in self.requested_byes:
            if bye.round == number:
                return bye.kind
        return None

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None

    def in_round(self, number: RoundNumber) -> bool:
        """Whether the player was in the tournament in Swiss round ``number``."""
        if number < self.entered_round:
            return False
        return self.withdrawn_after is None or number <= self.withdrawn_after
