"""Rendered read bodies, kept per tournament version; conditional answers (``304``).

A tournament's state is immutable at a given version (every write bumps it under the row lock),
so a body rendered for ``(tournament, version, …)`` stays right for as long as that version is
current; the key is checked against the version read at the start of each request. Each worker
keeps its own small LRU; ``SVIZZERA_READ_CACHE_SIZE=0`` turns it off.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from starlette.responses import Response


class ReadCache:
    """An LRU of rendered bodies. Concurrent requests for a key not cached yet render it once:
    the first renders, the others wait for it (at most ``RENDER_WAIT`` seconds, then render
    themselves), so a room of live pages redrawing after an event costs one render."""

    RENDER_WAIT = 10.0

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._rendering: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        if self._size <= 0:
            return render()
        with self._lock:
            body = self._cached(key)
            if body is not None:
                return body
            done = self._rendering.get(key)
            if done is None:
                done = self._rendering[key] = threading.Event()
                leader = True
            else:
                leader = False
        if not leader:
            if done.wait(self.RENDER_WAIT):
                with self._lock:
                    body = self._cached(key)
                if body is not None:
                    return body
            return render()  # the first one failed, or is too slow to wait for
        try:
            body = render()
            with self._lock:
                self._entries[key] = body
                while len(self._entries) > self._size:
                    self._entries.popitem(last=False)
            return body
        finally:
            with self._lock:
                del self._rendering[key]
            done.set()

    def _cached(self, key: Hashable) -> bytes | None:
        body = self._entries.get(key)
        if body is not None:
            self._entries.move_to_end(key)
        return body


def body_etag(body: bytes) -> str:
    """A strong ETag from the bytes, for reads not tied to one tournament's version (the list)."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def conditional(body: bytes, tag: str, if_none_match: str | None) -> Response:
    """The JSON ``body`` with its ``ETag``, or ``304`` when ``If-None-Match`` names it."""
    if if_none_match is not None:
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
        if "*" in tags or tag in tags:
            return Response(status_code=304, headers={"ETag": tag})
    return Response(body, media_type="application/json", headers={"ETag": tag})
