"""The standings as CSV (``GET /v1/tournaments/{id}/export.csv``)."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from app.domain.tournament import Tournament
from app.domain.types import Entry, Tiebreak
from app.pages.i18n import Language
from app.pages.view import fraction_number, points_number, standings_tables

Separator = Literal["comma", "semicolon"]
MARKS: dict[Separator, tuple[str, str]] = {"comma": (",", "."), "semicolon": (";", ",")}
"""The cell separator and the decimal mark of each CSV flavour: where the decimal mark is a
comma (Italian, Slovak, Czech spreadsheets), cells are split on ``;`` and ``4.5`` is ``4,5``."""
SEPARATOR_BY_LANGUAGE: dict[Language, Separator] = {
    "en": "comma",
    "it": "semicolon",
    "sk": "semicolon",
    "cs": "semicolon",
}

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
TEAM_COLUMNS = ("member_1", "member_2")
"""After ``name`` in a tournament of team entries (doubles): the team's two players."""
_QUOTED = re.compile(r'[,;\t\r\n"]')
"""A cell holding one of these is quoted: where a spreadsheet may end a cell (the comma, the
semicolon and the tab, whichever its locale splits on, and the line breaks), and the quote."""
_FORMULA = re.compile(r'(^|[,;\t\r\n])([ "]*)(?=[=+\-@])')
"""Where a formula would start: at the start of the text or right after a separator (spaces
and quotes skipped, as some spreadsheets skip them), ``=``, ``+``, ``-`` or ``@``."""


def render_standings_csv(tournament: Tournament, *, separator: Separator = "comma") -> str:
    """The standings rows as CSV, one header row then one row per player, withdrawn included.

    ``separator``: ``comma`` (cells split on ``,``, halves as ``4.5``) or ``semicolon`` (split
    on ``;``, halves as ``4,5``: spreadsheets whose decimal mark is a comma). Points and
    Buchholz are numbers, never quoted, booleans ``true``/``false``, ``group`` empty without
    groups. With groups every player is listed, group A then group B, each in its own order
    with ``rank`` the place within the group (as ``?group=`` gives it).
    A cell is safe in any spreadsheet and locale (CSV injection): a text cell holding a separator
    (``,`` ``;`` tab), a line break or a ``"`` is quoted, and a name is written with a ``'``
    before every formula it could start, at its start or after a separator inside it (a
    spreadsheet splitting on ``;`` or tab starts a new cell there, quotes or not).
    ``final_place`` is the player's place in the final ranking once it is decided, else empty;
    ``direct_encounter`` is empty where it does not apply, and Sonneborn-Berger may have quarters.
    A tournament of team entries (doubles) has ``member_1`` and ``member_2`` after ``name``:
    the team's two players; a DYP tournament (tiebreak ``points_per_match``) has
    ``points_per_match`` after ``points`` (rounded to 3 decimals, as the JSON read gives it).
    """
    ranking = tournament.final_ranking() or []
    places = {player_id: place for place, player_id in enumerate(ranking, start=1)}
    between, decimal = MARKS[separator]

    def line_of(*cells: object) -> str:
        return between.join(csv_cell(value, decimal) for value in cells) + "\r\n"

    teams = tournament.settings.entry is Entry.TEAM
    per_match = tournament.settings.tiebreak_in_use is Tiebreak.POINTS_PER_MATCH
    columns = _columns(teams=teams, per_match=per_match)
    lines = [line_of(*columns)]
    for table in standings_tables(tournament):
        for line in table.lines:
            row = line.row
            members = tuple(csv_text(m) for m in line.members) if teams else ()
            lines.append(
                line_of(
                    row.rank,
                    row.player_id,
                    line.start_number,
                    csv_text(line.name),
                    *members,
                    line.group or "",
                    row.played,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.byes,
                    row.goals_for,
                    row.goals_against,
                    row.goal_difference,
                    Decimal(points_number(row.points)),
                    *((_per_match(row.points_per_match),) if per_match else ()),
                    Decimal(points_number(row.buchholz)),
                    Decimal(points_number(row.median_buchholz)),
                    Decimal(fraction_number(row.sonneborn_berger)),
                    Decimal(points_number(row.progressive)),
                    ""
                    if row.direct_encounter is None
                    else Decimal(points_number(row.direct_encounter)),
                    _flag(line.qualified),
                    _flag(row.withdrawn),
                    places.get(row.player_id, ""),
                )
            )
    return "".join(lines)


def _columns(*, teams: bool, per_match: bool) -> tuple[str, ...]:
    """``CSV_COLUMNS``, with a doubles tournament's members after ``name`` and a DYP's points
    per match after ``points``."""
    columns: list[str] = []
    for column in CSV_COLUMNS:
        columns.append(column)
        if column == "name" and teams:
            columns.extend(TEAM_COLUMNS)
        if column == "points" and per_match:
            columns.append("points_per_match")
    return tuple(columns)


def _per_match(half_points: Fraction) -> Decimal:
    """Points per match (``StandingRow.points_per_match`` counts half-points) as the JSON read
    rounds it (3 decimals)."""
    return Decimal(repr(round(float(half_points) / 2, 3)))


def _flag(value: bool) -> str:
    return "true" if value else "false"


def csv_text(text: str) -> str:
    """User text with a ``'`` before each formula it could start; a control character at the
    start (tab, carriage return) is one too."""
    text = _FORMULA.sub(r"\1\2'", text)
    return f"'{text}" if text.startswith(("\t", "\r")) else text


def csv_cell(value: object, decimal: str) -> str:
    if isinstance(value, int | Decimal):  # ours, never user text: no quotes, the decimal mark
        return str(value).replace(".", decimal)
    text = str(value)
    if _QUOTED.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text
