"""/v1/tournaments/{id}/events: the tournament's events as server-sent events."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request

from app.api.deps import SessionDep, TournamentId
from app.api.responses import problems
from app.api.streams import EventStreamResponse, open_stream
from app.inputs import MAX_INTEGER
from app.services import access

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["events"])

STREAM_DESCRIPTION = """Server-sent events, one per stored event, in `seq` order:

```
id: 7
event: result.recorded
data: {"id":7,"tournament_id":"q3Jd0xZ1v7kR","type":"result.recorded","created_at":"…","data":{…}}

: heartbeat
```

`data` is the envelope `EventEnvelope`; the data of each type is in the `webhooks` section
(`EventData…` schemas). Lines starting with `:` are heartbeats."""


def existing_tournament(session: SessionDep, tournament_id: TournamentId) -> str:
    """404 for an unknown tournament (the session is closed before the stream starts)."""
    return access.read_header(session, tournament_id).id


@router.get(
    "/events",
    operation_id="events-stream",
    summary="The tournament's events, live (server-sent events)",
    status_code=200,
    response_class=EventStreamResponse,
    responses={
        200: {
            "description": STREAM_DESCRIPTION,
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **problems(404, 429),
    },
)
async def stream_events(
    request: Request,
    tournament_id: Annotated[str, Depends(existing_tournament)],
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
    """Replays the events after `Last-Event-ID` (or `after`), then streams new ones as they
    are saved: every event exactly once, in order. Public, like the other reads. A worker
    keeps at most `SVIZZERA_MAX_STREAMS` streams open: past it `too_many_requests` (429)."""
    return open_stream(
        request,
        tournament_id,
        label=f"tournament {tournament_id}",
        after=after,
        timeout=timeout,
        last_event_id=last_event_id,
    )
