"""Work for tests that must hold on a busy machine: CPU burnt in this thread, in another
thread, or in a busy-loop process on every core while a test runs."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

LOAD_LIMIT = 300.0
"""Seconds a load process spins at most: it stops by itself if a test run is killed."""


def burn_cpu(seconds: float) -> None:
    """Spin in the calling thread until it has used ``seconds`` of CPU time."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def burn_cpu_elsewhere(seconds: float) -> None:
    """Let another thread of this process use ``seconds`` of CPU time while the calling thread
    waits for it, as a thread preempted on a busy machine waits: its own CPU clock stands still
    while the wall clock moves at least ``seconds``."""
    other = threading.Thread(target=burn_cpu, args=(seconds,))
    other.start()
    other.join()


@contextmanager
def cpu_load(processes: int | None = None) -> Iterator[None]:
    """A busy-loop process on each core (``os.cpu_count()``) for the duration of the block."""
    code = f"import time\nend = time.monotonic() + {LOAD_LIMIT}\nwhile time.monotonic() < end: pass"
    count = processes or os.cpu_count() or 1
    spinners = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()
