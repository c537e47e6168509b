"""One way to page a list: `limit` (1–100) and an opaque `cursor` in; `{items, next_cursor}` out.

Lists kept in id order (the audit trail, the delivery log) use an id cursor from here; the
tournament list keeps its own (creation time and id, newest first).
"""

from __future__ import annotations

import base64
from typing import Annotated

from fastapi import Query

from app.errors import ForeignCursor
from app.inputs import MAX_INTEGER

Limit = Annotated[int, Query(ge=1, le=100, description="Page size")]
Cursor = Annotated[
    str | None,
    Query(max_length=200, description="`next_cursor` of the previous page; omit for the first"),
]


def encode_id(last_id: int) -> str:
    return base64.urlsafe_b64encode(f"id:{last_id}".encode()).decode()


def decode_id(cursor: str | None) -> int | None:
    """The id a page ended at (None for the first page); 422 for a cursor we did not give."""
    if cursor is None:
        return None
    try:
        kind, last_id = base64.urlsafe_b64decode(cursor.encode()).decode().split(":", 1)
        if kind == "id" and last_id.isdigit() and int(last_id) <= MAX_INTEGER:
            return int(last_id)
    except (ValueError, UnicodeDecodeError):
        pass
    raise ForeignCursor


def next_cursor(ids: list[int], limit: int) -> str | None:
    """The cursor after a page read with ``limit + 1`` rows (None when there is no more)."""
    return encode_id(ids[limit - 1]) if len(ids) > limit else None
