"""The standings as CSV (``GET /v1/tournaments/{id}/export.csv``)."""

from __future__ import annotations

import re

from app.domain.tournament import Tournament
from app.pages.view import fraction_number, points_number, standings_tables

CSV_COLUMNS = (
    "rank",
    "player_id",
    "start_number",
    "name",
    "group",
    "played",
    "wins",
    "draws",
    "losses",
    "byes",
    "goals_for",
    "goals_against",
    "goal_difference",
    "points",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "progressive",
    "direct_encounter",
    "qualified",
    "withdrawn",
    "final_place",
)
_QUOTED = re.compile(r'[,;\t\r\n"]')
"""A cell holding one of these is quoted: where a spreadsheet may end a cell (the comma, the
semicolon and the tab, whichever its locale splits on, and the line breaks), and the quote."""
_FORMULA = re.compile(r'(^|[,;\t\r\n])([ "]*)(?=[=+\-@])')
"""Where a formula would start: at the start of the text or right after a separator (spaces
and quotes skipped, as some spreadsheets skip them), ``=``, ``+``, ``-`` or ``@``."""


def render_standings_csv(tournament: Tournament) -> str:
    """The standings rows as CSV, one header row then one row per player, withdrawn included.

    Points and Buchholz are numbers with halves as ``.5`` (``4.5``), booleans ``true``/``false``,
    ``group`` empty without groups. With groups every player is listed, group A then group B,
    each in its own order with ``rank`` the place within the group (as ``?group=`` gives it).
    A cell is safe in any spreadsheet and locale (CSV injection): a cell holding a separator
    (``,`` ``;`` tab), a line break or a ``"`` is quoted, and a name is written with a ``'``
    before every formula it could start, at its start or after a separator inside it (a
    spreadsheet splitting on ``;`` or tab starts a new cell there, quotes or not).
    ``final_place`` is the player's place in the final ranking once it is decided, else empty;
    ``direct_encounter`` is empty where it does not apply, and Sonneborn-Berger may have quarters.
    """
    ranking = tournament.final_ranking() or []
    places = {player_id: place for place, player_id in enumerate(ranking, start=1)}
    lines = [_line(*CSV_COLUMNS)]
    for table in standings_tables(tournament):
        for line in table.lines:
            row = line.row
            lines.append(
                _line(
                    row.rank,
                    row.player_id,
                    line.start_number,
                    _text(line.name),
                    line.group or "",
                    row.played,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.byes,
                    row.goals_for,
                    row.goals_against,
                    row.goal_difference,
                    points_number(row.points),
                    points_number(row.buchholz),
                    points_number(row.median_buchholz),
                    fraction_number(row.sonneborn_berger),
                    points_number(row.progressive),
                    "" if row.direct_encounter is None else points_number(row.direct_encounter),
                    _flag(line.qualified),
                    _flag(row.withdrawn),
                    places.get(row.player_id, ""),
                )
            )
    return "".join(lines)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _text(text: str) -> str:
    """User text with a ``'`` before each formula it could start; a control character at the
    start (tab, carriage return) is one too."""
    text = _FORMULA.sub(r"\1\2'", text)
    return f"'{text}" if text.startswith(("\t", "\r")) else text


def _cell(value: object) -> str:
    text = str(value)
    if _QUOTED.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def _line(*cells: object) -> str:
    return ",".join(_cell(value) for value in cells) + "\r\n"
