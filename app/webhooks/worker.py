"""The webhook delivery worker: enqueue new events, send due deliveries, record the outcome.

It runs outside the request path: as an asyncio task in each app process (lifespan, when
``SVIZZERA_WEBHOOK_WORKER`` is on) or alone, ``python -m app.webhooks.worker``. All its state is
in the database (``app.webhooks.queue``), so any number of workers share the work and a restart
loses nothing: a delivery interrupted mid-send is sent again, with the same event id and
delivery id, once its claim runs out (at-least-once; receivers dedupe by ``Svizzera-Event-Id``).

Each endpoint has at most one delivery in flight, its oldest pending one, so it receives events
in order; endpoints are served concurrently, so a receiver that never answers delays only
itself. The worker wakes on PostgreSQL's ``NOTIFY`` (``events.CHANNEL``) and otherwise looks
every ``SVIZZERA_WEBHOOK_POLL_INTERVAL`` seconds (also when a retry falls due).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import Engine

from app import notifications
from app.db import engine_from
from app.services import club_events, events
from app.settings import Settings, get_settings
from app.threads import Threads
from app.webhooks import addresses, queue, signing

logger = logging.getLogger("svizzera.webhooks")

MAX_IN_FLIGHT = 64
"""Deliveries (to as many endpoints) sent at once by one worker."""
SHUTDOWN_GRACE = 1.0
"""Seconds in-flight deliveries get to finish when the worker stops; then their claims run out."""
USER_AGENT = "Svizzera-Webhooks/1"
WORKER_POOL_SIZE = 4
"""Connections of the worker run alone: its step's queries, and deliveries recording outcomes."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def lease(settings: Settings) -> timedelta:
    """How long a claim holds a delivery: longer than a whole attempt (bounded by the timeout),
    so a live worker's delivery is never taken over; a dead worker's runs out this soon."""
    return timedelta(seconds=2 * settings.webhook_timeout + 1)


def body(claimed: queue.Claimed) -> bytes:
    """The envelope of the event, as every channel sends it (``events.envelope``, or
    ``club_events.envelope`` for a club's event)."""
    c = claimed
    if c.club_id is not None:
        envelope = club_events.envelope(
            club_events.ClubEvent(c.seq, c.club_id, c.type, c.data, c.created_at)
        )
    elif c.tournament_id is not None:
        envelope = events.envelope(
            events.Event(c.seq, c.tournament_id, c.type, c.data, c.created_at)
        )
    else:  # never: an endpoint has exactly one owner (a check constraint)
        raise ValueError(f"webhook delivery {c.id} has no owner")
    return json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode()


def event_id(claimed: queue.Claimed) -> str:
    """``<tournament id>:<seq>``, or ``club:<club id>:<seq>`` for a club's event: unique
    across tournaments and clubs, the same on every resend."""
    if claimed.club_id is not None:
        return f"{club_events.topic(claimed.club_id)}:{claimed.seq}"
    return f"{claimed.tournament_id}:{claimed.seq}"


def headers(claimed: queue.Claimed, content: bytes) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        signing.HEADER: signing.sign(claimed.secret, content),
        "Svizzera-Event-Id": event_id(claimed),
        "Svizzera-Event-Type": claimed.type,
        "Svizzera-Delivery-Id": str(claimed.id),
    }


async def send(
    client: httpx.AsyncClient, claimed: queue.Claimed, *, timeout: float, allow_private: bool
) -> queue.Outcome:
    """One attempt: POST the signed envelope; a 2xx within ``timeout`` seconds delivers it.
    Redirects are not followed (they count as a failure)."""
    content = body(claimed)
    try:
        async with asyncio.timeout(timeout):
            target = await addresses.target(claimed.url, allow_private=allow_private)
            async with client.stream(
                "POST",
                target.url,
                content=content,
                headers=headers(claimed, content) | target.headers,
                extensions=target.extensions,
            ) as response:
                status = response.status_code
    except addresses.UrlRefused as refused:
        return queue.Outcome(False, error=str(refused))
    except TimeoutError:
        return queue.Outcome(False, error=f"no answer within {timeout:g} s")
    except httpx.HTTPError as error:
        return queue.Outcome(False, error=f"{type(error).__name__}: {error}".rstrip(": "))
    if 200 <= status < 300:
        return queue.Outcome(True, status)
    return queue.Outcome(False, status, f"HTTP {status}")


