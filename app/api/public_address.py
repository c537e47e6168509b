"""The address the pages' QR codes carry: where a phone in the room opens the live page.

``SVIZZERA_PUBLIC_URL`` when set (behind a proxy that does not pass the Host on, or to name
the address people should use); else the request's own: its scheme (``X-Forwarded-Proto``
counts only from the proxies of ``SVIZZERA_FORWARDED_ALLOW_IPS``, see ``app/api/proxies.py``),
its ``Host`` and the app's root path. A page opened as ``localhost`` (a laptop wired to the TV)
gets this computer's LAN address instead, if the server answers there on the same port: a
phone cannot open ``localhost``. A server listening on 127.0.0.1 only keeps ``localhost``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.lan import is_loopback, room_address
from app.settings import Settings


def public_base(request: Request) -> str:
    """The site's public root, without a trailing slash: ``http://192.168.1.20:8000``."""
    settings: Settings = request.app.state.settings
    if settings.public_url:
        return settings.public_url
    url = request.base_url
    if is_loopback(url.hostname or ""):
        port = url.port or (443 if url.scheme == "https" else 80)
        lan = room_address(port)  # a TCP connect to this computer: a thread, not the loop
        if lan is not None:
            url = url.replace(hostname=lan)
    return str(url).rstrip("/")


PublicBase = Annotated[str, Depends(public_base)]
