"""A real webhook receiver on loopback: a threaded ``http.server`` that records every request
and answers as the test scripts it (fail the next n, or hang until released)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

POLL = 0.05
"""Seconds between the test server's checks for ``shutdown()``, which waits for the next one
(``serve_forever``'s default, 0.5 s, was half a second of every test's teardown)."""


@dataclass(frozen=True)
class Arrival:
    headers: dict[str, str]
    body: bytes
    at: float
    """``time.perf_counter()`` when the request was read."""

    @property
    def envelope(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.body)
        return loaded

    @property
    def event_id(self) -> str:
        return self.headers["svizzera-event-id"]


class Receiver:
    def __init__(self) -> None:
        self.arrivals: list[Arrival] = []
        self.fail_next = 0
        self.fail_status = 500
        self.hang = False
        self.hang_at: int | None = None
        """Hang on this arrival (1-based) only."""
        self.released = threading.Event()
        self._changed = threading.Condition()
        self.url = ""

    def arrive(self, arrival: Arrival) -> tuple[int, bool]:
        """Record it; the status to answer and whether to hang first."""
        with self._changed:
            self.arrivals.append(arrival)
            self._changed.notify_all()
            if self.fail_next > 0:
                self.fail_next -= 1
                return self.fail_status, False
            return 200, self.hang or len(self.arrivals) == self.hang_at

    def wait_for(self, count: int, timeout: float = 60.0) -> list[Arrival]:
        """At least ``count`` arrivals, or AssertionError after ``timeout`` seconds (generous:
        a busy machine may take seconds; a passing test never waits that long)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.arrivals) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.arrivals)} of {count} deliveries arrived"
                self._changed.wait(left)
            return list(self.arrivals)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, hang = receiver.arrive(Arrival(headers, body, time.perf_counter()))
            if hang:
                receiver.released.wait(30)
            try:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:
                pass  # the worker went away (killed, or timed out)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def receiving() -> Iterator[Receiver]:
    receiver = Receiver()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.released.set()
        server.shutdown()
        server.server_close()
