"""Run one domain command on a tournament and persist what it changed.

The command computes on the tournament as read, without any lock; then the row is locked just
long enough to save. If another write was saved in between (the version moved), the command runs
once more under the lock, on the newer state: a request never fails because another one was
faster, and a lock is held through a computation only in that case. ``If-Match`` writes are
refused instead (412): the client asked for the version it saw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy.orm import Session

from app.domain.tournament import Tournament
from app.domain.types import Status
from app.services import access, audit, evenings, events, ratings, storage

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class _Applied(Generic[R]):
    """A command applied to the tournament as it was at ``version``."""

    version: int
    before: storage.Snapshot
    status_before: Status
    describe: events.Describe | None
    tournament: Tournament
    outcome: R


def run(
    session: Session,
    write: access.Write,
    action: str,
    command: Callable[[Tournament], R],
    *,
    detail: dict[str, Any] | Callable[[R], dict[str, Any]] | None = None,
    columns: dict[str, Any] | None = None,
    watch: Callable[[Tournament], events.Describe] | None = None,
    under_lock: Callable[[], None] | None = None,
) -> tuple[Tournament, R]:
    """Load, apply ``command`` (which raises before changing anything), lock, save, audit, emit.

    ``watch`` looks at the tournament before the command and returns what describes the
    command's events after it; ``tournament.finished`` is emitted here for every command.
    ``under_lock`` runs under the tournament's lock, just before the save: a check that rows of
    other writers decide (a season's room, under the club's lock taken there: the order
    tournament, then club, as a finishing result takes them); it raises to refuse the write.
    Events go into the outbox in this same transaction; the version goes up by one.
    """
    tid = write.tournament_id
    applied = _apply(session, write, command, watch)
    locked = access.lock_header(session, tid)
    access.check_still_allowed(session, write, locked)
    if locked.version != applied.version:
        access.check_expected(write, locked.version)
        applied = _apply(session, write, command, watch)  # under the lock: nothing moves now
    if under_lock is not None:
        under_lock()
    storage.save(
        session,
        tid,
        applied.before,
        applied.tournament,
        version=applied.version + 1,
        **(columns or {}),
    )
    described = detail(applied.outcome) if callable(detail) else detail
    caused = applied.describe(applied.tournament, applied.outcome) if applied.describe else []
    conclude(
        session,
        write,
        action,
        version=applied.version + 1,
        detail=described,
        caused=[*caused, *events.finished(applied.status_before, applied.tournament)],
    )
    if locked.club_id is not None:  # a club's tournament that finished is rated, once
        ratings.rate_if_finished(session, locked.club_id, tid, applied.tournament)
    return applied.tournament, applied.outcome


def conclude(
    session: Session,
    write: access.Write,
    action: str,
    *,
    version: int,
    detail: dict[str, Any] | None,
    caused: list[events.NewEvent],
) -> None:
    """What every saved write ends with, under the tournament's lock: its audit entry, its
    events in the outbox, a club evening kept for the season tables (``evenings``), and the
    new ``version`` told to the client."""
    tid = write.tournament_id
    audit.record(session, tid, action, actor=write.actor, **(detail or {}))
    events.emit(session, tid, caused, version=version)
    evenings.refresh(session, tid)
    if write.saved is not None:
        write.saved(version)


def _apply(
    session: Session,
    write: access.Write,
    command: Callable[[Tournament], R],
    watch: Callable[[Tournament], events.Describe] | None,
) -> _Applied[R]:
    version, tournament = storage.load_versioned(session, write.tournament_id)
    access.check_expected(write, version)
    before = storage.Snapshot.of(tournament)
    status_before = tournament.status
    describe = watch(tournament) if watch is not None else None
    outcome = command(tournament)
    return _Applied(version, before, status_before, describe, tournament, outcome)
