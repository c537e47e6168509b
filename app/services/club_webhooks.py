"""A club's webhook endpoints: registered and deleted with a club key, under the club's lock,
as the club's other writes (a new version, an entry in the club's audit trail). Everything
else, the list, the delivery log, redelivery and the sending, is ``app.services.webhooks`` and
``app.webhooks``, the same as a tournament's."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.services import clubs, webhooks


def create(
    session: Session,
    write: clubs.ClubWrite,
    *,
    url: str,
    event_types: Sequence[str],
    description: str | None,
    allow_private: bool,
    limit: int,
) -> tuple[webhooks.Endpoint, str]:
    """Register an endpoint for the club's events (``webhooks.create``: the URL checked, then
    the club locked for the count); audited as ``club-webhooks-create``."""
    endpoint, secret = webhooks.create(
        session,
        webhooks.club(write.club_id),
        url=url,
        event_types=event_types,
        description=description,
        allow_private=allow_private,
        limit=limit,
    )
    version = clubs.lock(session, write)  # held already: checks the key again under it
    clubs.changed(
        session,
        write,
        version,
        "club-webhooks-create",
        webhook_id=endpoint.id,
        url=endpoint.url,
        events=endpoint.events,
    )
    return endpoint, secret


def remove(session: Session, write: clubs.ClubWrite, endpoint_id: int) -> None:
    """Delete the endpoint and its delivery log; audited as ``club-webhooks-delete``."""
    version = clubs.lock(session, write)
    owner = webhooks.club(write.club_id)
    endpoint = webhooks.get(session, owner, endpoint_id)
    webhooks.remove(session, owner, endpoint_id)
    clubs.changed(
        session, write, version, "club-webhooks-delete", webhook_id=endpoint_id, url=endpoint.url
    )
