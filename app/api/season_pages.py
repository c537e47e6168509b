"""/v1/clubs/{id}/seasons/{id}/print and /live: the season table as pages (``app.pages.season``),
public as the table is, in English, Italian, Slovak or Czech."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.api.clubs import ClubId
from app.api.deps import SessionDep, matches_tag
from app.api.pages import IfNoneMatch, LanguageDep, html_page, new_nonce
from app.api.public_address import PublicBase
from app.api.responses import READ
from app.api.seasons import PREFIX, SeasonIdPath, table_tag
from app.pages.i18n import Language
from app.pages.room import address_tag
from app.pages.season import render_season_page
from app.services import clubs, seasons

router = APIRouter(tags=["seasons"])

PAGE_POLICY = (
    "default-src 'none'; style-src 'nonce-{nonce}'; script-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'"
)
"""One inline style under its nonce; the live page's script from ``/static``, asking only this
server for the page again."""
PAGE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/html": {}}, "description": "The page"}
}


def _page(
    session: SessionDep,
    club_id: str,
    season_id: int,
    language: Language,
    if_none_match: str | None,
    *,
    live: bool,
    address: str | None,
) -> Response:
    season = seasons.read(session, club_id, season_id)
    found = seasons.evenings_of(session, season)
    key = seasons.table_key(session, season, found)
    today = date.today()
    variant = [language, "live" if live else f"print-{today.isoformat()}"]
    if address:
        variant.append(address_tag(address))
    tag = table_tag((key, *variant))
    if if_none_match is not None and matches_tag(if_none_match, tag):
        return Response(status_code=304, headers={"ETag": tag})
    nonce = new_nonce()
    html = render_season_page(
        seasons.table(session, season, found),
        club_name=clubs.read(session, club_id).name,
        language=language,
        live=live,
        nonce=nonce,
        today=today,
        live_address=address,
        etag=tag,
    )
    return html_page(html, tag=tag, policy=PAGE_POLICY.format(nonce=nonce))


@router.get(
    PREFIX + "/{season_id}/print",
    operation_id="season-print-read",
    summary="The season table, printable (HTML)",
    response_class=HTMLResponse,
    responses={**READ, **PAGE},
)
def season_print_page(
    club_id: ClubId,
    season_id: SeasonIdPath,
    session: SessionDep,
    language: LanguageDep,
    base: PublicBase,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """The season's rule, its table and its evenings on A4, dated, with a QR code of the live
    page for phones (`SVIZZERA_PUBLIC_URL`, else this request's host); `lang`, else
    `Accept-Language`."""
    address = f"{base}/v1/clubs/{club_id}/seasons/{season_id}/live"
    return _page(session, club_id, season_id, language, if_none_match, live=False,
                 address=address)  # fmt: skip


@router.get(
    PREFIX + "/{season_id}/live",
    operation_id="season-live-read",
    summary="The season table for the club room (HTML)",
    response_class=HTMLResponse,
    responses={**READ, **PAGE},
)
def season_live_page(
    club_id: ClubId,
    season_id: SeasonIdPath,
    session: SessionDep,
    language: LanguageDep,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """The season table on a screen, kept current by its script (it asks again every 30
    seconds, conditional on the ETag); `lang`, else `Accept-Language`."""
    return _page(session, club_id, season_id, language, if_none_match, live=True, address=None)
