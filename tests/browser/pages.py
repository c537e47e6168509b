"""Serve a directory of test pages over HTTP from a thread: a page's own origin."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

POLL = 0.05
"""Seconds between the test server's checks for ``shutdown()``, which waits for the next one
(``serve_forever``'s default, 0.5 s, was half a second of every test's teardown)."""


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def page_server(directory: Path) -> Iterator[str]:
    """Yields the origin (``http://127.0.0.1:PORT``) serving ``directory``."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
