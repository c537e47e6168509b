"""A club's audit trail: every club-level write (keys, register, merges), who, what and when.

Writes to a club's tournaments go to each tournament's own trail (``app.services.audit``), where
a club key's are named ``club:<key id>``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from app.models import ClubAuditRow
from app.services import audit
from app.services.storage import now

CA = ClubAuditRow.__table__  # type: ignore[attr-defined]


def record(session: Session, club_id: str, action: str, *, actor: str, **detail: Any) -> None:
    session.execute(
        insert(CA).values(club_id=club_id, at=now(), actor=actor, action=action, detail=detail)
    )


def entries(
    session: Session, club_id: str, *, after: int | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Oldest first; ``after``: only entries with a higher id; at most ``limit``."""
    return audit.trail(session, CA, CA.c.club_id == club_id, after=after, limit=limit)
