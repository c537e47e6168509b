"""Quotas of a public deployment, decided by the database so every worker counts the same:
tournaments created per client address and minute, webhook endpoints per tournament or club.

A refusal raises ``TooManyRequests`` (429 with ``Retry-After``) before anything is written,
and the rollback takes back its count. A creation is counted in a transaction of its own
(``app.api.deps.create_quota``), so one refused later still counts.
"""

from __future__ import annotations

import hashlib
import math
from datetime import datetime

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.errors import TooManyRequests
from app.models import CreationCountRow, ReportCountRow, WebhookEndpointRow

C = CreationCountRow.__table__  # type: ignore[attr-defined]
W = WebhookEndpointRow.__table__  # type: ignore[attr-defined]
RC = ReportCountRow.__table__  # type: ignore[attr-defined]


def client_key(address: str) -> str:
    """The address as stored: a hash, so the table holds no address."""
    return hashlib.sha256(address.encode()).hexdigest()


def count_creation(session: Session, address: str, *, per_minute: int, now: datetime) -> None:
    """Count one tournament created by ``address`` this minute; 429 past ``per_minute``.

    A fixed window: at most ``per_minute`` in each minute of the clock. The count is one
    upsert, so simultaneous creations from one address are counted one by one (the second
    waits for the first's row, at most the lock timeout); past minutes are deleted.
    """
    minute, second = divmod(now.timestamp(), 60)
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    upsert = dialect.insert(C).values(client=client_key(address), minute=int(minute), count=1)
    upsert = upsert.on_conflict_do_update(
        index_elements=[C.c.client, C.c.minute], set_={"count": C.c.count + 1}
    )
    count = session.execute(upsert.returning(C.c.count)).scalar_one()
    if count > per_minute:
        raise TooManyRequests(
            f"at most {per_minute} tournaments a minute from one address; try again next minute",
            retry_after=math.ceil(60 - second),
        )
    session.execute(delete(C).where(C.c.minute < int(minute)))


def count_report(
    session: Session,
    *,
    address: str,
    board: str,
    per_client: int,
    per_board: int,
    now: datetime,
) -> None:
    """Count one result claim from ``address`` on ``board`` this minute; 429 past
    ``per_client`` claims of one address (any board) or ``per_board`` claims on one board
    (any address). A fixed window, one upsert per count, as ``count_creation``; 0: no limit."""
    minute, second = divmod(now.timestamp(), 60)
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    limits = (
        ("client:" + address, per_client, "from one address"),
        ("board:" + board, per_board, "on one board"),
    )
    for key, limit, where in limits:
        if limit == 0:
            continue
        upsert = dialect.insert(RC).values(key=client_key(key), minute=int(minute), count=1)
        upsert = upsert.on_conflict_do_update(
            index_elements=[RC.c.key, RC.c.minute], set_={"count": RC.c.count + 1}
        )
        count = session.execute(upsert.returning(RC.c.count)).scalar_one()
        if count > limit:
            raise TooManyRequests(
                f"at most {limit} result claims a minute {where}; try again next minute",
                retry_after=math.ceil(60 - second),
            )
    session.execute(delete(RC).where(RC.c.minute < int(minute)))


def check_endpoint_room(session: Session, owner: ColumnElement[bool], *, limit: int) -> None:
    """429 when the owner (a tournament, a club) has ``limit`` webhook endpoints already.

    The caller holds the owner's row lock (briefly, like a write) so two registrations cannot
    both take the last place.
    """
    count = session.execute(select(func.count()).select_from(W).where(owner)).scalar_one()
    if count >= limit:
        raise TooManyRequests(
            f"a tournament or a club has at most {limit} webhook endpoints; delete one first",
            retry_after=60,
        )
