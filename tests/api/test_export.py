"""The CSV export as a spreadsheet gets it: a UTF-8 byte order mark, then the rows."""

from __future__ import annotations

import csv
import io

from tests.api.helpers import create, generate
from tests.client import ApiClient


def test_the_csv_starts_with_a_bom_and_keeps_accents(client: ApiClient) -> None:
    t = create(client, ["Müller", "Šťastný", "Ærø", "Niccolò"])
    generate(client, t)
    answer = client.get(f"/v1/tournaments/{t.id}/export.csv")
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.content.startswith(b"\xef\xbb\xbfrank,player_id,")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"), newline="")))
    assert {r["name"] for r in rows} == {"Müller", "Šťastný", "Ærø", "Niccolò"}
    assert {r["final_place"] for r in rows} == {""}  # nothing decided yet


def test_a_name_with_a_semicolon_formula_is_quoted_and_neutralized(client: ApiClient) -> None:
    t = create(client, ["x;=1+1;", "=HYPERLINK(1)", "a,b", "Rossi"])
    answer = client.get(f"/v1/tournaments/{t.id}/export.csv")
    text = answer.content.decode("utf-8-sig")
    assert "x;=1+1;" not in text
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert {r["name"] for r in rows} == {"x;'=1+1;", "'=HYPERLINK(1)", "a,b", "Rossi"}
    cells = [f for row in csv.reader(io.StringIO(text, newline=""), delimiter=";") for f in row]
    assert "'=1+1" in cells  # a ;-locale spreadsheet starts a cell there, and it is text
