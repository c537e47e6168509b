"""Standings bodies are cached by tournament version: never stale, bounded in size."""

from __future__ import annotations

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
