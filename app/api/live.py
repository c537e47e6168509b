"""/v1/tournaments/{id}/live: the club-room page, and the static files its page loads."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from app.api.deps import ReadCacheDep, SessionDep, TournamentId
from app.api.pages import IfNoneMatch, LanguageDep, html_page, read_page
from app.api.public_address import public_base
from app.api.responses import READ
from app.pages.live import render_live_page
from app.pages.room import QR_SLOT, address_tag, live_address, room_panel
from app.services import events, reports, storage

router = APIRouter(prefix="/v1/tournaments/{tournament_id}", tags=["pages"])

LIVE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self'; base-uri 'none'; form-action 'none'"
)
"""The live page loads its script and style from ``/static`` and talks only to this server."""


def static_files() -> StaticFiles:
    """``app/static`` (the live page's script and style), shipped with the package."""
    return StaticFiles(packages=[("app", "static")])


@router.get(
    "/live",
    operation_id="live-read",
    summary="Live page for the club room (HTML)",
    response_class=HTMLResponse,
    responses={
        **READ,
        200: {"content": {"text/html": {}}, "description": "The page, kept current by its script"},
    },
)
def live_page(
    session: SessionDep,
    tournament_id: TournamentId,
    language: LanguageDep,
    cache: ReadCacheDep,
    request: Request,
    tv: Annotated[bool, Query(description="TV mode: large type, views rotate")] = False,
    round_number: Annotated[
        int | None,
        Query(
            alias="round",
            ge=1,
            description="The Swiss round to show instead of the one in play (looking back); "
            "a round not drawn shows the one in play",
        ),
    ] = None,
    if_none_match: IfNoneMatch = None,
) -> HTMLResponse:
    """The current round's boards and results, the standings (tiebreak in use, qualifiers
    marked), the final-phase bracket and the final ranking, in English, Italian, Slovak or
    Czech (`lang`, else `Accept-Language`). Its script follows `…/events` and redraws on
    every event; without script it is right as of its load. On TV, a QR code of the page's
    address for phones (`SVIZZERA_PUBLIC_URL`, else this request's host)."""
    # The TV page shows its address: a page cached under another host's is another variant.
    address = live_address(public_base(request), tournament_id) if tv else ""
    mode = f"tv-{address_tag(address)}" if tv else "screen"
    variant = (language, mode) if round_number is None else (language, mode, f"r{round_number}")
    header, tag = read_page(session, tournament_id, if_none_match, *variant)

    def render() -> bytes:
        # The stream position first: an event saved meanwhile is then sent again, not missed.
        last_event_id = events.last_seqs(session, [header.id]).get(header.id, 0)
        html = render_live_page(
            storage.load(session, header.id),
            name=header.name,
            language=language,
            tv=tv,
            last_event_id=last_event_id,
            version=header.version,
            event_types=events.TYPES,
            round_number=round_number,
            reports=reports.board_states(session, header.id),
        )
        return html.encode()

    key = (header.id, header.version, "live", language, tv, round_number)
    body = cache.get_or_render(key, render)
    if tv:  # the cached page is the same for every host; its QR code is this request's
        body = body.replace(QR_SLOT.encode(), room_panel(address, language).encode(), 1)
    return html_page(body, tag=tag, policy=LIVE_POLICY)
