"""Server-sent event streams of an outbox: a tournament's (``GET /v1/tournaments/{id}/events``)
and a club's (``GET /v1/clubs/{id}/events/stream``) are the same stream over the process's one
``Hub``, with the same limits, heartbeats, resume and shutdown; only who may open one differs
(the routers check that before they call ``open_stream``)."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing

import anyio
from fastapi import Request
from sqlalchemy.orm import Session
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app.broadcast import BATCH, Hub, frame
from app.errors import InvalidValue, TooManyRequests
from app.inputs import MAX_INTEGER
from app.settings import Settings

STREAMS_RETRY_AFTER = 10
"""Seconds a client refused for too many open streams waits (streams end and free places)."""


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
    hub: Hub,
    topic: str,
    *,
    label: str,
    after: int,
    heartbeat: float,
    seconds: float,
    allowed: Callable[[Session], bool] | None = None,
) -> AsyncGenerator[bytes, None]:
    """Every event of ``topic`` after ``after`` exactly once, in order, then the live ones as
    they come; ``label`` names the outbox in the stream's first comment. ``allowed`` (a club
    stream: is its key still live?) is asked again once a heartbeat interval, before anything
    more is sent: a revoked key's stream ends within a heartbeat.

    Subscribed before the backlog is read, so nothing saved in between is missed (a new
    channel, which learns where it starts only later, makes its first subscribers read the
    database once more: ``Subscriber.catch_up``); what both bring is sent once (by ``seq``).
    """
    deadline = time.monotonic() + seconds
    asked = time.monotonic()
    sent = after
    subscriber = hub.subscribe(topic)
    try:
        yield f"retry: 2000\n: events of {label}\n\n".encode()
        behind = True
        while not subscriber.closed:
            if allowed is not None and time.monotonic() - asked >= heartbeat:
                if not await hub.ask(allowed):
                    yield b": access revoked\n\n"
                    return
                asked = time.monotonic()
            if behind or subscriber.lagged:
                # From the database: the backlog, or what a lagging subscriber lost.
                subscriber.lagged = False
                batch = await hub.read(topic, sent)
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


def open_stream(
    request: Request,
    topic: str,
    *,
    label: str,
    after: int | None,
    timeout: float | None,
    last_event_id: str | None,
    allowed: Callable[[Session], bool] | None = None,
) -> EventStreamResponse:
    """The stream of ``topic`` from ``Last-Event-ID`` (or ``after``), for at most
    ``SVIZZERA_SSE_MAX_DURATION`` seconds; ``too_many_requests`` (429) when the worker has
    ``SVIZZERA_MAX_STREAMS`` streams open (tournaments' and clubs' together); ``allowed``:
    as ``frames``."""
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
        hub,
        topic,
        label=label,
        after=start,
        heartbeat=settings.sse_heartbeat,
        seconds=seconds,
        allowed=allowed,
    )
    return EventStreamResponse(stream)
