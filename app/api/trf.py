"""The tournament as a FIDE Tournament Report File: ``GET /v1/tournaments/{id}/export.trf``, and
``POST /v1/tournaments`` with a TRF body (``Content-Type: text/plain``), which creates it.

The TRF creation is its own route, tried before the JSON one (``app.api.tournaments``): it
matches only a ``text/plain`` body, so a JSON body goes on to the JSON creation unchanged, and
any other body to the 415 of ``app.api.http_rules``. OpenAPI lists both bodies under the one
operation ``tournaments-create``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, status
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.routing import Match
from starlette.types import Scope

from app.api.deps import SessionDep, TournamentDep, check_create_key, create_quota, etag
from app.api.responses import READ, problems
from app.api.tournaments import created_answer
from app.read_models import TournamentCreated
from app.services import trf

router = APIRouter(prefix="/v1/tournaments", tags=["trf"])

TRF_MEDIA_TYPE = "text/plain"
"""TRF has no registered media type: it is plain text, lines ended by CR."""


class TrfBodyRoute(APIRoute):
    """A route that matches only requests whose body is ``text/plain``."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match is Match.FULL and _media_type(scope) != TRF_MEDIA_TYPE:
            return Match.NONE, {}
        return match, child


def _media_type(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return str(value.decode("latin-1").split(";", 1)[0].strip().lower())
    return ""


async def trf_body(request: Request) -> bytes:
    """The body's bytes (the body cap, ``app.api.body_limit``, bounds them)."""
    return await request.body()


def create_from_trf(
    body: Annotated[bytes, Depends(trf_body)], session: SessionDep, response: Response
) -> TournamentCreated:
    """A `dutch` tournament with the whole history of a TRF; see docs/trf.md."""
    created = trf.create(session, body)
    return created_answer(session, created, response)


router.add_api_route(
    "",
    create_from_trf,
    methods=["POST"],
    status_code=status.HTTP_201_CREATED,
    response_model=TournamentCreated,
    responses=problems(401, 403, 409, 413, 429),
    dependencies=[Depends(check_create_key), Depends(create_quota)],
    include_in_schema=False,  # listed under the JSON route's operation, `tournaments-create`
    route_class_override=TrfBodyRoute,
)


@router.get(
    "/{tournament_id}/export.trf",
    operation_id="trf-export",
    summary="The tournament as a TRF",
    response_class=Response,
    responses={
        **READ,
        200: {
            "content": {TRF_MEDIA_TYPE: {"schema": {"type": "string"}}},
            "description": "The Tournament Report File (TRF-2026 codes), lines ended by CR",
        },
    },
)
def export_trf(header: TournamentDep, session: SessionDep) -> Response:
    """Players (start rank, name, rating, points, rank) and every Swiss round whose results are
    all recorded: opponent, colour (home is White) and result code; the rounds planned and the
    initial colour. See docs/trf.md."""
    version, text = trf.export(session, header.id, name=header.name)
    return Response(
        text,
        media_type=f"{TRF_MEDIA_TYPE}; charset=utf-8",
        headers={
            "ETag": etag(version),
            "Content-Disposition": f'attachment; filename="tournament-{header.id}.trf"',
        },
    )
