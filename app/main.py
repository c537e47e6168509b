"""The application factory: ``create_app(settings)`` builds the engine, routers and handlers."""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI

from app.api import (
    bracket,
    checks,
    clock,
    club_events,
    club_webhooks,
    clubs,
    events,
    forbidden_pairs,
    health,
    live,
    players,
    printing,
    ratings,
    register,
    report_page,
    reports,
    results,
    rounds,
    season_pages,
    seasons,
    standings,
    tokens,
    tournaments,
    trf,
)
from app.api.body_limit import BodyLimit
from app.api.cache import ReadCache
from app.api.cors import ForeignWrites, allow_cross_origin
from app.api.docs import serve_docs
from app.api.event_schemas import document_events
from app.api.http_rules import STRICT, HeadAsGet, allow_every_method
from app.api.openapi import TAGS, polish_openapi
from app.api.proxies import believe_proxies
from app.api.webhooks import router as webhooks_router
from app.broadcast import Hub
from app.db import engine_from, warm_pool
from app.errors import install_error_handlers
from app.logs import hide_query_strings
from app.settings import Settings, get_settings
from app.webhooks.worker import in_background as webhook_worker

DESCRIPTION = """Swiss-system tournaments for an evening: pairing, standings with Buchholz,
the final phase. Reads are public; every write needs the tournament's organizer token as
`Authorization: Bearer …`. Errors are `application/problem+json` with a stable `code`."""


SWITCH_INTERVAL = 0.0005
"""Seconds a thread may keep the interpreter while another waits for it (Python's: 0.005)."""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    hide_query_strings()  # the access log's query strings may hold tokens

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Objects alive after start-up (modules, schemas, the engine) stay for good: keep them out
        # of the collector's scans, or every full collection during a large standings read
        # walks them all (measured: +50-60 ms on a 1,000-player standings, docs/performance.md).
        gc.freeze()
        # A thread that computes (a TRF read, a pairing) keeps the interpreter for the switch
        # interval each time a request's thread asks for it back, which a read does at every
        # database call: at Python's 5 ms, a standings read took 60 times its time alone while
        # hostile TRF files were read one after another; at 0.5 ms, 2-3 times
        # (docs/performance.md, "TRF import").
        sys.setswitchinterval(SWITCH_INTERVAL)
        # As many threads as connections: a request beyond them waits in the event loop, holding
        # nothing, instead of in a thread for a connection (which times out as `busy`) while
        # its thread competes for the GIL with the one that holds a tournament's lock.
        to_thread.current_default_thread_limiter().total_tokens = settings.db_pool_size
        await asyncio.to_thread(warm_pool, app.state.engine)
        _end_streams_on_exit(app.state.event_hub)
        async with webhook_worker(app.state.engine, settings):
            yield
        await app.state.event_hub.close()
        app.state.engine.dispose()

    app = FastAPI(
        title="Svizzera",
        version="1.0.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # served by app.api.docs, without a CDN
        redoc_url=None,
        dependencies=STRICT,
        openapi_tags=TAGS,
    )
    app.state.settings = settings
    app.state.read_cache = ReadCache(settings.read_cache_size)
    app.state.trf_imports = asyncio.Semaphore(1)  # app.api.trf.import_slot
    app.state.engine = engine_from(settings)
    app.state.event_hub = Hub(app.state.engine, poll_interval=settings.sse_poll_interval)
    install_error_handlers(app)
    allow_every_method(app)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(HeadAsGet)
    app.add_middleware(ForeignWrites, origins=settings.cors_origins)
    allow_cross_origin(app, settings.cors_origins)  # refusals get the headers too
    believe_proxies(app, settings.forwarded_allow_ips)  # outermost: all see the client
    for module in (
        trf,  # before tournaments: its TRF creation route is tried first
        tournaments,
        players,
        forbidden_pairs,
        rounds,
        clock,
        results,
        reports,
        report_page,
        tokens,
        standings,
        bracket,
        printing,
        live,
        events,
        checks,
        clubs,
        register,
        ratings,
        club_events,
        club_webhooks,
        seasons,
        season_pages,
        health,
    ):
        app.include_router(module.router)
    app.mount("/static", live.static_files(), name="static")
    app.include_router(webhooks_router)
    document_events(app)
    serve_docs(app)
    polish_openapi(app)
    return app


def _end_streams_on_exit(hub: Hub) -> None:
    """On SIGTERM/SIGINT, end the event streams first: the server waits for open responses
    before it shuts down, and a stream would otherwise keep it up until its max duration."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def handler(signum: int, frame: object, previous: Callable[..., object] = previous) -> None:
            loop.call_soon_threadsafe(hub.close_streams)
            previous(signum, frame)

        signal.signal(sig, handler)
