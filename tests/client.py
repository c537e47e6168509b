"""A synchronous httpx client for the ASGI app, in process.

``httpx.ASGITransport`` is asynchronous; the tests are plain functions, so requests run on an
event loop in a background thread (``anyio``'s blocking portal), one at a time.
"""

from __future__ import annotations

import asyncio
from contextlib import ExitStack
from types import TracebackType
from typing import Any

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal
from fastapi import FastAPI

from app.broadcast import Hub


class ApiClient:
    def __init__(
        self,
        app: FastAPI,
        base_url: str = "http://svizzera.test",
        *,
        client_address: str = "127.0.0.1",
    ) -> None:
        self._app = app
        self._base_url = base_url
        self._client_address = client_address
        self._stack = ExitStack()
        self._portal: BlockingPortal | None = None
        self._client: httpx.AsyncClient | None = None

    def __enter__(self) -> ApiClient:
        self._portal = self._stack.enter_context(start_blocking_portal())
        transport = httpx.ASGITransport(app=self._app, client=(self._client_address, 123))
        self._client = httpx.AsyncClient(transport=transport, base_url=self._base_url)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._portal is not None and self._client is not None:
            self._portal.call(self._client.aclose)
            self._portal.call(self._close_event_hub)
        self._stack.close()

    async def _close_event_hub(self) -> None:
        """Close the app's event hub, as its shutdown does, if it runs on this client's loop
        (a stream opened through this client started it): the hub's reads in worker threads
        then end before the loop and the test's database do. The app's lifespan, which would
        close it, does not run in process."""
        hub: Hub = self._app.state.event_hub
        if hub.loop is asyncio.get_running_loop():
            await hub.close()

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        assert self._portal is not None and self._client is not None, "use as a context manager"
        client = self._client

        async def send() -> httpx.Response:
            return await client.request(method, url, **kwargs)

        return self._portal.call(send)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("PATCH", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", url, **kwargs)
