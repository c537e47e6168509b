"""/v1/tournaments/{id}/standings and /final-phase."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response, status

from app.api.deps import OrganizerDep, ReadCacheDep, SessionDep, TournamentDep, etag
from app.api.responses import READ, WRITE
from app.api.routing import CommittingRoute
from app.domain.types import GroupName
from app.read_models import FinalPhaseRead, StandingsRead
from app.services import results, storage, views

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", route_class=CommittingRoute)


@router.get(
    "/standings",
    operation_id="standings-read",
    tags=["standings"],
    summary="The standings, in order",
    response_model=StandingsRead,
    responses=READ,
)
def read_standings(
    header: TournamentDep,
    session: SessionDep,
    cache: ReadCacheDep,
    group: Annotated[
        Literal["A", "B"] | None, Query(description="One group (group variant)")
    ] = None,
) -> Response:
    """Rank, figures and the qualifying flag; the tiebreak in use and its criteria."""

    def render() -> bytes:
        tournament = storage.load(session, header.id)
        body = views.standings(tournament, GroupName(group) if group else None)
        return body.model_dump_json().encode()

    body = cache.get_or_render((header.id, header.version, "standings", group), render)
    return Response(body, media_type="application/json", headers={"ETag": etag(header.version)})


@router.post(
    "/final-phase",
    status_code=status.HTTP_201_CREATED,
    operation_id="final-phase-start",
    tags=["final-phase"],
    summary="Start the final phase (also early, after a complete round)",
    response_model=FinalPhaseRead,
    responses=WRITE,
)
def start_final_phase(write: OrganizerDep, session: SessionDep) -> FinalPhaseRead:
    """After the last Swiss round, or early after any complete round (the remaining rounds are
    dropped): the qualifiers are the first active players of the standings now. 409
    `round_incomplete` while results are missing."""
    tournament, _ = results.start_final_phase(session, write)
    return views.final_phase(tournament)


@router.get(
    "/final-phase",
    operation_id="final-phase-read",
    tags=["final-phase"],
    summary="Semifinals, finals and the final ranking",
    response_model=FinalPhaseRead,
    responses=READ,
)
def read_final_phase(header: TournamentDep, session: SessionDep) -> FinalPhaseRead:
    """Before the start, the provisional qualifiers; then the matches with their results, and
    `final_ranking` once decided."""
    return views.final_phase(storage.load(session, header.id))
