"""Matches and Swiss rounds: what a tournament is played in (``tournament.md``)."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.colours import ColourRule
from app.domain.explanation import NO_EXPLANATION, RoundExplanation
from app.domain.pairing_checks import PairingCheck
from app.domain.types import GroupName, Pair, PlayerId, Result, RoundNumber, Side, Stage

MatchId = int
FINAL_STAGES = (
    Stage.ROUND_OF_64,
    Stage.ROUND_OF_32,
    Stage.ROUND_OF_16,
    Stage.QUARTERFINAL,
    Stage.SEMIFINAL,
    Stage.FINAL,
    Stage.THIRD_PLACE,
    Stage.WINNERS_ROUND_1,
    Stage.WINNERS_ROUND_2,
    Stage.WINNERS_ROUND_3,
    Stage.WINNERS_ROUND_4,
    Stage.LOSERS_ROUND_1,
    Stage.LOSERS_ROUND_2,
    Stage.LOSERS_ROUND_3,
    Stage.LOSERS_ROUND_4,
    Stage.LOSERS_ROUND_5,
    Stage.LOSERS_ROUND_6,
    Stage.GRAND_FINAL,
    Stage.GRAND_FINAL_RESET,
)


@dataclass(frozen=True, slots=True)
class Match:
    """One match: a Swiss board or a final-phase match, with its result once recorded."""

    id: MatchId
    stage: Stage
    round: RoundNumber | None
    group: GroupName | None
    board: int
    home: PlayerId
    away: PlayerId
    colour_rule: ColourRule
    result: Result | None = None
    manual: bool = False
    """A board set by hand (``manual_rounds``), not by the pairing system."""
    home_partner: PlayerId | None = None
    """DYP (``pairing.dyp``): ``home``'s partner, the side's second player; else ``None``."""
    away_partner: PlayerId | None = None
    """DYP: ``away``'s partner."""

    @property
    def home_players(self) -> tuple[PlayerId, ...]:
        """The home side: ``home``, and their partner in DYP."""
        return (self.home,) if self.home_partner is None else (self.home, self.home_partner)

    @property
    def away_players(self) -> tuple[PlayerId, ...]:
        return (self.away,) if self.away_partner is None else (self.away, self.away_partner)

    @property
    def winner(self) -> PlayerId | None:
        side = self.result.winning_side if self.result else None
        if side is None:
            return None
        return self.home if side is Side.HOME else self.away


@dataclass(frozen=True, slots=True)
class SwissRound:
    """A Swiss round: its byes, the repeated pairs (of a fallback, or accepted by hand), how it
    was paired.

    ``paths`` holds, per group (``None`` without groups), the rules that paired it (``manual``
    for a round paired by hand); ``explanation`` the steps that placed each board and bye, as
    the system gave them when it paired the round (stored with it; a round read back from
    storage leaves it out, since only the explanation read asks for it: ``NO_EXPLANATION``).
    ``manual`` rounds carry the ``checks`` of the rules they break, as accepted by the arbiter
    (``manual_rounds``).
    """

    number: RoundNumber
    byes: tuple[PlayerId, ...]
    rematch_pairs: tuple[Pair, ...] = ()
    paths: tuple[tuple[GroupName | None, tuple[str, ...]], ...] = ()
    explanation: RoundExplanation = NO_EXPLANATION
    manual: bool = False
    checks: tuple[PairingCheck, ...] = ()

    @property
    def rematches(self) -> bool:
        return bool(self.rematch_pairs)


@dataclass(frozen=True, slots=True)
class GeneratedRound:
    """A Swiss round just paired, with its new matches in board order."""

    swiss_round: SwissRound
    matches: tuple[Match, ...]


@dataclass(frozen=True, slots=True)
class MatchChanges:
    """What a result command changed: matches written (new or updated) and matches removed."""

    written: tuple[Match, ...]
    removed: tuple[MatchId, ...] = ()
