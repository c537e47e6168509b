"""What an arbiter may do to a Swiss round in each of its states: one table (``docs/rules.md``,
"What may be done to a round").

A round is *past* (an earlier one, its results locked), *playing* (the latest, with a result),
*paired* (the latest, no result yet), *next* (the one to pair, once the latest is complete),
*waiting* (the next one while the latest still has matches without result), *closed* (a Swiss
round once the final phase started), or beyond the tournament (*exhausted*: every Swiss round is
generated; *after the final phase*; *unknown*: further ahead). ``ALLOWED`` lists what each
state allows; any other action is refused with the state's error in ``REFUSED``. The commands
(``Tournament``, the results) ask ``require`` instead of testing the state themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from app.domain.errors import (
    DomainError,
    NoMoreRounds,
    RoundHasResults,
    RoundIncomplete,
    RoundLocked,
    UnknownRound,
    WrongStatus,
)

__all__ = ["ALLOWED", "RoundAction", "RoundSituation", "RoundState", "require", "state_of"]


class RoundState(StrEnum):
    PAST = "past"
    PLAYING = "playing"
    PAIRED = "paired"
    NEXT = "next"
    WAITING = "waiting"
    CLOSED = "closed"
    EXHAUSTED = "exhausted"
    AFTER_FINAL_PHASE = "after_final_phase"
    UNKNOWN = "unknown"


class RoundAction(StrEnum):
    RESULT = "result"
    """Record, correct or clear a result of one of the round's matches."""
    UNDO = "undo"
    REPAIR_BY_HAND = "repair_by_hand"
    """Replace the round's boards and byes (``PUT …/rounds/{n}/pairing``)."""
    PREVIEW = "preview"
    GENERATE = "generate"
    PAIR_BY_HAND = "pair_by_hand"
    """Create the round from boards and byes given by the arbiter (``POST …/rounds`` with a
    body)."""
    CLOCK = "clock"
    """Start, pause, resume or end the round's clock (``app.domain.clock``)."""


ON_THE_ROUND = frozenset(
    {RoundAction.RESULT, RoundAction.UNDO, RoundAction.REPAIR_BY_HAND, RoundAction.CLOCK}
)
"""The actions on a round that exists; the others make the next round."""

ALLOWED: Mapping[RoundState, frozenset[RoundAction]] = {
    RoundState.PAST: frozenset(),
    RoundState.PLAYING: frozenset({RoundAction.RESULT, RoundAction.CLOCK}),
    RoundState.PAIRED: frozenset(
        {RoundAction.RESULT, RoundAction.UNDO, RoundAction.REPAIR_BY_HAND, RoundAction.CLOCK}
    ),
    RoundState.NEXT: frozenset(
        {RoundAction.PREVIEW, RoundAction.GENERATE, RoundAction.PAIR_BY_HAND}
    ),
    RoundState.WAITING: frozenset(),
    RoundState.CLOSED: frozenset(),
    RoundState.EXHAUSTED: frozenset(),
    RoundState.AFTER_FINAL_PHASE: frozenset(),
    RoundState.UNKNOWN: frozenset(),
}
"""The table: what may be done to a round in each state."""


@dataclass(frozen=True, slots=True)
class RoundSituation:
    """What decides a round's state, and what the refusals name: the round asked about, the
    latest round, the format's Swiss rounds, whether the final phase started, and the latest
    round's matches with a result and without one (ids)."""

    number: int
    current_round: int
    swiss_rounds: int
    final_phase_started: bool
    recorded: tuple[int, ...]
    open: tuple[int, ...]
    final_phase_follows: bool = True


def state_of(s: RoundSituation) -> RoundState:
    """The round's state (the module's docstring), from its situation."""
    if s.number < 1 or s.number > s.current_round + 1:
        return RoundState.UNKNOWN
    if s.number == s.current_round + 1:
        if s.final_phase_started:
            return RoundState.AFTER_FINAL_PHASE
        if s.current_round >= s.swiss_rounds:
            return RoundState.EXHAUSTED
        return RoundState.WAITING if s.current_round and s.open else RoundState.NEXT
    if s.number < s.current_round:
        return RoundState.PAST
    if s.final_phase_started:
        return RoundState.CLOSED
    return RoundState.PLAYING if s.recorded else RoundState.PAIRED


