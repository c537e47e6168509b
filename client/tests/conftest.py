"""Fixtures: one real server for the module's tests (each test makes its own tournament), and a
client of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from live_server import LiveServer

try:
    from svizzera_client import Client
except ModuleNotFoundError as missing:  # a virtualenv made before the client existed
    raise ImportError("svizzera-client is not installed here: run `make install`") from missing

pytest.register_assert_rewrite("evening")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    running = LiveServer.started(tmp_path_factory.mktemp("server"))
    yield running
    running.stop()


@pytest.fixture
def client(server: LiveServer) -> Iterator[Client]:
    with Client(server.url) as c:
        yield c


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
