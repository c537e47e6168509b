"""The printable page: what it states, highlights and escapes (``tournament.md``, "Printing")."""

from __future__ import annotations

import html
import random
import re
from dataclasses import replace

from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    Forfeit,
    GroupName,
    Pair,
    PointsTable,
    Result,
    Score,
    Stage,
    Status,
    Tiebreak,
)
from app.pages.view import points_text
from app.printing import render_print_page
from tests.printing.tournaments import (
    groups_evening,
    new_players,
    play_swiss,
    short_evening,
    standard_evening,
)

ROW = re.compile(r'<tr class="([^"]*)" data-player="(\d+)">')


def section(page: str, anchor: str) -> str:
    """The page from ``anchor`` to the next section or round (whichever comes first)."""
    start = page.index(anchor)
    ends = [page.find(m, start + len(anchor)) for m in ("<section", 'class="round"')]
    found = [e for e in ends if e != -1]
    return page[start : min(found)] if found else page[start:]


def between(page: str, start: str, end: str) -> str:
    """The page from the first ``start`` to the next ``end``."""
    at = page.index(start)
    return page[at : page.index(end, at)]


def standings_rows(page: str) -> dict[int, set[str]]:
    return {int(pid): set(classes.split()) for classes, pid in ROW.findall(page)}


def test_the_tiebreak_in_use_is_written_at_the_top_with_its_criteria_in_order() -> None:
    page = render_print_page(standard_evening(), name="Thursday Cup")

    top = page.index('id="tiebreak"')
    assert top < page.index('id="standings"') < page.index('id="rounds"')
    assert "Tiebreak in use: Buchholz" in page
    criteria = re.findall(r"<li>([^<]+)</li>", between(page, '<ol class="criteria">', "</ol>"))
    assert criteria == [
        "points",
        "Buchholz",
        "goal difference",
        "goals for",
        "start number (lower first)",
    ]
    assert "<h1>Thursday Cup</h1>" in page
    assert "Status: <strong>Finished</strong>" in page
    assert "Final phase: semifinals, then the final and the third-place final" in page


def test_qualifiers_carry_the_green_class_and_nobody_else_does() -> None:
    tournament = standard_evening()
    page = render_print_page(tournament, name="Cup")

    rows = standings_rows(page)
    assert len(rows) == 16
    qualified = {pid for pid, classes in rows.items() if "qualified" in classes}
    assert qualified == set(tournament.qualified())
    assert len(qualified) == 4
    assert "--qualified: #bfe8b5" in page
    assert "print-color-adjust: exact" in page
    withdrawn = {pid for pid, p in tournament.players.items() if p.withdrawn}
    assert {pid for pid, c in rows.items() if "withdrawn" in c} == withdrawn != set()


def test_standings_rows_show_every_figure_in_order() -> None:
    tournament = standard_evening()
    page = render_print_page(tournament, name="Cup")

    table = section(page, 'id="standings"')
    assert [int(pid) for _, pid in ROW.findall(table)] == [
        r.player_id for r in tournament.standings()
    ]
    for row in tournament.standings():
        player = tournament.players[row.player_id]
        start = table.index(f'data-player="{row.player_id}"')
        cells = re.findall(r"<td[^>]*>(.*?)</td>", table[start : table.index("</tr>", start)])
        assert cells[0] == str(row.rank)
        assert cells[1] == str(player.start_number)
        assert cells[2].startswith(html.escape(player.name, quote=False))
        assert cells[3:11] == [
            str(v)
            for v in (
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.byes,
                row.goals_for,
                row.goals_against,
            )
        ] + [f"{row.goal_difference:+d}" if row.goal_difference else "0"]
        assert cells[11:] == [
            points_text(row.points),
            points_text(row.buchholz),
            points_text(row.median_buchholz),
        ]


def test_every_round_and_every_board_is_printed_with_byes() -> None:
    tournament = standard_evening()
    page = render_print_page(tournament, name="Cup")

    assert len(tournament.rounds) == 5
    for swiss_round in tournament.rounds:
        part = section(page, f'id="round-{swiss_round.number}"')
        boards = tournament.round_matches(swiss_round.number)
        assert len(re.findall(r'<td class="board">', part)) == len(boards)
        for match in boards:
            assert match.result is not None
            home = html.escape(tournament.players[match.home].name, quote=False)
            away = html.escape(tournament.players[match.away].name, quote=False)
            score = f"{match.result.home_goals}–{match.result.away_goals}"
            row = (
                rf'<td class="board">{match.board}</td>\s*'
                rf'<td class="home[^"]*">{re.escape(home)}</td>\s*'
                rf'<td class="score">{score}</td>\s*'
                rf'<td class="away[^"]*">{re.escape(away)}'
            )
            assert re.search(row, part), (swiss_round.number, match.board)
        for bye in swiss_round.byes:
            assert f"Bye: {html.escape(tournament.players[bye].name)}" in part


def test_the_bracket_shows_semifinals_finals_results_and_the_final_ranking() -> None:
    tournament = standard_evening()
    page = render_print_page(tournament, name="Cup")

    bracket = between(page, 'id="final-phase"', "</section>")
    stages = re.findall(r'data-stage="(\w+)"', bracket)
    assert stages == ["semifinal", "semifinal", "final", "third_place"]
    for match in tournament.final_matches():
        for pid in (match.home, match.away):
            assert html.escape(tournament.players[pid].name, quote=False) in bracket
    assert "on penalties" in bracket  # semifinal 1 is level, won on penalties
    ranking = tournament.final_ranking()
    assert ranking is not None
    places = re.findall(
        r'<td class="place n">(\d+)\.</td>\s*<td class="name">([^<]*)',
        page[page.index('id="final-ranking"') :],
    )
    assert places == [
        (str(i), html.escape(tournament.players[pid].name, quote=False))
        for i, pid in enumerate(ranking, start=1)
    ]


