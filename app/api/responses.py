"""The error responses each operation lists in OpenAPI (all ``application/problem+json``)."""

from __future__ import annotations

from typing import Any

from app.api.schemas import Problem

_DESCRIPTIONS = {
    304: "Not modified: `If-None-Match` names the current ETag",
    401: "No organizer token (`unauthorized`)",
    403: "Wrong organizer token (`forbidden`)",
    404: "Not found (`tournament_not_found`, `player_not_found`, `match_not_found`, …)",
    409: "The tournament's state does not allow it (`round_incomplete`, `round_locked`, …)",
    412: "`If-Match` does not name the current ETag (`precondition_failed`)",
    413: "Request body too large (`payload_too_large`)",
    422: "Invalid body or value (`validation_error`, `winner_required`, `invalid_settings`, …)",
    429: "A quota is used up (`too_many_requests`); `Retry-After` says when to try again",
    503: "Not done in time, nothing saved: a lock or a database connection (`busy`, with "
    "`Retry-After: 1`), a round's pairing (`pairing_timeout`)",
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI responses for ``statuses`` (422 is always added: any body can fail to validate)."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, 422}):
        if status == 304:
            out[status] = {"description": _DESCRIPTIONS[status]}
            continue
        out[status] = {
            "model": Problem,
            "description": _DESCRIPTIONS[status],
            "content": {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            },
        }
    return out


READ = problems(304, 404)
WRITE = problems(401, 403, 404, 409, 412, 413, 503)
