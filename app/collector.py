"""CPython's cyclic garbage collector, paused while one bounded piece of work allocates much.

Reading and saving a TRF file of 30,000-50,000 games builds some 200,000 objects (matches,
results, the rows written) that all live until the work is done. The collector, counting
allocations, meanwhile runs hundreds of young collections and one or two full ones, each full
one scanning every object of the process (0.1-0.2 s of a 0.5 s import on SQLite, more in a
server's larger heap), and frees nothing: none of those objects is garbage yet. ``paused``
turns automatic collection off for the work and back on after it. Reference counting frees
objects as before; only reference cycles wait for the next collection, a few hundred
milliseconds later.

Pairing a round is the same kind of work (``services.rounds``, ``services.checks``): a late
round of a 256-player long override allocates hundreds of thousands of short-lived objects and
leaves no reference cycle, and the collections counting them ran 20-45 ms of each of its worst
rounds, walking the loaded tournament.

The collector is the process's, shared by its threads: pauses overlap (a worker runs one TRF
import at a time, but a check of a file may run beside it) and it is turned back on when the
last one ends, and only if it was on when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pauses:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = 0
        self._was_enabled = False

    @contextmanager
    def paused(self) -> Iterator[None]:
        with self._lock:
            if self._open == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._open += 1
        try:
            yield
        finally:
            with self._lock:
                self._open -= 1
                if self._open == 0 and self._was_enabled:
                    gc.enable()


paused = _Pauses().paused
"""``with paused():`` no automatic cyclic collection until the block (and every other pause
that overlaps it) ends."""
