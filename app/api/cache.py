"""Rendered read bodies, kept per tournament version.

A tournament's state is immutable at a given version (every write bumps it under the row lock),
so a body rendered for ``(tournament, version, …)`` stays right for as long as that version is
current; the key is checked against the version read at the start of each request. Each worker
keeps its own small LRU; ``SVIZZERA_READ_CACHE_SIZE=0`` turns it off.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class ReadCache:
    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        if self._size <= 0:
            return render()
        with self._lock:
            body = self._entries.get(key)
            if body is not None:
                self._entries.move_to_end(key)
                return body
        body = render()
        with self._lock:
            self._entries[key] = body
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return body
