"""Where an event stream stands between connections, by the rules of a browser's EventSource:
reconnect after the server's ``retry:`` delay, resume with ``Last-Event-ID``, and never hand
out an event twice. Both clients' ``events()`` loops keep one of these."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

import httpx
from httpx_sse import ServerSentEvent

from svizzera_client.errors import TransportError
from svizzera_client.events import ClubEventEnvelope, EventEnvelope

E = TypeVar("E", EventEnvelope, ClubEventEnvelope)
"""The events of a stream: a tournament's or a club's."""

MAX_WAIT = 30.0
"""Seconds: the longest wait between two connection attempts (the backoff doubles up to it)."""


def stream_timeout(read_timeout: float) -> httpx.Timeout:
    """Connect and send quickly; a read may wait ``read_timeout`` seconds (the server sends a
    heartbeat every 15 by default, so a silent connection longer than that is dead)."""
    return httpx.Timeout(10.0, read=read_timeout)


class Resume(Generic[E]):
    """The last event handed out, and how long to wait before the next connection.

    A connection that fails (refused, dropped, silent past the read timeout, a 5xx or 429) counts
    against ``reconnects``; one that answers resets the count. The stream is over when
    ``timeout`` seconds have passed (``None``: never), or raises ``TransportError`` after
    ``reconnects`` failures in a row.
    """

    def __init__(
        self,
        parse: Callable[[str], E],
        *,
        after: int,
        timeout: float | None,
        reconnects: int,
    ) -> None:
        self._parse: Callable[[str], E] = parse
        self.last_event_id = after
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._reconnects = reconnects
        self._failures = 0
        self._retry = 1.0  # seconds, until the server's `retry:` says otherwise

    def remaining(self) -> float | None:
        """Seconds left of the caller's ``timeout`` (what the next connection asks the server)."""
        if self._deadline is None:
            return None
        return max(self._deadline - time.monotonic(), 0.001)

    def connected(self) -> None:
        self._failures = 0

    def take(self, sse: ServerSentEvent) -> E | None:
        """The event in ``sse``, or ``None`` for a frame without one or an event already seen."""
        if sse.retry is not None:
            self._retry = sse.retry / 1000
        if not sse.data:
            return None
        event = self._parse(sse.data)
        if event.id <= self.last_event_id:
            return None
        self.last_event_id = event.id
        return event

    def failed(self, error: Exception) -> None:
        self._failures += 1
        if self._failures > self._reconnects:
            raise TransportError(
                f"event stream lost after {self._reconnects} reconnection attempts: {error}"
            ) from error

    def wait(self) -> float | None:
        """Seconds to wait before reconnecting, or ``None``: the stream is over."""
        if self._deadline is not None and time.monotonic() >= self._deadline - 0.01:
            return None
        delay = min(self._retry * 2.0 ** max(self._failures - 1, 0), MAX_WAIT)
        if self._deadline is not None:
            delay = min(delay, self._deadline - time.monotonic())
        return max(delay, 0.0)
