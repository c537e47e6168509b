"""How long a computation may run: a deadline the pairing searches check in their loops.

The searches are exact and fast on every format the settings allow, but a request must never
compute without a limit: past the deadline the search stops and raises ``PairingTimeout``, a
domain error that changes nothing.

The limit counts work, not waiting: its clock is by default ``time.thread_time``, the CPU time
of the thread that computes, so a pairing that waits for the CPU on a busy machine (its thread
preempted, or waiting for the GIL behind other requests) is not refused for it. A second,
much larger bound on the wall clock (``time.monotonic``) still caps how long a request holds
its worker, whatever the reason. A deadline must be checked in the thread that made it (a
thread's CPU clock means nothing in another). The clocks are arguments, so tests can drive them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.domain.errors import PairingTimeout

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point on ``clock`` (CPU time) past which ``check`` raises, and one on ``wall_clock``;
    ``None`` means no limit on that clock.

    ``seconds`` and ``wall_seconds`` are the budgets it was made with, and ``setting`` the
    operator's setting of the CPU budget, for the error message.
    """

    at: float | None = None
    seconds: float | None = None
    clock: Clock = field(default=time.thread_time, compare=False, repr=False)
    wall_at: float | None = None
    wall_seconds: float | None = None
    wall_clock: Clock = field(default=time.monotonic, compare=False, repr=False)
    setting: str = field(default="SVIZZERA_PAIRING_TIMEOUT", compare=False)

    @classmethod
    def after(
        cls,
        seconds: float,
        *,
        wall_seconds: float | None = None,
        clock: Clock = time.thread_time,
        wall_clock: Clock = time.monotonic,
        setting: str = "SVIZZERA_PAIRING_TIMEOUT",
    ) -> Deadline:
        """The deadline ``seconds`` of work from now on ``clock`` (the calling thread's CPU
        time), and ``wall_seconds`` from now on ``wall_clock`` if given; ``setting`` names the
        CPU budget's setting in the refusal."""
        wall_at = None if wall_seconds is None else wall_clock() + wall_seconds
        return cls(clock() + seconds, seconds, clock, wall_at, wall_seconds, wall_clock, setting)

    def expired(self) -> bool:
        return self._expired_by_work() or self._expired_by_wall()

    def check(self) -> None:
        """Raise ``PairingTimeout`` once either bound has passed."""
        if self._expired_by_work():
            raise PairingTimeout(
                f"pairing needed more than the {self.seconds:g} s of CPU time allowed; nothing "
                f"was changed: ask the server's operator to raise {self.setting}"
            )
        if self._expired_by_wall():
            raise PairingTimeout(
                f"pairing ran longer than the {self.wall_seconds:g} s allowed on the clock (the "
                "server is very busy); nothing was changed: try again when it is quieter, or ask "
                "its operator to raise SVIZZERA_PAIRING_WALL_TIMEOUT"
            )

    def _expired_by_work(self) -> bool:
        return self.at is not None and self.clock() >= self.at

    def _expired_by_wall(self) -> bool:
        return self.wall_at is not None and self.wall_clock() >= self.wall_at


NO_DEADLINE = Deadline()
"""No limit: the default of the domain's entry points (scripts, benchmarks, tests)."""
