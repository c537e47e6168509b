"""/v1/clubs/{id}/webhooks: a club's webhook endpoints, for its events (``rating.updated``,
``season.updated``, ``season.deleted``), as a tournament's are for its own
(``app.api.webhooks``): register, list, read, delete, the delivery log and redelivery. Club key
only, reads too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response, status

from app.api import paging
from app.api.clubs import KEY_READ, KEY_WRITE, ClubId, ClubKeyDep
from app.api.deps import SessionDep
from app.api.responses import problems
from app.api.routing import CommittingRoute
from app.api.webhook_schemas import (
    ClubDeliveryPage,
    ClubDeliveryRead,
    ClubWebhookCreate,
    ClubWebhookCreated,
    ClubWebhookRead,
    DeliveryStatus,
)
from app.api.webhooks import (
    DeliveryId,
    IfNoneMatch,
    WebhookId,
    app_settings,
    conditional,
    delivery_log,
)
from app.services import club_webhooks, webhooks
from app.settings import Settings

router = APIRouter(
    prefix="/v1/clubs/{club_id}/webhooks", tags=["club-events"], route_class=CommittingRoute
)


def read(endpoint: webhooks.Endpoint) -> ClubWebhookRead:
    return ClubWebhookRead(
        id=endpoint.id,
        url=endpoint.url,
        events=endpoint.events,  # type: ignore[arg-type]
        description=endpoint.description,
        created_at=endpoint.created_at,
    )


def delivery(d: webhooks.Delivery) -> ClubDeliveryRead:
    return ClubDeliveryRead.model_validate(d, from_attributes=True)


def owner(write: ClubKeyDep) -> webhooks.Owner:
    """The club whose key came with the request."""
    return webhooks.club(write.club_id)


ClubOwnerDep = Annotated[webhooks.Owner, Depends(owner)]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="club-webhooks-create",
    summary="Register a webhook endpoint for the club's events (club key)",
    response_model=ClubWebhookCreated,
    responses=problems(401, 403, 404, 409, 413, 429, 503),
)
def create_club_webhook(
    club_id: ClubId,
    body: ClubWebhookCreate,
    write: ClubKeyDep,
    session: SessionDep,
    response: Response,
    settings: Annotated[Settings, Depends(app_settings)],
) -> ClubWebhookCreated:
    """It receives the club's events saved from now on, each a signed POST, as a tournament's
    endpoints do (docs/webhooks.md). The `secret` is in this answer only. The same URL rules
    (`webhook_url_invalid`, `webhook_url_forbidden`) and the same limit,
    `SVIZZERA_WEBHOOKS_PER_TOURNAMENT` endpoints a club (past it `too_many_requests`, 429).
    Audited in the club's trail."""
    endpoint, secret = club_webhooks.create(
        session,
        write,
        url=body.url,
        event_types=body.events,
        description=body.description,
        allow_private=settings.webhooks_may_reach_private(),
        limit=settings.webhooks_per_tournament,
    )
    response.headers["Location"] = f"/v1/clubs/{write.club_id}/webhooks/{endpoint.id}"
    return ClubWebhookCreated(**read(endpoint).model_dump(), secret=secret)


@router.get(
    "",
    operation_id="club-webhooks-list",
    summary="List the club's webhook endpoints (club key)",
    response_model=list[ClubWebhookRead],
    responses=KEY_READ,
)
def list_club_webhooks(
    club_id: ClubId,
    owner: ClubOwnerDep,
    session: SessionDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> list[ClubWebhookRead]:
    """The club's endpoints, without their secrets."""
    endpoints = [read(e) for e in webhooks.listed(session, owner)]
    conditional(response, if_none_match, endpoints)
    return endpoints


@router.get(
    "/{webhook_id}",
    operation_id="club-webhooks-read",
    summary="Read a webhook endpoint of the club (club key)",
    response_model=ClubWebhookRead,
    responses=KEY_READ,
)
def read_club_webhook(
    club_id: ClubId,
    webhook_id: WebhookId,
    owner: ClubOwnerDep,
    session: SessionDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> ClubWebhookRead:
    """One endpoint: its URL, event types and description (not its secret)."""
    endpoint = read(webhooks.get(session, owner, webhook_id))
    conditional(response, if_none_match, endpoint)
    return endpoint


@router.delete(
    "/{webhook_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="club-webhooks-delete",
    summary="Delete a webhook endpoint of the club (club key)",
    responses=KEY_WRITE,
)
def delete_club_webhook(
    club_id: ClubId, webhook_id: WebhookId, write: ClubKeyDep, session: SessionDep
) -> Response:
    """Nothing more is sent to it; its delivery log goes with it. Audited in the club's
    trail."""
    club_webhooks.remove(session, write, webhook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/{webhook_id}/deliveries",
    operation_id="club-webhooks-deliveries-list",
    summary="The delivery log of a club's webhook endpoint, newest first (club key)",
    response_model=ClubDeliveryPage,
    responses=KEY_READ,
)
def list_club_deliveries(
    club_id: ClubId,
    webhook_id: WebhookId,
    owner: ClubOwnerDep,
    session: SessionDep,
    response: Response,
    status_filter: Annotated[
        DeliveryStatus | None, Query(alias="status", description="Only these deliveries")
    ] = None,
    limit: paging.Limit = 50,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> ClubDeliveryPage:
    """Status, attempts, the last answer (`last_status_code`, `last_error`) and when the next
    attempt is due."""
    found, next_cursor = delivery_log(session, owner, webhook_id, status_filter, limit, cursor)
    page = ClubDeliveryPage(items=[delivery(d) for d in found], next_cursor=next_cursor)
    conditional(response, if_none_match, page)
    return page


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="club-webhooks-redeliver",
    summary="Send a delivery of the club's events again (club key)",
    response_model=ClubDeliveryRead,
    responses=problems(401, 403, 404),
)
def redeliver_club_delivery(
    club_id: ClubId,
    webhook_id: WebhookId,
    delivery_id: DeliveryId,
    owner: ClubOwnerDep,
    session: SessionDep,
) -> ClubDeliveryRead:
    """Delivered or failed, it goes out again (same event id and delivery id) with a fresh set
    of attempts, after the endpoint's earlier pending deliveries."""
    return delivery(webhooks.redeliver(session, owner, webhook_id, delivery_id))
