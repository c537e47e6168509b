"""/v1/tournaments/{id}/export.trf: the tournament as a FIDE Tournament Report File."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from app.api.deps import SessionDep, TournamentDep, etag
from app.api.responses import READ
from app.services import trf

router = APIRouter(prefix="/v1/tournaments", tags=["trf"])

TRF_MEDIA_TYPE = "text/plain"
"""TRF has no registered media type: it is plain text, lines ended by CR."""


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
