"""Sonneborn-Berger, progressive score and direct encounter, worked by hand.

Chess points throughout (1, ½, 0, bye 1), so in half-points a win is 2 and a draw 1; the
comments count in points. Games read ``game(round, home, away, home goals, away goals)``: 1–0 a
home win, 0–1 an away win, 0–0 a draw.
"""

from __future__ import annotations

from fractions import Fraction

from app.domain.standings import StandingRow, compute_standings
from app.domain.tiebreaks import direct_encounter
from app.domain.types import Forfeit, PlayerId, PointsTable, RoundNumber, Score, Tiebreak
from tests.domain.test_standings import (
    CHESS,
    by_id,
    bye,
    forfeit,
    game,
    order,
    player,
    unplayed,
)

# --- Six players, three rounds: every choice gives its own order -----------------------------
#        round 1      round 2      round 3     points  Buchholz  S-B   progressive
#   1    beat 6       drew 2       lost to 3   1½      4½        1½    1 + 1½ + 1½ = 4
#   2    beat 3       drew 1       drew 4      2       5         3½    1 + 1½ + 2 = 4½
#   3    lost to 2    beat 5       beat 1      2       5         3     0 + 1 + 2 = 3
#   4    drew 5       drew 6       drew 2      1½      4         2     ½ + 1 + 1½ = 3
#   5    drew 4       lost to 3    beat 6      1½      4         1¼    ½ + ½ + 1½ = 2½
#   6    lost to 1    drew 4       lost to 5   ½       4½        ¾     0 + ½ + ½ = 1
# Sonneborn-Berger: 2 beat 3 (2) and drew 1 and 4 (1½ each): 2 + ¾ + ¾ = 3½; 3 beat 5 and 1
# (1½ each): 3; 1 beat 6 (½) and drew 2 (2): 1½; 4 drew 5, 6, 2: ¾ + ¼ + 1 = 2; 5 drew 4 and
# beat 6: ¾ + ½ = 1¼; 6 drew 4: ¾.
# Goals: 2 and 3 are both +1, 3 with 2 goals for, 2 with 1; 1, 4 and 5 are all 0, with 1, 0
# and 1 goals for.
SIX = [player(number) for number in range(1, 7)]
SIX_GAMES = [
    game(1, 6, 1, 0, 1),
    game(1, 2, 3, 1, 0),
    game(1, 4, 5, 0, 0),
    game(2, 3, 5, 1, 0),
    game(2, 1, 2, 0, 0),
    game(2, 4, 6, 0, 0),
    game(3, 4, 2, 0, 0),
    game(3, 1, 3, 0, 1),
    game(3, 6, 5, 0, 1),
]


def six(tiebreak: Tiebreak) -> tuple[StandingRow, ...]:
    return compute_standings(SIX, SIX_GAMES, [], rounds_played=3, points=CHESS, tiebreak=tiebreak)


def test_six_players_figures() -> None:
    rows = by_id(six(Tiebreak.BUCHHOLZ))
    assert {n: rows[n].points for n in rows} == {1: 3, 2: 4, 3: 4, 4: 3, 5: 3, 6: 1}
    assert {n: rows[n].buchholz for n in rows} == {1: 9, 2: 10, 3: 10, 4: 8, 5: 8, 6: 9}
    assert {n: rows[n].sonneborn_berger for n in rows} == {
        1: Fraction(3),
        2: Fraction(7),
        3: Fraction(6),
        4: Fraction(4),
        5: Fraction(5, 2),
        6: Fraction(3, 2),
    }
    assert {n: rows[n].progressive for n in rows} == {1: 8, 2: 9, 3: 6, 4: 6, 5: 5, 6: 2}


def test_six_players_buchholz_order() -> None:
    # 2 and 3 level on Buchholz and goal difference: 3 has more goals. 1 leads the 1½ group on
    # Buchholz; 4 and 5 level, 5 has more goals.
    assert order(six(Tiebreak.BUCHHOLZ)) == [3, 2, 1, 5, 4, 6]


def test_six_players_sonneborn_berger_order() -> None:
    assert order(six(Tiebreak.SONNEBORN_BERGER)) == [2, 3, 4, 1, 5, 6]


def test_six_players_progressive_order() -> None:
    assert order(six(Tiebreak.PROGRESSIVE)) == [2, 3, 1, 4, 5, 6]


def test_six_players_direct_encounter_order() -> None:
    # 2 beat 3 in round 1; 1, 4 and 5 are level but 1 never met 4: Buchholz decides there.
    rows = six(Tiebreak.DIRECT_ENCOUNTER)
    assert order(rows) == [2, 3, 1, 5, 4, 6]
    assert {row.player_id: row.direct_encounter for row in rows} == {
        1: None,
        2: Score(2),
        3: Score(0),
        4: None,
        5: None,
        6: None,
    }


