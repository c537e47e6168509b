"""Reading players files and typed results (no server needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from svizzera_client.cli.inputs import InputError, parse_answer, read_players
from svizzera_client.models import ResultWrite


def players_of(tmp_path: Path, name: str, text: str) -> list[tuple[str, int | None]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [(p.name, p.rating) for p in read_players(path)]


def test_a_text_file_is_one_name_a_line_with_an_optional_rating(tmp_path: Path) -> None:
    text = "# Friday\nRossi, 1850\n\n  Bianchi  \nRossi, M.\nD'Angelo,1700\n"
    assert players_of(tmp_path, "players.txt", text) == [
        ("Rossi", 1850),
        ("Bianchi", None),
        ("Rossi, M.", None),
        ("D'Angelo", 1700),
    ]


def test_a_csv_file_with_or_without_a_header(tmp_path: Path) -> None:
    with_header = "club;Name;Rating\nTorino;Rossi;1850\nMilano;Bianchi;\n"
    assert players_of(tmp_path, "a.csv", with_header) == [("Rossi", 1850), ("Bianchi", None)]
    without = '"Rossi, Mario",1850\nBianchi\n'
    assert players_of(tmp_path, "b.csv", without) == [("Rossi, Mario", 1850), ("Bianchi", None)]
    assert players_of(tmp_path, "c.csv", "\ufeffname\nRossi\nBianchi\n") == [
        ("Rossi", None),
        ("Bianchi", None),
    ]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.csv", "name,rating\nRossi,strong\n", "line 2: rating 'strong' is not a whole number"),
        ("empty.txt", "# nobody yet\n\n", "has no players"),
        ("latin1.txt", "Müller".encode("latin-1"), "is not UTF-8 text"),
    ],
)
def test_a_bad_players_file_says_where(
    tmp_path: Path, name: str, text: str | bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(InputError, match=message):
        read_players(path)


def test_a_file_of_teams_names_two_players_an_entry(tmp_path: Path) -> None:
    lines = tmp_path / "teams.txt"
    lines.write_text("Rossi / Bianchi\nVerdi / Neri / Gallo\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"entry 2 \('Verdi / Neri / Gallo'\)"):
        read_players(lines, teams=True)
    lines.write_text("Rossi / Bianchi, 1500\nVerdi / Neri\n", encoding="utf-8")
    read = read_players(lines, teams=True)
    assert [(p.name, p.rating, p.members) for p in read] == [
        ("Rossi / Bianchi", 1500, ["Rossi", "Bianchi"]),
        ("Verdi / Neri", None, ["Verdi", "Neri"]),
    ]
    table = tmp_path / "teams.csv"
    table.write_text("name;member_1;member_2\nI Gialli;Anna;Bruno\nSoli;Carla;\n")
    with pytest.raises(InputError, match=r"entry 2 \('Soli'\)"):
        read_players(table, teams=True)
    table.write_text("name;member_1;member_2\nI Gialli;Anna;Bruno\n")
    assert [(p.name, p.members) for p in read_players(table, teams=True)] == [
        ("I Gialli", ["Anna", "Bruno"])
    ]
    assert read_players(table)[0].members == ["Anna", "Bruno"]  # the server checks the entry


def test_answers_at_the_prompt() -> None:
    assert parse_answer("2-1") == ResultWrite(home=2, away=1)
    assert parse_answer(" 0:3 ") == ResultWrite(home=0, away=3)
    assert parse_answer("1-1 away penalties") == ResultWrite(
        home=1, away=1, winner="away", decided_by="penalties"
    )
    assert parse_answer("forfeit home") == ResultWrite(forfeit="home")
    assert parse_answer("forfeit both") == ResultWrite(forfeit="both")
    for wrong in ("two-one", "1-1 left", "1-1 home luck", "forfeit", "forfeit all", "1-2-3"):
        with pytest.raises(InputError):
            parse_answer(wrong)
