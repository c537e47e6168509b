"""The result form a player opens from a table card's QR code
(``GET /v1/tournaments/{id}/matches/{match_id}/report``), and the table cards themselves.

The form is rendered here, in the page's language; ``app/static/report.js`` sends it to
``POST …/matches/{id}/claims`` and shows the answer with the messages the server translated
(``data-*`` attributes), so every refusal stays a problem+json with its code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from markupsafe import Markup

from app.domain.matches import Match
from app.domain.tournament import Tournament
from app.domain.types import Stage
from app.pages.i18n import LANGUAGES, N_, Language, translations
from app.pages.live import asset_url
from app.pages.qr import qr_svg
from app.pages.templates import environment
from app.pages.view import side_name

FORM_FILES = ("report.css", "report.js")
CARD_LABEL = N_("The board's result form")


def card_label(language: Language) -> str:
    """The accessible name of a card's QR code, in ``language``."""
    return translations(language).gettext(CARD_LABEL)


@dataclass(frozen=True, slots=True)
class TableCard:
    """A board's card for its table: who plays, its code, and a QR code of its result form."""

    round: int
    board: int
    home: str
    away: str
    code: str
    url: str
    qr: Markup


def table_cards(
    tournament: Tournament,
    codes: Mapping[int, str],
    form_url: Callable[[Match, str], str],
    *,
    label: str,
) -> list[TableCard]:
    """A card for each board of the latest Swiss round, by board number; ``codes`` by match
    id, ``form_url`` the address of a board's form with its code."""
    if not tournament.rounds or tournament.final_phase_started:
        return []
    number = len(tournament.rounds)
    boards = sorted(
        (m for m in tournament.matches.values() if m.stage is Stage.SWISS and m.round == number),
        key=lambda m: m.board,
    )
    cards = []
    for m in boards:
        url = form_url(m, codes[m.id])
        cards.append(
            TableCard(
                number,
                m.board,
                side_name(tournament, m.home_players),
                side_name(tournament, m.away_players),
                codes[m.id],
                url,
                qr_svg(url, label=label),
            )
        )
    return cards


def render_report_form(
    tournament: Tournament,
    match: Match,
    *,
    name: str,
    language: Language,
    code: str,
    enabled: bool,
) -> str:
    """The form: the board and its players, who is sending (home or away), the score, the
    board's code (filled in from the card's QR code)."""
    home = side_name(tournament, match.home_players)
    away = side_name(tournament, match.away_players)
    score = None
    if match.result is not None:
        score = f"{match.result.home_goals}–{match.result.away_goals}"
    return (
        environment(language)
        .get_template("report.html")
        .render(
            name=name,
            match=match,
            home=home,
            away=away,
            score=score,
            code=code,
            enabled=enabled and match.stage is Stage.SWISS,
            languages=tuple(
                (lang, f"report?lang={lang}" + (f"&code={code}" if code else ""))
                for lang in LANGUAGES
            ),
            css=asset_url("report.css"),
            js=asset_url("report.js"),
        )
    )
