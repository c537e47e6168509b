"""The club-room page (``GET /v1/tournaments/{id}/live``): rendered here, kept current in the
browser by ``app/static/live.js`` through the event stream.

The server renders the whole state, so the page is right without JavaScript. The script listens:
a Swiss result's event updates its board in place and makes the script read the standings
again (``GET …/standings``, conditional on its ETag: events never carry them); on any other
event it fetches the page again and swaps its ``<main>``, so there is one renderer (this one)
and one catalogue (the server's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from app.domain.reports import BoardState
from app.domain.tournament import Tournament
from app.domain.types import Status
from app.pages.i18n import LANGUAGES, Language
from app.pages.reported import reported_boards
from app.pages.room import QR_SLOT
from app.pages.templates import environment
from app.pages.view import build_view

STATIC_FILES = ("live.css", "live.js", "room.css", "clock.css", "clock.js", "top_cut.css")
ROTATE_SECONDS = 10
"""How long TV mode shows one view when they do not all fit the screen."""


@dataclass(frozen=True, slots=True)
class Links:
    """Where the page points: relative to ``/v1/tournaments/{id}/`` or to the site root."""

    events: str
    standings: str
    print_page: str
    languages: tuple[tuple[Language, str], ...]
    tv: str
    """The page in the other mode (TV when on a normal screen, normal in TV mode)."""
    css: str
    js: str
    room_css: str
    clock_css: str
    clock_js: str
    """The round clock's style and script (``clock.js``: it counts down from the clock's
    events, which ``live.js`` hands it)."""
    top_cut_css: str
    """The top cut's drawing (``_top_cut.html``), kept apart from the page's own style."""


@cache
def asset_url(name: str) -> str:
    """``/static/<name>?v=<hash of its bytes>``: a changed file gets a new URL (no stale cache)."""
    data = (resources.files("app") / "static" / name).read_bytes()
    return f"/static/{name}?v={hashlib.sha256(data).hexdigest()[:12]}"


UP_TO_ROOT = "../../.."
"""From ``/v1/tournaments/{id}/`` to the site's root: every link of the live page is relative,
so it works from any host and under a proxy's path prefix."""


def links(*, language: Language, tv: bool) -> Links:
    mode = "&tv=1" if tv else ""
    return Links(
        events="events",
        standings="standings",
        print_page=f"print?lang={language}",
        languages=tuple((lang, f"live?lang={lang}{mode}") for lang in LANGUAGES),
        tv=f"live?lang={language}" if tv else f"live?lang={language}&tv=1",
        css=UP_TO_ROOT + asset_url("live.css"),
        js=UP_TO_ROOT + asset_url("live.js"),
        room_css=UP_TO_ROOT + asset_url("room.css"),
        clock_css=UP_TO_ROOT + asset_url("clock.css"),
        clock_js=UP_TO_ROOT + asset_url("clock.js"),
        top_cut_css=UP_TO_ROOT + asset_url("top_cut.css"),
    )


def render_live_page(
    tournament: Tournament,
    *,
    name: str,
    language: Language,
    tv: bool,
    last_event_id: int,
    version: int,
    event_types: Sequence[str],
    round_number: int | None = None,
    reports: Mapping[int, BoardState] | None = None,
) -> str:
    """The current round's boards and results, the standings with the tiebreak in use and the
    qualifiers marked, the final-phase bracket, and at the end the final ranking.

    ``last_event_id`` (read before the state) is where the script opens the event stream;
    ``version``, the tournament's version read before the state, tells it which results'
    events the standings shown already include;
    ``event_types``, every type it may carry, are the ones the script listens to.
    ``round_number``: the Swiss round to show instead of the one in play (a phone looking
    back; any status); one not drawn (yet, or taken back) shows the one in play. The TV page
    carries ``room.QR_SLOT`` for the QR code of its address. ``reports``: the boards with
    players' claims by match id (shown as waiting or disputed).
    """
    view = build_view(tournament)
    latest = view.rounds[-1] if view.rounds and tournament.status is Status.SWISS else None
    chosen = [r for r in view.rounds if r.number == round_number]
    current = chosen[0] if chosen else latest
    return (
        environment(language)
        .get_template("live.html")
        .render(
            name=name,
            v=view,
            current=current,
            latest=latest,
            tv=tv,
            qr_slot=QR_SLOT,
            last_event_id=last_event_id,
            version=version,
            event_types=" ".join(event_types),
            links=links(language=language, tv=tv),
            rotate_seconds=ROTATE_SECONDS,
            # the claims are on the round in play: none under an earlier one looked back at
            reported=reported_boards(tournament, reports or {}) if current is latest else [],
        )
    )
