"""/v1/tournaments/{id}/events: the tournament's events as server-sent events."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import Annotated

import anyio
from fastapi import APIRouter, Depends, Header, Query, Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app.api.deps import SessionDep, TournamentId
from app.api.responses import problems
from app.broadcast import BATCH, Hub, frame
from app.errors import InvalidValue, TooManyRequests
from app.inputs import MAX_INTEGER
from app.services import access
from app.settings import Settings

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["events"])
STREAMS_RETRY_AFTER = 10
"""Seconds a client refused for too many open streams waits (streams end and free places)."""

STREAM_DESCRIPTION = """Server-sent events, one per stored event, in `seq` order:

```
id: 7
event: result.recorded
data: {"id":7,"tournament_id":"q3Jd0xZ1v7kR","type":"result.recorded","created_at":"…","data":{…}}

: heartbeat
```

`data` is the envelope `EventEnvelope`; the data of each type is in the `webhooks` section
(`EventData…` schemas). Lines starting with `:` are heartbeats."""


class EventStreamResponse(StreamingResponse):
    """A ``text/event-stream`` that stops as soon as the client goes away.

    Starlette's ``StreamingResponse`` on ASGI 2.4 servers notices a gone client only at its
    next write (a heartbeat later); this one also listens for ``http.disconnect``, so a closed
    connection ends the stream, and with it the subscription, at once.
    """

    media_type = "text/event-stream"

    def __init__(self, frames: AsyncGenerator[bytes, None]) -> None:
        super().__init__(
            frames,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            media_type=self.media_type,
        )
        self.frames = frames

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        async with anyio.create_task_group() as group:

            async def watch_disconnect() -> None:
                while (await receive())["type"] != "http.disconnect":
                    pass
                group.cancel_scope.cancel()

            group.start_soon(watch_disconnect)
            try:
                async with aclosing(self.frames) as frames:
                    async for data in frames:
                        await send({"type": "http.response.body", "body": data, "more_body": True})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            except OSError:
                pass  # the client went away while we wrote
            group.cancel_scope.cancel()


def start_after(last_event_id: str | None, after: int | None) -> int:
    """``Last-Event-ID`` (a reconnecting client) wins over ``?after=``; neither: from the start.

    The id is the decimal digits of a ``seq`` that fits the database's integer."""
    if last_event_id is not None and last_event_id.strip():
        seq = last_event_id.strip()
        if not re.fullmatch("[0-9]{1,10}", seq) or int(seq) > MAX_INTEGER:
            raise InvalidValue(
                "`Last-Event-ID` is not an event id of this stream: send the `id` of the "
                "last event received, or leave it out to start from the first event"
            )
        return int(seq)
    return after or 0


async def frames(
    hub: Hub, tournament_id: str, *, after: int, heartbeat: float, seconds: float
) -> AsyncGenerator[bytes, None]:
    """Every event after ``after`` exactly once, in order, then the live ones as they come.

    Subscribed before the backlog is read, so nothing saved in between is missed (a new
    channel, which learns where it starts only later, makes its first subscribers read the
    database once more: ``Subscriber.catch_up``); what both bring is sent once (by ``seq``).
    """
    deadline = time.monotonic() + seconds
    sent = after
    subscriber = hub.subscribe(tournament_id)
    try:
        yield f"retry: 2000\n: events of tournament {subscriber.tournament_id}\n\n".encode()
        behind = True
        while not subscriber.closed:
            if behind or subscriber.lagged:
                # From the database: the backlog, or what a lagging subscriber lost.
                subscriber.lagged = False
                batch = await hub.read(subscriber.tournament_id, sent)
                for event in batch:
                    yield frame(event)
                    sent = event.seq
                behind = len(batch) == BATCH
                continue
            subscriber.wake.clear()
            while subscriber.pending:
                seq, data = subscriber.pending.popleft()
                if seq <= sent:
                    continue
                if seq > sent + 1:  # never expected; the database fills any hole
                    behind = True
                    break
                yield data
                sent = seq
            if behind or subscriber.pending:
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                return
            with anyio.move_on_after(min(heartbeat, left)) as idle:
                await subscriber.wake.wait()
            if idle.cancelled_caught and time.monotonic() < deadline:
                yield b": heartbeat\n\n"
    finally:
        hub.unsubscribe(subscriber)


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
    settings: Settings = request.app.state.settings
    hub: Hub = request.app.state.event_hub
    if hub.subscriber_count >= settings.max_streams:
        raise TooManyRequests(
            f"this server has {settings.max_streams} event streams open; try again soon",
            retry_after=STREAMS_RETRY_AFTER,
        )
    start = start_after(last_event_id, after)
    seconds = min(timeout or settings.sse_max_duration, settings.sse_max_duration)
    stream = frames(
        hub, tournament_id, after=start, heartbeat=settings.sse_heartbeat, seconds=seconds
    )
    return EventStreamResponse(stream)
