"""The domain's refusals: one ``ValueError`` subclass per rule, each with a stable ``code``.

The codes are machine-readable names of the rule that refused; they know nothing of HTTP (the
service maps each class to a status in one table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # forbidden.py raises errors of this module
    from app.domain.forbidden import PairConstraint
    from app.domain.types import PlayerId


class DomainError(ValueError):
    """A command refused by the rules of the tournament."""

    code = "domain_error"


class InvalidSettings(DomainError):
    """A setting outside what ``tournament.md`` allows (rounds, final phase, groups, points)."""

    code = "invalid_settings"


class TooManyPlayers(DomainError):
    code = "too_many_players"


class TooFewPlayers(DomainError):
    code = "too_few_players"


class DuplicateName(DomainError):
    """Player names are unique within a tournament after trimming, case-insensitive."""

    code = "duplicate_name"


class RepeatedName(DuplicateName):
    """The players of a new tournament list one name twice: that list can never be valid."""

    code = "repeated_name"


class UnknownPlayer(DomainError):
    code = "player_not_found"


class UnknownGroup(DomainError):
    """A group asked of a tournament that has no such group."""

    code = "group_not_found"


class UnknownRound(DomainError):
    code = "round_not_found"


class UnknownMatch(DomainError):
    code = "match_not_found"


class WrongStatus(DomainError):
    """The command is not allowed in the tournament's current status."""

    code = "wrong_status"


class RegistrationClosed(WrongStatus):
    """Settings and deletions need registration; late entry closes at half the Swiss rounds."""

    code = "registration_closed"


class NotForDyp(DomainError):
    """A feature made for one player against one (pairing by hand, forbidden pairs, the
    explanation, TRF, the check), asked of a tournament that draws teams of two (DYP)."""

    code = "not_for_dyp"


class RoundIncomplete(DomainError):
    """The next round (or the final phase) needs every match of the current round decided."""

    code = "round_incomplete"


class NoMoreRounds(DomainError):
    """The format's Swiss rounds have all been generated."""

    code = "no_more_rounds"


class RoundHasResults(DomainError):
    """A round is taken back only while none of its results is recorded."""

    code = "round_has_results"


class RoundLocked(DomainError):
    """Swiss results are corrected only in the latest round, before the final phase."""

    code = "round_locked"


class RoundComplete(DomainError):
    """A round whose matches all have their result: its clock does not start or resume."""

    code = "round_complete"


class ClockNotStarted(DomainError):
    """A round's clock is paused, resumed or ended only once it was started."""

    code = "clock_not_started"


class ClockAlreadyStarted(DomainError):
    """A running or paused clock is not started again: pause, resume or end it."""

    code = "clock_already_started"


class ClockNotRunning(DomainError):
    """Only a running clock is paused."""

    code = "clock_not_running"


class ClockNotPaused(DomainError):
    """Only a paused clock is resumed."""

    code = "clock_not_paused"


class ClockEnded(DomainError):
    """An ended clock is neither paused, resumed nor ended again (it may be started anew)."""

    code = "clock_ended"


class ClockDurationRequired(DomainError):
    """A clock starts with a duration: the request's, else the tournament's ``round_duration``."""

    code = "clock_duration_required"


class WinnerRequired(DomainError):
    """A level final-phase score must name its winner."""

    code = "winner_required"


class InvalidResult(DomainError):
    """A result that does not fit its match (a winner on a decided score, goals out of range)."""

    code = "invalid_result"


class FinalPlayed(DomainError):
    """A semifinal's winner cannot change while a final built on it has a result."""

    code = "final_played"


class AlreadyWithdrawn(DomainError):
    code = "already_withdrawn"


class ByeNotAllowed(DomainError):
    """A requested bye of a kind the tournament's settings do not give."""

    code = "bye_not_allowed"


class NotEnoughQualifiers(DomainError):
    """The final phase needs enough active players to fill it."""

    code = "not_enough_qualifiers"


class InvalidTrf(DomainError):
    """A Tournament Report File that does not follow the format; ``line``/``column`` from 1."""

    code = "invalid_trf"

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.line = line
        self.column = column
        self.reason = reason


class PairingTimeout(DomainError):
    """A pairing search ran past its deadline (``app.domain.deadline``); nothing was changed."""

    code = "pairing_timeout"


class ForbiddenPairWithItself(DomainError):
    """A forbidden pair names two different players."""

    code = "forbidden_pair_self"


class DuplicateForbiddenPair(DomainError):
    """Two players are forbidden to meet at most once (of either kind)."""

    code = "duplicate_forbidden_pair"


class UnknownForbiddenPair(DomainError):
    code = "forbidden_pair_not_found"


class TooManyForbiddenPairs(DomainError):
    """A tournament keeps at most ``forbidden.MAX_FORBIDDEN_PAIRS`` explicit pairs."""

    code = "too_many_forbidden_pairs"


class PairingImpossible(DomainError):
    """No pairing of the round satisfies the absolute criteria C1–C3 (C.04.3 Art. 1.9.3:
    the Chief Arbiter decides), or, in any system, none keeps the hard forbidden pairs apart.
    ``players`` are the players who cannot all be given an opponent (``dutch/bye.py`` finds
    them), by id; ``names`` their names, in the same order, once the tournament has added them
    (``named``); ``forbidden`` the hard forbidden pairs that stand in the way."""

    code = "pairing_impossible"

    def __init__(
        self,
        detail: str,
        *,
        players: Sequence[PlayerId] = (),
        names: Sequence[str] = (),
        forbidden: Sequence[PairConstraint] = (),
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.players = tuple(players)
        self.names = tuple(names)
        self.forbidden = tuple(forbidden)

    def named(self, names: Mapping[PlayerId, str]) -> PairingImpossible:
        """The same refusal with the players' names, listed in its message."""
        listed = tuple(names.get(p, str(p)) for p in self.players)
        detail = self.detail
        if listed:
            detail += ": " + ", ".join(listed) + " cannot all be given an opponent"
        if self.forbidden:
            detail += "; the forbidden pairs in the way: " + ", ".join(
                f"{names.get(f.first, str(f.first))}–{names.get(f.second, str(f.second))}"
                for f in self.forbidden
            )
        return PairingImpossible(
            detail, players=self.players, names=listed, forbidden=self.forbidden
        )
