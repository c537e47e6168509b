"""The standings as CSV (``GET /v1/tournaments/{id}/export.csv``)."""

from __future__ import annotations

import csv
import io

from app.domain.tournament import Tournament
from app.pages.view import points_number, standings_tables

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
    "qualified",
    "withdrawn",
    "final_place",
)
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is a formula to a spreadsheet (CSV injection)."""


def render_standings_csv(tournament: Tournament) -> str:
    """The standings rows as CSV, one header row then one row per player, withdrawn included.

    Points and Buchholz are numbers with halves as ``.5`` (``4.5``), booleans ``true``/``false``,
    ``group`` empty without groups. With groups every player is listed, group A then group B,
    each in its own order with ``rank`` the place within the group (as ``?group=`` gives it).
    A name that a spreadsheet would read as a formula is written with a leading ``'``.
    ``final_place`` is the player's place in the final ranking once it is decided, else empty.
    """
    ranking = tournament.final_ranking() or []
    places = {player_id: place for place, player_id in enumerate(ranking, start=1)}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for table in standings_tables(tournament):
        for line in table.lines:
            row = line.row
            writer.writerow(
                (
                    row.rank,
                    row.player_id,
                    line.start_number,
                    _safe_cell(line.name),
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
                    _flag(line.qualified),
                    _flag(row.withdrawn),
                    places.get(row.player_id, ""),
                )
            )
    return out.getvalue()


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _safe_cell(text: str) -> str:
    return f"'{text}" if text.startswith(FORMULA_PREFIXES) else text
