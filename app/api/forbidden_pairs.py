"""/v1/tournaments/{id}/forbidden-pairs: players not to be paired (organizer only: who must
not meet whom is often a family matter, so even the list is not public)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response, status

from app.api.deps import OrganizerDep, OrganizerReadDep, SessionDep
from app.api.responses import WRITE, problems
from app.api.routing import CommittingRoute
from app.api.schemas import ForbiddenPairCreate
from app.inputs import MAX_INTEGER
from app.read_models import ForbiddenPairRead
from app.services import forbidden_pairs, storage, views

router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}/forbidden-pairs",
    tags=["forbidden-pairs"],
    route_class=CommittingRoute,
)
PairId = Annotated[int, Path(description="The pair's id in this tournament", ge=1, le=MAX_INTEGER)]


@router.get(
    "",
    operation_id="forbidden-pairs-list",
    summary="List the forbidden pairs (organizer only)",
    response_model=list[ForbiddenPairRead],
    responses=problems(401, 403, 404),
)
def list_pairs(header: OrganizerReadDep, session: SessionDep) -> list[ForbiddenPairRead]:
    """The explicit pairs, by id (the pairs `avoid_same_team` makes of each team are not
    listed: the players' `team` says them)."""
    return views.forbidden_pairs(storage.load(session, header.id))


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="forbidden-pairs-create",
    summary="List two players as a forbidden pair",
    response_model=ForbiddenPairRead,
    responses=WRITE,
)
def add_pair(
    body: ForbiddenPairCreate, write: OrganizerDep, session: SessionDep
) -> ForbiddenPairRead:
    """`hard`: never paired (as if they had met); `soft`: avoided unless the round cannot be
    paired otherwise (`docs/rules.md`, "Forbidden pairings"). At any time: the rounds not
    paired yet honour it. The same two players twice, of either kind: 409
    `duplicate_forbidden_pair` (delete the pair to change its kind); a player not in the
    tournament: 404 `player_not_found`; a player with themself: 422 `forbidden_pair_self`."""
    first, second = body.players
    return views.forbidden_pair(forbidden_pairs.add(session, write, first, second, body.kind))


@router.delete(
    "/{pair_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="forbidden-pairs-delete",
    summary="Take a forbidden pair off the list",
    responses=WRITE,
)
def delete_pair(pair_id: PairId, write: OrganizerDep, session: SessionDep) -> Response:
    """The rounds already paired stay as they are; 404 `forbidden_pair_not_found`."""
    forbidden_pairs.remove(session, write, pair_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
