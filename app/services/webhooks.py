"""Webhook endpoints of a tournament or of a club (its ``owner``): register, list, read,
delete; their delivery log and redelivery. The sending itself is the worker's
(``app.webhooks``), the same for both."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, func, insert, select, text, update
from sqlalchemy.orm import Session

from app.errors import (
    WebhookDeliveryNotFound,
    WebhookNotFound,
    WebhookUrlForbidden,
    WebhookUrlInvalid,
)
from app.services import access, club_events, events, quotas
from app.services.storage import now
from app.services.views import aware
from app.webhooks import addresses, queue
from app.webhooks.queue import CE, PENDING, D, E, W

SECRET_PREFIX = "whsec_"


@dataclass(frozen=True, slots=True)
class Owner:
    """Whose events an endpoint receives: a tournament's or a club's."""

    id: str
    club: bool = False

    @property
    def where(self) -> ColumnElement[bool]:
        """The owner's endpoints."""
        column = W.c.club_id if self.club else W.c.tournament_id
        condition: ColumnElement[bool] = column == self.id
        return condition

    @property
    def topic(self) -> str:
        """Its outbox as a ``NOTIFY`` payload (``app.broadcast``)."""
        return club_events.topic(self.id) if self.club else self.id

    def lock(self, session: Session) -> None:
        """Lock the owner's row until the transaction ends (briefly, as a write does)."""
        if self.club:
            club_events.lock_club(session, self.id)
        else:
            access.lock_header(session, self.id)

    def __str__(self) -> str:
        return f"{'club' if self.club else 'tournament'} {self.id!r}"


def tournament(tournament_id: str) -> Owner:
    return Owner(tournament_id)


def club(club_id: str) -> Owner:
    return Owner(club_id, club=True)


@dataclass(frozen=True, slots=True)
class Endpoint:
    id: int
    url: str
    events: list[str]
    description: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Delivery:
    id: int
    event_id: int
    event_type: str
    status: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    created_at: datetime


