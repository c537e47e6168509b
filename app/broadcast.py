"""Fan-out of stored events to the event streams of this worker process.

Events come from the database, never from the process that wrote them, so any number of
workers see the same events in the same order. A stream follows one outbox, named by its
**topic**, the ``NOTIFY`` payload of its writers: a tournament's id (``app.services.events``)
or ``club:<id>`` (a club's, ``app.services.club_events``). Per process there is one ``Hub``:

- per topic being watched, one ``Channel`` reads the new events once (``seq`` after the
  last one it read) and hands each rendered frame to every subscriber of that topic;
- on PostgreSQL one connection ``LISTEN``s on ``events.CHANNEL`` (writers ``NOTIFY`` in their
  transaction), which wakes the channel of the topic named in the payload at once;
- a poll every ``poll_interval`` seconds (one query per kind of outbox watched: tournaments,
  clubs) is the only trigger on SQLite and the safety net on PostgreSQL (a listener
  reconnecting misses nothing).

Database calls run in worker threads, so the event loop never waits on them. A subscriber that
goes away is removed from its channel; a channel without subscribers is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Sequence
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app import notifications
from app.services import club_events, events
from app.threads import Threads

log = logging.getLogger(__name__)
T = TypeVar("T")

BATCH = 500
"""Events read per query."""
MAX_PENDING = 1_000
"""Frames queued for one subscriber before it is told to catch up from the database."""


Stored = events.Event | club_events.ClubEvent
"""A stored event of either outbox."""


def frame(event: Stored) -> bytes:
    """One server-sent event: ``id`` (the seq), ``event`` (the type), ``data`` (the envelope)."""
    envelope = (
        club_events.envelope(event)
        if isinstance(event, club_events.ClubEvent)
        else events.envelope(event)
    )
    body = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {body}\n\n".encode()


def _club(topic: str) -> str | None:
    """The club a topic names, or ``None`` for a tournament's."""
    prefix = club_events.TOPIC_PREFIX
    return topic.removeprefix(prefix) if topic.startswith(prefix) else None


def events_after(session: Session, topic: str, after_seq: int) -> Sequence[Stored]:
    """One batch of the outbox's events after ``after_seq``, in order."""
    club_id = _club(topic)
    if club_id is not None:
        return club_events.events_after(session, club_id, after_seq, BATCH)
    return events.events_after(session, topic, after_seq, BATCH)


def last_seqs(session: Session, topics: Sequence[str]) -> dict[str, int]:
    """The latest ``seq`` of each outbox of ``topics`` that has events (a query per kind)."""
    clubs = [c for c in map(_club, topics) if c is not None]
    found = events.last_seqs(session, [t for t in topics if _club(t) is None])
    for club_id, seq in club_events.last_seqs(session, clubs).items():
        found[club_events.topic(club_id)] = seq
    return found


class Subscriber:
    """One open stream: frames waiting to be sent, and a flag to wake it."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
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
    """A watched outbox: its subscribers and the last seq handed to them."""

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

    def subscribe(self, topic: str) -> Subscriber:
        """Register a stream of ``topic`` (a tournament's id, or ``club:<id>``); from now on it
        receives every event the channel reads."""
        self._ensure_started()
        subscriber = Subscriber(topic)
        if self._closed:
            subscriber.close()
            return subscriber
        channel = self.channels.get(topic)
        if channel is None:
            channel = self.channels[topic] = Channel()
            self._mark(topic, channel)
        channel.subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        channel = self.channels.get(subscriber.topic)
        if channel is None:
            return
        channel.subscribers.discard(subscriber)
        if not channel.subscribers:
            del self.channels[subscriber.topic]
            if channel.task is not None:
                channel.task.cancel()

    async def read(self, topic: str, after_seq: int) -> Sequence[Stored]:
        """The events after ``after_seq`` (one batch), read in a worker thread."""
        return await self._db(lambda s: events_after(s, topic, after_seq))

    async def ask(self, question: Callable[[Session], bool]) -> bool:
        """A yes-or-no read (is a stream's key still live?) in the same worker threads."""
        return await self._db(question)

    # -- reading new events -------------------------------------------------------------------

    def notify(self, topic: str) -> None:
        """New events may exist for ``topic``: its channel reads them (once)."""
        channel = self.channels.get(topic)
        if channel is not None:
            self._mark(topic, channel)

    def notify_threadsafe(self, topics: set[str]) -> None:
        """``notify`` from another thread (a request's session, after its commit)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # no stream has ever been opened in this process
        for topic in topics:
            loop.call_soon_threadsafe(self.notify, topic)

    def _mark(self, topic: str, channel: Channel) -> None:
        channel.dirty = True
        if channel.task is None or channel.task.done():
            channel.task = asyncio.create_task(self._refresh(topic, channel))

    async def _refresh(self, topic: str, channel: Channel) -> None:
        try:
            if channel.last_seq is None:
                # From the current end: subscribers read what was before it themselves.
                seqs = await self._db(lambda s: last_seqs(s, [topic]))
                channel.last_seq = seqs.get(topic, 0)
                # Events saved between a first subscriber's backlog read and this read are in
                # neither: each subscriber so far reads from the database once more.
                for subscriber in channel.subscribers:
                    subscriber.catch_up()
            while channel.dirty and channel.subscribers:
                channel.dirty = False
                while True:
                    batch = await self.read(topic, channel.last_seq)
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
            log.exception("reading the events of %s failed", topic)
            channel.dirty = True

    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            watched = [(tid, c) for tid, c in self.channels.items() if c.last_seq is not None]
            if not watched:
                continue
            ids = [tid for tid, _ in watched]
            try:
                seqs = await self._db(lambda s, ids=ids: last_seqs(s, ids))  # type: ignore[misc]
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
