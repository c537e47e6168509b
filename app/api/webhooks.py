"""/v1/tournaments/{id}/webhooks: register, list, read, delete endpoints; their delivery log
and redelivery. Organizer only, reads too (the log shows the endpoints' answers)."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

import pydantic_core
from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response, status
from sqlalchemy.orm import Session

from app.api import paging
from app.api.deps import Credentials, SessionDep, TournamentId
from app.api.responses import problems
from app.api.routing import CommittingRoute
from app.api.webhook_schemas import (
    DeliveryPage,
    DeliveryRead,
    DeliveryStatus,
    WebhookCreate,
    WebhookCreated,
    WebhookRead,
)
from app.errors import NotModified
from app.inputs import MAX_INTEGER
from app.services import access, webhooks
from app.settings import Settings

router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}/webhooks",
    tags=["webhooks"],
    route_class=CommittingRoute,
)
WebhookId = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="The webhook endpoint's id")]
DeliveryId = Annotated[
    int, Path(ge=1, le=MAX_INTEGER, description="The delivery's id (`Svizzera-Delivery-Id`)")
]
IfNoneMatch = Annotated[str | None, Header(description="An ETag from an earlier read")]
ORGANIZER = problems(401, 403, 404)


def organizer(
    session: SessionDep, tournament_id: TournamentId, credentials: Credentials
) -> webhooks.Owner:
    """Checks the organizer token; no tournament lock, since webhooks leave it unchanged."""
    header = access.read_header(session, tournament_id)
    access.check_token(session, header, credentials.credentials if credentials else None)
    return webhooks.tournament(header.id)


OrganizerDep = Annotated[webhooks.Owner, Depends(organizer)]


def app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def conditional(response: Response, if_none_match: str | None, body: Any) -> None:
    """A read's ETag is a hash of its body: 304 when the client has it already."""
    tag = f'"{hashlib.sha256(pydantic_core.to_json(body)).hexdigest()[:20]}"'
    if if_none_match is not None and tag in {t.strip() for t in if_none_match.split(",")}:
        raise NotModified(tag)
    response.headers["ETag"] = tag


def read(endpoint: webhooks.Endpoint) -> WebhookRead:
    return WebhookRead(
        id=endpoint.id,
        url=endpoint.url,
        events=endpoint.events,  # type: ignore[arg-type]
        description=endpoint.description,
        created_at=endpoint.created_at,
    )


def delivery(d: webhooks.Delivery) -> DeliveryRead:
    return DeliveryRead.model_validate(d, from_attributes=True)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="webhooks-create",
    summary="Register a webhook endpoint",
    response_model=WebhookCreated,
    responses=problems(401, 403, 404, 413, 429, 503),
)
def create_webhook(
    body: WebhookCreate,
    owner: OrganizerDep,
    session: SessionDep,
    response: Response,
    settings: Annotated[Settings, Depends(app_settings)],
) -> WebhookCreated:
    """It receives the events saved from now on, each a signed POST (see docs/webhooks.md).
    The `secret` is in this answer only. A URL that is not http(s) is `webhook_url_invalid`;
    one reaching a loopback or private address, where the deployment forbids it,
    `webhook_url_forbidden`. At most `SVIZZERA_WEBHOOKS_PER_TOURNAMENT` endpoints (10):
    past it `too_many_requests` (429)."""
    endpoint, secret = webhooks.create(
        session,
        owner,
        url=body.url,
        event_types=body.events,
        description=body.description,
        allow_private=settings.webhooks_may_reach_private(),
        limit=settings.webhooks_per_tournament,
    )
    response.headers["Location"] = f"/v1/tournaments/{owner.id}/webhooks/{endpoint.id}"
    return WebhookCreated(**read(endpoint).model_dump(), secret=secret)


@router.get(
    "",
    operation_id="webhooks-list",
    summary="List the webhook endpoints",
    response_model=list[WebhookRead],
    responses=problems(304, 401, 403, 404),
)
def list_webhooks(
    owner: OrganizerDep,
    session: SessionDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> list[WebhookRead]:
    """The tournament's endpoints (organizer only), without their secrets."""
    endpoints = [read(e) for e in webhooks.listed(session, owner)]
    conditional(response, if_none_match, endpoints)
    return endpoints


@router.get(
    "/{webhook_id}",
    operation_id="webhooks-read",
    summary="Read a webhook endpoint",
    response_model=WebhookRead,
    responses=problems(304, 401, 403, 404),
)
def read_webhook(
    webhook_id: WebhookId,
    owner: OrganizerDep,
    session: SessionDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> WebhookRead:
    """One endpoint: its URL, event types and description (not its secret)."""
    endpoint = read(webhooks.get(session, owner, webhook_id))
    conditional(response, if_none_match, endpoint)
    return endpoint


@router.delete(
    "/{webhook_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="webhooks-delete",
    summary="Delete a webhook endpoint",
    responses=ORGANIZER,
)
def delete_webhook(webhook_id: WebhookId, owner: OrganizerDep, session: SessionDep) -> Response:
    """Nothing more is sent to it; its delivery log goes with it."""
    webhooks.remove(session, owner, webhook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def delivery_log(
    session: Session,
    owner: webhooks.Owner,
    webhook_id: int,
    status_filter: DeliveryStatus | None,
    limit: int,
    cursor: str | None,
) -> tuple[list[webhooks.Delivery], str | None]:
    """One page of an endpoint's delivery log (a tournament's or a club's) and the cursor of
    the next, if any."""
    found = webhooks.deliveries(
        session,
        owner,
        webhook_id,
        status=status_filter,
        before=paging.decode_id(cursor),
        limit=limit + 1,
    )
    return found[:limit], paging.next_cursor([d.id for d in found], limit)


@router.get(
    "/{webhook_id}/deliveries",
    operation_id="webhooks-deliveries-list",
    summary="The delivery log of a webhook endpoint, newest first",
    response_model=DeliveryPage,
    responses=problems(304, 401, 403, 404),
)
def list_deliveries(
    webhook_id: WebhookId,
    owner: OrganizerDep,
    session: SessionDep,
    response: Response,
    status_filter: Annotated[
        DeliveryStatus | None, Query(alias="status", description="Only these deliveries")
    ] = None,
    limit: paging.Limit = 50,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> DeliveryPage:
    """Status, attempts, the last answer (`last_status_code`, `last_error`) and when the next
    attempt is due."""
    found, next_cursor = delivery_log(session, owner, webhook_id, status_filter, limit, cursor)
    page = DeliveryPage(items=[delivery(d) for d in found], next_cursor=next_cursor)
    conditional(response, if_none_match, page)
    return page


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="webhooks-redeliver",
    summary="Send a delivery again",
    response_model=DeliveryRead,
    responses=ORGANIZER,
)
def redeliver(
    webhook_id: WebhookId, delivery_id: DeliveryId, owner: OrganizerDep, session: SessionDep
) -> DeliveryRead:
    """Delivered or failed, it goes out again (same event id and delivery id) with a fresh set
    of attempts, after the endpoint's earlier pending deliveries."""
    return delivery(webhooks.redeliver(session, owner, webhook_id, delivery_id))