def new_secret() -> str:
    """256 random bits; the key of the endpoint's signatures."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def check_url(url: str, *, allow_private: bool) -> None:
    """``webhook_url_invalid`` unless http(s); ``webhook_url_forbidden`` for a non-public
    address when the deployment forbids them."""
    try:
        addresses.check(url, allow_private=allow_private)
    except addresses.AddressForbidden as error:
        raise WebhookUrlForbidden(str(error)) from None
    except addresses.UrlRefused as error:
        raise WebhookUrlInvalid(str(error)) from None


_ENDPOINT = select(W.c.id, W.c.url, W.c.event_types, W.c.description, W.c.created_at)


def _endpoint(row: Any) -> Endpoint:
    return Endpoint(row[0], row[1], list(row[2]), row[3], aware(row[4]))


def create(
    session: Session,
    owner: Owner,
    *,
    url: str,
    event_types: Sequence[str],
    description: str | None,
    allow_private: bool,
    limit: int,
) -> tuple[Endpoint, str]:
    """Register an endpoint (at most ``limit`` per owner); it receives the events saved from
    now on. Returns the endpoint and its secret (which nothing returns again).

    The URL is checked (its host resolved) first, then the owner's row is locked for the
    count, so two registrations cannot both take the last place."""
    check_url(url, allow_private=allow_private)
    owner.lock(session)
    quotas.check_endpoint_room(session, owner.where, limit=limit)
    secret = new_secret()
    outbox, owned = (CE, CE.c.club_id) if owner.club else (E, E.c.tournament_id)
    last_seq = session.execute(
        select(func.coalesce(func.max(outbox.c.seq), 0)).where(owned == owner.id)
    ).scalar_one()
    endpoint_id = session.execute(
        insert(W)
        .values(
            tournament_id=None if owner.club else owner.id,
            club_id=owner.id if owner.club else None,
            url=url,
            event_types=sorted(set(event_types)),
            description=description,
            secret=secret,
            created_at=now(),
            cursor=last_seq,
        )
        .returning(W.c.id)
    ).scalar_one()
    if session.get_bind().dialect.name == "postgresql":
        # The delivery workers skip the events of owners without endpoints: tell them.
        session.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": events.CHANNEL, "payload": queue.ENDPOINT_PREFIX + owner.topic},
        )
    return get(session, owner, endpoint_id), secret


def listed(session: Session, owner: Owner) -> list[Endpoint]:
    rows = session.execute(_ENDPOINT.where(owner.where).order_by(W.c.id))
    return [_endpoint(r) for r in rows]


def _not_found(owner: Owner, endpoint_id: int) -> WebhookNotFound:
    return WebhookNotFound(f"no webhook {endpoint_id} in {owner}: GET …/webhooks lists them")


def get(session: Session, owner: Owner, endpoint_id: int) -> Endpoint:
    row = session.execute(_ENDPOINT.where(owner.where, W.c.id == endpoint_id)).first()
    if row is None:
        raise _not_found(owner, endpoint_id)
    return _endpoint(row)


def remove(session: Session, owner: Owner, endpoint_id: int) -> None:
    """Delete the endpoint and its delivery log; nothing more is sent to it."""
    removed = session.execute(delete(W).where(owner.where, W.c.id == endpoint_id))
    if removed.rowcount == 0:  # type: ignore[attr-defined]
        raise _not_found(owner, endpoint_id)


_DELIVERY = (
    select(
        D.c.id,
        func.coalesce(E.c.seq, CE.c.seq).label("seq"),
        func.coalesce(E.c.type, CE.c.type).label("type"),
        D.c.status,
        D.c.attempts,
        D.c.last_status_code,
        D.c.last_error,
        D.c.next_attempt_at,
        D.c.delivered_at,
        D.c.created_at,
    )
    .outerjoin(E, E.c.id == D.c.event_id)
    .outerjoin(CE, CE.c.id == D.c.club_event_id)
    .order_by(D.c.id.desc())
)


def _delivery(row: Any) -> Delivery:
    pending = row.status == PENDING
    return Delivery(
        id=row.id,
        event_id=row.seq,
        event_type=row.type,
        status=row.status,
        attempts=row.attempts,
        last_status_code=row.last_status_code,
        last_error=row.last_error,
        next_attempt_at=aware(row.next_attempt_at) if pending else None,
        delivered_at=aware(row.delivered_at) if row.delivered_at else None,
        created_at=aware(row.created_at),
    )


def deliveries(
    session: Session,
    owner: Owner,
    endpoint_id: int,
    *,
    status: str | None,
    before: int | None,
    limit: int,
) -> list[Delivery]:
    """The endpoint's deliveries, newest first (``before``: only ids below it)."""
    get(session, owner, endpoint_id)
    query = _DELIVERY.where(D.c.endpoint_id == endpoint_id)
    if status is not None:
        query = query.where(D.c.status == status)
    if before is not None:
        query = query.where(D.c.id < before)
    return [_delivery(r) for r in session.execute(query.limit(limit))]


def redeliver(session: Session, owner: Owner, endpoint_id: int, delivery_id: int) -> Delivery:
    """Send the delivery again as soon as the endpoint's earlier pending deliveries are done,
    with a fresh set of attempts (same event id and delivery id)."""
    get(session, owner, endpoint_id)
    changed = session.execute(
        update(D)
        .where(D.c.id == delivery_id, D.c.endpoint_id == endpoint_id)
        .values(
            status=PENDING,
            attempts=0,
            next_attempt_at=now(),
            delivered_at=None,
        )
    )
    if changed.rowcount == 0:  # type: ignore[attr-defined]
        raise WebhookDeliveryNotFound(
            f"no delivery {delivery_id} of webhook {endpoint_id}: "
            f"GET …/webhooks/{endpoint_id}/deliveries lists them"
        )
    row = session.execute(_DELIVERY.where(D.c.id == delivery_id)).one()
    return _delivery(row)
