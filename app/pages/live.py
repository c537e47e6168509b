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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from app.domain.tournament import Tournament
from app.domain.types import Status
from app.pages.i18n import LANGUAGES, Language
from app.pages.templates import environment
from app.pages.view import build_view

STATIC_FILES = ("live.css", "live.js")
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


@cache
def asset_url(name: str) -> str:
    """``/static/<name>?v=<hash of its bytes>``: a changed file gets a new URL (no stale cache)."""
    data = (resources.files("app") / "static" / name).read_bytes()
    return f"/static/{name}?v={hashlib.sha256(data).hexdigest()[:12]}"


def links(*, language: Language, tv: bool) -> Links:
    mode = "&tv=1" if tv else ""
    return Links(
        events="events",
        standings="standings",
        print_page=f"print?lang={language}",
        languages=tuple((lang, f"live?lang={lang}{mode}") for lang in LANGUAGES),
        tv=f"live?lang={language}" if tv else f"live?lang={language}&tv=1",
        css=asset_url("live.css"),
        js=asset_url("live.js"),
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
) -> str:
    """The current round's boards and results, the standings with the tiebreak in use and the
    qualifiers marked, the final-phase bracket, and at the end the final ranking.

    ``last_event_id`` (read before the state) is where the script opens the event stream;
    ``version``, the tournament's version read before the state, tells it which results'
    events the standings shown already include;
    ``event_types``, every type it may carry, are the ones the script listens to.
    """
    view = build_view(tournament)
    current = view.rounds[-1] if view.rounds and tournament.status is Status.SWISS else None
    return (
        environment(language)
        .get_template("live.html")
        .render(
            name=name,
            v=view,
            current=current,
            tv=tv,
            last_event_id=last_event_id,
            version=version,
            event_types=" ".join(event_types),
            links=links(language=language, tv=tv),
            rotate_seconds=ROTATE_SECONDS,
        )
    )
