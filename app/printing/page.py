"""The printable page (``GET /v1/tournaments/{id}/print``): one self-contained HTML document."""

from __future__ import annotations

from functools import cache

import jinja2

from app.domain.tournament import Tournament
from app.printing.view import build_view, points_text


@cache
def _environment() -> jinja2.Environment:
    """Built on first use, once: the templates ship inside the ``app`` package."""
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("app", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["points"] = points_text
    return environment


def render_print_page(tournament: Tournament, *, name: str) -> str:
    """A print-ready A4 page: the tiebreak in use at the top, the standings with the qualifiers
    highlighted in green, the final phase as a bracket, the final ranking once decided, and every
    round with its boards (``tournament.md``, "Printing"). No script, no external resource.
    """
    return _environment().get_template("print.html").render(name=name, v=build_view(tournament))
