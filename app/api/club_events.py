"""/v1/clubs/{id}/events: the club's event outbox, read in order, and its live stream
(``…/events/stream``, the tournament stream's code: ``app.api.streams``); club key for both
(docs/events.md, "Club events")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request

from app.api.clubs import KEY_READ, ClubId, ClubKeyDep
from app.api.deps import SessionDep
from app.api.responses import problems
from app.api.routing import CommittingRoute
from app.api.streams import EventStreamResponse, open_stream
from app.inputs import MAX_INTEGER
from app.read_models import ClubEventPage, ClubEventRead
from app.services import club_events, clubs

router = APIRouter(prefix="/v1/clubs/{club_id}", tags=["club-events"], route_class=CommittingRoute)


@router.get(
    "/events",
    operation_id="club-events-list",
    summary="The club's events after a sequence number (club key)",
    response_model=ClubEventPage,
    responses=KEY_READ,
)
def list_club_events(
    club_id: ClubId,
    write: ClubKeyDep,
    session: SessionDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_INTEGER, description="Only events with a higher `id`")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=500, description="Page size")] = 100,
) -> ClubEventPage:
    """Club-level changes, oldest first: `rating.updated`, `season.updated`, `season.deleted`.
    Poll with the last `id` seen as `after`; `next_after` is set while a full page came back."""
    found = club_events.events_after(session, write.club_id, after, limit)
    return ClubEventPage(
        items=[
            ClubEventRead(
                id=e.seq, club_id=e.club_id, type=e.type, created_at=e.created_at, data=e.data
            )
            for e in found
        ],
        next_after=found[-1].seq if len(found) == limit else None,
    )


CLUB_STREAM_DESCRIPTION = """Server-sent events, one per club event, in `seq` order:

```
id: 3
event: rating.updated
data: {"id":3,"club_id":"c7Hq2LmN0pXe","type":"rating.updated","created_at":"…","data":{…}}

: heartbeat
```

`data` is the envelope as `GET …/events` lists it (`ClubEventRead`); the data of each type is in
the `webhooks` section (`RatingUpdatedEvent`, `SeasonUpdatedEvent`, `SeasonDeletedEvent`).
Lines starting with `:` are heartbeats."""


@router.get(
    "/events/stream",
    operation_id="club-events-stream",
    summary="The club's events, live (server-sent events; club key)",
    status_code=200,
    response_class=EventStreamResponse,
    responses={
        200: {
            "description": CLUB_STREAM_DESCRIPTION,
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **problems(401, 403, 404, 429),
    },
)
async def stream_club_events(
    request: Request,
    club_id: ClubId,
    write: ClubKeyDep,
    after: Annotated[
        int | None,
        Query(ge=0, le=MAX_INTEGER, description="Start after this event id (seq); default: 0"),
    ] = None,
    timeout: Annotated[
        float | None, Query(gt=0, description="End the stream after this many seconds")
    ] = None,
    last_event_id: Annotated[
        str | None,
        Header(description="Sent by a reconnecting EventSource: resume after this id"),
    ] = None,
) -> EventStreamResponse:
    """The events after `Last-Event-ID` (or `after`), then new ones as they are saved: every
    event exactly once, in order, as the tournament's stream (`GET /v1/tournaments/{id}/events`)
    with its limits, heartbeats and resume. The club key is checked when the stream opens, at
    every reconnection and once a heartbeat while it is open: a revoked or rotated key's stream
    ends (with the comment `: access revoked`) within a heartbeat. `too_many_requests` (429)
    past `SVIZZERA_MAX_STREAMS` streams of the worker, tournaments' and clubs' together."""
    return open_stream(
        request,
        club_events.topic(write.club_id),
        label=f"club {write.club_id}",
        after=after,
        timeout=timeout,
        last_event_id=last_event_id,
        allowed=lambda session: clubs.key_is_live(session, write),
    )