# --- Byes and forfeits: the virtual opponent has the player's own points ----------------------
#        round 1        round 2     round 3                    points
#   1    drew 2         beat 3      beat 5 by forfeit          2½
#   2    drew 1         beat 5      drew 4                     2
#   3    beat 4         lost to 1   bye                        2
#   4    lost to 3      bye         drew 2                     1½
#   5    bye            lost to 2   lost to 1 by forfeit       1
# Sonneborn-Berger: 1: ½·2 + 1·2 + 1·2½ (the forfeit win, against his own points) = 5½;
# 2: ½·2½ + 1·1 + ½·1½ = 3; 3: 1·1½ + 0 + 1·2 (the bye) = 3½; 4: 0 + 1·1½ + ½·2 = 2½;
# 5: 1·1 + 0 + 0 (a forfeit loss scores nothing) = 1.
# Progressive: 1: ½ + 1½ + 2½ = 4½; 2: ½ + 1½ + 2 = 4; 3: 1 + 1 + 2 = 4; 4: 0 + 1 + 1½ = 2½;
# 5: 1 + 1 + 1 = 3.
FIVE = [player(number) for number in range(1, 6)]
FIVE_GAMES = [
    game(1, 1, 2, 0, 0),
    game(1, 3, 4, 1, 0),
    game(2, 1, 3, 1, 0),
    game(2, 5, 2, 0, 1),
    forfeit(3, 1, 5, absent=Forfeit.AWAY),
    game(3, 2, 4, 0, 0),
]
FIVE_BYES = [bye(1, 5), bye(2, 4), bye(3, 3)]


def five(points: PointsTable = CHESS) -> dict[int, StandingRow]:
    rows = compute_standings(
        FIVE,
        FIVE_GAMES,
        FIVE_BYES,
        rounds_played=3,
        points=points,
        tiebreak=Tiebreak.SONNEBORN_BERGER,
    )
    return by_id(rows)


def test_byes_and_forfeits_in_sonneborn_berger() -> None:
    rows = five()
    assert {n: rows[n].points for n in rows} == {1: 5, 2: 4, 3: 4, 4: 3, 5: 2}
    assert {n: rows[n].sonneborn_berger for n in rows} == {
        1: Fraction(11),
        2: Fraction(6),
        3: Fraction(7),
        4: Fraction(5),
        5: Fraction(2),
    }


def test_byes_and_forfeits_in_the_progressive_score() -> None:
    rows = five()
    assert {n: rows[n].progressive for n in rows} == {1: 9, 2: 8, 3: 8, 4: 5, 5: 6}


def test_players_level_who_never_met_have_no_direct_encounter() -> None:
    rows = five()
    assert (rows[2].points, rows[3].points) == (Score(4), Score(4))
    assert all(row.direct_encounter is None for row in rows.values())


def test_a_half_point_bye_counts_as_a_draw_against_the_virtual_opponent() -> None:
    # With the bye worth ½: 3 has 1 + 0 + ½ = 1½ and Sonneborn-Berger 1·1 (4 has ½ + ½) + ½·1½
    # = 1¾; 5 has ½ and ½·½ = ¼.
    rows = five(PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(1)))
    assert (rows[3].points, rows[3].sonneborn_berger) == (Score(3), Fraction(7, 2))
    assert (rows[5].points, rows[5].sonneborn_berger) == (Score(1), Fraction(1, 2))


def test_a_zero_point_bye_counts_as_a_loss() -> None:
    rows = five(PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(0)))
    # 5 took nothing from the bye; 3's bye adds nothing: 1·½ (4 has ½) + 0 + 0 = ½.
    assert (rows[5].points, rows[5].sonneborn_berger) == (Score(0), Fraction(0))
    assert (rows[3].points, rows[3].sonneborn_berger) == (Score(2), Fraction(1))


def test_a_withdrawn_opponent_counts_with_their_points() -> None:
    # 5 withdraws after round 2 (already paired for round 3): 2 still counts 5's 1 point.
    players = [*FIVE[:4], player(5, withdrawn_after=2)]
    rows = by_id(
        compute_standings(
            players,
            FIVE_GAMES,
            FIVE_BYES,
            rounds_played=3,
            points=CHESS,
            tiebreak=Tiebreak.SONNEBORN_BERGER,
        )
    )
    assert rows[2].sonneborn_berger == Fraction(6)
    assert rows[1].sonneborn_berger == Fraction(11)
    assert rows[5].withdrawn


def test_a_match_without_a_result_counts_for_nothing_yet() -> None:
    games = [*FIVE_GAMES[:4], unplayed(3, 1, 5), FIVE_GAMES[5]]
    rows = by_id(
        compute_standings(
            FIVE,
            games,
            FIVE_BYES,
            rounds_played=3,
            points=CHESS,
            tiebreak=Tiebreak.PROGRESSIVE,
        )
    )
    # 1 has ½ + 1½ + 1½ = 3½ progressive and ½·2 + 1·2 = 3 Sonneborn-Berger.
    assert (rows[1].progressive, rows[1].sonneborn_berger) == (Score(7), Fraction(6))


