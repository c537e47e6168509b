"""/v1/tournaments/{id}/matches/{match_id}/report: the result form a table card's QR code
opens (HTML). It sends to ``POST …/claims`` (``app.api.reports``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from app.api.deps import SessionDep, TournamentId
from app.api.pages import LanguageDep, html_page
from app.api.responses import READ
from app.api.results import MatchId
from app.domain.errors import UnknownMatch
from app.domain.matches import MatchId as DomainMatchId
from app.pages.report import render_report_form
from app.services import access, reports, storage

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["pages"])

FORM_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'self'"
)
"""The form loads its script and style from ``/static`` and sends only to this server."""


@router.get(
    "/matches/{match_id}/report",
    operation_id="report-form-read",
    summary="A board's result form for players (HTML)",
    response_class=HTMLResponse,
    responses={
        **READ,
        200: {"content": {"text/html": {}}, "description": "The form, or the recorded result"},
    },
)
def report_form(
    session: SessionDep,
    tournament_id: TournamentId,
    match_id: MatchId,
    language: LanguageDep,
    code: Annotated[
        str,
        Query(
            max_length=16,
            pattern=r"^[0-9A-Za-z -]*$",
            description="The board's code, filled into the form (the table card's QR code)",
        ),
    ] = "",
) -> HTMLResponse:
    """The board, its players, who is sending, the score and the board's code, sized for a
    phone, in English, Italian, Slovak or Czech; it sends `POST …/matches/{id}/claims`. Once
    the result is recorded it shows the result instead. Never cached (it changes with every
    claim)."""
    header = access.read_header(session, tournament_id)
    tournament = storage.load(session, header.id)
    match = tournament.matches.get(DomainMatchId(match_id))
    if match is None:
        raise UnknownMatch(f"no match {match_id} in this tournament: check the table card")
    enabled = reports.takes_claims(session, header.id)
    html = render_report_form(
        tournament, match, name=header.name, language=language, code=code, enabled=enabled
    )
    page = html_page(html, tag=f'"{header.version}"', policy=FORM_POLICY)
    del page.headers["ETag"]  # the page shows whether the board is recorded: never cached
    page.headers["Cache-Control"] = "no-store"
    return page
