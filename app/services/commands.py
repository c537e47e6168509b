"""Run one domain command on a locked tournament and persist what it changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from app.domain.tournament import Tournament
from app.services import audit, events, storage

R = TypeVar("R")


def run(
    session: Session,
    tournament_id: str,
    action: str,
    command: Callable[[Tournament], R],
    *,
    detail: dict[str, Any] | Callable[[R], dict[str, Any]] | None = None,
    columns: dict[str, Any] | None = None,
    watch: Callable[[Tournament], events.Describe] | None = None,
    actor: str = audit.ORGANIZER,
) -> tuple[Tournament, R]:
    """Load, apply ``command`` (which raises before changing anything), save, audit, emit.

    ``watch`` looks at the tournament before the command and returns what describes the
    command's events after it; ``tournament.finished`` is emitted here for every command.
    Events go into the outbox in this same transaction. The caller holds the row lock
    (``access.lock_header``); the version goes up by one.
    """
    tournament = storage.load(session, tournament_id)
    before = storage.Snapshot.of(tournament)
    status_before = tournament.status
    describe = watch(tournament) if watch is not None else None
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
    audit.record(session, tournament_id, action, actor=actor, **(described or {}))
    caused = describe(tournament, outcome) if describe is not None else []
    for type_, data in [*caused, *events.finished(status_before, tournament)]:
        events.emit(session, tournament_id, type_, data)
    return tournament, outcome
