"""The database engine, built from settings at start-up, and the per-request session.

The session dependency owns the transaction: it commits once the handler has returned (before
the response is sent) and rolls back on any exception, so a refused request changes nothing.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from fastapi import Request
from sqlalchemy import Engine, MetaData, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session

from app.settings import Settings

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def apply_naming_convention(metadata: MetaData) -> None:
    """Every constraint gets a predictable name, so migrations and error mapping can use it."""
    metadata.naming_convention = NAMING_CONVENTION


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(
    url: str,
    *,
    pool_size: int = 10,
    lock_timeout: float = 5.0,
    statement_timeout: float | None = 30.0,
) -> Engine:
    """An engine for ``url`` whose every wait is bounded.

    A lock wait (PostgreSQL ``lock_timeout``; SQLite's busy timeout on its one write lock) and a
    wait for a pooled connection end after ``lock_timeout`` seconds, a PostgreSQL statement after
    ``statement_timeout`` (``None``: no limit, for migrations), opening a PostgreSQL connection
    after ``lock_timeout`` too (at least 2 s, libpq's floor); ``is_busy`` tells these errors
    apart, and the API answers them with 503 ``busy``. Set per connection, so they cost no round
    trip per transaction. A failed statement is logged without its parameters (they hold
    token hashes, webhook secrets and URLs).
    """
    if is_sqlite(url):
        in_memory = make_url(url).database in (None, "", ":memory:")  # one connection, no queue
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": lock_timeout},
            hide_parameters=True,
            **({} if in_memory else {"pool_timeout": lock_timeout}),
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    options = f"-c lock_timeout={_ms(lock_timeout)}"
    if statement_timeout is not None:
        options += f" -c statement_timeout={_ms(statement_timeout)}"
    # No pre-ping: it costs a round trip per request; stale connections are recycled instead.
    # No overflow: a burst waits for a connection (at most ``lock_timeout``) instead of opening
    # and closing extra ones, so the server sees at most workers × pool_size of them.
    return create_engine(
        url,
        connect_args={"options": options, "connect_timeout": max(2, math.ceil(lock_timeout))},
        hide_parameters=True,
        pool_size=pool_size,
        max_overflow=0,
        pool_timeout=lock_timeout,
        pool_recycle=1800,
    )


def warm_pool(engine: Engine) -> None:
    """Open the pool's connections now, at start-up, instead of under the first requests.

    Without it the first burst of requests each waits for a new PostgreSQL server process (a
    fork, authentication, the options above) while the others queue behind them: measured, the
    first 8-second ``wrk -c16`` run after a start had a p99 of up to 0.9 s and a maximum of 1.6 s
    against 40-60 ms warm (docs/performance.md). SQLite connections cost nothing to open. A
    database that does not answer is logged, not raised: the service starts and ``/health``
    says ``degraded`` until it answers.
    """
    if is_sqlite(str(engine.url)):
        return
    with ExitStack() as opened:
        try:
            for _ in range(engine.pool.size()):  # type: ignore[attr-defined]
                opened.enter_context(engine.connect())
        except SQLAlchemyError as error:
            logging.getLogger(__name__).warning("database not reachable at start-up: %s", error)


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def engine_from(settings: Settings) -> Engine:
    return make_engine(
        settings.database_url,
        pool_size=settings.db_pool_size,
        lock_timeout=settings.lock_timeout,
        statement_timeout=settings.statement_timeout,
    )


_LOCK_NOT_AVAILABLE = "55P03"
_QUERY_CANCELED = "57014"


def is_busy(error: BaseException) -> bool:
    """A bounded wait ran out: a lock, a pooled connection, or a PostgreSQL statement."""
    if isinstance(error, PoolTimeout):
        return True
    if not isinstance(error, OperationalError):
        return False
    sqlstate = getattr(error.orig, "sqlstate", None)
    if sqlstate in (_LOCK_NOT_AVAILABLE, _QUERY_CANCELED):
        return True
    return "database is locked" in str(error.orig)


_EMITTED = "svizzera_emitted"
"""``Session.info`` key: the outboxes that got events in the current transaction, by their
``NOTIFY`` payload (a tournament's id, or ``club:<id>``)."""


def note_emitted(session: Session, topic: str) -> None:
    """Remember that ``topic`` got an event, to wake its streams after the commit."""
    session.info.setdefault(_EMITTED, set()).add(topic)


def _take_emitted(session: Session) -> set[str]:
    emitted: set[str] = session.info.pop(_EMITTED, set())
    return emitted


def release_connection(session: Session) -> None:
    """End the session's transaction, which has only read, so its connection goes back to the
    pool: a write's token check runs in one thread and its handler in the next one the event
    loop hands it, and a connection kept in between is one that a request already in a thread
    may wait for until it is refused as `busy`. The handler reads again what it needs."""
    session.rollback()


def get_session(request: Request) -> Iterator[Session]:
    """One session and one transaction per request: commit after the handler, else roll back.

    Handlers of ``app.api.routing.CommittingRoute`` have committed already, in their own thread;
    the commit here then has nothing left to do."""
    engine: Engine = request.app.state.engine
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            emitted = _take_emitted(session)
        # Wake this process's event streams now rather than at the next poll (other processes
        # learn of it through NOTIFY on PostgreSQL, or their poll on SQLite).
        if emitted:
            request.app.state.event_hub.notify_threadsafe(emitted)
