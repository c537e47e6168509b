"""The pairing deadline: past it a search raises ``pairing_timeout`` and changes nothing."""

from __future__ import annotations

import time

import pytest

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import PairingTimeout
from app.domain.types import PairingSystem
from tests.domain.evening import new, play_round, stronger_wins
from tests.load import burn_cpu, burn_cpu_elsewhere


class Ticks:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += 1.0
        self.reads += 1
        return self.now


def test_a_deadline_expires_when_its_clock_reaches_it() -> None:
    clock = Ticks()
    deadline = Deadline.after(3, clock=clock)  # made at 1, expires at 4
    deadline.check()  # 2
    deadline.check()  # 3
    with pytest.raises(PairingTimeout) as raised:
        deadline.check()  # 4
    assert raised.value.code == "pairing_timeout"
    assert "3 s" in str(raised.value)
    assert clock.reads == 4


def test_no_deadline_never_reads_a_clock_and_never_expires() -> None:
    assert NO_DEADLINE.at is None
    assert not NO_DEADLINE.expired()
    NO_DEADLINE.check()


@pytest.mark.parametrize("system", [PairingSystem.NEAREST, PairingSystem.LIM])
def test_a_round_past_its_deadline_changes_nothing(system: PairingSystem) -> None:
    tournament = new(16, pairing=system)
    play_round(tournament, stronger_wins(tournament))
    rounds, matches = list(tournament.rounds), dict(tournament.matches)
    clock = Ticks()

    with pytest.raises(PairingTimeout):
        tournament.generate_round(deadline=Deadline.after(1.5, clock=clock))

    assert clock.reads == 3  # made, then checked by the search until it expired
    assert tournament.rounds == rounds
    assert tournament.matches == matches
    assert tournament.generate_round().number == 2  # nothing half-done is left behind


def test_the_budget_counts_the_cpu_time_of_the_thread_that_pairs_not_the_wall_clock() -> None:
    deadline = Deadline.after(0.05)
    started = time.monotonic()

    burn_cpu_elsewhere(0.2)  # this thread waits, as a preempted one does on a busy machine

    assert time.monotonic() - started >= 0.2
    deadline.check()  # 0.2 s passed on the clock, next to none of this thread's CPU time
    burn_cpu(0.06)
    with pytest.raises(PairingTimeout) as raised:
        deadline.check()
    assert str(raised.value) == (
        "pairing needed more than the 0.05 s of CPU time allowed; nothing was changed: ask the "
        "server's operator to raise SVIZZERA_PAIRING_TIMEOUT"
    )


def test_the_wall_bound_holds_however_little_cpu_time_was_used() -> None:
    cpu = [0.0]
    wall = Ticks()
    deadline = Deadline.after(1, wall_seconds=2.5, clock=lambda: cpu[0], wall_clock=wall)
    deadline.check()  # wall 2
    deadline.check()  # wall 3
    with pytest.raises(PairingTimeout) as raised:
        deadline.check()  # wall 4: past 1 + 2.5, while the CPU clock never moved
    assert raised.value.code == "pairing_timeout"
    assert str(raised.value) == (
        "pairing ran longer than the 2.5 s allowed on the clock (the server is very busy); "
        "nothing was changed: try again when it is quieter, or ask its operator to raise "
        "SVIZZERA_PAIRING_WALL_TIMEOUT"
    )
    assert wall.reads == 4


def test_without_a_wall_bound_only_the_work_counts() -> None:
    cpu = [0.0]
    deadline = Deadline.after(1, clock=lambda: cpu[0])
    assert deadline.wall_at is None
    deadline.check()
    cpu[0] = 1.0
    assert deadline.expired()


def test_the_default_clocks_are_this_threads_cpu_time_and_the_monotonic_clock() -> None:
    assert Deadline().clock is time.thread_time
    assert Deadline().wall_clock is time.monotonic
