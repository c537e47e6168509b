"""The ``Svizzera-Signature`` header: HMAC-SHA256 over ``"<timestamp>.<body>"``.

Standard library only, so receivers can copy ``verify`` as it is (docs/webhooks.md shows it).
"""

from __future__ import annotations

import hashlib
import hmac
import time

HEADER = "Svizzera-Signature"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256, keyed by the endpoint's secret, of ``f"{timestamp}.{body}"``."""
    message = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, *, timestamp: int | None = None) -> str:
    """The header value ``t=<unix seconds>,v1=<hex digest>`` for ``body`` sent now."""
    t = int(time.time()) if timestamp is None else timestamp
    return f"t={t},v1={signature(secret, t, body)}"


def verify(
    secret: str,
    header: str,
    body: bytes | str,
    tolerance: int = 300,
    *,
    now: float | None = None,
) -> bool:
    """True if ``header`` signs ``body`` (the raw request body) with ``secret``, made no more
    than ``tolerance`` seconds from now (a replayed old delivery is refused)."""
    raw = body.encode() if isinstance(body, str) else body
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or not candidates:
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, raw)
    return any(hmac.compare_digest(expected, c) for c in candidates)
