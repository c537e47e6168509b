"""Whose ``X-Forwarded-For`` is believed: the proxies of ``SVIZZERA_FORWARDED_ALLOW_IPS`` only.

The client address decides the creation quota. uvicorn believes forwarded headers from
127.0.0.1 and ::1 by default, so any process on the server's host could claim any address and
create past the quota; every command that starts the app (``make run``, the Dockerfile,
docker-compose.yml, the tests' server) passes ``--no-proxy-headers``, and the app itself
believes the headers only from the proxies the setting names, none by default. It uses
uvicorn's own middleware: the client is the right-most address of ``X-Forwarded-For`` that is
not a named proxy, and ``X-Forwarded-Proto`` sets the scheme.
"""

from __future__ import annotations

from fastapi import FastAPI
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def believe_proxies(app: FastAPI, proxies: list[str]) -> None:
    """Read the client address from forwarded headers sent by ``proxies`` (addresses or
    networks; ``*``: any sender); nothing at all when empty."""
    if proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)
