"""Players' claims on a board (``app.domain.reports``): worked cases and the state machine's
invariants over any sequence of claims."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.domain.reports import (
    NO_CLAIMS,
    BoardState,
    Claims,
    ReportStep,
    report,
)
from app.domain.types import Result, Side

HOME, AWAY = Side.HOME, Side.AWAY
WIN, LOSS, DRAW = Result(2, 1), Result(1, 2), Result(1, 1)


def test_a_first_claim_waits_for_the_other_side() -> None:
    reported = report(NO_CLAIMS, HOME, WIN)
    assert (reported.step, reported.result, reported.changed) == (ReportStep.CLAIMED, None, True)
    assert reported.claims == Claims(home=WIN)
    assert reported.claims.state is BoardState.PENDING


def test_the_other_side_confirms_the_same_result() -> None:
    reported = report(Claims(home=WIN), AWAY, WIN)
    assert (reported.step, reported.result, reported.claims) == (
        ReportStep.CONFIRMED,
        WIN,
        NO_CLAIMS,
    )


def test_a_different_result_is_a_dispute_until_a_side_agrees() -> None:
    disputed = report(Claims(home=WIN), AWAY, LOSS)
    assert (disputed.step, disputed.claims.state) == (ReportStep.DISPUTED, BoardState.DISPUTED)
    assert disputed.claims == Claims(WIN, LOSS)
    still = report(disputed.claims, HOME, DRAW)
    assert (still.step, still.claims) == (ReportStep.DISPUTED, Claims(DRAW, LOSS))
    agreed = report(still.claims, HOME, LOSS)
    assert (agreed.step, agreed.result) == (ReportStep.CONFIRMED, LOSS)


def test_one_side_alone_never_confirms_and_a_repeat_changes_nothing() -> None:
    first = report(NO_CLAIMS, AWAY, DRAW)
    repeat = report(first.claims, AWAY, DRAW)
    assert (repeat.step, repeat.changed, repeat.claims) == (ReportStep.CLAIMED, False, first.claims)
    changed = report(first.claims, AWAY, WIN)
    assert (changed.step, changed.changed, changed.claims) == (
        ReportStep.CLAIMED,
        True,
        Claims(away=WIN),
    )


def test_states() -> None:
    assert NO_CLAIMS.state is BoardState.OPEN
    assert Claims(away=WIN).state is BoardState.PENDING
    assert Claims(WIN, LOSS).state is BoardState.DISPUTED


results = st.builds(Result, st.integers(0, 3), st.integers(0, 3))
claims = st.lists(st.tuples(st.sampled_from(Side), results), max_size=12)


@given(claims)
def test_a_result_comes_only_from_both_sides_agreeing(sequence: list[tuple[Side, Result]]) -> None:
    """Claims are sent one after another until one confirms (the board then takes no more):
    at each step the kept claims are each side's latest; a result is confirmed exactly when
    both sides' latest claims are the same, and it is that result; the state says whether the
    claims kept are none, one side's, or two that differ."""
    state = NO_CLAIMS
    latest: dict[Side, Result] = {}
    for side, result in sequence:
        reported = report(state, side, result)
        before = dict(latest)
        latest[side] = result
        agreed = latest.get(side.other) == result
        assert (reported.step is ReportStep.CONFIRMED) == agreed
        if agreed:
            assert reported.result == result
            assert reported.claims == NO_CLAIMS and reported.changed
            return
        assert reported.result is None
        assert reported.claims == Claims(latest.get(HOME), latest.get(AWAY))
        assert reported.changed == (before != latest)
        expected = BoardState.DISPUTED if len(latest) == 2 else BoardState.PENDING
        assert reported.claims.state is expected
        assert (reported.step is ReportStep.DISPUTED) == (expected is BoardState.DISPUTED)
        state = reported.claims


@given(st.lists(results, min_size=1, max_size=10), st.sampled_from(Side))
def test_one_side_alone_never_makes_a_result(sequence: list[Result], side: Side) -> None:
    state = NO_CLAIMS
    for result in sequence:
        reported = report(state, side, result)
        assert reported.step is ReportStep.CLAIMED and reported.result is None
        state = reported.claims
    assert state.of(side) == sequence[-1] and state.of(side.other) is None
