"""Standings golden cases, worked by hand from ``standings.md``.

Scores are half-points: with the default table (3, 1, 0, 3) a win is ``Score(6)``, so "6 points"
is ``Score(12)`` and a Buchholz of 21 points is ``Score(42)``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.domain.errors import UnknownPlayer
from app.domain.standings import (
    TIEBREAK_CRITERIA,
    StandingRow,
    SwissGame,
    compute_standings,
)
from app.domain.types import (
    Forfeit,
    Player,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Score,
    Side,
    Tiebreak,
)

DEFAULT = PointsTable.default()
CHESS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))


def player(
    number: int,
    *,
    start_number: int | None = None,
    entered: int = 1,
    withdrawn_after: int | None = None,
) -> Player:
    return Player(
        id=PlayerId(number),
        name=f"P{number}",
        start_number=number if start_number is None else start_number,
        entered_round=RoundNumber(entered),
        withdrawn_after=None if withdrawn_after is None else RoundNumber(withdrawn_after),
    )


def game(number: int, home: int, away: int, home_goals: int, away_goals: int) -> SwissGame:
    return SwissGame(
        round=RoundNumber(number),
        home=PlayerId(home),
        away=PlayerId(away),
        result=Result(home_goals=home_goals, away_goals=away_goals),
    )


def forfeit(number: int, home: int, away: int, *, absent: Forfeit) -> SwissGame:
    return SwissGame(
        round=RoundNumber(number),
        home=PlayerId(home),
        away=PlayerId(away),
        result=Result(home_goals=0, away_goals=0, forfeit=absent),
    )


def unplayed(number: int, home: int, away: int) -> SwissGame:
    return SwissGame(
        round=RoundNumber(number), home=PlayerId(home), away=PlayerId(away), result=None
    )


def bye(number: int, player_id: int) -> tuple[RoundNumber, PlayerId]:
    return RoundNumber(number), PlayerId(player_id)


def by_id(rows: tuple[StandingRow, ...]) -> dict[int, StandingRow]:
    return {row.player_id: row for row in rows}


def order(rows: tuple[StandingRow, ...]) -> list[int]:
    return [row.player_id for row in rows]


# --- The Rossi / Bianchi example -------------------------------------------------------------
# Eight players, three rounds, every game won. Rossi (1) beats Bianchi (2), then 8, loses to 4;
# Bianchi beats 7 and 3 by wide margins. Afterwards Rossi's opponents have 6, 6 and 9 points,
# Bianchi's 6, 3 and 0 — the spec's example (Bianchi's 3, 0, 6 are the same multiset).
ROSSI, BIANCHI = 1, 2
GOLDEN_PLAYERS = [
    # Bianchi has the better start number, so only Buchholz can put Rossi ahead.
    player(ROSSI, start_number=2),
    player(BIANCHI, start_number=1),
    *(player(number) for number in range(3, 9)),
]
GOLDEN_GAMES = [
    game(1, 4, 6, 2, 0),
    game(1, 3, 7, 0, 1),
    game(1, ROSSI, BIANCHI, 1, 0),
    game(1, 5, 8, 1, 2),
    game(2, 4, 3, 3, 0),
    game(2, BIANCHI, 7, 5, 0),
    game(2, 6, 5, 0, 1),
    game(2, ROSSI, 8, 1, 0),
    game(3, ROSSI, 4, 0, 1),
    game(3, 6, 8, 0, 1),
    game(3, 3, BIANCHI, 0, 4),
    game(3, 7, 5, 0, 1),
]


def golden(tiebreak: Tiebreak) -> tuple[StandingRow, ...]:
    return compute_standings(
        GOLDEN_PLAYERS,
        GOLDEN_GAMES,
        [],
        rounds_played=3,
        points=DEFAULT,
        tiebreak=tiebreak,
    )


def test_rossi_and_bianchi_level_on_points_rossi_ahead_on_buchholz() -> None:
    rows = by_id(golden(Tiebreak.BUCHHOLZ))
    rossi, bianchi = rows[ROSSI], rows[BIANCHI]
    assert (rossi.points, bianchi.points) == (Score(12), Score(12))
    assert (rossi.buchholz, bianchi.buchholz) == (Score(42), Score(18))
    assert (rossi.rank, bianchi.rank) == (2, 4)


def test_golden_rows_in_full() -> None:
    rossi = by_id(golden(Tiebreak.BUCHHOLZ))[ROSSI]
    assert rossi == StandingRow(
        player_id=PlayerId(ROSSI),
        rank=2,
        played=3,
        wins=2,
        draws=0,
        losses=1,
        byes=0,
        goals_for=2,
        goals_against=1,
        points=Score(12),
        buchholz=Score(42),
        median_buchholz=Score(12),
        # Wins over Bianchi (6 points) and 8 (6), a loss to 4: 12 points. Running score 3, 6, 6.
        # Level on 6 with Bianchi, 8 and 5, but Rossi never met 5: no direct encounter.
        sonneborn_berger=Fraction(24),
        progressive=Score(30),
        direct_encounter=None,
        withdrawn=False,
    )
    assert rossi.goal_difference == 1
    bianchi = by_id(golden(Tiebreak.BUCHHOLZ))[BIANCHI]
    assert (bianchi.goals_for, bianchi.goals_against, bianchi.goal_difference) == (9, 1, 8)
    assert bianchi.median_buchholz == Score(6)


def test_golden_buchholz_of_everyone() -> None:
    rows = by_id(golden(Tiebreak.BUCHHOLZ))
    assert {number: rows[number].buchholz for number in rows} == {
        1: 42,
        2: 18,
        3: 36,
        4: 12,
        5: 18,
        6: 42,
        7: 24,
        8: 24,
    }


def test_buchholz_order() -> None:
    # 4 leads on 9 points; among the 6-point players Buchholz decides, then goal difference
    # separates Bianchi from 5 (both Buchholz 9); 6 and 3 on 0 points by Buchholz.
    assert order(golden(Tiebreak.BUCHHOLZ)) == [4, 1, 8, 2, 5, 7, 6, 3]


def test_goals_order_differs_from_buchholz_order() -> None:
    # Bianchi's +8 beats Rossi's +1; 5 and 8 (+1, 3 goals) before Rossi (+1, 2 goals), and
    # 5 before 8 on the start number.
    assert order(golden(Tiebreak.GOALS)) == [4, 2, 5, 8, 1, 7, 6, 3]


def test_lim_order_uses_median_buchholz_after_goal_difference() -> None:
    # Rossi, 8 and 5 are level at +1; median Buchholz 12, 12 and 6 half-points, then the start
    # number puts Rossi (2) before 8.
    assert order(golden(Tiebreak.LIM)) == [4, 2, 1, 8, 5, 7, 6, 3]


def test_tiebreak_criteria_are_the_spec_tables() -> None:
    assert dict(TIEBREAK_CRITERIA) == {
        Tiebreak.BUCHHOLZ: ("points", "buchholz", "goal_difference", "goals_for", "start_number"),
        Tiebreak.GOALS: ("points", "goal_difference", "goals_for", "start_number"),
        Tiebreak.LIM: ("points", "goal_difference", "median_buchholz", "start_number"),
        Tiebreak.POINTS_PER_MATCH: (
            "points",
            "points_per_match",
            "goal_difference",
            "goals_for",
            "start_number",
        ),
        **{
            chosen: (
                "points",
                chosen.value,
                "buchholz",
                "goal_difference",
                "goals_for",
                "start_number",
            )
            for chosen in (
                Tiebreak.SONNEBORN_BERGER,
                Tiebreak.PROGRESSIVE,
                Tiebreak.DIRECT_ENCOUNTER,
            )
        },
    }


# --- Median Buchholz against Buchholz ---------------------------------------------------------
# Eight players, four rounds, every game 1-0. Players 1, 2, 5, 6 and 8 have two wins each, so
# points, goal difference (0) and goals for (2) are level: only the Buchholz figures separate them.
MEDIAN_GAMES = [
    game(1, 2, 4, 1, 0),
    game(1, 3, 5, 1, 0),
    game(1, 1, 8, 1, 0),
    game(1, 7, 6, 0, 1),
    game(2, 6, 8, 0, 1),
    game(2, 2, 5, 0, 1),
    game(2, 4, 1, 0, 1),
    game(2, 7, 3, 0, 1),
    game(3, 8, 5, 1, 0),
    game(3, 6, 2, 1, 0),
    game(3, 4, 3, 0, 1),
    game(3, 1, 7, 0, 1),
    game(4, 7, 4, 0, 1),
    game(4, 3, 1, 1, 0),
    game(4, 5, 6, 1, 0),
    game(4, 8, 2, 0, 1),
]


def median_case(tiebreak: Tiebreak) -> tuple[StandingRow, ...]:
    players = [player(number) for number in range(1, 9)]
    return compute_standings(
        players, MEDIAN_GAMES, [], rounds_played=4, points=DEFAULT, tiebreak=tiebreak
    )


def test_median_buchholz_drops_one_highest_and_one_lowest() -> None:
    rows = by_id(median_case(Tiebreak.LIM))
    # Player 1 met 8, 4, 7 and 3 with 6, 3, 3 and 12 points: Buchholz 24, median 6 + 3 = 9
    # (only one of the two lowest values is dropped).
    assert (rows[1].buchholz, rows[1].median_buchholz) == (Score(48), Score(18))
    assert (rows[2].buchholz, rows[2].median_buchholz) == (Score(42), Score(24))
    assert (rows[5].buchholz, rows[5].median_buchholz) == (Score(60), Score(24))


def test_lim_and_buchholz_orders_disagree_where_median_and_buchholz_do() -> None:
    assert order(median_case(Tiebreak.BUCHHOLZ)) == [3, 5, 1, 8, 2, 6, 4, 7]
    assert order(median_case(Tiebreak.LIM)) == [3, 2, 5, 6, 8, 1, 4, 7]


# --- Byes and forfeits: the virtual opponent ---------------------------------------------------
def byes_and_forfeits() -> dict[int, StandingRow]:
    players = [player(number) for number in range(1, 6)]
    games = [
        game(1, 1, 2, 2, 1),
        forfeit(1, 3, 4, absent=Forfeit.AWAY),
        game(2, 1, 3, 1, 1),
        game(2, 2, 5, 0, 2),
    ]
    byes = [bye(1, 5), bye(2, 4)]
    rows = compute_standings(
        players, games, byes, rounds_played=2, points=DEFAULT, tiebreak=Tiebreak.BUCHHOLZ
    )
    return by_id(rows)


def test_bye_counts_in_points_and_byes_only() -> None:
    five = byes_and_forfeits()[5]
    assert (five.played, five.wins, five.byes) == (1, 1, 1)
    assert (five.goals_for, five.goals_against) == (2, 0)
    assert five.points == Score(12)


def test_forfeit_is_a_goalless_win_and_loss_played_by_both() -> None:
    rows = byes_and_forfeits()
    three, four = rows[3], rows[4]
    assert (three.played, three.wins, three.draws, three.losses) == (2, 1, 1, 0)
    assert (three.goals_for, three.goals_against) == (1, 1)
    assert (four.played, four.wins, four.losses, four.byes) == (1, 0, 1, 1)
    assert (four.goals_for, four.goals_against) == (0, 0)
    assert (three.points, four.points) == (Score(8), Score(6))


def test_bye_and_forfeit_count_as_a_virtual_opponent_with_own_points() -> None:
    rows = byes_and_forfeits()
    assert {number: rows[number].buchholz for number in rows} == {
        1: 0 + 8,  # 2 then 3
        2: 8 + 12,  # 1 then 5
        3: 8 + 8,  # forfeit: itself, then 1
        4: 6 + 6,  # forfeit: itself, bye: itself
        5: 12 + 0,  # bye: itself, then 2
    }
    # Fewer than three values: the median Buchholz is the Buchholz.
    assert all(row.median_buchholz == row.buchholz for row in rows.values())


def test_forfeit_ignores_goals_written_on_it() -> None:
    stray = SwissGame(
        round=RoundNumber(1),
        home=PlayerId(1),
        away=PlayerId(2),
        result=Result(home_goals=0, away_goals=3, forfeit=Forfeit.AWAY),
    )
    rows = by_id(
        compute_standings(
            [player(1), player(2)],
            [stray],
            [],
            rounds_played=1,
            points=DEFAULT,
            tiebreak=Tiebreak.GOALS,
        )
    )
    assert (rows[1].wins, rows[1].goals_for, rows[1].goals_against) == (1, 0, 0)
    assert (rows[2].losses, rows[2].goals_for, rows[2].goals_against) == (1, 0, 0)


# --- Late entry and withdrawal -----------------------------------------------------------------
LATE, GONE = 5, 6


def late_and_withdrawn() -> tuple[StandingRow, ...]:
    players = [
        *(player(number) for number in range(1, 5)),
        player(LATE, entered=2),
        player(GONE, withdrawn_after=1),
    ]
    games = [
        game(1, 1, GONE, 1, 0),
        game(1, 2, 3, 0, 0),
        game(2, 1, 2, 1, 0),
        game(2, 3, 4, 2, 0),
        game(3, 1, LATE, 1, 0),
        game(3, 2, 4, 1, 1),
    ]
    byes = [bye(1, 4), bye(2, LATE), bye(3, 3)]
    return compute_standings(
        players, games, byes, rounds_played=3, points=DEFAULT, tiebreak=Tiebreak.BUCHHOLZ
    )


def test_rounds_outside_the_tournament_count_nothing() -> None:
    rows = by_id(late_and_withdrawn())
    assert {number: rows[number].points for number in rows} == {
        1: 18,
        2: 4,
        3: 14,
        4: 8,
        LATE: 6,
        GONE: 0,
    }
    assert {number: rows[number].buchholz for number in rows} == {
        1: 0 + 4 + 6,
        2: 14 + 18 + 8,
        3: 4 + 8 + 14,
        4: 8 + 14 + 4,
        LATE: 6 + 18,  # round 1 not entered: nothing, not a virtual opponent
        GONE: 18,  # rounds 2 and 3 after withdrawing: nothing
    }


def test_withdrawn_player_keeps_row_and_rank() -> None:
    rows = late_and_withdrawn()
    assert order(rows) == [1, 3, 4, LATE, 2, GONE]
    gone = rows[-1]
    assert (gone.rank, gone.withdrawn, gone.played, gone.losses) == (6, True, 1, 1)
    assert [row.withdrawn for row in rows] == [False] * 5 + [True]


# --- Half points, matches without a result, rounds not yet counted -----------------------------
def test_chess_table_half_points_are_exact() -> None:
    players = [player(number) for number in range(1, 4)]
    games = [game(1, 1, 2, 0, 0), game(2, 1, 3, 1, 0), game(3, 2, 3, 1, 1)]
    byes = [bye(1, 3), bye(2, 2), bye(3, 1)]
    rows = compute_standings(
        players, games, byes, rounds_played=3, points=CHESS, tiebreak=Tiebreak.BUCHHOLZ
    )
    # 1: ½ + 1 + 1 = 2½; 2: ½ + 1 + ½ = 2; 3: 1 + 0 + ½ = 1½.
    assert [(row.player_id, row.points) for row in rows] == [(1, 5), (2, 4), (3, 3)]
    # 1 met 2 (2) and 3 (1½), then had a bye (itself, 2½): 6 points, 12 half-points.
    assert by_id(rows)[1].buchholz == Score(12)
    assert by_id(rows)[1].median_buchholz == Score(4)


def test_match_without_result_counts_for_nothing() -> None:
    players = [player(number) for number in range(1, 5)]
    games = [game(1, 1, 2, 1, 0), game(1, 3, 4, 0, 0), unplayed(2, 1, 3), game(2, 2, 4, 2, 0)]
    rows = by_id(
        compute_standings(
            players, games, [], rounds_played=2, points=DEFAULT, tiebreak=Tiebreak.BUCHHOLZ
        )
    )
    one, three = rows[1], rows[3]
    assert (one.played, one.points, one.goals_for) == (1, Score(6), 1)
    assert (three.played, three.points, three.draws) == (1, Score(2), 1)
    # Round 2 adds nothing to Buchholz: not the opponent's points, not a virtual opponent.
    assert (one.buchholz, three.buchholz) == (Score(6), Score(2))


def test_rounds_after_rounds_played_add_points_but_not_buchholz() -> None:
    players = [player(1), player(2)]
    rows = by_id(
        compute_standings(
            players,
            [game(1, 1, 2, 1, 0), game(2, 2, 1, 0, 1)],
            [],
            rounds_played=1,
            points=DEFAULT,
            tiebreak=Tiebreak.BUCHHOLZ,
        )
    )
    assert (rows[1].points, rows[1].buchholz) == (Score(12), Score(0))
    assert (rows[2].points, rows[2].buchholz) == (Score(0), Score(12))


def test_no_games_ranks_by_start_number() -> None:
    players = [player(1, start_number=3), player(2, start_number=1), player(3, start_number=2)]
    rows = compute_standings(
        players, [], [], rounds_played=0, points=DEFAULT, tiebreak=Tiebreak.LIM
    )
    assert [(row.player_id, row.rank) for row in rows] == [(2, 1), (3, 2), (1, 3)]


def test_level_score_with_named_winner_is_a_win() -> None:
    decided = SwissGame(
        round=RoundNumber(1),
        home=PlayerId(1),
        away=PlayerId(2),
        result=Result(home_goals=1, away_goals=1, winner=Side.AWAY),
    )
    rows = by_id(
        compute_standings(
            [player(1), player(2)],
            [decided],
            [],
            rounds_played=1,
            points=DEFAULT,
            tiebreak=Tiebreak.GOALS,
        )
    )
    assert (rows[2].wins, rows[2].points, rows[1].losses, rows[1].points) == (1, 6, 1, 0)


@pytest.mark.parametrize(
    ("games", "byes"),
    [([game(1, 1, 9, 1, 0)], []), ([], [bye(1, 9)])],
    ids=["game", "bye"],
)
def test_unknown_player_is_refused(
    games: list[SwissGame], byes: list[tuple[RoundNumber, PlayerId]]
) -> None:
    with pytest.raises(UnknownPlayer, match="player 9"):
        compute_standings(
            [player(1), player(2)],
            games,
            byes,
            rounds_played=1,
            points=DEFAULT,
            tiebreak=Tiebreak.BUCHHOLZ,
        )


def test_round_after_withdrawal_counts_nothing_for_the_withdrawn_player() -> None:
    # 2 withdrew after round 1 while already paired in round 2, and forfeited it: the loss
    # stands, but round 2 is not theirs for Buchholz; for 1 it is a virtual opponent.
    players = [player(1), player(2, withdrawn_after=1), player(3), player(4)]
    games = [
        game(1, 1, 3, 0, 0),
        game(1, 2, 4, 1, 0),
        forfeit(2, 1, 2, absent=Forfeit.AWAY),
        game(2, 3, 4, 1, 0),
    ]
    rows = by_id(
        compute_standings(
            players, games, [], rounds_played=2, points=DEFAULT, tiebreak=Tiebreak.BUCHHOLZ
        )
    )
    assert (rows[2].points, rows[2].losses, rows[2].played) == (Score(6), 1, 2)
    assert rows[2].buchholz == Score(0)  # round 1: 4, who has 0 points
    assert rows[1].buchholz == Score(8 + 8)  # round 1: 3; round 2: itself
