"""An evening's script, shared by the sync, async and command-line tests: who plays, what each
board scores, and the standings those scores must give (worked out here, not by the server)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from svizzera_client.models import FinalPhaseRead, MatchRead, ResultWrite, StandingsRead

PLAYERS = ["Rossi", "Bianchi", "Verdi", "Neri", "Gialli", "Russo", "Ferrari", "Esposito"]
SEED = 20261129


def score(round_number: int, board: int) -> tuple[int, int]:
    """Home wins, away wins or a draw, by round and board, so every kind of result occurs."""
    return [(2, 1), (0, 1), (1, 1)][(round_number + board) % 3]


def result(round_number: int, board: int) -> ResultWrite:
    home, away = score(round_number, board)
    return ResultWrite(home=home, away=away)


def expected_points(matches: Iterable[MatchRead]) -> Counter[int]:
    """Points per player id by 3-1-0 from the results of ``matches`` (no byes with 8)."""
    points: Counter[int] = Counter()
    for m in matches:
        assert m.result is not None
        home, away = m.result.home, m.result.away
        points[m.home] += 3 if home > away else 1 if home == away else 0
        points[m.away] += 3 if away > home else 1 if home == away else 0
    return points


def check_swiss(standings: StandingsRead, matches: list[MatchRead]) -> None:
    """The server's standings agree with the points the recorded results give."""
    points = expected_points(matches)
    assert len(matches) == 16  # 4 rounds of 4 boards
    assert [row.rank for row in standings.rows] == list(range(1, 9))
    assert {row.player_id: row.points for row in standings.rows} == {
        p: points[p] for p in range(1, 9)
    }
    assert all(row.played == 4 for row in standings.rows)
    ordered = [row.points for row in standings.rows]
    assert ordered == sorted(ordered, reverse=True)
    assert [row.qualified for row in standings.rows] == [True] * 4 + [False] * 4


def check_final(phase: FinalPhaseRead, standings: StandingsRead) -> None:
    """Semifinals 1st v 4th and 2nd v 3rd; the final's winner first, the loser second."""
    seeds = [row.player_id for row in standings.rows[:4]]
    semis = [m for m in phase.matches if m.stage == "semifinal"]
    assert [(m.home, m.away) for m in semis] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    final = next(m for m in phase.matches if m.stage == "final")
    assert final.result is not None and final.result.winner == "home"
    assert phase.final_ranking is not None
    assert [p.player_id for p in phase.final_ranking[:2]] == [final.home, final.away]
