"""Reaching the room: the live page's public address as a QR code, on the TV and on paper.

The live page is rendered once per version and cached, whoever asks; its address depends on
the request (the Host a TV opened it with, ``SVIZZERA_PUBLIC_URL``), so the TV page carries a
slot (``QR_SLOT``, a comment no escaped text can produce) that ``room_panel`` fills per request.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from markupsafe import Markup

from app.pages.i18n import Language
from app.pages.qr import qr_svg
from app.pages.templates import environment

QR_SLOT = Markup("<!-- room-qr -->")
"""Where the TV page's QR panel goes; the cached page keeps the slot, each answer fills it."""


def live_address(base: str, tournament_id: str) -> str:
    """The live page's address for phones: no language (each phone picks its own), no TV."""
    return f"{base}/v1/tournaments/{tournament_id}/live"


@lru_cache(maxsize=64)
def live_qr(address: str, label: str) -> Markup:
    """The QR code of ``address`` (a few ms to draw: kept for the addresses seen last)."""
    return qr_svg(address, label=label)


def room_panel(address: str, language: Language) -> Markup:
    """The TV's corner: the QR code of the live page's address, and the address written out."""
    template = environment(language).get_template("_room.html")
    return Markup(template.module.qr_panel(address, live_qr))  # type: ignore[attr-defined]


def address_tag(address: str) -> str:
    """A short digest of ``address`` for an ETag: the TV page differs per address."""
    return hashlib.sha256(address.encode()).hexdigest()[:8]
