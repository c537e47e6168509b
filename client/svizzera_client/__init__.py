"""Typed Python client for the Svizzera tournament API, sync and async.

    from svizzera_client import Client, PlayerCreate, ResultWrite, TournamentCreate

Bodies are in ``svizzera_client.models``, events in ``svizzera_client.events``, errors in
``svizzera_client.errors``; the webhook check is ``svizzera_client.webhooks``.
"""

from svizzera_client.async_client import AsyncClient
from svizzera_client.base import DEFAULT_SERVER
from svizzera_client.client import Client
from svizzera_client.errors import (
    ApiError,
    Conflict,
    Forbidden,
    InvalidRequest,
    NotFound,
    PayloadTooLarge,
    PreconditionFailed,
    ServerError,
    SignatureError,
    SvizzeraError,
    TooManyRequests,
    TransportError,
    Unauthorized,
)
from svizzera_client.events import ClubEventEnvelope, EventEnvelope, parse_club_event, parse_event
from svizzera_client.models import (
    BoardWrite,
    ClubWebhookCreate,
    GroupsSchema,
    HandPairingWrite,
    PlayerCreate,
    PlayerUpdate,
    PointsTableSchema,
    ResultEntry,
    ResultsBatch,
    ResultWrite,
    TournamentCreate,
    TournamentUpdate,
    WebhookCreate,
)
from svizzera_client.webhooks import read_club_delivery, read_delivery, verify_signature

__all__ = [
    "DEFAULT_SERVER",
    "ApiError",
    "AsyncClient",
    "BoardWrite",
    "Client",
    "ClubEventEnvelope",
    "ClubWebhookCreate",
    "Conflict",
    "EventEnvelope",
    "Forbidden",
    "GroupsSchema",
    "HandPairingWrite",
    "InvalidRequest",
    "NotFound",
    "PayloadTooLarge",
    "PlayerCreate",
    "PlayerUpdate",
    "PointsTableSchema",
    "PreconditionFailed",
    "ResultEntry",
    "ResultWrite",
    "ResultsBatch",
    "ServerError",
    "SignatureError",
    "SvizzeraError",
    "TooManyRequests",
    "TournamentCreate",
    "TournamentUpdate",
    "TransportError",
    "Unauthorized",
    "WebhookCreate",
    "parse_club_event",
    "parse_event",
    "read_club_delivery",
    "read_delivery",
    "verify_signature",
]
