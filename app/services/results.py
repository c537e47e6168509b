"""Results: record, correct, clear (one, or several all or nothing); start the final phase."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.domain.errors import DomainError
from app.domain.matches import Match, MatchChanges, MatchId
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, Forfeit, Result, Side
from app.services import access, commands, events


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
) -> tuple[Tournament, Match]:
    result = result_of(home, away, winner, decided_by, forfeit)
    tournament, _ = commands.run(
        session,
        write,
        "results-record",
        lambda t: t.record_result(match_id, result),
        detail={
            "match_id": match_id,
            "home": home,
            "away": away,
            "winner": winner,
            "decided_by": decided_by,
            "forfeit": forfeit,
        },
        watch=events.result_events(match_id),
    )
    return tournament, tournament.matches[match_id]


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


def clear(session: Session, write: access.Write, match_id: int) -> tuple[Tournament, Match]:
    tournament, _ = commands.run(
        session,
        write,
        "results-clear",
        lambda t: t.clear_result(match_id),
        detail={"match_id": match_id},
        watch=events.result_events(match_id),
    )
    return tournament, tournament.matches[match_id]


def start_final_phase(session: Session, write: access.Write) -> tuple[Tournament, MatchChanges]:
    return commands.run(
        session,
        write,
        "final-phase-start",
        lambda t: t.start_final_phase(),
        watch=lambda _: lambda t, _c: [(events.FINAL_PHASE_STARTED, events.final_phase_data(t))],
    )
