"""A round's clock (``app.domain.clock``): the state machine, the round rules, the arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.clock import ClockAction, ClockState, RoundClock, act
from app.domain.errors import (
    ClockAlreadyStarted,
    ClockDurationRequired,
    ClockEnded,
    ClockNotPaused,
    ClockNotRunning,
    ClockNotStarted,
    RoundComplete,
    RoundLocked,
    UnknownRound,
    WrongStatus,
)
from app.domain.round_actions import RoundSituation

T0 = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
MINUTE = 60_000
A = ClockAction
S = ClockState


def latest(
    number: int = 3, *, recorded: tuple[int, ...] = (), open_: tuple[int, ...] = (7, 8)
) -> RoundSituation:
    return RoundSituation(number, 3, 5, False, recorded, open_)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def run(*steps: tuple[ClockAction, int], duration_ms: int = 10 * MINUTE) -> RoundClock:
    clock = RoundClock.not_started(duration_ms, T0)
    for action, when in steps:
        clock = act(clock, action, now=at(when), situation=latest(), duration_ms=duration_ms)
    return clock


def test_start_counts_the_duration_down_from_the_start() -> None:
    clock = run((A.START, 1000))
    assert clock == RoundClock(10 * MINUTE, S.RUNNING, 10 * MINUTE, at(1000))
    assert clock.ends_at == at(1000 + 10 * MINUTE)
    assert clock.remaining_at(at(1000 + 90_500)) == 10 * MINUTE - 90_500
    assert clock.measured(at(61_000)) == RoundClock(10 * MINUTE, S.RUNNING, 9 * MINUTE, at(61_000))


def test_a_pause_keeps_the_time_left_and_a_resume_counts_on_from_it() -> None:
    paused = run((A.START, 0), (A.PAUSE, 4 * MINUTE))
    assert (paused.state, paused.remaining_ms, paused.ends_at) == (S.PAUSED, 6 * MINUTE, None)
    assert paused.remaining_at(at(50 * MINUTE)) == 6 * MINUTE
    assert paused.measured(at(50 * MINUTE)) == RoundClock(
        10 * MINUTE, S.PAUSED, 6 * MINUTE, at(50 * MINUTE)
    )
    resumed = run((A.START, 0), (A.PAUSE, 4 * MINUTE), (A.RESUME, 9 * MINUTE))
    assert resumed.state is S.RUNNING
    assert resumed.ends_at == at(15 * MINUTE)
    assert resumed.remaining_at(at(14 * MINUTE)) == MINUTE


def test_at_zero_the_clock_still_runs_and_says_time_is_up() -> None:
    clock = run((A.START, 0))
    assert clock.remaining_at(at(10 * MINUTE + 1)) == 0
    assert clock.remaining_at(at(99 * MINUTE)) == 0
    late = clock.measured(at(11 * MINUTE))
    assert (late.state, late.remaining_ms, late.time_up) == (S.RUNNING, 0, True)
    assert not clock.measured(at(9 * MINUTE)).time_up


def test_end_stops_the_clock_with_the_time_that_was_left() -> None:
    ended = run((A.START, 0), (A.END, 3 * MINUTE))
    assert (ended.state, ended.remaining_ms, ended.ends_at) == (S.ENDED, 7 * MINUTE, None)
    again = act(ended, A.START, now=at(4 * MINUTE), situation=latest(), duration_ms=MINUTE)
    assert again == RoundClock(MINUTE, S.RUNNING, MINUTE, at(4 * MINUTE))


def test_a_server_clock_set_back_counts_as_no_time_passed() -> None:
    clock = run((A.START, 5000))
    assert clock.remaining_at(at(1000)) == 10 * MINUTE
    assert clock.measured(at(1000)) == clock


@pytest.mark.parametrize(
    ("steps", "action", "refusal"),
    [
        ((), A.PAUSE, ClockNotStarted),
        ((), A.RESUME, ClockNotStarted),
        ((), A.END, ClockNotStarted),
        (((A.START, 0),), A.START, ClockAlreadyStarted),
        (((A.START, 0), (A.PAUSE, 1)), A.START, ClockAlreadyStarted),
        (((A.START, 0), (A.PAUSE, 1)), A.PAUSE, ClockNotRunning),
        (((A.START, 0),), A.RESUME, ClockNotPaused),
        (((A.START, 0), (A.END, 1)), A.PAUSE, ClockEnded),
        (((A.START, 0), (A.END, 1)), A.RESUME, ClockEnded),
        (((A.START, 0), (A.END, 1)), A.END, ClockEnded),
    ],
)
def test_each_state_refuses_what_it_cannot_do(
    steps: tuple[tuple[ClockAction, int], ...], action: ClockAction, refusal: type[Exception]
) -> None:
    clock = run(*steps)
    with pytest.raises(refusal):
        act(clock, action, now=at(MINUTE), situation=latest(), duration_ms=MINUTE)


def test_start_needs_a_duration() -> None:
    with pytest.raises(ClockDurationRequired, match="round_duration"):
        act(RoundClock.not_started(0, T0), A.START, now=T0, situation=latest())


@pytest.mark.parametrize(
    ("situation", "refusal", "words"),
    [
        (latest(2), RoundLocked, "round 2 is over"),
        (RoundSituation(3, 3, 5, True, (), (7,)), WrongStatus, "final phase"),
        (latest(4), UnknownRound, "round 4 has not been generated"),
        (latest(recorded=(7, 8), open_=()), RoundComplete, "every match of round 3"),
    ],
)
def test_only_the_latest_open_round_starts_a_clock(
    situation: RoundSituation, refusal: type[Exception], words: str
) -> None:
    with pytest.raises(refusal, match=words):
        act(
            RoundClock.not_started(MINUTE, T0),
            A.START,
            now=T0,
            situation=situation,
            duration_ms=MINUTE,
        )


def test_a_complete_round_pauses_and_ends_its_clock_but_does_not_resume_it() -> None:
    complete = latest(recorded=(7, 8), open_=())
    running = run((A.START, 0))
    paused = act(running, A.PAUSE, now=at(MINUTE), situation=complete)
    assert paused.state is S.PAUSED
    with pytest.raises(RoundComplete):
        act(paused, A.RESUME, now=at(2 * MINUTE), situation=complete)
    assert act(paused, A.END, now=at(2 * MINUTE), situation=complete).state is S.ENDED


ACTIONS = st.sampled_from([A.PAUSE, A.RESUME, A.END, A.START])


@given(
    duration=st.integers(1, 3 * MINUTE),
    steps=st.lists(st.tuples(ACTIONS, st.integers(0, 2 * MINUTE)), max_size=30),
    looks=st.lists(st.integers(0, 4 * MINUTE), max_size=5),
)
def test_the_time_left_is_the_duration_less_the_time_it_ran(
    duration: int, steps: list[tuple[ClockAction, int]], looks: list[int]
) -> None:
    """Whatever the order of the actions (refused ones change nothing): the time left is never
    negative nor above the duration, and is the duration less the time spent running since the
    latest start, the paused stretches not counted."""
    clock = RoundClock.not_started(duration, T0)
    clock = act(clock, A.START, now=T0, situation=latest(), duration_ms=duration)
    now, ran = T0, 0  # ran: ms spent running since the latest start
    for action, gap in steps:
        if clock.state is S.RUNNING:
            ran += gap
        now += timedelta(milliseconds=gap)
        expected = max(duration - ran, 0)
        assert clock.remaining_at(now) == expected
        for look in looks:  # a look ahead from here, the clock left alone
            later = now + timedelta(milliseconds=look)
            left = clock.remaining_at(later)
            assert 0 <= left <= expected
            if clock.state is S.RUNNING:
                assert left == max(expected - look, 0)
                assert clock.measured(later).remaining_ms == left
            else:
                assert left == expected
        try:
            clock = act(clock, action, now=now, situation=latest(), duration_ms=duration)
        except (ClockAlreadyStarted, ClockNotRunning, ClockNotPaused, ClockEnded):
            continue
        assert 0 <= clock.remaining_ms <= duration
        assert clock.remaining_ms == (duration if action is A.START else expected)
        if action is A.START:
            ran = 0
        if clock.state is S.RUNNING:
            assert clock.ends_at == now + timedelta(milliseconds=clock.remaining_ms)
