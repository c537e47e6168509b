"""Fan-out of stored events to the event streams of this worker process.

Events come from the database, never from the process that wrote them, so any number of
workers see the same events in the same order. Per process there is one ``Hub``:

- per tournament being watched, one ``Channel`` reads the new events once (``seq`` after the
  last one it read) and hands each rendered frame to every subscriber of that tournament;
- on PostgreSQL one connection ``LISTEN``s on ``events.CHANNEL`` (writers ``NOTIFY`` in their
  transaction), which wakes the channel of the tournament named in the payload at once;
- a poll every ``poll_interval`` seconds (one query for all watched tournaments) is the only
  trigger on SQLite and the safety net on PostgreSQL (a listener reconnecting misses nothing).

Database calls run in worker threads, so the event loop never waits on them. A subscriber that
goes away is removed from its channel; a channel without subscribers is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app import notifications
from app.services import events
from app.threads import Threads

log = logging.getLogger(__name__)
T = TypeVar("T")

BATCH = 500
"""Events read per query."""
MAX_PENDING = 1_000
"""Frames queued for one subscriber before it is told to catch up from the database."""


def frame(event: events.Event) -> bytes:
    """One server-sent event: ``id`` (the seq), ``event`` (the type), ``data`` (the envelope)."""
    body = json.dumps(events.envelope(event), separators=(",", ":"), ensure_ascii=False)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {body}\n\n".encode()


class Subscriber:
    """One open stream: frames waiting to be sent, and a flag to wake it."""

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        self.pending: deque[tuple[int, bytes]] = deque()
        self.wake = asyncio.Event()
        self.lagged = False
        self.closed = False

    def push(self, seq: int, data: bytes) -> None:
        if len(self.pending) >= MAX_PENDING:
            # A slow reader: drop the queue, it reads its backlog from the database instead.
            self.pending.clear()
            self.lagged = True
        else:
            self.pending.append((seq, data))
        self.wake.set()

    def catch_up(self) -> None:
        """Read from the database once more: events may have been saved after this stream read
        its backlog and before its channel knew where it starts."""
        self.lagged = True
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()


class Channel:
    """A watched tournament: its subscribers and the last seq handed to them."""

    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()
        self.last_seq: int | None = None
        self.dirty = False
        self.task: asyncio.Task[None] | None = None


class Hub:
    def __init__(self, engine: Engine, *, poll_interval: float) -> None:
        self.engine = engine
        self.poll_interval = poll_interval
        self.channels: dict[str, Channel] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._threads = Threads()
        """Its database calls; ``close`` waits for those still running."""
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- life cycle ---------------------------------------------------------------------------

    def _ensure_started(self) -> None:
        """Started lazily by the first subscriber, on the loop that serves the streams."""
        if self._tasks or self._closed:
            return
        self._loop = asyncio.get_running_loop()
        self._tasks.append(asyncio.create_task(self._poll_loop(), name="svizzera-events-poll"))
        if self.engine.dialect.name == "postgresql":
            listener = notifications.listen(self.engine, self.notify, on_connect=self._look_again)
            self._tasks.append(asyncio.create_task(listener, name="svizzera-events-listen"))

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop its tasks run on: the first subscriber's; ``None`` before one."""
        return self._loop

    async def close(self) -> None:
        """End every stream (they return normally) and stop the listener and the poll."""
        self.close_streams()
        tasks, self._tasks = self._tasks, []
        for channel in self.channels.values():
            if channel.task is not None:
                tasks.append(channel.task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._threads.wait()  # a dropped channel's read too: the engine is disposed next

    def close_streams(self) -> None:
        """Safe from a signal handler on the loop's thread: wakes every stream to end."""
        self._closed = True
        for channel in self.channels.values():
            for subscriber in channel.subscribers:
                subscriber.close()

    @property
    def subscriber_count(self) -> int:
        return sum(len(c.subscribers) for c in self.channels.values())

    # -- subscribers --------------------------------------------------------------------------

    def subscribe(self, tournament_id: str) -> Subscriber:
        """Register a stream; from now on it receives every event the channel reads."""
        self._ensure_started()
        subscriber = Subscriber(tournament_id)
        if self._closed:
            subscriber.close()
            return subscriber
        channel = self.channels.get(tournament_id)
        if channel is None:
            channel = self.channels[tournament_id] = Channel()
            self._mark(tournament_id, channel)
        channel.subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        channel = self.channels.get(subscriber.tournament_id)
        if channel is None:
            return
        channel.subscribers.discard(subscriber)
        if not channel.subscribers:
            del self.channels[subscriber.tournament_id]
            if channel.task is not None:
                channel.task.cancel()

    async def read(self, tournament_id: str, after_seq: int) -> list[events.Event]:
        """The events after ``after_seq`` (one batch), read in a worker thread."""
        return await self._db(lambda s: events.events_after(s, tournament_id, after_seq, BATCH))

    # -- reading new events -------------------------------------------------------------------

    def notify(self, tournament_id: str) -> None:
        """New events may exist for ``tournament_id``: its channel reads them (once)."""
        channel = self.channels.get(tournament_id)
        if channel is not None:
            self._mark(tournament_id, channel)

    def notify_threadsafe(self, tournament_ids: set[str]) -> None:
        """``notify`` from another thread (a request's session, after its commit)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # no stream has ever been opened in this process
        for tournament_id in tournament_ids:
            loop.call_soon_threadsafe(self.notify, tournament_id)

    def _mark(self, tournament_id: str, channel: Channel) -> None:
        channel.dirty = True
        if channel.task is None or channel.task.done():
            channel.task = asyncio.create_task(self._refresh(tournament_id, channel))

    async def _refresh(self, tournament_id: str, channel: Channel) -> None:
        try:
            if channel.last_seq is None:
                # From the current end: subscribers read what was before it themselves.
                seqs = await self._db(lambda s: events.last_seqs(s, [tournament_id]))
                channel.last_seq = seqs.get(tournament_id, 0)
                # Events saved between a first subscriber's backlog read and this read are in
                # neither: each subscriber so far reads from the database once more.
                for subscriber in channel.subscribers:
                    subscriber.catch_up()
            while channel.dirty and channel.subscribers:
                channel.dirty = False
                while True:
                    batch = await self.read(tournament_id, channel.last_seq)
                    for event in batch:
                        data = frame(event)
                        for subscriber in channel.subscribers:
                            subscriber.push(event.seq, data)
                        channel.last_seq = event.seq
                    if len(batch) < BATCH:
                        break
        except asyncio.CancelledError:
            raise
        except Exception:
            # The next poll retries; a database hiccup must not end the streams.
            log.exception("reading events of tournament %s failed", tournament_id)
            channel.dirty = True

    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            watched = [(tid, c) for tid, c in self.channels.items() if c.last_seq is not None]
            if not watched:
                continue
            ids = [tid for tid, _ in watched]
            try:
                seqs = await self._db(lambda s, ids=ids: events.last_seqs(s, ids))  # type: ignore[misc]
            except Exception:
                log.exception("polling for events failed")
                continue
            for tid, channel in watched:
                last = channel.last_seq
                if (last is not None and seqs.get(tid, 0) > last) or channel.dirty:
                    self._mark(tid, channel)

    def _look_again(self) -> None:
        """Anything saved while the listener was away: every channel looks once more."""
        for tid, channel in list(self.channels.items()):
            self._mark(tid, channel)

    async def _db(self, read: Callable[[Session], T]) -> T:
        def run() -> T:
            with Session(self.engine) as session:
                return read(session)

        return await self._threads.run(run)
