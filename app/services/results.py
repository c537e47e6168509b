"""Results: record, correct, clear (one, or several all or nothing); start the final phase.

One result on a Swiss match, the write a busy tournament gets most (every scorekeeper at once),
reads and writes only that match and the tournament's status columns (``storage.MatchScope``):
its cost does not grow with the tournament, and it holds the tournament's lock only to write.
Everything else, and the result that finishes the tournament (``tournament.finished`` names
the podium), goes through ``commands.run`` on the whole tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.domain.errors import DomainError
from app.domain.matches import Match, MatchChanges, MatchId
from app.domain.results import with_result
from app.domain.tournament import Tournament
from app.domain.tournament_state import swiss_status
from app.domain.types import DecidedBy, Forfeit, Result, Side, Stage, Status
from app.services import access, commands, events, ratings, storage


def record(
    session: Session,
    write: access.Write,
    match_id: int,
    *,
    home: int | None,
    away: int | None,
    winner: Side | None,
    decided_by: DecidedBy | None,
    forfeit: Forfeit | None,
) -> Match:
    result = result_of(home, away, winner, decided_by, forfeit)
    detail = {
        "match_id": match_id,
        "home": home,
        "away": away,
        "winner": winner,
        "decided_by": decided_by,
        "forfeit": forfeit,
    }
    return _write_one(session, write, match_id, result, "results-record", detail)


def confirm(
    session: Session,
    write: access.Write,
    match_id: int,
    result: Result,
    *,
    detail: dict[str, Any],
    also: Sequence[events.NewEvent],
) -> Match:
    """A result the players confirmed (``app.services.reports``), recorded as ``record`` does;
    ``also``: events that follow its ``result.*`` event."""
    return _write_one(session, write, match_id, result, "results-confirmed", detail, also=also)


def clear(session: Session, write: access.Write, match_id: int) -> Match:
    return _write_one(session, write, match_id, None, "results-clear", {"match_id": match_id})


def _write_one(
    session: Session,
    write: access.Write,
    match_id: int,
    result: Result | None,
    action: str,
    detail: dict[str, Any],
    *,
    also: Sequence[events.NewEvent] = (),
) -> Match:
    """Record ``result`` on ``match_id`` (``None``: clear it); the rules are checked before
    the lock, and again under it only if another write was saved in between. ``also``: events
    that follow the result's."""
    tid = write.tournament_id
    scope = storage.load_match_scope(session, tid, match_id)
    access.check_expected(write, scope.version)
    before = _swiss(scope)
    if before is None:
        return _whole(session, write, match_id, result, action, detail, also=also)
    _applied(scope, before, result)  # a refusal takes no lock
    locked = access.lock_header_in_queue(session, tid, seen=scope.version)
    access.check_still_allowed(session, write, locked)
    if locked.version != scope.version:
        access.check_expected(write, locked.version)
        scope = storage.load_match_scope(session, tid, match_id)  # under the lock: nothing moves
        before = _swiss(scope)
        if before is None:
            return _whole(session, write, match_id, result, action, detail, also=also)
    after, status = _applied(scope, before, result)
    if status is Status.FINISHED and scope.status is not Status.FINISHED:
        return _whole(session, write, match_id, result, action, detail, also=also)
    version = scope.version + 1
    storage.save_result(session, tid, before, after, version=version, status=status)
    written = result is not None or before.result is not None  # as ``Tournament.clear_result``
    caused = [
        events.result_event(after, had_result=before.result is not None, status=status),
        *also,
    ]
    commands.conclude(
        session, write, action, version=version, detail=detail, caused=caused if written else []
    )
    if locked.club_id is not None and status is Status.FINISHED:  # corrected after the end
        ratings.rate_if_finished(session, locked.club_id, tid)
    return after


def _swiss(scope: storage.MatchScope) -> Match | None:
    """The scope's match if it is a Swiss one (a final-phase result may re-form the finals)."""
    return scope.match if scope.match is not None and scope.match.stage is Stage.SWISS else None


def _applied(
    scope: storage.MatchScope, match: Match, result: Result | None
) -> tuple[Match, Status]:
    """The Swiss match with ``result`` if the rules allow it, and the tournament's status then."""
    if result is None and match.result is None:
        return match, scope.status  # nothing to clear: no rule to check, nothing changes
    after = with_result(
        match,
        result,
        current_round=scope.current_round,
        final_phase_started=scope.final_phase_started,
        final_matches=(),  # only a final-phase match looks at them
    )
    status = swiss_status(
        scope.swiss_rounds,
        scope.final_phase,
        scope.current_round,
        round_complete=lambda: scope.others_open == 0 and after.result is not None,
    )
    return after, status


def _whole(
    session: Session,
    write: access.Write,
    match_id: int,
    result: Result | None,
    action: str,
    detail: dict[str, Any],
    *,
    also: Sequence[events.NewEvent] = (),
) -> Match:
    """The result as a command on the whole tournament (``commands.run``)."""
    watch_result = events.result_events(match_id)

    def watch(before: Tournament) -> events.Describe:
        describe = watch_result(before)
        return lambda after, changes: [*describe(after, changes), *also]

    def command(tournament: Tournament) -> MatchChanges:
        if result is None:
            return tournament.clear_result(MatchId(match_id))
        return tournament.record_result(MatchId(match_id), result)

    tournament, _ = commands.run(session, write, action, command, detail=detail, watch=watch)
    return tournament.matches[MatchId(match_id)]


def result_of(
    home: int | None,
    away: int | None,
    winner: Side | None,
    decided_by: DecidedBy | None,
    forfeit: Forfeit | None,
) -> Result:
    """The domain's result of what a client sent (a forfeit may leave the goals out)."""
    return Result(home or 0, away or 0, winner, decided_by, forfeit)


def record_many(
    session: Session,
    write: access.Write,
    entries: Sequence[tuple[int, Result]],
) -> tuple[Tournament, list[Match]]:
    """Record several results in order, all or nothing: the first refusal (its message names
    the entry) leaves every match as it was. One ``result.*`` event per match."""

    def command(tournament: Tournament) -> list[MatchChanges]:
        changes = []
        for index, (match_id, result) in enumerate(entries):
            try:
                changes.append(tournament.record_result(MatchId(match_id), result))
            except DomainError as exc:
                exc.args = (
                    f"results[{index}] (match {match_id}): {exc} (nothing of this batch was "
                    "recorded: correct it and send the whole batch again)",
                )
                raise
        return changes

    tournament, _ = commands.run(
        session,
        write,
        "results-record-batch",
        command,
        detail={"results": [{"match_id": m, **_described(r)} for m, r in entries]},
        watch=events.batch_result_events([match_id for match_id, _ in entries]),
    )
    return tournament, [tournament.matches[MatchId(match_id)] for match_id, _ in entries]


def _described(result: Result) -> dict[str, object]:
    return {
        "home": result.home_goals,
        "away": result.away_goals,
        "winner": result.winner,
        "decided_by": result.decided_by,
        "forfeit": result.forfeit,
    }


def start_final_phase(session: Session, write: access.Write) -> tuple[Tournament, MatchChanges]:
    return commands.run(
        session,
        write,
        "final-phase-start",
        lambda t: t.start_final_phase(),
        watch=lambda _: lambda t, _c: [(events.FINAL_PHASE_STARTED, events.final_phase_data(t))],
    )