# --- Direct encounter among three players who all met ------------------------------------------
#        round 1      round 2      round 3      points  Buchholz  direct encounter
#   3    beat 4       lost to 1    drew 6       1½      5         1 + ½ = 1½
#   4    lost to 3    drew 6       beat 5       1½      3         0 + ½ = ½
#   6    drew 2       drew 4       drew 3       1½      5½        ½ + ½ = 1
# (1 has 2 points, 2 has 2½, 5 has 0.) Buchholz would rank 6, 3, 4; the games among the
# three rank 3, 6, 4: 3 drew 6 but also beat 4.
TRIANGLE_GAMES = [
    game(1, 6, 2, 0, 0),
    game(1, 3, 4, 1, 0),
    game(1, 5, 1, 0, 1),
    game(2, 4, 6, 0, 0),
    game(2, 1, 3, 1, 0),
    game(2, 5, 2, 0, 1),
    game(3, 3, 6, 0, 0),
    game(3, 2, 1, 1, 0),
    game(3, 5, 4, 0, 1),
]


def triangle(tiebreak: Tiebreak) -> tuple[StandingRow, ...]:
    return compute_standings(
        SIX, TRIANGLE_GAMES, [], rounds_played=3, points=CHESS, tiebreak=tiebreak
    )


def test_direct_encounter_among_three_who_all_met() -> None:
    rows = triangle(Tiebreak.DIRECT_ENCOUNTER)
    assert {row.player_id: row.direct_encounter for row in rows} == {
        1: None,
        2: None,
        3: Score(3),
        4: Score(1),
        5: None,
        6: Score(2),
    }
    assert order(rows) == [2, 1, 3, 6, 4, 5]
    assert order(triangle(Tiebreak.BUCHHOLZ)) == [2, 1, 6, 3, 4, 5]


def test_level_direct_encounters_fall_to_buchholz() -> None:
    # 1 beats 2, 2 beats 3, 3 beats 1: each took 1 point from the other two; 4 lost to all.
    players = [player(number) for number in range(1, 5)]
    games = [
        game(1, 1, 2, 1, 0),
        game(1, 3, 4, 1, 0),
        game(2, 2, 3, 1, 0),
        game(2, 4, 1, 0, 1),
        game(3, 3, 1, 1, 0),
        game(3, 2, 4, 1, 0),
    ]
    rows = compute_standings(
        players, games, [], rounds_played=3, points=CHESS, tiebreak=Tiebreak.DIRECT_ENCOUNTER
    )
    assert [row.direct_encounter for row in rows[:3]] == [Score(2)] * 3
    # Level on Buchholz (4 points each) and goal difference (+1); goals for 2 each: start number.
    assert order(rows) == [1, 2, 3, 4]


# --- Byes a player asked for (``requested_byes``: round, player, the points it scored) --------
def five_with_requested(scored: int) -> dict[int, StandingRow]:
    """The five players' tournament, 4 asking for round 2 off instead of the pairing bye."""
    rows = compute_standings(
        FIVE,
        FIVE_GAMES,
        [bye(1, 5), bye(3, 3)],
        rounds_played=3,
        points=CHESS,
        tiebreak=Tiebreak.SONNEBORN_BERGER,
        requested_byes=[(RoundNumber(2), PlayerId(4), Score(scored))],
    )
    return by_id(rows)


def test_a_requested_half_point_bye_is_a_draw_against_the_virtual_opponent() -> None:
    rows = five_with_requested(1)
    four = rows[4]
    # 4: 0 + ½ + ½ = 1 point, no bye counted; Buchholz 2 (3) + 1 (virtual) + 2 (2) = 5;
    # Sonneborn-Berger 0 + ½·1 + ½·2 = 1½; progressive 0 + ½ + 1 = 1½.
    assert (four.points, four.byes, four.buchholz) == (Score(2), 0, Score(10))
    assert (four.sonneborn_berger, four.progressive) == (Fraction(3), Score(3))
    # 2 drew 4, who now has 1 point: ½·2½ + 1·1 + ½·1 = 2¾.
    assert rows[2].sonneborn_berger == Fraction(11, 2)


def test_a_requested_zero_point_bye_is_a_loss() -> None:
    four = five_with_requested(0)[4]
    # 4: ½ point; Sonneborn-Berger only the draw with 2 (2 points): 1.
    assert (four.points, four.sonneborn_berger) == (Score(1), Fraction(2))
    assert four.progressive == Score(1)


# --- The direct-encounter rule on its own: compute_standings asks it only about levels whose
# every two players met, so its refusals are checked here.


def test_direct_encounter_sums_the_points_taken_among_the_tied() -> None:
    # 0 beat 1 and drew 2 twice (a rematch); 1 beat 2; 3 is not tied and is never counted.
    taken = {0: {1: 2, 2: 2, 3: 2}, 1: {0: 0, 2: 2}, 2: {0: 2, 1: 0}, 3: {0: 0}}
    assert direct_encounter([0, 1, 2], taken.__getitem__) == {0: 4, 1: 2, 2: 2}


def test_direct_encounter_needs_two_players_who_all_met() -> None:
    asked: list[int] = []

    def taken(i: int) -> dict[int, int]:
        asked.append(i)
        return {0: {1: 2}, 1: {0: 0}, 2: {}}[i]

    assert direct_encounter([0], taken) is None
    assert direct_encounter([0, 1, 2], taken) is None  # 0 never met 2
    assert asked == [0]  # refused at the first player who missed one
