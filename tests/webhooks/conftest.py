"""Webhook fixtures: a receiver on loopback, settings with tiny backoffs, and the delivery
worker running in a thread of the test process (the same code the app runs in its lifespan)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine

from app.settings import Settings
from app.webhooks.worker import Worker
from tests.webhooks.receiver import Receiver, receiving


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(
        database_url=db_url,
        webhook_worker=False,
        webhook_allow_private=True,
        webhook_backoff=0.05,
        webhook_poll_interval=0.05,
        # Generous: on a loaded machine a delivery answered late would time out and be sent
        # again, and the tests count attempts and arrivals exactly. The timeout test sets its own.
        webhook_timeout=30.0,
    )


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as r:
        yield r


@contextmanager
def worker_running(engine: Engine, settings: Settings) -> Iterator[None]:
    """``Worker.run`` on its own event loop in a thread, stopped (and joined) on exit."""
    started = threading.Event()
    state: dict[str, object] = {}

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        state["stop"] = lambda: loop.call_soon_threadsafe(stop.set)
        started.set()
        await Worker(engine, settings).run(stop)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert started.wait(60)
    try:
        yield
    finally:
        stop = state["stop"]
        assert callable(stop)
        stop()
        thread.join(60)
        assert not thread.is_alive()
