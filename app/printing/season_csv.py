"""The season table as CSV (``GET /v1/clubs/{id}/seasons/{id}/export.csv``), written as the
tournament's standings CSV is (``csv_export``: separators, decimal marks, safe cells)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from app.printing.csv_export import MARKS, Separator, csv_cell, csv_text
from app.services.seasons import Table

SEASON_CSV_COLUMNS = (
    "rank",
    "club_player_id",
    "name",
    "score",
    "evenings",
    "counted",
    "best_place",
    "points",
    "matches",
    "head_to_head",
)
PLACES = Decimal("0.0001")
"""An average is written to four decimals (``0.8333``); whole and half numbers exactly."""


def render_season_csv(table: Table, *, separator: Separator = "comma") -> str:
    """One header row, then one row per player in rank order; ``head_to_head`` empty where it
    was not needed. Names are written safe for any spreadsheet (``csv_export.csv_text``)."""
    between, decimal = MARKS[separator]

    def line_of(*cells: object) -> str:
        return between.join(csv_cell(value, decimal) for value in cells) + "\r\n"

    lines = [line_of(*SEASON_CSV_COLUMNS)]
    for line in table.lines:
        row = line.row
        lines.append(
            line_of(
                row.rank,
                row.player,
                csv_text(line.name),
                csv_number(row.score),
                row.evenings,
                row.counted,
                row.best_place,
                csv_number(row.points),
                row.matches,
                "" if row.head_to_head is None else csv_number(row.head_to_head),
            )
        )
    return "".join(lines)


def csv_number(value: Fraction) -> int | Decimal:
    """A whole number as it is, halves and quarters exactly, anything else to four decimals."""
    if value.denominator == 1:
        return value.numerator
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact if exact == exact.quantize(PLACES) else exact.quantize(PLACES)
