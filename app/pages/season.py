"""The season table as pages (``GET /v1/clubs/{id}/seasons/{id}/print`` and ``/live``): one
template, ``season.html``, printed on A4 or shown in the club room.

The live page is the printed page's table on a screen, kept current by ``app/static/
season.js``: a season changes when an evening finishes, so the script asks for the page again
every ``POLL_SECONDS``, conditional on its ETag (a ``304`` costs no table), and swaps its
``<main>`` when it changed. The season table is public; the club's event stream is not, so the
page does not follow it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import cache
from importlib import resources

from babel.dates import format_date
from markupsafe import Markup

from app.domain.seasons import SeasonScoring
from app.domain.types import Score
from app.pages.i18n import LANGUAGES, N_, Language
from app.pages.live import asset_url
from app.pages.room import live_qr
from app.pages.templates import environment
from app.pages.view import points_text
from app.services.seasons import Table

POLL_SECONDS = 30
"""How often the live page asks whether the table changed (a conditional request)."""
UP_TO_ROOT = "../../../../.."
"""From ``/v1/clubs/{id}/seasons/{id}/`` to the site's root (links stay relative)."""

RULE_LABELS = {
    SeasonScoring.PLACES: N_("Points by final place"),
    SeasonScoring.POINTS: N_("Sum of the evenings' points"),
    SeasonScoring.AVERAGE: N_("Points per round played"),
}


@dataclass(frozen=True, slots=True)
class SeasonLine:
    rank: int
    shared: bool
    name: str
    score: str
    evenings: int
    counted: int
    best_place: int
    points: str
    head_to_head: str


def score_text(value: Fraction, language: Language) -> str:
    """Whole and half numbers as the tournament pages print them (``9``, ``4½``); an average
    to three decimals with the language's decimal mark (``0.833``, ``0,833``)."""
    if (value * 2).denominator == 1:
        return points_text(Score(int(value * 2)))
    text = f"{float(value):.3f}"
    return text if language == "en" else text.replace(".", ",")


def lines(table: Table, language: Language) -> list[SeasonLine]:
    ranks = [line.row.rank for line in table.lines]
    return [
        SeasonLine(
            rank=row.rank,
            shared=ranks.count(row.rank) > 1,
            name=line.name,
            score=score_text(row.score, language),
            evenings=row.evenings,
            counted=row.counted,
            best_place=row.best_place,
            points=score_text(row.points, language),
            head_to_head="" if row.head_to_head is None else score_text(row.head_to_head, language),
        )
        for line in table.lines
        for row in (line.row,)
    ]


@cache
def season_css() -> str:
    """The page's style (``app/static/season.css``), inline under the page's nonce."""
    return (resources.files("app") / "static" / "season.css").read_text()


def render_season_page(
    table: Table,
    *,
    club_name: str,
    language: Language,
    live: bool,
    nonce: str,
    today: date | None = None,
    live_address: str | None = None,
    etag: str = "",
) -> str:
    """The season's name and rule, its table (rank, name, score, evenings, counted evenings
    with ``best``, best place, points, head to head where needed), the evenings counted and
    those not finished yet. Printed (``live=False``): the date under the title and a QR code
    of ``live_address``; live: links to the other languages and the printed page, and the
    script that keeps it current (from the page's ``etag``)."""
    season = table.season
    rule = season.rule
    day = format_date(today or date.today(), format="long", locale=language)
    suffix = "live" if live else "print"
    return (
        environment(language)
        .get_template("season.html")
        .render(
            name=season.name,
            club_name=club_name,
            rule_label=RULE_LABELS[rule.scoring],
            place_points="-".join(str(p) for p in rule.place_points)
            if rule.scoring is SeasonScoring.PLACES
            else "",
            best=rule.best,
            lines=lines(table, language),
            counted=[e for e in table.evenings if e.counted],
            waiting=[e for e in table.evenings if not e.counted],
            live=live,
            day=day,
            nonce=nonce,
            css=Markup(season_css()),
            js=UP_TO_ROOT + asset_url("season.js"),
            poll_seconds=POLL_SECONDS,
            languages=[(lang, f"{suffix}?lang={lang}") for lang in LANGUAGES],
            print_url=f"print?lang={language}",
            live_url=f"live?lang={language}",
            live_address=live_address,
            live_qr=live_qr,
            etag=etag,
            format_day=lambda at: format_date(at, format="medium", locale=language),
        )
    )
