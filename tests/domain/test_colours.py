"""Home and away, each rule of ``colours.md`` on a history where it is the deciding one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.colours import ColourRule, Seating, assign_colours, seat_by_rank
from app.domain.errors import UnknownPlayer
from app.domain.types import Pair, PlayerId, Role

H, A = Role.HOME, Role.AWAY
BETTER, WORSE = PlayerId(1), PlayerId(2)
OTHERS = [PlayerId(number) for number in range(3, 9)]
# BETTER in position 1 of 4: the top half is positions 1..2.
TOP_ORDER = [BETTER, OTHERS[0], WORSE, OTHERS[1]]
# BETTER in position 3 of 4: the bottom half.
BOTTOM_ORDER = [OTHERS[0], OTHERS[1], BETTER, WORSE]


def seat_one(
    better: Sequence[Role | None] | None,
    worse: Sequence[Role | None] | None,
    *,
    order: Sequence[PlayerId] = TOP_ORDER,
    lot_home_to_better: bool = True,
) -> Seating:
    roles: dict[PlayerId, Sequence[Role | None]] = {}
    if better is not None:
        roles[BETTER] = better
    if worse is not None:
        roles[WORSE] = worse
    (seating,) = assign_colours(
        [Pair(higher=BETTER, lower=WORSE)],
        pairing_order=order,
        roles=roles,
        lot_home_to_better=lot_home_to_better,
    )
    return seating


def better_home(rule: ColourRule) -> Seating:
    return Seating(home=BETTER, away=WORSE, rule=rule)


def worse_home(rule: ColourRule) -> Seating:
    return Seating(home=WORSE, away=BETTER, rule=rule)


def test_rule_1_fewer_home_is_home() -> None:
    # Alternation alone would seat BETTER home (WORSE was home in round 3).
    assert seat_one([H, A, H], [A, H, A]) == worse_home(ColourRule.FEWER_HOME)
    assert seat_one([A, H, A], [H, A, H]) == better_home(ColourRule.FEWER_HOME)


def test_rule_1_counts_a_missing_history_as_never_home() -> None:
    assert seat_one(None, [H]) == better_home(ColourRule.FEWER_HOME)


def test_rule_2_more_away_is_home() -> None:
    # Home once each; BETTER was away once, WORSE had a bye.
    assert seat_one([H, A], [H, None]) == better_home(ColourRule.MORE_AWAY)
    assert seat_one([None, H], [A, H]) == worse_home(ColourRule.MORE_AWAY)


def test_rule_3_the_other_of_the_one_home_then_is_home_now() -> None:
    # Round 2 differs: WORSE was home then, so BETTER is home now.
    assert seat_one([H, A], [A, H]) == better_home(ColourRule.ALTERNATION)
    assert seat_one([A, H], [H, A]) == worse_home(ColourRule.ALTERNATION)


def test_rule_3_goes_back_past_rounds_with_equal_roles() -> None:
    # Round 3 is the same for both; round 2 decides.
    assert seat_one([H, A, H], [A, H, H]) == better_home(ColourRule.ALTERNATION)


def test_rule_3_role_against_none_home_then() -> None:
    # Round 2: WORSE home, BETTER none: BETTER is home now.
    assert seat_one([H, None], [None, H]) == better_home(ColourRule.ALTERNATION)


def test_rule_3_role_against_none_away_then() -> None:
    # Round 3: BETTER away, WORSE none: the one away then is home now.
    assert seat_one([None, H, A], [H, A, None]) == better_home(ColourRule.ALTERNATION)
    assert seat_one([H, A, None], [None, H, A]) == worse_home(ColourRule.ALTERNATION)


def test_a_shorter_history_has_no_role_in_the_rounds_it_does_not_reach() -> None:
    # Index 0 is round 1 in both lists: WORSE's [A, H] has no role in round 3, where BETTER
    # was home, so WORSE is home now. Aligned from the end instead, the two histories would
    # be identical and rule 4 would decide.
    assert seat_one([None, A, H], [A, H]) == worse_home(ColourRule.ALTERNATION)


def test_rule_4_better_in_top_half_takes_the_opposite_of_their_last_role() -> None:
    assert seat_one([H, A], [H, A], order=TOP_ORDER) == better_home(ColourRule.POSITION)
    assert seat_one([A, H], [A, H], order=TOP_ORDER) == worse_home(ColourRule.POSITION)


def test_rule_4_better_in_bottom_half_the_worse_takes_the_opposite() -> None:
    # WORSE was away last: WORSE is home now, though BETTER was away last too.
    assert seat_one([H, A], [H, A], order=BOTTOM_ORDER) == worse_home(ColourRule.POSITION)
    assert seat_one([A, H], [A, H], order=BOTTOM_ORDER) == better_home(ColourRule.POSITION)


def test_rule_4_last_role_skips_rounds_without_one() -> None:
    assert seat_one([H, A, None], [H, A, None]) == better_home(ColourRule.POSITION)


def test_rule_4_top_half_is_floor_of_half_with_the_bye_player_counted() -> None:
    # Five in the order (one of them has the bye): the top half is positions 1..2, so
    # BETTER in position 3 is in the bottom half.
    order = [OTHERS[0], OTHERS[1], BETTER, WORSE, OTHERS[2]]
    assert seat_one([H, A], [H, A], order=order) == worse_home(ColourRule.POSITION)
    order = [OTHERS[0], BETTER, OTHERS[1], WORSE, OTHERS[2]]
    assert seat_one([H, A], [H, A], order=order) == better_home(ColourRule.POSITION)


def test_rule_4_needs_the_better_players_position() -> None:
    with pytest.raises(UnknownPlayer, match="player 1"):
        seat_one([H], [H], order=OTHERS)


@pytest.mark.parametrize(
    ("better", "worse"),
    [(None, None), ([], []), ([None], [None, None]), (None, [None])],
    ids=["missing", "empty", "absent", "mixed"],
)
def test_no_role_at_all_goes_to_the_lot(
    better: Sequence[Role | None] | None, worse: Sequence[Role | None] | None
) -> None:
    assert seat_one(better, worse, lot_home_to_better=True) == better_home(ColourRule.LOT)
    assert seat_one(better, worse, lot_home_to_better=False) == worse_home(ColourRule.LOT)


def round_one(lot_home_to_better: bool) -> tuple[Seating, ...]:
    players = [PlayerId(number) for number in range(1, 7)]
    pairs = [
        Pair(players[0], players[3]),
        Pair(players[1], players[4]),
        Pair(players[2], players[5]),
    ]
    return assign_colours(
        pairs, pairing_order=players, roles={}, lot_home_to_better=lot_home_to_better
    )


def test_round_one_lot_alternates_boards_from_better_home() -> None:
    assert [(s.home, s.away, s.rule) for s in round_one(True)] == [
        (1, 4, ColourRule.LOT),
        (5, 2, ColourRule.LOT),
        (3, 6, ColourRule.LOT),
    ]


def test_round_one_lot_alternates_boards_from_worse_home() -> None:
    assert [(s.home, s.away, s.rule) for s in round_one(False)] == [
        (4, 1, ColourRule.LOT),
        (2, 5, ColourRule.LOT),
        (6, 3, ColourRule.LOT),
    ]


def test_seatings_keep_board_order_and_each_its_own_rule() -> None:
    p = [PlayerId(number) for number in range(1, 7)]
    roles: Mapping[PlayerId, Sequence[Role | None]] = {
        p[0]: [H, A],
        p[1]: [A, A],
        p[2]: [H, A],
        p[3]: [A, H],
        p[4]: [],
        p[5]: [None, None],
    }
    seatings = assign_colours(
        [Pair(p[0], p[1]), Pair(p[2], p[3]), Pair(p[4], p[5])],
        pairing_order=p,
        roles=roles,
        lot_home_to_better=True,
    )
    assert seatings == (
        Seating(home=p[1], away=p[0], rule=ColourRule.FEWER_HOME),
        Seating(home=p[2], away=p[3], rule=ColourRule.ALTERNATION),
        # Board 3 (index 2): the lot seats the better-ranked at home, as on board 1.
        Seating(home=p[4], away=p[5], rule=ColourRule.LOT),
    )


def test_final_phase_better_rank_is_home() -> None:
    assert seat_by_rank(Pair(higher=PlayerId(7), lower=PlayerId(3))) == Seating(
        home=PlayerId(7), away=PlayerId(3), rule=ColourRule.RANK
    )


histories = st.lists(st.sampled_from([H, A, None]), max_size=6)


@given(histories, histories, st.booleans(), st.booleans())
def test_the_pair_is_seated_once_and_swapping_histories_swaps_seats(
    better: list[Role | None], worse: list[Role | None], top: bool, lot: bool
) -> None:
    order = TOP_ORDER if top else BOTTOM_ORDER
    seating = seat_one(better, worse, order=order, lot_home_to_better=lot)
    assert {seating.home, seating.away} == {BETTER, WORSE}
    if seating.rule in (ColourRule.FEWER_HOME, ColourRule.MORE_AWAY, ColourRule.ALTERNATION):
        # Rules 1-3 look at the histories only, not at who is better-ranked.
        swapped = seat_one(worse, better, order=order, lot_home_to_better=lot)
        assert swapped.rule == seating.rule
        assert (swapped.home == BETTER) == (seating.home == WORSE)
