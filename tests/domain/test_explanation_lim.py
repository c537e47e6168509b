"""Why ``lim`` paired a round: the steps named for each board and bye, on the tables of
``test_pairing_lim`` worked by hand from ``pairing-lim.md`` (chess points: 1, ½, 0; facts in
half-points)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.explanation import FALLBACK, Placement, RoundExplanation, Step
from app.domain.pairing.base import Entrant, PairingContext, PairingHistory
from app.domain.pairing.lim import pair_round
from app.domain.pairing.lim.explanation import (
    BYE,
    DOWNFLOATER,
    EXCHANGE,
    FALLBACK_SEARCH,
    FLOATER_PAIRED,
    GROUP,
    HALVES,
    MEDIAN,
    MEDIAN_BLOCKED,
    SCORE_GROUP,
    SEARCHED,
    TOP_BOTTOM,
    TRANSPOSITION,
    UPFLOATER,
)
from app.domain.types import PlayerId, RoundNumber, Score
from tests.domain.test_pairing_lim import CHESS, pair


def on_board(explanation: RoundExplanation, players: tuple[int, int]) -> Placement:
    return next(p for p in explanation.placements if p.players == players)


def rules(placement: Placement) -> list[str]:
    return [s.rule for s in placement.steps]


def facts(step: Step) -> dict[str, int | str]:
    return dict(step.facts)


def test_round_one_is_top_half_against_bottom_half() -> None:
    explanation = pair("1:0 2:0 3:0 4:0 5:0", round_number=1).explanation

    assert [s.rule for s in explanation.round_steps] == [TOP_BOTTOM]
    board = on_board(explanation, (2, 4))
    assert board.board == 2
    assert board.steps == (
        Step(TOP_BOTTOM, "pairing-lim.md, the order", (2, 4), (("rank", 2), ("opponent_rank", 4))),
    )
    bye = explanation.placements[-1]
    assert (bye.board, bye.players, rules(bye)) == (None, (5,), [BYE])
    assert facts(bye.steps[0]) == {"rank": 5, "byes": 0}


def test_odd_groups_float_into_an_empty_median() -> None:
    # 5 has the bye; 1 2 3 on 1 point: 3 floats down into the empty median ½; 4 floats up;
    # the median pairs upfloaters first: 4 takes the worst available, 3.
    explanation = pair("1:1 2:1 3:1 4:0 5:0", "1-4 2-5", round_number=2, had_bye="3").explanation

    groups = [s for s in explanation.round_steps if s.rule == SCORE_GROUP]
    assert [(s.players, facts(s)) for s in groups] == [
        ((1, 2, 3), {"score": 2, "median": 0}),
        ((4,), {"score": 0, "median": 0}),
    ]
    assert [facts(s) for s in explanation.round_steps if s.rule == MEDIAN] == [{"median_score": 1}]
    top = on_board(explanation, (1, 2))
    assert rules(top) == [GROUP, HALVES]
    assert facts(top.steps[0]) == {"score": 2, "median": 0}
    median = on_board(explanation, (3, 4))
    assert rules(median) == [GROUP, DOWNFLOATER, UPFLOATER, FLOATER_PAIRED]
    assert facts(median.steps[0]) == {"score": 1, "median": 1}
    assert median.steps[1].players == (3,)
    assert facts(median.steps[1]) == {"from_score": 2, "to_score": 1, "reason": "odd"}
    assert median.steps[1].ref == "pairing-lim.md, step 3.2"
    assert facts(median.steps[2]) == {"from_score": 0, "to_score": 1, "reason": "odd"}
    assert median.steps[3].players == (4, 3)  # the upfloater, paired first, with the worst
    assert facts(median.steps[3]) == {"choice": "worst"}
    assert rules(explanation.placements[-1]) == [BYE]


def test_an_island_moves_down_and_the_best_of_the_lower_group_comes_up() -> None:
    # 1 has met 2 3 4: it moves down to 1 point, and 5 comes up in exchange; 5 takes the
    # worst available in the 2-point group, 4; 2-3; the median pairs 1-6.
    explanation = pair(
        "1:2 2:2 3:2 4:2 5:1 6:1 7:0 8:0", "1-2 1-3 1-4 5-7 6-8", round_number=3
    ).explanation

    island = on_board(explanation, (1, 6))
    assert rules(island) == [GROUP, DOWNFLOATER, FLOATER_PAIRED]  # the median: 1 and 6
    assert facts(island.steps[1]) == {"from_score": 4, "to_score": 2, "reason": "island"}
    exchanged = on_board(explanation, (4, 5))
    assert rules(exchanged) == [GROUP, UPFLOATER, FLOATER_PAIRED]
    assert facts(exchanged.steps[1]) == {"from_score": 2, "to_score": 4, "reason": "exchange"}
    assert exchanged.steps[2].players == (5, 4)
    assert rules(on_board(explanation, (2, 3))) == [GROUP, HALVES]
    assert facts(on_board(explanation, (2, 3)).steps[1]) == {"position": 1, "opponent_position": 1}


def test_unpairable_players_float_on() -> None:
    explanation = pair("1:3 2:3 3:3 4:3 5:2 6:2 7:1 8:1", "2-3 2-4 3-4", round_number=4).explanation

    board = on_board(explanation, (3, 5))
    assert rules(board) == [GROUP, DOWNFLOATER, FLOATER_PAIRED]
    assert facts(board.steps[1]) == {"from_score": 6, "to_score": 4, "reason": "unpairable"}
    assert facts(board.steps[2]) == {"choice": "best"}


def test_rule_11_2_transposition_and_exchange_are_named() -> None:
    transposed = pair("1:1 2:1 3:1 4:1 5:1 6:1", "1-4", round_number=3).explanation
    assert rules(on_board(transposed, (1, 5))) == [GROUP, HALVES, TRANSPOSITION]
    assert facts(on_board(transposed, (2, 4)).steps[1]) == {"position": 2, "opponent_position": 1}

    exchanged = pair("1:1½ 2:1½ 3:1½ 4:1½ 5:1½ 6:1½", "1-4 1-5 1-6", round_number=4).explanation
    # S1 = 1 2 4, S2 = 3 5 6 after exchanging 3 and 4: 4 (S1's third) plays 6 (S2's third).
    board = on_board(exchanged, (4, 6))
    assert rules(board) == [GROUP, HALVES, EXCHANGE]
    assert board.steps[1].players == (4, 6)
    assert facts(board.steps[1]) == {"position": 3, "opponent_position": 3}


def test_a_blocked_median_names_the_group_undone() -> None:
    # The median 3 4 (they have met) is blocked; the 2-point group 1 2 is undone into it.
    explanation = pair("1:2 2:2 3:1 4:1 5:0 6:0", "3-4", round_number=3).explanation

    (blocked,) = [s for s in explanation.round_steps if s.rule == MEDIAN_BLOCKED]
    assert blocked.players == (1, 2)
    assert facts(blocked) == {"undone_score": 4}
    board = on_board(explanation, (1, 3))
    assert rules(board) == [GROUP, DOWNFLOATER, FLOATER_PAIRED]
    assert facts(board.steps[0]) == {"score": 2, "median": 1}
    assert facts(board.steps[1]) == {"from_score": 4, "to_score": 2, "reason": "undone"}
    assert board.steps[1].ref == "pairing-lim.md, step 5"
    assert rules(on_board(explanation, (5, 6))) == [GROUP, HALVES]


def test_never_stuck_names_the_search() -> None:
    history = " ".join(f"{a}-{b}" for a in range(1, 7) for b in range(7, 13))
    standings = " ".join(f"{p}:3" for p in range(1, 13))
    explanation = pair(standings, history, round_number=7).explanation

    assert [s.rule for s in explanation.round_steps] == [FALLBACK_SEARCH]
    assert all(rules(p) == [SEARCHED] for p in explanation.placements)


def test_no_rematch_free_round_is_the_fallback() -> None:
    explanation = pair("1:1 2:1 3:1 4:1", "1-2 1-3 1-4 2-3 2-4 3-4", round_number=4).explanation

    assert [s.rule for s in explanation.round_steps] == [FALLBACK]
    assert all(rules(p) == [FALLBACK] for p in explanation.placements)


@settings(max_examples=80, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=13),
    rounds_played=st.integers(min_value=0, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_every_board_and_bye_has_a_placement_with_its_players(
    size: int, rounds_played: int, seed: int
) -> None:
    """Property: over random results, every round's boards and bye have one placement each,
    naming that board's players; every board paired by the groups says its group, and every
    floater step names one of the board's players."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, size + 1), 0)
    byes = dict.fromkeys(range(1, size + 1), 0)
    met: dict[PlayerId, set[PlayerId]] = {PlayerId(p): set() for p in points}
    for number in range(1, rounds_played + 2):
        order = [
            Entrant(PlayerId(p), Score(points[p]), byes[p], p)
            for p in sorted(points, key=lambda p: (-points[p], p))
        ]
        history = PairingHistory({p: frozenset(s) for p, s in met.items()})
        pairing = pair_round(order, history, PairingContext(RoundNumber(number), 3, "s", CHESS))
        placements = pairing.explanation.placements
        assert [p.board for p in placements] == list(range(1, len(pairing.pairs) + 1)) + (
            [None] if pairing.bye is not None else []
        )
        for placement, board in zip(placements, pairing.pairs, strict=False):
            assert placement.players == (board.higher, board.lower)
            assert placement.steps
            if (
                "top_down" in pairing.path
                or "bottom_up" in pairing.path
                or "median_group" in pairing.path
            ):
                assert placement.steps[0].rule == GROUP
            for s in placement.steps:
                if s.rule in {DOWNFLOATER, UPFLOATER}:
                    assert set(s.players) <= set(placement.players)
        if pairing.bye is not None:
            assert placements[-1].players == (pairing.bye,)
            assert rules(placements[-1]) == [BYE]
            byes[pairing.bye] += 1
            points[pairing.bye] += 2
        for board in pairing.pairs:
            met[board.higher].add(board.lower)
            met[board.lower].add(board.higher)
            winner = rng.choice([board.higher, board.lower, None])
            for p in (board.higher, board.lower):
                points[p] += 1 if winner is None else 2 * (p == winner)
