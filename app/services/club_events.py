"""A club's event outbox: club-level changes (``rating.updated``, ``season.updated``,
``season.deleted``), written in the transaction that makes them, read back in order
(``GET /v1/clubs/{id}/events``).

``seq`` counts 1, 2, 3, … per club without gaps: ``emit``'s caller holds the club row lock
(``clubs.lock`` for a write with a club key, ``lock_club`` inside a tournament's write, such as
the result that finishes it), so ``max(seq) + 1`` is never taken twice and events become
visible in ``seq`` order. Tournament events stay in their own outbox (``app.services.events``).

The club's stream (``GET …/clubs/{id}/events/stream``) and its webhooks read them as they read
a tournament's: ``emit`` queues a ``NOTIFY`` on ``events.CHANNEL`` with the payload
``topic(club_id)`` (``club:<id>``; a tournament's payload is its bare id, which never holds a
``:``), and tells the request's session, which wakes this process's streams after the commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, text, update
from sqlalchemy.orm import Session

from app.db import note_emitted
from app.errors import ClubNotFound
from app.models import ClubEventRow, ClubRow
from app.services.events import CHANNEL
from app.services.storage import now
from app.services.views import aware

CE = ClubEventRow.__table__  # type: ignore[attr-defined]
C = ClubRow.__table__  # type: ignore[attr-defined]

RATING_UPDATED = "rating.updated"
SEASON_UPDATED = "season.updated"
SEASON_DELETED = "season.deleted"
TYPES = (RATING_UPDATED, SEASON_UPDATED, SEASON_DELETED)

NewClubEvent = tuple[str, dict[str, Any]]
TOPIC_PREFIX = "club:"
"""A club's outbox among the ``NOTIFY`` payloads and the event hub's channels."""


@dataclass(frozen=True, slots=True)
class ClubEvent:
    seq: int
    club_id: str
    type: str
    data: dict[str, Any]
    created_at: datetime


def topic(club_id: str) -> str:
    """The club's outbox as a ``NOTIFY`` payload: ``club:<id>``."""
    return TOPIC_PREFIX + club_id


def envelope(event: ClubEvent) -> dict[str, Any]:
    """The body every channel sends (the stream's ``data:``, a webhook delivery), as the
    polling read lists it (``ClubEventRead``): ``id`` is the ``seq``."""
    return {
        "id": event.seq,
        "club_id": event.club_id,
        "type": event.type,
        "created_at": event.created_at.isoformat(),
        "data": event.data,
    }


def lock_club(session: Session, club_id: str) -> None:
    """Lock the club row until the transaction ends, without a key check: for club-level
    changes a tournament's write causes (the club's ratings when one of its tournaments
    finishes). PostgreSQL: ``SELECT … FOR UPDATE``; SQLite: a no-op ``UPDATE``."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(C).where(C.c.id == club_id).values(version=C.c.version))
        found = session.execute(select(C.c.id).where(C.c.id == club_id)).scalar()
    else:
        found = session.execute(select(C.c.id).where(C.c.id == club_id).with_for_update()).scalar()
    if found is None:
        raise ClubNotFound(club_id)


def emit(session: Session, club_id: str, new: Sequence[NewClubEvent]) -> list[int]:
    """Store the events, in order, in the current transaction (the caller holds the club row
    lock); their ``seq``."""
    if not new:
        return []
    first = int(
        session.execute(
            select(func.coalesce(func.max(CE.c.seq), 0)).where(CE.c.club_id == club_id)
        ).scalar_one()
    )
    at = now()
    rows = [
        {"club_id": club_id, "seq": first + 1 + i, "type": t, "data": d, "created_at": at}
        for i, (t, d) in enumerate(new)
    ]
    session.execute(insert(CE), rows)
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, :topic)"),
            {"channel": CHANNEL, "topic": topic(club_id)},
        )
    note_emitted(session, topic(club_id))
    return [first + 1 + i for i in range(len(new))]


def events_after(session: Session, club_id: str, after: int, limit: int) -> list[ClubEvent]:
    """The club's events with ``seq > after``, oldest first, at most ``limit``."""
    rows = session.execute(
        select(CE.c.seq, CE.c.club_id, CE.c.type, CE.c.data, CE.c.created_at)
        .where(CE.c.club_id == club_id, CE.c.seq > after)
        .order_by(CE.c.seq)
        .limit(limit)
    )
    return [ClubEvent(r[0], r[1], r[2], r[3], aware(r[4])) for r in rows]


def last_seqs(session: Session, club_ids: Sequence[str]) -> dict[str, int]:
    """The latest ``seq`` of each of ``club_ids`` that has events."""
    if not club_ids:
        return {}
    rows = session.execute(
        select(CE.c.club_id, func.max(CE.c.seq))
        .where(CE.c.club_id.in_(list(club_ids)))
        .group_by(CE.c.club_id)
    )
    return {r[0]: int(r[1]) for r in rows}
