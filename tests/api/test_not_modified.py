"""Polling stays cheap: every GET answers 304 to a matching If-None-Match, until a change."""

from __future__ import annotations

import pytest

from tests.api.helpers import create, generate, play_round
from tests.client import ApiClient

READS = [
    "/v1/tournaments/{id}",
    "/v1/tournaments/{id}/players",
    "/v1/tournaments/{id}/rounds",
    "/v1/tournaments/{id}/rounds/1",
    "/v1/tournaments/{id}/standings",
    "/v1/tournaments/{id}/final-phase",
    "/v1/tournaments/{id}/print",
    "/v1/tournaments/{id}/live",
    "/v1/tournaments/{id}/live?tv=1&lang=cs",
    "/v1/tournaments/{id}/export.csv",
    "/v1/tournaments/{id}/audit",
    "/v1/tournaments",
]


@pytest.mark.parametrize("path", READS)
def test_every_get_answers_304_until_something_changes(client: ApiClient, path: str) -> None:
    t = create(client, 8)
    play_round(client, t)
    url = path.format(id=t.id)
    first = client.get(url, headers=t.auth)
    assert first.status_code == 200, first.text
    tag = first.headers["ETag"]
    again = client.get(url, headers={**t.auth, "If-None-Match": tag})
    assert again.status_code == 304
    assert again.headers["ETag"] == tag
    assert again.content == b""
    assert client.get(url, headers={**t.auth, "If-None-Match": '"other"'}).status_code == 200
    generate(client, t)  # a write: the same tag no longer matches
    changed = client.get(url, headers={**t.auth, "If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != tag
