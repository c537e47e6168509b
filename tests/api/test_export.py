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
