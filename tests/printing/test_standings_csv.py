"""The standings CSV: one header row, then every standings row, read back exactly."""

from __future__ import annotations

import csv
import io

from app.domain.settings import Settings
from app.domain.standings import StandingRow
from app.domain.tournament import Tournament
from app.domain.types import GroupName, PointsTable, Result, Score
from app.pages.view import points_number, points_text
from app.printing import render_standings_csv
from app.printing.csv_export import CSV_COLUMNS
from tests.printing.tournaments import groups_evening, new_players, standard_evening


def read(text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
    return list(reader)


def expected(tournament: Tournament, row: StandingRow) -> dict[str, str]:
    player = tournament.players[row.player_id]

    def number(score: int) -> str:
        return str(score // 2) + (".5" if score % 2 else "")

    return {
        "rank": str(row.rank),
        "player_id": str(row.player_id),
        "start_number": str(player.start_number),
        "name": player.name,
        "group": player.group or "",
        "played": str(row.played),
        "wins": str(row.wins),
        "draws": str(row.draws),
        "losses": str(row.losses),
        "byes": str(row.byes),
        "goals_for": str(row.goals_for),
        "goals_against": str(row.goals_against),
        "goal_difference": str(row.goal_difference),
        "points": number(row.points),
        "buchholz": number(row.buchholz),
        "median_buchholz": number(row.median_buchholz),
        "sonneborn_berger": str(float(row.sonneborn_berger / 2)).removesuffix(".0"),
        "progressive": number(row.progressive),
        "direct_encounter": "" if row.direct_encounter is None else number(row.direct_encounter),
        "qualified": "true" if row.player_id in tournament.qualified() else "false",
        "withdrawn": "true" if row.withdrawn else "false",
        "final_place": final_place(tournament, row),
    }


def final_place(tournament: Tournament, row: StandingRow) -> str:
    ranking = tournament.final_ranking() or []
    return str(ranking.index(row.player_id) + 1) if row.player_id in ranking else ""


def test_each_row_equals_the_standings_in_order() -> None:
    tournament = standard_evening()
    text = render_standings_csv(tournament)

    rows = read(text)
    assert rows == [expected(tournament, r) for r in tournament.standings()]
    assert len(rows) == 16
    assert sum(r["qualified"] == "true" for r in rows) == 4
    assert sum(r["withdrawn"] == "true" for r in rows) == 1
    assert any(r["name"] == "<b>Bob & Co</b>" for r in rows)  # CSV is data: not escaped
    assert text.startswith("rank,player_id,start_number,name,group,played,")
    assert text.endswith("\r\n")


def test_with_groups_every_player_is_listed_by_group_then_rank_within_it() -> None:
    tournament = groups_evening()

    rows = read(render_standings_csv(tournament))
    want = [expected(tournament, r) for g in "AB" for r in tournament.standings(GroupName(g))]
    assert rows == want
    assert [r["group"] for r in rows] == ["A"] * 6 + ["B"] * 6
    assert [r["rank"] for r in rows] == [str(i) for i in range(1, 7)] * 2


def test_half_points_are_written_as_point_five() -> None:
    chess = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))
    tournament = Tournament.create(Settings(seed=2, points=chess), new_players(5))
    tournament.generate_round()
    for match in tournament.round_matches(1):
        tournament.record_result(match.id, Result(2, 2))

    rows = read(render_standings_csv(tournament))
    assert sorted(r["points"] for r in rows) == ["0.5", "0.5", "0.5", "0.5", "1"]
    assert {r["buchholz"] for r in rows} == {"0.5", "1"}


def test_before_round_one_nobody_is_qualified() -> None:
    tournament = Tournament.create(Settings(seed=1), new_players(6))

    rows = read(render_standings_csv(tournament))
    assert [r["qualified"] for r in rows] == ["false"] * 6
    assert [r["points"] for r in rows] == ["0"] * 6


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_quoted() -> None:
    tournament = Tournament.create(
        Settings(seed=1), new_players(4, extra=("=HYPERLINK(1)", "-Minus", "@at"))
    )

    names = {r["name"] for r in read(render_standings_csv(tournament))}
    assert names == {"'=HYPERLINK(1)", "'-Minus", "'@at", "Alice Rossi"}


