"""A round's clock: the organizer starts it, pauses and resumes it, and ends it (issue 23).

The clock is kept as an anchor, never as a ticking value: the time left (``remaining_ms``) at
one server time (``at``, the last action), and whether it runs from there. The time left at any
later moment is computed from that anchor, so nothing needs to tick on the server and every
reader (a read, an event, a webhook) can count down by itself from the same two numbers.

At zero a running clock stays ``running`` and says its time is up; it does not end the round
(results still come in; the organizer ends the clock, or generates the next round). The states:

    not_started --start--> running --pause--> paused --resume--> running
    running | paused --end--> ended --start--> running (a new start, with a full duration)

What may be done depends on the round too (``round_actions``, action ``clock``): only the latest
Swiss round before the final phase has a clock that changes; one whose matches all have their
result does not start or resume (pausing and ending stay possible).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from app.domain.errors import (
    ClockAlreadyStarted,
    ClockDurationRequired,
    ClockEnded,
    ClockNotPaused,
    ClockNotRunning,
    ClockNotStarted,
    RoundComplete,
)
from app.domain.round_actions import RoundAction, RoundSituation, require

__all__ = ["MAX_DURATION_SECONDS", "ClockAction", "ClockState", "RoundClock", "act"]

MAX_DURATION_SECONDS = 24 * 60 * 60
"""The longest round a clock counts (a day)."""

_MS = timedelta(milliseconds=1)


class ClockState(StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    ENDED = "ended"


class ClockAction(StrEnum):
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    END = "end"


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A round's clock as of its last action.

    ``duration_ms`` is the round's time as started; ``remaining_ms`` the time left at ``at`` (a
    server time, timezone-aware); while ``running`` it falls from there, one millisecond a
    millisecond, down to zero and no further.
    """

    duration_ms: int
    state: ClockState
    remaining_ms: int
    at: datetime

    @classmethod
    def not_started(cls, duration_ms: int, at: datetime) -> RoundClock:
        """The clock of a round whose clock was never started: the whole duration left."""
        return cls(duration_ms, ClockState.NOT_STARTED, duration_ms, at)

    def remaining_at(self, now: datetime) -> int:
        """The milliseconds left at ``now``: never below zero, and never more than at ``at``
        (a ``now`` before ``at``, a server clock set back, counts as no time passed)."""
        if self.state is not ClockState.RUNNING:
            return self.remaining_ms
        elapsed = max((now - self.at) // _MS, 0)
        return max(self.remaining_ms - elapsed, 0)

    def measured(self, now: datetime) -> RoundClock:
        """The same clock, its time left measured at ``now`` (what a read answers: a reader
        learns the server's time from ``at`` whatever the state)."""
        if now <= self.at:
            return self
        return replace(self, remaining_ms=self.remaining_at(now), at=now)

    @property
    def ends_at(self) -> datetime | None:
        """The server time a running clock reaches zero; ``None`` unless it runs."""
        if self.state is not ClockState.RUNNING:
            return None
        return self.at + self.remaining_ms * _MS

    @property
    def time_up(self) -> bool:
        """A started clock with no time left (at ``at``: measure it first)."""
        return self.state is not ClockState.NOT_STARTED and self.remaining_ms == 0


def act(
    clock: RoundClock,
    action: ClockAction,
    *,
    now: datetime,
    situation: RoundSituation,
    duration_ms: int | None = None,
) -> RoundClock:
    """The clock after ``action`` at ``now`` (the module's docstring): ``start`` counts
    ``duration_ms`` from ``now``; ``pause`` keeps the time left at ``now``; ``resume`` counts on
    from it; ``end`` stops it for good with the time that was left.

    Refused, with nothing changed: on a round that is not the latest before the final phase
    (``round_actions``); ``start`` and ``resume`` on a complete round (``RoundComplete``);
    ``start`` without a duration (``ClockDurationRequired``) or on a running or paused clock;
    ``pause`` unless running; ``resume`` unless paused; any but ``start`` before the first
    start or after the end.
    """
    require(RoundAction.CLOCK, situation)
    if action is ClockAction.START:
        if clock.state in (ClockState.RUNNING, ClockState.PAUSED):
            raise ClockAlreadyStarted(
                f"round {situation.number}'s clock is {clock.state}: pause, resume or end it "
                "(an ended clock may be started again)"
            )
        _require_open(situation, "start")
        if duration_ms is None:
            raise ClockDurationRequired(
                "the clock needs the round's time: send `duration` (seconds), or set the "
                "tournament's `round_duration` (PATCH /v1/tournaments/{id})"
            )
        return RoundClock(duration_ms, ClockState.RUNNING, duration_ms, now)
    if clock.state is ClockState.NOT_STARTED:
        raise ClockNotStarted(
            f"round {situation.number}'s clock has not been started: start it first"
        )
    if clock.state is ClockState.ENDED:
        raise ClockEnded(
            f"round {situation.number}'s clock has ended: start it again for a new count"
        )
    left = clock.remaining_at(now)
    if action is ClockAction.PAUSE:
        if clock.state is not ClockState.RUNNING:
            raise ClockNotRunning(f"round {situation.number}'s clock is paused already")
        return RoundClock(clock.duration_ms, ClockState.PAUSED, left, now)
    if action is ClockAction.RESUME:
        if clock.state is not ClockState.PAUSED:
            raise ClockNotPaused(f"round {situation.number}'s clock is running already")
        _require_open(situation, "resume")
        return RoundClock(clock.duration_ms, ClockState.RUNNING, left, now)
    return RoundClock(clock.duration_ms, ClockState.ENDED, left, now)


def _require_open(situation: RoundSituation, doing: str) -> None:
    if situation.recorded and not situation.open:
        raise RoundComplete(
            f"every match of round {situation.number} has its result: there is no time left "
            f"to {doing} (end the clock, or generate the next round)"
        )
