"""The CSV export as a spreadsheet gets it: a UTF-8 byte order mark, then the rows."""

from __future__ import annotations

import csv
import io

import pytest

from tests.api.helpers import assert_problem, create, generate, record
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


def half_point_evening(client: ApiClient) -> str:
    """A chess-scored tournament after a round of draws: every player on ½ point."""
    chess = {"win": 1, "draw": 0.5, "loss": 0, "bye": 1}
    t = create(client, ["Rossi", "Bianchi", "Verdi", "Neri"], points=chess)
    for match in generate(client, t)["matches"]:
        record(client, t, match["id"], home=1, away=1)
    return t.id


@pytest.mark.parametrize(
    ("query", "flavour"),
    [
        ("", "comma"),
        ("?lang=en", "comma"),
        ("?lang=it", "semicolon"),
        ("?lang=sk", "semicolon"),
        ("?lang=cs", "semicolon"),
        ("?sep=semicolon", "semicolon"),
        ("?sep=comma&lang=it", "comma"),  # the separator asked for wins over the language
        ("?sep=semicolon&lang=en", "semicolon"),
    ],
)
def test_the_separator_and_decimal_mark_follow_sep_else_lang(
    client: ApiClient, query: str, flavour: str
) -> None:
    tid = half_point_evening(client)
    answer = client.get(f"/v1/tournaments/{tid}/export.csv{query}")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    lines = answer.content.split(b"\r\n")
    assert lines[-1] == b""  # each row ends with CRLF
    if flavour == "comma":
        assert lines[0].startswith(b"\xef\xbb\xbfrank,player_id,start_number,name,group,played,")
        # played 1, 0 wins, 1 draw, 0 losses, 0 byes, 1-1, goal difference 0, ½ point, Buchholz ½
        assert all(b",1,0,1,0,0,1,1,0,0.5,0.5," in line for line in lines[1:-1])
    else:
        assert lines[0].startswith(b"\xef\xbb\xbfrank;player_id;start_number;name;group;played;")
        assert all(b";1;0;1;0;0;1;1;0;0,5;0,5;" in line for line in lines[1:-1])
        assert b"0.5" not in answer.content
    assert len(lines) == 1 + 4 + 1


def test_an_unknown_separator_is_a_problem(client: ApiClient) -> None:
    tid = half_point_evening(client)
    assert_problem(client.get(f"/v1/tournaments/{tid}/export.csv?sep=tab"), 422, "validation_error")
    assert_problem(client.get(f"/v1/tournaments/{tid}/export.csv?lang=de"), 422, "validation_error")
