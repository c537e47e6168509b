"""How long a computation may run: a deadline the pairing searches check in their loops.

The searches are exact and fast on every format the settings allow, but a request must never
compute without a limit: past the deadline the search stops and raises ``PairingTimeout``, a
domain error that changes nothing. The clock is an argument (``time.monotonic`` by default), so
tests can drive it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.domain.errors import PairingTimeout

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point on ``clock`` past which ``check`` raises; ``at is None`` means no limit.

    ``seconds`` is the budget it was made with, for the error message.
    """

    at: float | None = None
    seconds: float | None = None
    clock: Clock = field(default=time.monotonic, compare=False, repr=False)

    @classmethod
    def after(cls, seconds: float, *, clock: Clock = time.monotonic) -> Deadline:
        """The deadline ``seconds`` from now on ``clock``."""
        return cls(clock() + seconds, seconds, clock)

    def expired(self) -> bool:
        return self.at is not None and self.clock() >= self.at

    def check(self) -> None:
        """Raise ``PairingTimeout`` once the deadline has passed."""
        if self.expired():
            raise PairingTimeout(
                f"pairing took longer than the {self.seconds:g} s allowed; nothing was changed: "
                "try again when the server is quieter, or ask its operator to raise "
                "SVIZZERA_PAIRING_TIMEOUT"
            )


NO_DEADLINE = Deadline()
"""No limit: the default of the domain's entry points (scripts, benchmarks, tests)."""