def test_names_are_escaped() -> None:
    page = render_print_page(standard_evening(), name="<script>x</script> & Cup")

    assert "&lt;b&gt;Bob &amp; Co&lt;/b&gt;" in page
    assert "<b>Bob" not in page
    assert "&lt;script&gt;x&lt;/script&gt; &amp; Cup" in page
    assert "<script" not in page


def test_with_tiebreak_goals_no_buchholz_is_shown() -> None:
    tournament = standard_evening(tiebreak=Tiebreak.GOALS)
    page = render_print_page(tournament, name="Cup")

    assert "Tiebreak in use: goals" in page
    assert "buchholz" not in page.lower()
    assert len(re.findall(r"<td", between(page, 'data-player="', "</tr>"))) == 12


def test_groups_print_one_table_per_group_and_the_crossed_semifinals() -> None:
    tournament = groups_evening()
    page = render_print_page(tournament, name="Groups")

    assert "<h3>Group A</h3>" in page
    assert "<h3>Group B</h3>" in page
    for group in ("A", "B"):
        start = page.index(f'data-group="{group}"')
        table = page[start : page.index("</table>", start)]
        rows = standings_rows(table)
        expected = tournament.standings(GroupName(group))
        assert list(rows) == [r.player_id for r in expected]
        assert [pid for pid, c in rows.items() if "qualified" in c] == [
            r.player_id for r in expected[:2]
        ]
    semis = [m for m in tournament.final_matches() if m.stage is Stage.SEMIFINAL]
    assert {tournament.players[m.home].group for m in semis} == {"A", "B"}
    bracket = between(page, 'id="final-phase"', "</section>")
    labels = re.findall(r'<span class="seed">([AB][12])</span>', bracket)
    assert sorted(labels[:4]) == ["A1", "A2", "B1", "B2"]  # the two semifinals
    for match in semis:
        assert tournament.players[match.home].group != tournament.players[match.away].group
    assert "<th>Gr</th>" in page
    assert "crossed semifinals A1 v B2, B1 v A2" in page


def test_the_short_formula_draws_only_the_final() -> None:
    tournament = short_evening()
    page = render_print_page(tournament, name="Short")

    bracket = between(page, 'id="final-phase"', "</section>")
    assert re.findall(r'data-stage="(\w+)"', bracket) == ["final"]
    assert "Final phase: the final, 1st v 2nd" in page
    assert len(standings_rows(page)) == 13


def test_before_round_one_nobody_is_highlighted_and_the_bracket_is_a_plan() -> None:
    tournament = Tournament.create(Settings(seed=1), new_players(8))
    page = render_print_page(tournament, name="Soon")

    assert tournament.status is Status.REGISTRATION
    assert not any("qualified" in c for c in standings_rows(page).values())
    assert "No round generated yet." in page
    assert ">1st</span>" in page
    assert ">4th</span>" in page
    assert ">Winner SF1</span>" in page
    assert "(as the standings stand now)" in page


def test_an_open_round_leaves_empty_result_cells_and_a_provisional_legend() -> None:
    tournament = Tournament.create(Settings(seed=3), new_players(9))
    tournament.generate_round()
    page = render_print_page(tournament, name="Live")

    assert page.count('<td class="score open">') == 4
    assert "(as the standings stand now)" in page
    assert "Bye: " in page
    assert "to be played" not in page  # the final phase has not started


def test_a_fallback_round_and_a_forfeit_are_marked() -> None:
    played = Tournament.create(Settings(seed=4), new_players(6))
    play_swiss(played, 1, random.Random(1))
    played.generate_round()
    matches = played.round_matches(2)
    played.record_result(matches[0].id, Result(0, 0, forfeit=Forfeit.AWAY))
    first = matches[1]
    # The domain marks a fallback round by its repeated pairs; restore one with such a pair.
    rounds = [
        *played.rounds[:-1],
        replace(played.rounds[-1], rematch_pairs=(Pair(first.home, first.away),)),
    ]
    tournament = Tournament(
        played.settings, played.players.values(), rounds=rounds, matches=played.matches.values()
    )
    page = render_print_page(tournament, name="Marks")

    part = section(page, 'id="round-2"')
    assert '<span class="badge r" title="fallback round">fallback</span>' in part
    assert "Fallback round: no rematch-free pairing existed; repeated: " in part
    assert '<tr class="rematch">' in part
    assert part.count('<tr class="rematch">') == 1
    assert '<td class="score">forfeit</td>' in part
    assert '<span class="tag">absent</span>' in part


def test_half_points_print_as_halves() -> None:
    chess = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))
    tournament = Tournament.create(Settings(seed=2, points=chess), new_players(4))
    tournament.generate_round()
    for match in tournament.round_matches(1):
        tournament.record_result(match.id, Result(1, 1))
    page = render_print_page(tournament, name="Chess")

    assert "Points: win 1 · draw ½ · loss 0 · bye 1" in page
    assert '<td class="n pts">½</td>' in page
