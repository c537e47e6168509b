"""The database engine, built from settings at start-up, and the per-request session.

The session dependency owns the transaction: it commits once the handler has returned (before
the response is sent) and rolls back on any exception, so a refused request changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import Request
from sqlalchemy import Engine, MetaData, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

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


def make_engine(url: str, *, pool_size: int = 10) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, WAL and a busy timeout per connection."""
    if is_sqlite(url):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # No pre-ping: it costs a round trip per request; stale connections are recycled instead.
    return create_engine(url, pool_size=pool_size, max_overflow=pool_size, pool_recycle=1800)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


_EMITTED = "svizzera_emitted"
"""``Session.info`` key: the tournaments that got events in the current transaction."""


def note_emitted(session: Session, tournament_id: str) -> None:
    """Remember that ``tournament_id`` got an event, to wake its streams after the commit."""
    session.info.setdefault(_EMITTED, set()).add(tournament_id)


def _take_emitted(session: Session) -> set[str]:
    emitted: set[str] = session.info.pop(_EMITTED, set())
    return emitted


def get_session(request: Request) -> Iterator[Session]:
    """One session and one transaction per request: commit after the handler, else roll back."""
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
