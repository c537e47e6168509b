"""The printable page (``GET /v1/tournaments/{id}/print``): one self-contained HTML document."""

from __future__ import annotations

from app.domain.tournament import Tournament
from app.pages.i18n import DEFAULT, Language
from app.pages.templates import environment
from app.pages.view import build_view


def render_print_page(
    tournament: Tournament,
    *,
    name: str,
    language: Language = DEFAULT,
    nonce: str = "",
    live_url: str | None = None,
) -> str:
    """A print-ready A4 page: the tiebreak in use at the top, the standings with the qualifiers
    highlighted in green, the final phase as a bracket, the final ranking once decided, and every
    round with its boards (``tournament.md``, "Printing"). No script, no external resource: the
    one inline style carries ``nonce`` for the Content-Security-Policy. ``live_url``, when given,
    is linked on screen (not on paper).
    """
    template = environment(language).get_template("print.html")
    return template.render(name=name, v=build_view(tournament), nonce=nonce, live_url=live_url)
