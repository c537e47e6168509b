"""The delivery queue in the database: enqueue new events, claim due deliveries, record the
outcome. Every step is its own short transaction, so a worker can die anywhere in between.

An endpoint belongs to a tournament or to a club; its deliveries carry that owner's events
(``event_id`` or ``club_event_id``), and every step below treats both alike.

- ``enqueue`` turns the events after each endpoint's ``cursor`` into ``pending`` deliveries and
  advances the cursor in the same transaction: a crash before the commit enqueues nothing (the
  next run does it), after it everything; ``unique (endpoint_id, event_id)`` and a cursor that
  only moves forward make a second worker doing the same harmless.
- ``claim`` takes, per endpoint, only its oldest pending delivery (so an endpoint receives its
  events in order, one at a time) when it is due and not held by a live claim. The claim is a
  lease (``claimed_until``): a worker that dies mid-send leaves a claim that runs out, and the
  delivery is sent again with the same ids. PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so workers
  never wait on each other nor take the same row; SQLite: a compare-and-set ``UPDATE``.
- ``finish`` records an attempt: delivered, or the next attempt after an exponential backoff,
  or ``failed`` after the last attempt.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, Insert, and_, exists, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from app.models import ClubEventRow, EventRow, WebhookDeliveryRow, WebhookEndpointRow
from app.services import club_events
from app.services.views import aware

logger = logging.getLogger("svizzera.webhooks")

D = WebhookDeliveryRow.__table__  # type: ignore[attr-defined]
W = WebhookEndpointRow.__table__  # type: ignore[attr-defined]
E = EventRow.__table__  # type: ignore[attr-defined]
CE = ClubEventRow.__table__  # type: ignore[attr-defined]

ENDPOINT_PREFIX = "endpoint:"
"""``NOTIFY`` payload prefix of a new endpoint, before its owner's topic (an event's payload is
the topic alone: the bare tournament id, or ``club:<id>``)."""
PENDING = "pending"
DELIVERED = "delivered"
FAILED = "failed"
ENQUEUE_BATCH = 1000


@dataclass(frozen=True, slots=True)
class Claimed:
    """A delivery this worker holds until ``claimed_until``: what it needs to send it. The
    event is a tournament's (``tournament_id``) or a club's (``club_id``)."""

    id: int
    endpoint_id: int
    url: str
    secret: str
    attempts: int
    seq: int
    tournament_id: str | None
    club_id: str | None
    type: str
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Outcome:
    """One attempt: delivered (a 2xx), or why not."""

    delivered: bool
    status_code: int | None = None
    error: str | None = None


def _insert_ignoring_duplicates(engine: Engine, event_column: str) -> Insert:
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    statement: Insert = dialect.insert(D).on_conflict_do_nothing(
        index_elements=["endpoint_id", event_column]
    )
    return statement


def hooked_topics(engine: Engine) -> frozenset[str]:
    """The outboxes that have at least one endpoint, as ``NOTIFY`` payloads (a tournament's
    id, ``club:<id>``): the only ones with work to enqueue."""
    with engine.connect() as connection:
        rows = connection.execute(select(W.c.tournament_id, W.c.club_id).distinct())
        return frozenset(tid if tid is not None else club_events.topic(cid) for tid, cid in rows)


_OUTBOXES = (
    # (the owner's column on the endpoint, the outbox, its owner column, the delivery's column)
    (W.c.tournament_id, E, E.c.tournament_id, "event_id"),
    (W.c.club_id, CE, CE.c.club_id, "club_event_id"),
)


def enqueue(engine: Engine, *, now: datetime) -> int:
    """Deliveries for the events after each endpoint's cursor (of the types it wants), of
    tournaments and of clubs; returns how many were added."""
    # Read first, write after: on SQLite the write transaction then starts with its first
    # write (no read-to-write upgrade that could fail under a concurrent writer).
    found: list[tuple[str, list[Any]]] = []
    with engine.connect() as connection:
        for owner, outbox, outbox_owner, column in _OUTBOXES:
            query = (
                select(W.c.id, W.c.event_types, outbox.c.id, outbox.c.seq, outbox.c.type)
                .join(outbox, and_(outbox_owner == owner, outbox.c.seq > W.c.cursor))
                .order_by(W.c.id, outbox.c.seq)
                .limit(ENQUEUE_BATCH)
            )
            rows = connection.execute(query).all()
            if rows:
                found.append((column, list(rows)))
    if not found:
        return 0
    cursors: dict[int, int] = defaultdict(int)
    inserts: list[tuple[str, list[dict[str, Any]]]] = []
    for column, rows in found:
        values: list[dict[str, Any]] = []
        for endpoint_id, types, event_id, seq, kind in rows:
            cursors[endpoint_id] = max(cursors[endpoint_id], seq)
            if not types or kind in types:
                values.append(
                    {
                        "endpoint_id": endpoint_id,
                        column: event_id,
                        "status": PENDING,
                        "attempts": 0,
                        "next_attempt_at": now,
                        "created_at": now,
                    }
                )
        if values:
            inserts.append((column, values))
    try:
        with engine.begin() as connection:
            for column, values in inserts:
                connection.execute(_insert_ignoring_duplicates(engine, column), values)
            for endpoint_id, seq in cursors.items():
                connection.execute(
                    update(W).where(W.c.id == endpoint_id, W.c.cursor < seq).values(cursor=seq)
                )
    except IntegrityError:
        # An endpoint deleted since the read: its deliveries have nowhere to go; the next
        # run reads again without it.
        logger.info("an endpoint went away while its events were enqueued; retrying")
        return 0
    return sum(len(values) for _, values in inserts)


def _due(now: datetime, limit: int) -> Any:
    earlier = aliased(D)
    # An endpoint's deliveries all carry events of one outbox (the other column is null, and
    # a comparison with null is never true), whose ids follow its seq.
    older_pending = exists().where(
        earlier.c.endpoint_id == D.c.endpoint_id,
        earlier.c.status == PENDING,
        or_(
            earlier.c.event_id < D.c.event_id,
            earlier.c.club_event_id < D.c.club_event_id,
        ),
    )
    return (
        select(D.c.id)
        .where(
            D.c.status == PENDING,
            D.c.next_attempt_at <= now,
            or_(D.c.claimed_until.is_(None), D.c.claimed_until <= now),
            ~older_pending,
        )
        .order_by(D.c.next_attempt_at, D.c.id)
        .limit(limit)
    )


def claim(engine: Engine, *, now: datetime, lease: timedelta, limit: int) -> list[Claimed]:
    """Hold up to ``limit`` due deliveries (each the oldest pending of its endpoint) until
    ``now + lease``."""
    until = now + lease
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            ids = list(
                connection.execute(
                    _due(now, limit).with_for_update(skip_locked=True, of=D)
                ).scalars()
            )
            if ids:
                connection.execute(update(D).where(D.c.id.in_(ids)).values(claimed_until=until))
    else:
        with engine.connect() as connection:
            candidates = list(connection.execute(_due(now, limit)).scalars())
        ids = []
        if candidates:
            with engine.begin() as connection:
                for delivery_id in candidates:
                    taken = connection.execute(
                        update(D)
                        .where(
                            D.c.id == delivery_id,
                            D.c.status == PENDING,
                            or_(D.c.claimed_until.is_(None), D.c.claimed_until <= now),
                        )
                        .values(claimed_until=until)
                    )
                    if taken.rowcount == 1:
                        ids.append(delivery_id)
    if not ids:
        return []
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                D.c.id,
                D.c.endpoint_id,
                W.c.url,
                W.c.secret,
                D.c.attempts,
                W.c.tournament_id,
                W.c.club_id,
                E.c.seq,
                E.c.type,
                E.c.data,
                E.c.created_at,
                CE.c.seq,
                CE.c.type,
                CE.c.data,
                CE.c.created_at,
            )
            .join(W, W.c.id == D.c.endpoint_id)
            .outerjoin(E, E.c.id == D.c.event_id)
            .outerjoin(CE, CE.c.id == D.c.club_event_id)
            .where(D.c.id.in_(ids))
            .order_by(D.c.id)
        ).all()
    return [_claimed(row) for row in rows]


def _claimed(row: Any) -> Claimed:
    (delivery, endpoint, url, secret, attempts, tid, cid, *event) = row
    seq, type_, data, created_at = event[:4] if tid is not None else event[4:]
    return Claimed(
        delivery, endpoint, url, secret, attempts, seq, tid, cid, type_, data, aware(created_at)
    )


def backoff(attempts: int, *, base: float, cap: float) -> timedelta:
    """The wait after the ``attempts``-th failed attempt: base, 2 × base, 4 × base, … ≤ cap."""
    return timedelta(seconds=min(base * 2 ** (attempts - 1), cap))


def finish(
    engine: Engine,
    claimed: Claimed,
    outcome: Outcome,
    *,
    now: datetime,
    max_attempts: int,
    base: float,
    cap: float,
) -> None:
    """Record one attempt and release the claim."""
    attempts = claimed.attempts + 1
    values: dict[str, Any] = {
        "attempts": D.c.attempts + 1,
        "claimed_until": None,
        "last_status_code": outcome.status_code,
        "last_error": outcome.error[:500] if outcome.error else None,
    }
    if outcome.delivered:
        values |= {"status": DELIVERED, "delivered_at": now}
    elif attempts >= max_attempts:
        values |= {"status": FAILED}
    else:
        values |= {"next_attempt_at": now + backoff(attempts, base=base, cap=cap)}
    with engine.begin() as connection:
        connection.execute(update(D).where(D.c.id == claimed.id).values(**values))
