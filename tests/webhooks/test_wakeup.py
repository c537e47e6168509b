"""The worker wakes only for tournaments that have endpoints (and for a new endpoint)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from app.db import make_engine
from app.settings import Settings
from app.webhooks.queue import ENDPOINT_PREFIX
from app.webhooks.worker import Worker


@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    engine = make_engine(settings.database_url)
    yield engine
    engine.dispose()


def test_events_of_tournaments_without_endpoints_do_not_wake_the_worker(
    engine: Engine, settings: Settings
) -> None:
    worker = Worker(engine, settings)
    worker.hooked = frozenset({"hooked"})
    worker._notified("quiet")
    assert not worker.wake.is_set()
    worker._notified("hooked")
    assert worker.wake.is_set()


def test_a_new_endpoint_wakes_the_worker_and_makes_it_read_the_endpoints_again(
    engine: Engine, settings: Settings
) -> None:
    worker = Worker(engine, settings)
    worker.hooked = frozenset()
    worker._notified(ENDPOINT_PREFIX + "fresh")
    assert worker.wake.is_set()
    assert worker.hooked is None


def test_before_the_first_read_every_event_wakes_the_worker(
    engine: Engine, settings: Settings
) -> None:
    worker = Worker(engine, settings)
    worker._notified("any")
    assert worker.wake.is_set()
