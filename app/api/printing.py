"""/v1/tournaments/{id}/print and /export.csv: the renderers of ``app.printing``, served."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.api.deps import Credentials, SessionDep, TournamentDep, TournamentId
from app.api.pages import (
    CsvSeparatorDep,
    IfNoneMatch,
    LanguageDep,
    html_page,
    new_nonce,
    read_page,
)
from app.api.public_address import PublicBase
from app.api.responses import READ, problems
from app.domain.matches import Match
from app.domain.types import Stage
from app.pages.report import TableCard, card_label, table_cards
from app.pages.room import address_tag, live_address
from app.printing import render_print_page, render_standings_csv
from app.services import access, reports, storage

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["printing"])

PRINT_POLICY = "default-src 'none'; style-src 'nonce-{nonce}'; base-uri 'none'; form-action 'none'"
"""The printed page has no script and one inline style, allowed by its nonce."""


@router.get(
    "/print",
    operation_id="print-read",
    summary="Printable HTML page",
    response_class=HTMLResponse,
    responses={
        **READ,
        **problems(403),
        200: {"content": {"text/html": {}}, "description": "A print-ready page"},
    },
    # The token is optional (`{}`: none needed): the page is public, the token adds the cards.
    openapi_extra={"security": [{}]},  # joins the bearer requirement FastAPI writes
)
def print_page(
    session: SessionDep,
    tournament_id: TournamentId,
    language: LanguageDep,
    base: PublicBase,
    credentials: Credentials,
    if_none_match: IfNoneMatch = None,
) -> HTMLResponse:
    """Tiebreak in use at the top, qualifiers in green, every round, the final phase bracket;
    two A4 pages for an evening, each with the tournament's name, today's date and its number,
    and a QR code of the live page for phones (`SVIZZERA_PUBLIC_URL`, else this request's
    host). In English, Italian, Slovak or Czech (`lang`, else `Accept-Language`). Read with
    the organizer token while `player_results` is on, it ends with a table card for each board
    of the latest Swiss round: its code and a QR code of its result form (that copy is never
    cached: the codes are the organizer's to hand out)."""
    # The page prints the server's date and the live page's address, so both are part of its
    # ETag: a page cached yesterday, or under another host, is not "not modified" here today.
    today = date.today()
    address = live_address(base, tournament_id)
    organizer = credentials is not None
    if credentials is not None:  # before any 304: a wrong token learns nothing
        header = access.read_header(session, tournament_id)
        access.check_token(session, header, credentials.credentials)
    variant = (address_tag(address), language, today.isoformat())
    header, tag = read_page(
        session, tournament_id, if_none_match, *variant, *(("cards",) if organizer else ())
    )
    tournament = storage.load(session, header.id)
    cards: list[TableCard] = []
    if organizer:
        boards = [m for m in tournament.matches.values() if m.stage is Stage.SWISS]
        codes = reports.codes(session, header.id, boards)
        if codes is not None:

            def form_url(match: Match, code: str) -> str:
                return (
                    f"{base}/v1/tournaments/{header.id}/matches/{match.id}/report"
                    f"?lang={language}&code={code}"
                )

            cards = table_cards(tournament, codes, form_url, label=card_label(language))
    nonce = new_nonce()
    html = render_print_page(
        tournament,
        name=header.name,
        language=language,
        today=today,
        nonce=nonce,
        live_url=f"live?lang={language}",
        live_address=address,
        cards=cards,
    )
    page = html_page(html, tag=tag, policy=PRINT_POLICY.format(nonce=nonce))
    if organizer:
        page.headers["Cache-Control"] = "no-store"
    return page


@router.get(
    "/export.csv",
    operation_id="standings-export",
    summary="Standings as CSV",
    response_class=Response,
    responses={**READ, 200: {"content": {"text/csv": {}}, "description": "The standings rows"}},
)
def export_csv(
    header: TournamentDep,
    session: SessionDep,
    separator: CsvSeparatorDep,
) -> Response:
    """The standings rows as CSV (UTF-8 with a byte order mark, so Excel reads accents right),
    one line per player, in rank order; `final_place` once the final ranking is decided.
    Comma-separated with decimal points, or for Italian, Slovak and Czech spreadsheets
    (`lang=it`, `sk`, `cs`, or `sep=semicolon`) semicolon-separated with decimal commas."""
    # The BOM frames the file for spreadsheets; the rendered CSV itself stays plain data.
    csv = render_standings_csv(storage.load(session, header.id), separator=separator)
    return Response(
        "\ufeff" + csv,
        media_type="text/csv; charset=utf-8",
        headers={
            "ETag": f'"{header.version}"',
            "Content-Disposition": f'attachment; filename="standings-{header.id}.csv"',
        },
    )