HOSTILE_NAMES = {
    "x;=1+1;": "x;'=1+1;",
    "a,b": "a,b",
    "ok; -2+3": "ok; '-2+3",
    'say "hi", =A1': 'say "hi", \'=A1',
    'q;"=1': "q;\"'=1",
    'a; " @SUM(1)': "a; \" '@SUM(1)",
    "Jean-Luc +": "Jean-Luc +",
}
"""Names holding separators and formulas, and how they read back: a ``'`` before each formula.
(A name holds no tab or line break: the API refuses control characters and the domain turns
white space into single spaces.)"""


def starts_a_formula(field: str) -> bool:
    return field.lstrip(' "').startswith(("=", "+", "-", "@"))


def hostile_csv() -> str:
    return render_standings_csv(
        Tournament.create(Settings(seed=1), new_players(8, extra=tuple(HOSTILE_NAMES)))
    )


def test_a_name_with_separators_reads_back_whole_with_every_formula_neutralized() -> None:
    text = hostile_csv()

    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [len(row) for row in rows] == [len(CSV_COLUMNS)] * 9  # no name split in two
    assert {r["name"] for r in read(text)} == {*HOSTILE_NAMES.values(), "Alice Rossi"}
    assert '1,1,1,"x;\'=1+1;",,' in text  # quoted: it holds a ;
    assert "7,7,7,Jean-Luc +,," in text  # nothing to quote or neutralize


def test_a_spreadsheet_splitting_on_semicolons_finds_no_formula() -> None:
    text = hostile_csv()

    quoting = [f for row in csv.reader(io.StringIO(text, newline=""), delimiter=";") for f in row]
    assert "'=1+1" in quoting  # the ; inside the name did start a cell
    assert [f for f in quoting if starts_a_formula(f)] == []
    # a spreadsheet that ignores quotes altogether splits the same way
    naive = [f for line in text.splitlines() for f in line.split(";")]
    # (Sonneborn-Berger and progressive 0, direct encounter empty before round 1)
    assert " '-2+3\",,0,0,0,0,0,0,0,0,0,0,0,0,0,,false,false," in naive
    assert [f for f in naive if starts_a_formula(f)] == []


def test_points_as_numbers_and_as_printed_text() -> None:
    cases = {0: ("0", "0"), 1: ("0.5", "½"), 9: ("4.5", "4½"), 12: ("6", "6"), -1: ("-0.5", "-½")}
    for half_points, (number, text) in cases.items():
        assert points_number(Score(half_points)) == number
        assert points_text(Score(half_points)) == text


def test_the_final_ranking_is_a_column_once_decided() -> None:
    tournament = standard_evening()
    rows = read(render_standings_csv(tournament))
    ranking = tournament.final_ranking() or []
    places = {r["player_id"]: r["final_place"] for r in rows}
    assert [places[str(p)] for p in ranking[:4]] == ["1", "2", "3", "4"]
    assert len(ranking) == sum(r["final_place"] != "" for r in rows)


def test_semicolon_flavour_splits_on_semicolons_and_writes_decimal_commas() -> None:
    chess = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))
    tournament = Tournament.create(
        Settings(seed=2, points=chess), new_players(5, extra=("Rossi, Mario",))
    )
    tournament.generate_round()
    for match in tournament.round_matches(1):
        tournament.record_result(match.id, Result(2, 2))

    comma = render_standings_csv(tournament)
    semicolon = render_standings_csv(tournament, separator="semicolon")
    assert render_standings_csv(tournament, separator="comma") == comma
    assert semicolon.startswith("rank;player_id;start_number;name;group;played;wins;")
    rows = list(csv.DictReader(io.StringIO(semicolon, newline=""), delimiter=";"))
    assert [r["name"] for r in rows] == [r["name"] for r in read(comma)]
    assert "Rossi, Mario" in {r["name"] for r in rows}  # quoted, read back whole
    assert '"Rossi, Mario"' in semicolon
    assert sorted(r["points"] for r in rows) == ["0,5", "0,5", "0,5", "0,5", "1"]  # and a bye
    # The same rows as the comma flavour, decimal mark aside; numbers are never quoted.
    assert [{k: v.replace(",", ".") if k != "name" else v for k, v in r.items()} for r in rows] == (
        read(comma)
    )
    assert ';"0,5";' not in semicolon and ";0,5;" in semicolon
