"""Results: record, correct, clear; start the final phase."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.domain.matches import Match, MatchChanges
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, Result, Side
from app.services import commands, events


def record(
    session: Session,
    tournament_id: str,
    match_id: int,
    *,
    home: int | None,
    away: int | None,
    winner: Side | None,
    decided_by: DecidedBy | None,
    forfeit: Side | None,
) -> tuple[Tournament, Match]:
    result = Result(home or 0, away or 0, winner, decided_by, forfeit)
    tournament, _ = commands.run(
        session,
        tournament_id,
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


def clear(session: Session, tournament_id: str, match_id: int) -> tuple[Tournament, Match]:
    tournament, _ = commands.run(
        session,
        tournament_id,
        "results-clear",
        lambda t: t.clear_result(match_id),
        detail={"match_id": match_id},
        watch=events.result_events(match_id),
    )
    return tournament, tournament.matches[match_id]


def start_final_phase(session: Session, tournament_id: str) -> tuple[Tournament, MatchChanges]:
    return commands.run(
        session,
        tournament_id,
        "final-phase-start",
        lambda t: t.start_final_phase(),
        watch=lambda _: lambda t, _c: [(events.FINAL_PHASE_STARTED, events.final_phase_data(t))],
    )
