"""Printing and export: the printable HTML page and the standings CSV, pure renderers."""

from app.printing.csv_export import render_standings_csv
from app.printing.page import render_print_page

__all__ = ["render_print_page", "render_standings_csv"]
