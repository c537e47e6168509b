"""The audit trail: every accepted write, who (the organizer or a scorekeeper), what and when."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from app.models import AuditRow
from app.services.storage import now

A = AuditRow.__table__  # type: ignore[attr-defined]
ORGANIZER = "organizer"


def record(
    session: Session, tournament_id: str, action: str, *, actor: str = ORGANIZER, **detail: Any
) -> None:
    session.execute(
        insert(A).values(
            tournament_id=tournament_id, at=now(), actor=actor, action=action, detail=detail
        )
    )


def record_each(
    session: Session, tournament_ids: list[str], action: str, *, actor: str, **detail: Any
) -> None:
    """The same entry in the trail of each tournament, in one statement (a season deleted)."""
    if tournament_ids:
        at = now()
        rows = [
            {"tournament_id": t, "at": at, "actor": actor, "action": action, "detail": detail}
            for t in tournament_ids
        ]
        session.execute(insert(A), rows)


def entries(
    session: Session, tournament_id: str, *, after: int | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Oldest first; ``after``: only entries with a higher id; at most ``limit``."""
    return trail(session, A, A.c.tournament_id == tournament_id, after=after, limit=limit)


def trail(
    session: Session, table: Any, owner: Any, *, after: int | None, limit: int | None
) -> list[dict[str, Any]]:
    """The entries of an audit ``table`` (a tournament's or a club's) matching ``owner``."""
    query = select(table.c.id, table.c.at, table.c.actor, table.c.action, table.c.detail)
    query = query.where(owner).order_by(table.c.id)
    if after is not None:
        query = query.where(table.c.id > after)
    return [dict(r._mapping) for r in session.execute(query.limit(limit))]
