"""Pairing system ``lim`` worked by hand, one table per numbered step of ``pairing-lim.md``.

Every table is the standings order, best first, with each player's points (chess table
1, ½, 0: the median after r - 1 rounds is (r - 1) / 2 points). Histories need not be
realistic: only who has met whom matters to the pairing.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from app.domain.deadline import NO_DEADLINE
from app.domain.pairing.base import Entrant, PairingContext, PairingHistory, RoundPairing
from app.domain.pairing.lim import groups as lim_groups
from app.domain.pairing.lim import halves as lim_halves
from app.domain.pairing.lim import pair_round, paths
from app.domain.pairing.lim.halves import _double_exchanges, _single_exchanges, pair_halves
from app.domain.pairing.lim.search import search_round
from app.domain.pairing.matching import Matching
from app.domain.pairing.search_order import unplayed_graph
from app.domain.types import PlayerId, PointsTable, RoundNumber, Score
from tests.domain.lim_reference import rematch_free_rounds

CHESS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))


def pair(
    standings: str, history: str = "", *, round_number: int, had_bye: str = ""
) -> RoundPairing:
    """``standings``: "player:points" in order, best first; ``history``: "a-b" pairs met."""
    byes = {int(p) for p in had_bye.split()}
    order = []
    for cell in standings.split():
        player, points = cell.split(":")
        half_points = int(2 * Fraction(points.replace("½", ".5") if points != "½" else "0.5"))
        order.append(Entrant(PlayerId(int(player)), Score(half_points), int(player) in byes, 0))
    opponents: dict[PlayerId, set[PlayerId]] = {e.id: set() for e in order}
    for match in history.split():
        a, b = (PlayerId(int(x)) for x in match.split("-"))
        opponents[a].add(b)
        opponents[b].add(a)
    context = PairingContext(RoundNumber(round_number), 3, "seed", CHESS)
    frozen = {p: frozenset(s) for p, s in opponents.items()}
    return pair_round(order, PairingHistory(frozen), context)


def boards(pairing: RoundPairing) -> str:
    return " ".join(f"{p.higher}-{p.lower}" for p in pairing.pairs)


# Round 1 ----------------------------------------------------------------------------------
def test_round_one_pairs_top_half_against_bottom_half() -> None:
    result = pair("1:0 2:0 3:0 4:0 5:0 6:0", round_number=1)
    assert boards(result) == "1-4 2-5 3-6"
    assert result.bye is None
    assert result.path == (paths.TOP_BOTTOM,)


def test_round_one_with_odd_number_gives_the_last_the_bye() -> None:
    result = pair("1:0 2:0 3:0 4:0 5:0", round_number=1)
    assert (boards(result), result.bye) == ("1-3 2-4", 5)


# Step 1: bye ------------------------------------------------------------------------------
#  order   1:1  2:1  3:1 (had a bye)  4:0  5:0      round 2, median ½ (empty)
#  bye: 5, the lowest-ranked without one. 1, 2, 3 on 1 point: odd, 3 floats down to the
#  empty median; 4 alone on 0 floats up; the median pairs 3-4.
def test_bye_goes_to_the_lowest_ranked_without_one() -> None:
    result = pair("1:1 2:1 3:1 4:0 5:0", "1-4 2-5", round_number=2, had_bye="3")
    assert result.bye == 5
    assert boards(result) == "1-2 3-4"
    assert result.path == (
        paths.TOP_DOWN,
        paths.ODD_GROUP_FLOATER,
        paths.BOTTOM_UP,
        paths.MEDIAN_GROUP,
        paths.MIXED_GROUP,
    )


def test_bye_when_everybody_had_one_goes_to_the_lowest_ranked() -> None:
    result = pair("1:1 2:1 3:1", round_number=2, had_bye="1 2 3")
    assert (boards(result), result.bye, result.path) == ("1-2", 3, (paths.TOP_DOWN,))


# Step 2: score groups, empty median --------------------------------------------------------
#  round 3, median 1 point: nobody has it.   2 points: 1 2 3 4    0 points: 5 6 7 8
#  groups pair within themselves, top half v bottom half; the empty median is left empty.
def test_score_groups_pair_apart_around_an_empty_median() -> None:
    result = pair(
        "1:2 2:2 3:2 4:2 5:0 6:0 7:0 8:0",
        "1-5 2-6 3-7 4-8 1-2 3-4 5-6 7-8",
        round_number=3,
    )
    assert boards(result) == "1-3 2-4 5-7 6-8"
    assert result.path == (paths.TOP_DOWN, paths.BOTTOM_UP)


def test_median_group_is_the_group_on_half_the_rounds_played() -> None:
    #  round 5, median 2: 3 4 5 6 are on it and are paired last, 3-5 4-6.
    result = pair("1:3 2:3 3:2 4:2 5:2 6:2 7:1 8:1", "1-3 2-4 5-7 6-8", round_number=5)
    assert boards(result) == "1-2 3-5 4-6 7-8"
    assert result.path == (paths.TOP_DOWN, paths.BOTTOM_UP, paths.MEDIAN_GROUP)


# Step 3.1 / 4: islands ----------------------------------------------------------------------
#  round 3, median 1.  2 points: 1 2 3 4 (1 has met 2, 3, 4: an island)   1 point: 5 6
#  0 points: 7 8.  1 moves down; 5, the best of the median group with an unmet opponent
#  among 2 3 4, comes up.  Group 2 3 4 5: upfloater 5 takes the worst available, 4; 2-3.
#  The median group 1 6 pairs 1-6; 7-8.
def test_island_moves_down_and_the_best_of_the_lower_group_comes_up() -> None:
    result = pair("1:2 2:2 3:2 4:2 5:1 6:1 7:0 8:0", "1-2 1-3 1-4 5-7 6-8", round_number=3)
    assert boards(result) == "1-6 2-3 4-5 7-8"
    assert result.path == (
        paths.TOP_DOWN,
        paths.ISLANDS,
        paths.MIXED_GROUP,
        paths.BOTTOM_UP,
        paths.MEDIAN_GROUP,
    )


#  round 3, median 1.  2 points: 1 2   1 point: 3 4   0 points: 5 6 7 8 (8 has met 5, 6, 7).
#  From the bottom up: 8 moves up; 4, the worst of the median group with an unmet opponent
#  among 5 6 7, comes down. Group 4 5 6 7: downfloater 4 takes the best available, 5; 6-7.
#  The median group 3 8 pairs 3-8.
def test_island_moves_up_and_the_worst_of_the_higher_group_comes_down() -> None:
    result = pair("1:2 2:2 3:1 4:1 5:0 6:0 7:0 8:0", "8-5 8-6 8-7", round_number=3)
    assert boards(result) == "1-2 3-8 4-5 6-7"
    assert result.path == (
        paths.TOP_DOWN,
        paths.BOTTOM_UP,
        paths.ISLANDS,
        paths.MIXED_GROUP,
        paths.MEDIAN_GROUP,
    )


def test_island_moves_alone_when_the_lower_group_has_nobody_to_send() -> None:
    #  2 points: 1 2 3 (1 met 2 and 3); 1 point (median, round 3): 4 (met 2 and 3); 0: none.
    #  1 moves down alone; 2 3 pair; the median group 1 4 pairs 1-4.
    result = pair("1:2 2:2 3:2 4:1", "1-2 1-3 4-2 4-3", round_number=3)
    assert boards(result) == "1-4 2-3"
    assert result.path == (paths.TOP_DOWN, paths.ISLANDS, paths.MEDIAN_GROUP, paths.MIXED_GROUP)


# Step 3.2 / 4: odd groups -------------------------------------------------------------------
#  round 3, median 1.  2 points: 1 2 3 (odd: 3, the lowest, floats down)   1 point: 4 5 6
#  0 points: 7 8.  Median group 3 4 5 6: downfloater 3 takes the best available: 4 is met,
#  so 5; then 4-6.
def test_odd_group_above_the_median_sends_its_lowest_down() -> None:
    result = pair("1:2 2:2 3:2 4:1 5:1 6:1 7:0 8:0", "3-4", round_number=3)
    assert boards(result) == "1-2 3-5 4-6 7-8"
    assert result.path == (
        paths.TOP_DOWN,
        paths.ODD_GROUP_FLOATER,
        paths.BOTTOM_UP,
        paths.MEDIAN_GROUP,
        paths.MIXED_GROUP,
    )


#  round 3, median 1.  2 points: 1 2   1 point: 3 4 5   0 points: 6 7 8 (odd: 6, the best,
#  floats up).  Median group 3 4 5 6: upfloater 6 takes the worst available: 5 is met, so 4;
#  then 3-5.
def test_odd_group_below_the_median_sends_its_best_up() -> None:
    result = pair("1:2 2:2 3:1 4:1 5:1 6:0 7:0 8:0", "5-6", round_number=3)
    assert boards(result) == "1-2 3-5 4-6 7-8"
    assert result.path == (
        paths.TOP_DOWN,
        paths.BOTTOM_UP,
        paths.ODD_GROUP_FLOATER,
        paths.MEDIAN_GROUP,
        paths.MIXED_GROUP,
    )


# Step 3.4: players who cannot be paired float on -------------------------------------------
#  round 4, median 1½ (empty).  3 points: 1 2 3 4, where 2 3 4 have all met each other:
#  no player is an island but the group cannot pair. The fewest leaving: two; the
#  lowest-ranked pair first, 3 and 4, leaves 1-2. 2 points: 3 4 5 6 then pairs the
#  downfloaters first: 3 takes 5 (4 is met), 4 takes 6.  1 point: 7-8.
def test_unpairable_players_float_on_lowest_ranked_first() -> None:
    result = pair("1:3 2:3 3:3 4:3 5:2 6:2 7:1 8:1", "2-3 2-4 3-4", round_number=4)
    assert boards(result) == "1-2 3-5 4-6 7-8"
    assert result.path == (
        paths.TOP_DOWN,
        paths.UNPAIRABLE_FLOATERS,
        paths.MIXED_GROUP,
        paths.BOTTOM_UP,
    )


def test_unpairable_players_float_up_best_ranked_first() -> None:
    #  Mirror, round 4, median 1½ (empty).  0 points: 5 6 7 8, where 5 6 7 have all met each
    #  other. The best-ranked pair first, 5 and 6, floats up, leaving 7-8. 1 point: 3 4 5 6,
    #  upfloaters first: 5 takes the worst available (6 is met), 4; 6 takes 3.
    result = pair("1:2 2:2 3:1 4:1 5:0 6:0 7:0 8:0", "5-6 5-7 6-7", round_number=4)
    assert boards(result) == "1-2 3-6 4-5 7-8"
    assert result.path == (
        paths.TOP_DOWN,
        paths.BOTTOM_UP,
        paths.UNPAIRABLE_FLOATERS,
        paths.MIXED_GROUP,
    )


# Step 3.3: mixed groups ---------------------------------------------------------------------
#  round 3, median 1.  2 points: 1 (alone: floats down)   1 point: 2 3 4 5   0 points: 6
#  (alone: floats up).  Median group 1 2 3 4 5 6, upfloaters first: 6 takes the worst
#  available, 5. Then downfloater 1 takes the best *available*: 2 is unmet, but 3 and 4 have
#  met, so after 1-2 the rest could not pair; 1-3. The rest: 2-4.
def test_mixed_group_pairs_floaters_first_with_the_best_or_worst_available() -> None:
    result = pair("1:2 2:1 3:1 4:1 5:1 6:0", "3-4", round_number=3)
    assert boards(result) == "1-3 2-4 5-6"
    assert result.path == (
        paths.TOP_DOWN,
        paths.ODD_GROUP_FLOATER,
        paths.BOTTOM_UP,
        paths.MEDIAN_GROUP,
        paths.MIXED_GROUP,
    )


# Step 6: rule 11.2 ---------------------------------------------------------------------------
#  round 3, median 1: all six on 1 point.  S1 = 1 2 3, S2 = 4 5 6; 1 has met 4.
#  S2 orders tried: 4 5 6 (1-4 met), 4 6 5 (1-4 met), 5 4 6: 1-5 2-4 3-6.
def test_rule_11_2_transposes_s2_in_lexicographic_order() -> None:
    result = pair("1:1 2:1 3:1 4:1 5:1 6:1", "1-4", round_number=3)
    assert boards(result) == "1-5 2-4 3-6"
    assert result.path == (paths.MEDIAN_GROUP, paths.TRANSPOSITION)


#  round 4, median 1½: all six on 1½.  1 has met 4 5 6: no order of S2 works. The first
#  exchange, by the smallest difference in position, is 3 with 4: S1 = 1 2 4, S2 = 3 5 6,
#  paired 1-3 2-5 4-6.
def test_rule_11_2_exchanges_between_halves_when_no_transposition_works() -> None:
    result = pair("1:1½ 2:1½ 3:1½ 4:1½ 5:1½ 6:1½", "1-4 1-5 1-6", round_number=4)
    assert boards(result) == "1-3 2-5 4-6"
    assert result.path == (paths.MEDIAN_GROUP, paths.EXCHANGE)


def test_past_the_exchange_bound_the_group_has_no_completion_by_rule_11_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The case above with no exchange allowed: rule 11.2 cannot pair the median group, it
    # stays blocked with no group to undo, and step 7 searches the unmet pairs: the cheapest
    # round (all on 1½, no pair across groups), first in depth-first order.
    monkeypatch.setattr(lim_halves, "EXCHANGE_BUDGET", 0)
    result = pair("1:1½ 2:1½ 3:1½ 4:1½ 5:1½ 6:1½", "1-4 1-5 1-6", round_number=4)
    assert boards(result) == "1-2 3-4 5-6"
    assert result.path == (paths.FALLBACK_SEARCH,)


def test_exchange_orders_follow_the_smallest_difference_then_the_lowest_s1_players() -> None:
    # Positions 1-based as in the FIDE tables: S1 = 1 2 3 4, S2 = 5 6 7 8.
    singles = [(a + 1, b + 1) for (a,), (b,) in itertools.islice(_single_exchanges(4), 9)]
    assert singles == [(4, 5), (4, 6), (3, 5), (4, 7), (3, 6), (2, 5), (4, 8), (3, 7), (2, 6)]
    doubles = [
        (tuple(x + 1 for x in a), tuple(y + 1 for y in b))
        for a, b in itertools.islice(_double_exchanges(4), 6)
    ]
    assert doubles == [
        ((3, 4), (5, 6)),
        ((3, 4), (5, 7)),
        ((2, 4), (5, 6)),
        ((3, 4), (5, 8)),
        ((3, 4), (6, 7)),
        ((2, 4), (5, 7)),
    ]


def test_rule_11_2_first_transposition_matches_enumerating_permutations() -> None:
    rng = random.Random(11)
    for _ in range(300):
        size = rng.choice([2, 4, 6, 8])
        met = _random_met(rng, size, density=0.45)
        half = size // 2
        expected = next(
            (
                perm
                for perm in itertools.permutations(range(half, size))
                if all(perm[i] not in met[i] for i in range(half))
            ),
            None,
        )
        found = pair_halves(list(range(size)), unplayed_graph(met))
        if expected is not None:
            assert found is not None
            assert [b for _, b in found.pairs] == list(expected)
            assert not found.exchanged
        else:
            assert found is None or found.exchanged


# Step 5: a blocked median group ----------------------------------------------------------
#  round 3, median 1.  2 points: 1 2   1 point: 3 4 (they have met)   0 points: 5 6.
#  1-2 and 5-6 are paired first; the median group 3 4 is blocked. Above it 0 players, below
#  0: not more from above, so the next higher group is undone: 1 2 come in as downfloaters.
#  1 takes the best available: 2 would leave 3-4, met; so 3. Then 2 takes 4.
def test_blocked_median_undoes_the_higher_group_on_a_tie() -> None:
    result = pair("1:2 2:2 3:1 4:1 5:0 6:0", "3-4", round_number=3)
    assert boards(result) == "1-3 2-4 5-6"
    assert result.path == (
        paths.TOP_DOWN,
        paths.BOTTOM_UP,
        paths.MEDIAN_GROUP,
        paths.MEDIAN_BLOCKED,
        paths.MIXED_GROUP,
    )


#  round 3, median 1.  2 points: 1 2 3 (odd: 3 floats down)   1 point: 4 (has met 3)
#  0 points: 5 6.  Median 3 4 blocked with one player from above, none from below: the next
#  lower group is undone, 5 6 come in as upfloaters. Upfloaters first: 5 takes the worst
#  available: 6 would leave 3-4, so 4. 6 takes 3.
def test_blocked_median_with_more_from_above_undoes_the_lower_group() -> None:
    result = pair("1:2 2:2 3:2 4:1 5:0 6:0", "3-4", round_number=3)
    assert boards(result) == "1-2 3-6 4-5"
    assert result.path == (
        paths.TOP_DOWN,
        paths.ODD_GROUP_FLOATER,
        paths.BOTTOM_UP,
        paths.MEDIAN_GROUP,
        paths.MEDIAN_BLOCKED,
        paths.MIXED_GROUP,
    )


# Step 7: never stuck ------------------------------------------------------------------------
#  round 7, median 3: twelve players on 3 points; for six rounds 1-6 played 7-12 all round.
#  Rule 11.2 would need three exchanges; the median group is blocked with nothing to undo.
#  The search: no cross-group pair is possible to avoid, so the first in depth-first order,
#  1-2 3-4 5-6 7-8 9-10 11-12.
def test_never_stuck_searches_the_unmet_pairs() -> None:
    history = " ".join(f"{a}-{b}" for a in range(1, 7) for b in range(7, 13))
    standings = " ".join(f"{p}:3" for p in range(1, 13))
    result = pair(standings, history, round_number=7)
    assert boards(result) == "1-2 3-4 5-6 7-8 9-10 11-12"
    assert result.path == (paths.FALLBACK_SEARCH,)
    assert not result.is_fallback


#  round 3, median 1: 1 on 2 points, 2 and 3 on 1; all three had a bye; 1 and 2 have met.
#  The bye goes to 3, and 1-2 is a rematch; with the next bye candidate, 2, the round 1-3
#  is rematch-free: the search takes it.
def test_never_stuck_tries_the_other_bye_candidates() -> None:
    result = pair("1:2 2:1 3:1", "1-2", round_number=3, had_bye="1 2 3")
    assert (boards(result), result.bye, result.path) == ("1-3", 2, (paths.FALLBACK_SEARCH,))


#  round 4: 1 2 3 4 have played all round. Only rematches are left: pair by the order, marked.
def test_fallback_pairs_by_the_order_and_marks_the_rematches() -> None:
    result = pair("1:2 2:2 3:1 4:1", "1-2 3-4 1-3 2-4 1-4 2-3", round_number=4)
    assert boards(result) == "1-2 3-4"
    assert result.path == (paths.FALLBACK,)
    assert [f"{p.higher}-{p.lower}" for p in result.rematch_pairs] == ["1-2", "3-4"]


def test_search_is_the_cheapest_round_first_in_depth_first_order() -> None:
    rng = random.Random(7)
    for _ in range(150):
        size = rng.choice([2, 4, 6, 8])
        points = sorted((rng.randint(0, 4) for _ in range(size)), reverse=True)
        met = _random_met(rng, size, density=0.4)
        expected = _brute_force_cheapest(points, met)
        assert search_round(points, unplayed_graph(met)) == expected


# Scale -----------------------------------------------------------------------------------
def test_a_500_player_score_group_with_a_few_conflicts_pairs_without_rematches() -> None:
    # Round 5 on 2 points each: one score group of 500, the median; S1 = 1-250, S2 = 251-500.
    # 1 has met 251-254, so takes 255; 2 has met 251: 252; 3 (who met 255) takes the free
    # 251, 4 takes 253, 5 254, and from 6 on i-(250+i). Built directly, no permutations.
    size = 500
    standings = " ".join(f"{p}:2" for p in range(1, size + 1))
    result = pair(standings, "1-251 1-252 1-253 1-254 2-251 3-255", round_number=5)
    pairs = [(p.higher, p.lower) for p in result.pairs]
    assert len(pairs) == 250
    assert pairs[:6] == [(1, 255), (2, 252), (3, 251), (4, 253), (5, 254), (6, 256)]
    assert pairs[6:] == [(i, 250 + i) for i in range(7, 251)]
    assert {p for pair in pairs for p in pair} == set(range(1, size + 1))
    assert result.path == (paths.MEDIAN_GROUP, paths.TRANSPOSITION)


def _random_met(rng: random.Random, size: int, *, density: float) -> list[frozenset[int]]:
    met: list[set[int]] = [set() for _ in range(size)]
    for a, b in itertools.combinations(range(size), 2):
        if rng.random() < density:
            met[a].add(b)
            met[b].add(a)
    return [frozenset(s) for s in met]


def _brute_force_cheapest(
    points: list[int], met: list[frozenset[int]]
) -> list[tuple[int, int]] | None:
    """Every rematch-free round in depth-first order; the first with the smallest cost."""
    best: tuple[tuple[int, int], list[tuple[int, int]]] | None = None
    for pairs in rematch_free_rounds(list(range(len(points))), met):
        cost = (
            sum(points[a] != points[b] for a, b in pairs),
            sum(abs(points[a] - points[b]) for a, b in pairs),
        )
        if best is None or cost < best[0]:
            best = (cost, pairs)
    return None if best is None else best[1]


def test_never_stuck_above_twenty_players_takes_the_first_round_in_search_order() -> None:
    #  round 13, median 6: 24 players on 6 points; 1-12 have played all of 13-24. Above 20
    #  players the search takes the first rematch-free round in depth-first order.
    history = " ".join(f"{a}-{b}" for a in range(1, 13) for b in range(13, 25))
    standings = " ".join(f"{p}:6" for p in range(1, 25))
    result = pair(standings, history, round_number=13)
    assert boards(result) == " ".join(f"{p}-{p + 1}" for p in range(1, 25, 2))
    assert result.path == (paths.FALLBACK_SEARCH,)


def _pair_halves_by_the_letter(
    players: list[int], met: list[frozenset[int]], budget: int
) -> tuple[list[tuple[int, int]], bool, bool] | None:
    """Rule 11.2 enumerated as written: every permutation, every exchange in order."""
    half = len(players) // 2

    def transposed(top: list[int], bottom: list[int]) -> list[tuple[int, int]] | None:
        for perm in itertools.permutations(bottom):
            if all(b not in met[a] for a, b in zip(top, perm, strict=True)):
                return list(zip(top, perm, strict=True))
        return None

    top, bottom = players[:half], players[half:]
    found = transposed(top, bottom)
    if found is not None:
        return found, [b for _, b in found] != bottom, False
    exchanges = list(_single_exchanges(half)) + list(_double_exchanges(half))
    for tried, (out_of_top, out_of_bottom) in enumerate(exchanges):
        if tried >= budget:
            return None
        leaving = {players[p] for p in out_of_top}
        arriving = {players[p] for p in out_of_bottom}
        new_top = sorted((set(top) - leaving) | arriving)
        new_bottom = sorted((set(bottom) - arriving) | leaving)
        found = transposed(new_top, new_bottom)
        if found is not None:
            return found, [b for _, b in found] != new_bottom, True
    return None


def test_rule_11_2_exchanges_match_trying_every_exchange_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The halves skip exchanges that cannot work (each crossing player needs an unmet
    # partner in the half it leaves) but count them against the budget: the same result.
    rng = random.Random(5)
    for budget in (20_000, 7, 1):
        monkeypatch.setattr(lim_halves, "EXCHANGE_BUDGET", budget)
        for _ in range(250):
            size = rng.choice([4, 6, 8])
            met = _random_met(rng, size, density=rng.choice([0.5, 0.6, 0.7]))
            found = pair_halves(list(range(size)), unplayed_graph(met))
            expected = _pair_halves_by_the_letter(list(range(size)), met, budget)
            if expected is None:
                assert found is None
            else:
                assert found is not None
                assert (list(found.pairs), found.transposed, found.exchanged) == expected


def _complete_by_the_letter(
    players: list[int], points: list[int], score: int, met: list[frozenset[int]]
) -> list[tuple[int, int]] | None:
    """Step 3.3 as written (upfloaters first): each floater in turn takes its first opponent
    after which the rest can pair at all, going back when rule 11.2 fails on the rest."""
    up = [(p, False) for p in players if 2 * points[p] < score]
    down = [(p, True) for p in players if 2 * points[p] > score]
    sequence = up + down

    def pairable(free: list[int]) -> bool:
        return next(rematch_free_rounds(free, met), None) is not None

    def search(free: list[int], position: int) -> list[tuple[int, int]] | None:
        while position < len(sequence) and sequence[position][0] not in free:
            position += 1
        if position == len(sequence):
            halves = pair_halves(free, unplayed_graph(met))  # checked against the letter above
            return None if halves is None else list(halves.pairs)
        floater, wants_best = sequence[position]
        options = [q for q in free if q != floater and q not in met[floater]]
        for q in options if wants_best else reversed(options):
            rest = [r for r in free if r not in (floater, q)]
            if pairable(rest):
                found = search(rest, position + 1)
                if found is not None:
                    return [(floater, q), *found]
        return None

    return search(sorted(players), 0) if pairable(sorted(players)) else None


def test_mixed_groups_go_back_over_floater_choices_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dense histories and no exchanges: rule 11.2 often fails on the players the floaters
    # leave, so the search goes back to earlier floaters and lists the opponents it had not
    # listed yet.
    listed = []
    partners = Matching.partners

    def counted(self: Matching, p: int) -> int:
        listed.append(p)
        return partners(self, p)

    monkeypatch.setattr(Matching, "partners", counted)
    monkeypatch.setattr(lim_halves, "EXCHANGE_BUDGET", 0)  # rule 11.2 fails more often
    rng = random.Random(3)
    for _ in range(300):
        size = rng.choice([4, 6, 8, 10])
        met = _random_met(rng, size, density=rng.choice([0.4, 0.55, 0.7]))
        points = sorted((rng.choice([3, 4, 4, 5]) for _ in range(size)), reverse=True)
        procedure = lim_groups._Procedure(points, unplayed_graph(met), NO_DEADLINE)
        group = lim_groups._Group(8, set(range(size)))
        found = procedure.complete(group, list(range(size)), upfloaters_first=True)
        expected = _complete_by_the_letter(list(range(size)), points, 8, met)
        assert (None if found is None else found.pairs) == expected
    assert listed  # the search went back to a floater at least once
