"""The pairing deadline: past it a search raises ``pairing_timeout`` and changes nothing."""

from __future__ import annotations

import pytest

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import PairingTimeout
from app.domain.types import PairingSystem
from tests.domain.evening import new, play_round, stronger_wins


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