def _not_generated(s: RoundSituation) -> DomainError:
    latest = (
        f"the latest round is {s.current_round}"
        if s.current_round
        else "no round has been generated yet"
    )
    return UnknownRound(f"round {s.number} has not been generated: {latest}")


def _past(s: RoundSituation, action: RoundAction) -> DomainError:
    if action is RoundAction.RESULT:
        return RoundLocked(
            "Swiss results can change only in the latest round, before the final phase: "
            "this result stands"
        )
    if action is RoundAction.UNDO:
        return RoundLocked(
            f"only the latest round can be undone: undo round {s.current_round} first"
        )
    if action is RoundAction.CLOCK:
        return RoundLocked(
            f"only the latest round has a clock that runs: round {s.number} is over (the "
            f"latest is {s.current_round})"
        )
    return RoundLocked(
        f"only the latest round can be paired again: round {s.number} is over (the latest "
        f"is {s.current_round})"
    )


def _playing(s: RoundSituation, action: RoundAction) -> DomainError:
    doing = "undo the round" if action is RoundAction.UNDO else "pair the round again by hand"
    return RoundHasResults(
        f"round {s.number} has {len(s.recorded)} recorded result(s) (matches "
        f"{', '.join(map(str, s.recorded))}): clear them first to {doing}"
    )


def _closed(s: RoundSituation, action: RoundAction) -> DomainError:
    if action is RoundAction.RESULT:
        return _past(s, action)
    if action is RoundAction.CLOCK:
        return WrongStatus(
            "the final phase has started: the Swiss rounds' clocks cannot change any more"
        )
    return WrongStatus(
        "the final phase has started: its Swiss rounds cannot be "
        + ("undone" if action is RoundAction.UNDO else "paired again")
        + " any more"
    )


def _waiting(s: RoundSituation, action: RoundAction) -> DomainError:
    if action in ON_THE_ROUND:
        return _not_generated(s)
    doing = (
        f"pairing round {s.number} by hand"
        if action is RoundAction.PAIR_BY_HAND
        else f"generating round {s.number}"
    )
    return RoundIncomplete(
        f"round {s.current_round} still has matches without result ({', '.join(map(str, s.open))}"
        f"): record every result of round {s.current_round} before {doing}"
    )


def _exhausted(s: RoundSituation, action: RoundAction) -> DomainError:
    if action in ON_THE_ROUND:
        return _not_generated(s)
    then = (
        "start the final phase once their results are in"
        if s.final_phase_follows
        else "once their results are in, the standings are final"
    )
    return NoMoreRounds(f"all {s.swiss_rounds} Swiss rounds have been generated: {then}")


def _after_final_phase(s: RoundSituation, action: RoundAction) -> DomainError:
    if action in ON_THE_ROUND:
        return _not_generated(s)
    return WrongStatus(
        "the final phase has started, so no Swiss round follows: record the final "
        "phase's results instead"
    )


def _ahead(s: RoundSituation, action: RoundAction) -> DomainError:
    if action in ON_THE_ROUND:
        return _not_generated(s)
    return UnknownRound(f"round {s.number} is not the next round: that is {s.current_round + 1}")


REFUSED: Mapping[RoundState, Callable[[RoundSituation, RoundAction], DomainError]] = {
    RoundState.PAST: _past,
    RoundState.PLAYING: _playing,
    RoundState.PAIRED: _ahead,  # never: a paired round allows every action on it
    RoundState.NEXT: _ahead,
    RoundState.WAITING: _waiting,
    RoundState.CLOSED: _closed,
    RoundState.EXHAUSTED: _exhausted,
    RoundState.AFTER_FINAL_PHASE: _after_final_phase,
    RoundState.UNKNOWN: _ahead,
}
"""The refusal of an action a state does not allow, with the remedy it names."""


def require(action: RoundAction, situation: RoundSituation) -> RoundState:
    """The round's state, if ``ALLOWED`` lets ``action`` be done to it; else its refusal."""
    state = state_of(situation)
    if action not in ALLOWED[state]:
        raise REFUSED[state](situation, action)
    return state
