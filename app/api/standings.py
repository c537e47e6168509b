"""/v1/tournaments/{id}/standings and /final-phase."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, status

from app.api import presenters
from app.api.deps import OrganizerDep, SessionDep, TournamentDep
from app.api.responses import READ, WRITE
from app.api.schemas import FinalPhaseRead, StandingsRead
from app.domain.types import GroupName
from app.services import results, storage

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["standings"])


@router.get(
    "/standings",
    operation_id="standings-read",
    summary="The standings, in order",
    response_model=StandingsRead,
    responses=READ,
)
def read_standings(
    header: TournamentDep,
    session: SessionDep,
    group: Annotated[
        Literal["A", "B"] | None, Query(description="One group (group variant)")
    ] = None,
) -> StandingsRead:
    """Rank, figures and the qualifying flag; the tiebreak in use and its criteria."""
    tournament = storage.load(session, header.id)
    return presenters.standings(tournament, GroupName(group) if group else None)


@router.post(
    "/final-phase",
    status_code=status.HTTP_201_CREATED,
    operation_id="final-phase-start",
    summary="Start the final phase (also early, after a complete round)",
    response_model=FinalPhaseRead,
    responses=WRITE,
)
def start_final_phase(header: OrganizerDep, session: SessionDep) -> FinalPhaseRead:
    tournament, _ = results.start_final_phase(session, header.id)
    return presenters.final_phase(tournament)


@router.get(
    "/final-phase",
    operation_id="final-phase-read",
    summary="Semifinals, finals and the final ranking",
    response_model=FinalPhaseRead,
    responses=READ,
)
def read_final_phase(header: TournamentDep, session: SessionDep) -> FinalPhaseRead:
    return presenters.final_phase(storage.load(session, header.id))
