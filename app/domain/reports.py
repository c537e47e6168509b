"""Players report a board's result: one side claims a score, the other side confirms it.

Each side of a board holds at most one claim, its latest. When both sides' claims are the same
result, the result is confirmed (and recorded as an organizer's would be); when they differ,
the board is disputed until a side changes its claim to the other's, or the organizer records
the result. A claim changes nothing else: the result's own rules are checked where a result is
recorded (``app.domain.results``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from app.domain.errors import DomainError
from app.domain.types import Result, Side


class BoardState(StrEnum):
    """Where a board's report stands: no claim, one side's claim, two claims that differ."""

    OPEN = "open"
    PENDING = "pending"
    DISPUTED = "disputed"


class ReportStep(StrEnum):
    """What one claim did: left a claim waiting for the other side, confirmed the other side's
    claim (the result is recorded), or made the two claims differ."""

    CLAIMED = "claimed"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"


class ResultAlreadyRecorded(DomainError):
    """A board that has its result takes no claims: the recorded result stands (the organizer
    corrects it)."""

    code = "result_already_recorded"


@dataclass(frozen=True, slots=True)
class Claims:
    """The latest claim of each side of one board (``None``: that side claimed nothing)."""

    home: Result | None = None
    away: Result | None = None

    def of(self, side: Side) -> Result | None:
        return self.home if side is Side.HOME else self.away

    @property
    def state(self) -> BoardState:
        """``open`` without claims, ``pending`` with one side's, ``disputed`` with two that
        differ (two that agree are never kept: they are the result)."""
        if self.home is None and self.away is None:
            return BoardState.OPEN
        if self.home is None or self.away is None or self.home == self.away:
            return BoardState.PENDING
        return BoardState.DISPUTED


NO_CLAIMS = Claims()


@dataclass(frozen=True, slots=True)
class Reported:
    """The outcome of one claim: its ``step``, the claims kept afterwards (none once
    confirmed), the ``result`` to record when confirmed, and whether anything changed (a side
    repeating its own claim changes nothing)."""

    step: ReportStep
    claims: Claims
    result: Result | None
    changed: bool


def report(claims: Claims, side: Side, result: Result) -> Reported:
    """A side's claim on a board without result ("Players report results"): it replaces that
    side's earlier claim; the same result as the other side's claim confirms it (the claims
    end, the result is recorded), a different one disputes it, and with no claim of the other
    side it waits for the other side to confirm."""
    after = replace(claims, home=result) if side is Side.HOME else replace(claims, away=result)
    other = after.of(side.other)
    if other is None:
        return Reported(ReportStep.CLAIMED, after, None, changed=after != claims)
    if other == result:
        return Reported(ReportStep.CONFIRMED, NO_CLAIMS, result, changed=True)
    return Reported(ReportStep.DISPUTED, after, None, changed=after != claims)
