"""The engine bounds every wait: statements, locks and pooled connections; each is ``busy``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app.db import is_busy, is_sqlite, make_engine
from app.main import create_app
from app.settings import Settings
from tests.api.helpers import assert_problem
from tests.client import ApiClient

T = TypeVar("T")


def postgres_only(db_url: str) -> None:
    if is_sqlite(db_url):
        pytest.skip("PostgreSQL's statement timeout and connection pool")


def test_a_statement_past_the_timeout_is_busy(db_url: str) -> None:
    postgres_only(db_url)
    engine = make_engine(db_url, statement_timeout=0.05)
    try:
        with engine.connect() as connection, pytest.raises(OperationalError) as raised:
            connection.execute(text("SELECT pg_sleep(5)"))
    finally:
        engine.dispose()
    assert is_busy(raised.value)


def test_a_request_that_gets_no_connection_in_time_is_a_busy_problem(db_url: str) -> None:
    postgres_only(db_url)
    app = create_app(Settings(database_url=db_url, db_pool_size=1, lock_timeout=0.2))
    try:
        with ApiClient(app) as client:
            with app.state.engine.connect():  # the only connection of the pool
                waited = client.get("/v1/tournaments")
            after = client.get("/v1/tournaments")
    finally:
        app.state.engine.dispose()
    assert_problem(waited, 503, "busy")
    assert waited.headers["retry-after"] == "1"
    assert after.status_code == 200


def test_an_operational_error_that_is_no_timeout_is_not_busy(db_url: str) -> None:
    if not is_sqlite(db_url):
        pytest.skip("SQLite reports a missing table as OperationalError")
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection, pytest.raises(OperationalError) as raised:
            connection.execute(text("SELECT * FROM no_such_table"))
    finally:
        engine.dispose()
    assert not is_busy(raised.value)


def started(app: FastAPI, check: Callable[[], T]) -> T:
    """``check()`` run once the app's start-up (its lifespan) has run, before it shuts down."""

    async def run() -> T:
        async with app.router.lifespan_context(app):
            return await asyncio.to_thread(check)

    return asyncio.run(run())


def test_the_pool_is_open_before_the_first_request(db_url: str) -> None:
    postgres_only(db_url)
    app = create_app(Settings(database_url=db_url, db_pool_size=3))
    pool = app.state.engine.pool
    assert pool.checkedin() + pool.checkedout() == 0
    opened = started(app, lambda: pool.checkedin() + pool.checkedout())
    assert opened == 3


def test_a_database_down_at_start_up_leaves_the_service_up_and_degraded(db_url: str) -> None:
    postgres_only(db_url)
    down = "postgresql+psycopg://postgres@127.0.0.1:1/test"  # nothing listens on port 1

    def health() -> httpx.Response:
        with ApiClient(app) as client:
            return client.get("/health")

    app = create_app(Settings(database_url=down, lock_timeout=1, webhook_worker=False))
    response = started(app, health)
    assert response.status_code == 503
    assert response.json() == {"status": "degraded", "database": "unreachable"}
