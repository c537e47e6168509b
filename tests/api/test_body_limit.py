"""The body cap holds for every body: announced, chunked, or longer than it claims."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator

import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings
from tests.api.helpers import assert_problem
from tests.client import ApiClient

CAP = 1000
CHUNK = 100


@pytest.fixture
def small(db_url: str) -> Iterator[ApiClient]:
    app: FastAPI = create_app(Settings(database_url=db_url, max_body_bytes=CAP))
    with ApiClient(app) as client:
        yield client
    app.state.engine.dispose()


class Chunks:
    """A chunked body (no ``Content-Length``) that counts how much of it was read."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.read = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), CHUNK):
            self.read += 1
            yield self.body[start : start + CHUNK]


def test_a_chunked_body_past_the_cap_is_refused_as_it_arrives(small: ApiClient) -> None:
    huge = Chunks(b'{"name": "' + b"x" * 10_000_000 + b'"}')  # 10 MB in 100,000 chunks
    response = small.post(
        "/v1/tournaments", content=huge, headers={"Content-Type": "application/json"}
    )
    assert_problem(response, 413, "payload_too_large")
    assert huge.read <= CAP // CHUNK + 1  # reading stopped at the first chunk past the cap
    assert small.get("/v1/tournaments").json()["items"] == []


def test_a_chunked_body_within_the_cap_is_read_whole(small: ApiClient) -> None:
    players = [{"name": f"P{i}"} for i in range(4)]
    body = Chunks(json.dumps({"name": "Chunked", "players": players}).encode())
    response = small.post(
        "/v1/tournaments", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 201, response.text
    assert response.json()["player_count"] == 4


def test_an_announced_length_past_the_cap_is_refused_unread(small: ApiClient) -> None:
    body = Chunks(b"x" * 5000)
    response = small.post(
        "/v1/tournaments",
        content=body,
        headers={"Content-Type": "application/json", "Content-Length": "5000"},
    )
    assert_problem(response, 413, "payload_too_large")
    assert body.read == 0