class Worker:
    """One delivery worker on ``engine``."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.lease = lease(settings)
        self.allow_private = settings.webhooks_may_reach_private()
        self.in_flight: set[asyncio.Task[None]] = set()
        self.threads = Threads()
        """Its database calls; it stops only when those still running have returned."""
        self.wake = asyncio.Event()
        self.hooked: frozenset[str] | None = None
        """Outboxes with endpoints (their ``NOTIFY`` topics: tournament ids, ``club:<id>``),
        read at every poll; ``None`` until read (or made stale by a new endpoint). Events of
        other outboxes do not wake the worker."""

    async def run(self, stop: asyncio.Event) -> None:
        """Work until ``stop`` is set."""
        listener = None
        if self.engine.dialect.name == "postgresql":
            listener = asyncio.create_task(notifications.listen(self.engine, self._notified))
        async with httpx.AsyncClient(follow_redirects=False, trust_env=False) as client:
            try:
                woken = False
                while not stop.is_set():
                    try:
                        await self.step(client, poll=not woken)
                    except Exception:
                        logger.exception("webhook worker step failed; trying again")
                    woken = await self._sleep(stop)
            finally:
                if listener is not None:
                    # Awaited, so its connection is closed before the loop ends, not left
                    # to the garbage collector (a ResourceWarning in whatever runs next).
                    listener.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await listener
                await self._drain()

    async def step(self, client: httpx.AsyncClient, *, poll: bool = True) -> int:
        """Enqueue new events, then start sending what is due; returns how many were started.

        A poll first reads which tournaments and clubs have endpoints; with none (and nothing
        in flight) there is nothing to enqueue or send, and the step costs that one query.
        """
        if poll or self.hooked is None:
            self.hooked = await self.threads.run(queue.hooked_topics, self.engine)
        if not self.hooked and not self.in_flight:
            return 0
        await self.threads.run(queue.enqueue, self.engine, now=utcnow())
        room = MAX_IN_FLIGHT - len(self.in_flight)
        if room <= 0:
            return 0
        claimed = await self.threads.run(
            queue.claim, self.engine, now=utcnow(), lease=self.lease, limit=room
        )
        for delivery in claimed:
            task = asyncio.create_task(self._deliver(client, delivery))
            self.in_flight.add(task)
            task.add_done_callback(self.in_flight.discard)
        return len(claimed)

    async def _deliver(self, client: httpx.AsyncClient, claimed: queue.Claimed) -> None:
        s = self.settings
        outcome = await send(
            client, claimed, timeout=s.webhook_timeout, allow_private=self.allow_private
        )
        try:
            await self.threads.run(
                queue.finish,
                self.engine,
                claimed,
                outcome,
                now=utcnow(),
                max_attempts=s.webhook_max_attempts,
                base=s.webhook_backoff,
                cap=s.webhook_backoff_max,
            )
        except Exception:
            # Not recorded: the claim runs out and the delivery is sent again (same ids).
            logger.exception("could not record webhook delivery %s", claimed.id)
        self.wake.set()  # the endpoint's next event may go now

    async def _sleep(self, stop: asyncio.Event) -> bool:
        """Wait for a wake-up or the poll interval; returns whether something woke it."""
        waiters = [asyncio.create_task(self.wake.wait()), asyncio.create_task(stop.wait())]
        await asyncio.wait(
            waiters, timeout=self.settings.webhook_poll_interval, return_when="FIRST_COMPLETED"
        )
        for waiter in waiters:
            waiter.cancel()
        woken = self.wake.is_set()
        self.wake.clear()
        return woken

    def _notified(self, payload: str) -> None:
        """A new event (payload: its outbox's topic) or a new endpoint (``ENDPOINT_PREFIX``)."""
        if payload.startswith(queue.ENDPOINT_PREFIX):
            self.hooked = None
        elif self.hooked is not None and payload not in self.hooked:
            return  # no endpoint wants it; an endpoint made meanwhile is read at the next poll
        self.wake.set()

    async def _drain(self) -> None:
        if self.in_flight:
            _done, pending = await asyncio.wait(self.in_flight, timeout=SHUTDOWN_GRACE)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        # A delivery cancelled while recording its outcome leaves that write running; it
        # completes (the outcome is kept) and hands its connection back before the engine goes.
        await self.threads.wait()


@contextlib.asynccontextmanager
async def in_background(engine: Engine, settings: Settings) -> AsyncIterator[None]:
    """The app's worker task, while the app runs (if ``SVIZZERA_WEBHOOK_WORKER`` is on)."""
    if not settings.webhook_worker:
        yield
        return
    stop = asyncio.Event()
    task = asyncio.create_task(Worker(engine, settings).run(stop), name="webhook-worker")
    try:
        yield
    finally:
        stop.set()
        await task


async def _serve(engine: Engine, settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    logger.info("webhook worker started")
    await Worker(engine, settings).run(stop)
    logger.info("webhook worker stopped")


def main() -> None:
    """``python -m app.webhooks.worker``: the worker alone, configured like the app."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    settings = get_settings()
    engine = engine_from(settings.model_copy(update={"db_pool_size": WORKER_POOL_SIZE}))
    try:
        asyncio.run(_serve(engine, settings))
    finally:
        engine.dispose()


if __name__ == "__main__":
    main()
