"""Blocking calls (the database) from the event loop, in worker threads, tracked to their end.

Cancelling a task that waits on a thread does not stop the thread: it runs on, holding what it
took (a pooled connection), and hands it back whenever it returns, after the engine has been
disposed if that came first; such a connection is never closed. So whatever runs on threads at
shutdown waits for them: ``Threads.wait`` before the engine is disposed.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from anyio import to_thread

P = ParamSpec("P")
T = TypeVar("T")


class Threads:
    """The calls one component runs in worker threads, until each returns."""

    def __init__(self) -> None:
        self._running: set[asyncio.Future[Any]] = set()

    async def run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``func(*args, **kwargs)`` in a worker thread. Cancelling the caller leaves the call
        running (its own future, shielded) and tracked until it returns."""
        call = asyncio.ensure_future(to_thread.run_sync(functools.partial(func, *args, **kwargs)))
        self._running.add(call)
        call.add_done_callback(self._running.discard)
        return await asyncio.shield(call)

    async def wait(self) -> None:
        """Until every call started so far has returned (each is bounded by the engine's
        statement and lock timeouts)."""
        await asyncio.gather(*self._running, return_exceptions=True)
