"""Run one domain command on a locked tournament and persist what it changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from app.domain.tournament import Tournament
from app.services import audit, storage

R = TypeVar("R")


def run(
    session: Session,
    tournament_id: str,
    action: str,
    command: Callable[[Tournament], R],
    *,
    detail: dict[str, Any] | Callable[[R], dict[str, Any]] | None = None,
    columns: dict[str, Any] | None = None,
) -> tuple[Tournament, R]:
    """Load, apply ``command`` (which raises before changing anything), save, audit.

    The caller holds the row lock (``access.lock_header``); the version goes up by one.
    """
    tournament = storage.load(session, tournament_id)
    before = storage.Snapshot.of(tournament)
    outcome = command(tournament)
    storage.save(
        session,
        tournament_id,
        before,
        tournament,
        version=storage.T.c.version + 1,
        **(columns or {}),
    )
    described = detail(outcome) if callable(detail) else detail
    audit.record(session, tournament_id, action, **(described or {}))
    return tournament, outcome
