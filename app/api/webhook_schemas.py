"""Request and response bodies of the webhook endpoints of a tournament
(``/v1/tournaments/{id}/webhooks``) and of a club (``/v1/clubs/{id}/webhooks``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.inputs import NO_CONTROL_CHARACTERS

EventType = Literal[
    "tournament.created",
    "round.generated",
    "round.undone",
    "round.paired_manually",
    "clock.started",
    "clock.paused",
    "clock.resumed",
    "clock.ended",
    "result.recorded",
    "result.corrected",
    "result.cleared",
    "report.claimed",
    "report.confirmed",
    "report.disputed",
    "player.withdrawn",
    "player.added",
    "player.updated",
    "bye.requested",
    "bye.cancelled",
    "forbidden_pair.added",
    "forbidden_pair.removed",
    "final_phase.started",
    "tournament.finished",
]
DeliveryStatus = Literal["pending", "delivered", "failed"]
Url = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=2048, pattern=NO_CONTROL_CHARACTERS
    ),
]
Description = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=200, pattern=NO_CONTROL_CHARACTERS)
]


class WebhookCreate(BaseModel):
    """An endpoint to call with the tournament's events from now on."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "url": "https://scores.example.org/svizzera",
                    "events": ["round.generated", "result.recorded", "result.corrected"],
                    "description": "club-room TV",
                }
            ]
        },
    )

    url: Url = Field(description="An `http` or `https` URL; it receives a signed POST per event")
    events: list[EventType] = Field(
        default_factory=list, description="The event types to send; empty or absent: all"
    )
    description: Description | None = None


class WebhookRead(BaseModel):
    """A registered endpoint (its secret is shown only when it is created)."""

    id: int = Field(examples=[1])
    url: str = Field(examples=["https://scores.example.org/svizzera"])
    events: list[EventType] = Field(description="The event types sent; empty: all")
    description: str | None = Field(examples=["club-room TV"])
    created_at: datetime


class WebhookCreated(WebhookRead):
    """The endpoint, with the secret that signs its deliveries: shown this once."""

    secret: str = Field(
        description="Key of the HMAC-SHA256 in `Svizzera-Signature`; never returned again",
        examples=["whsec_3q2-7wVd…"],
    )


class DeliveryRead(BaseModel):
    """One event's delivery to the endpoint: where it stands and how the last attempt went."""

    id: int = Field(description="The `Svizzera-Delivery-Id`", examples=[42])
    event_id: int = Field(description="The event's `id` (its `seq` in the tournament)")
    event_type: EventType
    status: DeliveryStatus = Field(
        description="`pending` (being tried), `delivered` (a 2xx came back), `failed` "
        "(no 2xx after the last attempt)"
    )
    attempts: int = Field(description="Attempts made so far", examples=[1])
    last_status_code: int | None = Field(description="HTTP status of the last attempt")
    last_error: str | None = Field(description="Why the last attempt failed")
    next_attempt_at: datetime | None = Field(description="When a pending delivery is tried")
    delivered_at: datetime | None
    created_at: datetime


class DeliveryPage(BaseModel):
    """A page of an endpoint's delivery log, newest first."""

    items: list[DeliveryRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


# -- a club's endpoints (``/v1/clubs/{id}/webhooks``): the same, with the club's event types --

ClubEventType = Literal["rating.updated", "season.updated", "season.deleted"]


class ClubWebhookCreate(BaseModel):
    """An endpoint to call with the club's events from now on."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "url": "https://club.example.org/svizzera",
                    "events": ["rating.updated"],
                    "description": "ratings board",
                }
            ]
        },
    )

    url: Url = Field(description="An `http` or `https` URL; it receives a signed POST per event")
    events: list[ClubEventType] = Field(
        default_factory=list, description="The event types to send; empty or absent: all"
    )
    description: Description | None = None


class ClubWebhookRead(BaseModel):
    """A club's registered endpoint (its secret is shown only when it is created)."""

    id: int = Field(examples=[1])
    url: str = Field(examples=["https://club.example.org/svizzera"])
    events: list[ClubEventType] = Field(description="The event types sent; empty: all")
    description: str | None = Field(examples=["ratings board"])
    created_at: datetime


class ClubWebhookCreated(ClubWebhookRead):
    """The club's endpoint, with the secret that signs its deliveries: shown this once."""

    secret: str = Field(
        description="Key of the HMAC-SHA256 in `Svizzera-Signature`; never returned again",
        examples=["whsec_3q2-7wVd…"],
    )


class ClubDeliveryRead(BaseModel):
    """One club event's delivery to the endpoint: where it stands and how the last attempt
    went."""

    id: int = Field(description="The `Svizzera-Delivery-Id`", examples=[42])
    event_id: int = Field(description="The event's `id` (its `seq` in the club)")
    event_type: ClubEventType
    status: DeliveryStatus = Field(
        description="`pending` (being tried), `delivered` (a 2xx came back), `failed` "
        "(no 2xx after the last attempt)"
    )
    attempts: int = Field(description="Attempts made so far", examples=[1])
    last_status_code: int | None = Field(description="HTTP status of the last attempt")
    last_error: str | None = Field(description="Why the last attempt failed")
    next_attempt_at: datetime | None = Field(description="When a pending delivery is tried")
    delivered_at: datetime | None
    created_at: datetime


class ClubDeliveryPage(BaseModel):
    """A page of a club endpoint's delivery log, newest first."""

    items: list[ClubDeliveryRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )
