"""/v1/tournaments/{id}/bracket: the final phase as a bracket a front end can draw."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import ReadCacheDep, SessionDep, TournamentDep, etag
from app.api.responses import READ
from app.api.routing import CommittingRoute
from app.read_models import BracketRead
from app.services import brackets, storage

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", route_class=CommittingRoute)


@router.get(
    "/bracket",
    operation_id="bracket-read",
    tags=["final-phase"],
    summary="The final phase as a bracket: rounds, matches and slots",
    response_model=BracketRead,
    responses=READ,
)
def read_bracket(header: TournamentDep, session: SessionDep, cache: ReadCacheDep) -> Response:
    """Every match of the bracket with its two slots, each saying where its player comes from
    (`seed`, `winner` or `loser` of a match, and a label), the player once known, and the match
    with its result once formed; the semifinals are the bracket of 4, the final that of 2."""

    def render() -> bytes:
        body = brackets.bracket(storage.load(session, header.id))
        return body.model_dump_json().encode()

    body = cache.get_or_render((header.id, header.version, "bracket", None), render)
    return Response(body, media_type="application/json", headers={"ETag": etag(header.version)})
