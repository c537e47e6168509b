"""Why ``nearest`` paired a round: the steps named for each board and bye, on rounds worked
by hand from ``pairing-nearest.md`` (players named by rank: id ``r`` is the ``r``-th)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.explanation import FALLBACK, Placement, RoundExplanation, Step
from app.domain.pairing.nearest import pair_round
from app.domain.pairing.nearest.explanation import (
    ALREADY_MET,
    BYE,
    BYE_LOOKAHEAD,
    BYE_NO_ROUND,
    DRAW,
    DRAW_BYE,
    DRAWN,
    LOOKAHEAD,
    LOOKAHEAD_IGNORED,
    NO_COMPLETION,
    PAIRED,
)
from tests.domain.test_pairing_nearest import SPEC_ROUNDS_1_2, context, field, history


def rules(placement: Placement) -> list[str]:
    return [step.rule for step in placement.steps]


def board(explanation: RoundExplanation, number: int | None) -> Placement:
    return next(p for p in explanation.placements if p.board == number)


def step(placement: Placement, rule: str) -> Step:
    return next(s for s in placement.steps if s.rule == rule)


def test_spec_worked_case_names_the_look_ahead_that_ruled_out_2_5() -> None:
    # Round 3 of the spec's 6 players: 1–3, 2–6, 4–5 (2–5 would leave two triangles).
    explanation = pair_round(field(6), SPEC_ROUNDS_1_2, context(3, later_rounds=1)).explanation

    assert explanation.system == "nearest"
    assert explanation.round_steps == ()
    first, second, third = (board(explanation, n) for n in (1, 2, 3))
    assert first.players == (1, 3)
    assert rules(first) == [ALREADY_MET, PAIRED]
    assert step(first, ALREADY_MET).players == (1, 2)
    assert step(first, PAIRED).facts == (("rank", 1), ("opponent_rank", 3), ("nearest", 1))
    assert second.players == (2, 6)
    assert rules(second) == [ALREADY_MET, LOOKAHEAD, PAIRED]
    assert step(second, ALREADY_MET).players == (2, 4)
    assert step(second, LOOKAHEAD).players == (2, 5)
    assert step(second, LOOKAHEAD).facts == (("count", 1), ("later_rounds", 1))
    assert step(second, LOOKAHEAD).ref == "pairing-nearest.md, step 4"
    assert step(second, PAIRED).facts == (("rank", 2), ("opponent_rank", 6), ("nearest", 0))
    assert rules(third) == [PAIRED]
    assert [p.board for p in explanation.placements] == [1, 2, 3]


def test_backtracking_is_named_with_the_candidates_it_ruled_out() -> None:
    # Round 4 of the spec: 2–3 would leave 5–6, who have met; so 2 takes 5.
    after_3 = history(*[(1, 2), (3, 4), (5, 6), (1, 6), (2, 4), (3, 5), (1, 3), (2, 6), (4, 5)])
    pairing = pair_round(field(6), after_3, context(4, later_rounds=0))
    second = board(pairing.explanation, 2)

    assert second.players == (2, 5)
    assert rules(second) == [NO_COMPLETION, PAIRED]
    assert step(second, NO_COMPLETION).players == (2, 3)
    assert step(second, NO_COMPLETION).ref == "pairing-nearest.md, step 3"
    assert rules(board(pairing.explanation, 1)) == [ALREADY_MET, PAIRED]
    assert step(board(pairing.explanation, 1), ALREADY_MET).players == (1, 2, 3)


def test_the_bye_names_the_candidates_passed_over_by_the_look_ahead() -> None:
    # Only 5 has no bye; with 5 out the last round is impossible, so 4 sits out (a second bye).
    played = history((1, 2), (1, 3), (2, 4), (3, 4))
    pairing = pair_round(field(5, byes=[1, 2, 3, 4]), played, context(3, later_rounds=1))
    bye = board(pairing.explanation, None)

    assert bye.players == (4,)
    assert rules(bye) == [BYE_LOOKAHEAD, BYE]
    assert step(bye, BYE_LOOKAHEAD).players == (5,)
    assert step(bye, BYE).facts == (("rank", 4), ("byes", 1))


def test_the_bye_names_the_candidates_with_no_rematch_free_round() -> None:
    # Only 1 has no bye; without 1, 2 and 3 would meet again: 3 sits out.
    pairing = pair_round(field(3, byes=[2, 3]), history((2, 3)), context(3, later_rounds=0))
    bye = board(pairing.explanation, None)

    assert rules(bye) == [BYE_NO_ROUND, BYE]
    assert step(bye, BYE_NO_ROUND).players == (1,)
    assert step(bye, BYE).facts == (("rank", 3), ("byes", 1))


def test_a_plain_bye_to_the_lowest_ranked_without_one() -> None:
    pairing = pair_round(field(5, byes=[5]), history((1, 2), (3, 4)), context(2, later_rounds=1))

    assert rules(board(pairing.explanation, None)) == [BYE]
    assert step(board(pairing.explanation, None), BYE).facts == (("rank", 4), ("byes", 0))


def test_look_ahead_ignored_is_a_round_step() -> None:
    pairing = pair_round(field(4), history((1, 2), (3, 4)), context(2, later_rounds=2))

    assert [s.rule for s in pairing.explanation.round_steps] == [LOOKAHEAD_IGNORED]
    assert pairing.explanation.round_steps[0].facts == (("later_rounds", 2),)


def test_round_1_names_the_places_drawn() -> None:
    pairing = pair_round(field(7), history(), context(1, later_rounds=3, seed="club-night"))
    shuffled = list(range(1, 8))
    random.Random("club-night").shuffle(shuffled)
    explanation = pairing.explanation

    assert explanation.round_steps == (
        Step(DRAW, "pairing-nearest.md, round 1", (), (("stream", "club-night"),)),
    )
    for placement in explanation.placements[:-1]:
        (drawn,) = placement.steps
        assert drawn.rule == DRAWN
        first, second = dict(drawn.facts)["first"], dict(drawn.facts)["second"]
        assert second == first + 1 and first % 2 == 1
        assert {shuffled[first - 1], shuffled[second - 1]} == set(placement.players)
    bye = explanation.placements[-1]
    assert bye.board is None and bye.players == (shuffled[-1],)
    assert bye.steps == (
        Step(DRAW_BYE, "pairing-nearest.md, round 1", (shuffled[-1],), (("place", 7),)),
    )


def test_a_fallback_round_lists_its_rematches() -> None:
    everyone = history((1, 2), (1, 3), (2, 3))
    pairing = pair_round(field(3, byes=[1]), everyone, context(4, later_rounds=0))
    explanation = pairing.explanation

    assert [s.rule for s in explanation.round_steps] == [FALLBACK]
    assert explanation.round_steps[0].players == (1, 2)
    assert rules(board(explanation, 1)) == [FALLBACK]
    assert dict(board(explanation, 1).steps[0].facts)["rematch"] == 1
    assert rules(board(explanation, None)) == [BYE]


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=11),
    rounds_played=st.integers(min_value=0, max_value=4),
    later=st.integers(min_value=0, max_value=3),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_every_board_and_bye_has_a_placement_with_its_players(
    size: int, rounds_played: int, later: int, seed: int
) -> None:
    """Property: a random history (earlier rounds paired by the system itself); every board
    and the bye of the next round have one placement, naming exactly that board's players,
    and every step names only players of the field."""
    rng = random.Random(seed)
    order = field(size, byes=rng.sample(range(1, size + 1), k=rng.randint(0, size // 2)))
    met: list[tuple[int, int]] = []
    for number in range(1, rounds_played + 2):
        rng.shuffle(order)
        pairing = pair_round(order, history(*met), context(number, later, seed=str(seed)))
        placements = pairing.explanation.placements
        assert [p.board for p in placements] == list(range(1, len(pairing.pairs) + 1)) + (
            [None] if pairing.bye is not None else []
        )
        for placement, pair in zip(placements, pairing.pairs, strict=False):
            assert placement.players == (pair.higher, pair.lower)
            assert placement.steps
        if pairing.bye is not None:
            assert placements[-1].players == (pairing.bye,)
            assert placements[-1].steps[-1].rule in {BYE, DRAW_BYE}
        ids = {e.id for e in order}
        for placement in placements:
            for s in (*placement.steps, *pairing.explanation.round_steps):
                assert set(s.players) <= ids
        met += [(p.higher, p.lower) for p in pairing.pairs]
