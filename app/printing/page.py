"""The printable page (``GET /v1/tournaments/{id}/print``): one self-contained HTML document."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import cache
from importlib import resources

from babel.dates import format_date

from app.domain.tournament import Tournament
from app.pages.i18n import DEFAULT, Language
from app.pages.report import TableCard
from app.pages.room import live_qr
from app.pages.templates import environment
from app.pages.view import build_view


def render_print_page(
    tournament: Tournament,
    *,
    name: str,
    language: Language = DEFAULT,
    today: date | None = None,
    nonce: str = "",
    live_url: str | None = None,
    live_address: str | None = None,
    cards: Sequence[TableCard] = (),
) -> str:
    """A print-ready A4 page: the tiebreak in use at the top, the standings with the qualifiers
    highlighted in green, the final phase as a bracket, the final ranking once decided, and every
    round with its boards (``tournament.md``, "Printing"). The date it is rendered on (``today``,
    else the server's local date), written in ``language``, stands under the title and, with the
    tournament's name and the page number, at the foot of every printed page. No script, no
    external resource: the one inline style carries ``nonce`` for the Content-Security-Policy.
    ``live_url``, when given, is linked on screen (not on paper); ``live_address``, when
    given, is printed with its QR code for phones. ``cards``: table cards for players'
    results (``app.pages.report``), on pages of their own at the end.
    """
    day = format_date(today or date.today(), format="long", locale=language)
    template = environment(language).get_template("print.html")
    return template.render(
        name=name,
        v=build_view(tournament),
        day=day,
        nonce=nonce,
        live_url=live_url,
        live_address=live_address,
        live_qr=live_qr,
        cards=list(cards),
        top_cut_css=top_cut_css(),
    )


@cache
def top_cut_css() -> str:
    """The top cut's drawing (``app/static/top_cut.css``), for the page's one inline style."""
    return (resources.files("app") / "static" / "top_cut.css").read_text()
