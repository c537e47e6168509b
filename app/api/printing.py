"""/v1/tournaments/{id}/print and /export.csv: the renderers of ``app.printing``, served."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.api.deps import SessionDep, TournamentDep
from app.api.responses import READ
from app.printing import render_print_page, render_standings_csv
from app.services import storage

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["printing"])


@router.get(
    "/print",
    operation_id="print-read",
    summary="Printable HTML page",
    response_class=HTMLResponse,
    responses={**READ, 200: {"content": {"text/html": {}}, "description": "A print-ready page"}},
)
def print_page(header: TournamentDep, session: SessionDep) -> HTMLResponse:
    """Tiebreak in use at the top, qualifiers in green, every round, the final phase bracket."""
    html = render_print_page(storage.load(session, header.id), name=header.name)
    return HTMLResponse(html, headers={"ETag": f'"{header.version}"'})


@router.get(
    "/export.csv",
    operation_id="standings-export",
    summary="Standings as CSV",
    response_class=Response,
    responses={**READ, 200: {"content": {"text/csv": {}}, "description": "The standings rows"}},
)
def export_csv(header: TournamentDep, session: SessionDep) -> Response:
    body = render_standings_csv(storage.load(session, header.id))
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={
            "ETag": f'"{header.version}"',
            "Content-Disposition": f'attachment; filename="standings-{header.id}.csv"',
        },
    )
