"""Standings bodies are cached by tournament version: never stale, bounded in size."""

from __future__ import annotations

import sys
import threading
import time

from app.api.cache import ReadCache
from tests.api.helpers import create, generate, record
from tests.client import ApiClient


def test_a_write_is_seen_by_the_next_read(client: ApiClient) -> None:
    t = create(client, 4)
    match = generate(client, t)["matches"][0]
    url = f"/v1/tournaments/{t.id}/standings"
    before = client.get(url).json()
    assert client.get(url).json() == before
    record(client, t, match["id"], home=5, away=0)
    after = client.get(url)
    assert after.headers["etag"] == '"3"'
    rows = {r["player_id"]: r for r in after.json()["rows"]}
    assert rows[match["home"]]["goals_for"] == 5
    assert after.json() != before


def test_cache_evicts_the_least_recently_used() -> None:
    cache = ReadCache(2)
    renders: list[str] = []

    def render(key: str) -> bytes:
        renders.append(key)
        return key.encode()

    for key in ("a", "b", "a", "c", "b"):
        assert cache.get_or_render(key, lambda k=key: render(k)) == key.encode()
    assert renders == ["a", "b", "c", "b"]
    off = ReadCache(0)
    off.get_or_render("a", lambda: render("a"))
    off.get_or_render("a", lambda: render("a"))
    assert renders[-2:] == ["a", "a"]


def test_concurrent_misses_of_one_key_render_it_once() -> None:
    cache = ReadCache(4)
    release = threading.Event()
    renders: list[int] = []

    def render() -> bytes:
        renders.append(1)
        release.wait(30)
        return b"page"

    def waiting(thread: threading.Thread) -> bool:
        """Whether ``thread`` is blocked in an Event's wait (stdlib frame introspection)."""
        frame = sys._current_frames().get(thread.ident or 0)
        while frame is not None:
            if frame.f_code.co_name == "wait" and "threading" in frame.f_code.co_filename:
                return True
            frame = frame.f_back
        return False

    results: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: results.append(cache.get_or_render("k", render)))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while not all(waiting(t) for t in threads) and time.monotonic() < deadline:
        time.sleep(0.01)  # polling the threads' state, not waiting for time to pass
    assert all(waiting(t) for t in threads)  # one in render, seven waiting for it
    release.set()
    for thread in threads:
        thread.join(30)
    assert results == [b"page"] * 8
    assert len(renders) == 1
