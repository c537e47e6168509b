"""Checking a webhook delivery (docs/webhooks.md): ``Svizzera-Signature: t=<unix>,v1=<hex>``
where ``v1`` is the HMAC-SHA256, keyed by the endpoint's secret, of ``"<t>.<raw body>"``.

In a receiver (Flask, say)::

    event = read_delivery(SECRET, request.headers["Svizzera-Signature"], request.get_data())

Verify the raw body bytes, before any JSON parsing, and dedupe by ``Svizzera-Event-Id``: a
delivery may come more than once. A club's endpoint gets the club's events, signed the same
way: ``read_club_delivery``.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from svizzera_client.errors import SignatureError
from svizzera_client.events import (
    ClubEventEnvelope,
    EventEnvelope,
    parse_club_event,
    parse_event,
)

SIGNATURE_HEADER = "Svizzera-Signature"
EVENT_ID_HEADER = "Svizzera-Event-Id"
DEFAULT_TOLERANCE = 300
"""Seconds a signature stays good: an older delivery is refused as a replay."""


def verify_signature(
    secret: str,
    header: str,
    body: bytes | str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> bool:
    """True if ``header`` (the ``Svizzera-Signature`` value) signs ``body`` with ``secret`` and
    was made within ``tolerance`` seconds of ``now`` (default: the clock)."""
    raw = body.encode() if isinstance(body, str) else body
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            signatures.append(value)
    if timestamp is None or not signatures:
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    message = str(timestamp).encode() + b"." + raw
    expected = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, signature) for signature in signatures)


def read_delivery(
    secret: str,
    header: str | None,
    body: bytes | str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> EventEnvelope:
    """The event a delivery carries, once its signature checks; ``SignatureError`` if it does
    not (or the header is missing, or the signature is older than ``tolerance`` seconds)."""
    if not header or not verify_signature(secret, header, body, tolerance=tolerance, now=now):
        raise SignatureError("the Svizzera-Signature header does not sign this body")
    return parse_event(body)


def read_club_delivery(
    secret: str,
    header: str | None,
    body: bytes | str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> ClubEventEnvelope:
    """As ``read_delivery``, for a delivery to a club's endpoint (``rating.updated``,
    ``season.updated``)."""
    if not header or not verify_signature(secret, header, body, tolerance=tolerance, now=now):
        raise SignatureError("the Svizzera-Signature header does not sign this body")
    return parse_club_event(body)
