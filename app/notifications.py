"""PostgreSQL ``LISTEN`` on the events channel, shared by the event hub and the webhook worker.

Writers ``NOTIFY`` in the transaction that stores an event (``services.events.emit``); this
keeps one connection listening, reconnecting with backoff, and hands each payload on. A
notification only says "look": whoever listens also polls, so nothing is lost while it
reconnects.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import psycopg
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from app.services.events import CHANNEL

log = logging.getLogger(__name__)
MAX_DELAY = 10.0
CONNECT_TIMEOUT = 10  # seconds; a server that does not answer is retried like one that refuses


async def listen(
    engine: Engine,
    on_notice: Callable[[str], None],
    *,
    on_connect: Callable[[], None] | None = None,
) -> None:
    """Call ``on_notice(payload)`` for every notification, forever (until cancelled).

    ``on_connect`` runs each time the listener (re)connects: what was saved while it was not
    listening is for the caller to look up.
    """
    conninfo = (
        make_url(engine.url).set(drivername="postgresql").render_as_string(hide_password=False)
    )
    delay = 0.5
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(
                conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            ) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                delay = 0.5
                if on_connect is not None:
                    on_connect()
                async for notice in connection.notifies():
                    on_notice(notice.payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("not listening for events; reconnecting", exc_info=True)
        await asyncio.sleep(delay)
        delay = min(delay * 2, MAX_DELAY)
