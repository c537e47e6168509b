"""The one table of what may be done to a round in each state (``app.domain.round_actions``)."""

from __future__ import annotations

import pytest

from app.domain.errors import (
    NoMoreRounds,
    RoundHasResults,
    RoundIncomplete,
    RoundLocked,
    UnknownRound,
    WrongStatus,
)
from app.domain.round_actions import (
    ALLOWED,
    RoundAction,
    RoundSituation,
    RoundState,
    require,
    state_of,
)

A = RoundAction


def situation(
    number: int,
    *,
    current: int = 3,
    rounds: int = 5,
    final: bool = False,
    recorded: tuple[int, ...] = (),
    open_: tuple[int, ...] = (),
) -> RoundSituation:
    return RoundSituation(number, current, rounds, final, recorded, open_)


def test_the_table_as_docs_rules_md_gives_it() -> None:
    assert {state: sorted(actions) for state, actions in ALLOWED.items() if actions} == {
        RoundState.PLAYING: sorted([A.RESULT, A.CLOCK]),
        RoundState.PAIRED: sorted([A.RESULT, A.UNDO, A.REPAIR_BY_HAND, A.CLOCK]),
        RoundState.NEXT: sorted([A.PREVIEW, A.GENERATE, A.PAIR_BY_HAND]),
    }


@pytest.mark.parametrize(
    ("given", "state"),
    [
        (situation(2), RoundState.PAST),
        (situation(3, recorded=(9,), open_=(10,)), RoundState.PLAYING),
        (situation(3, open_=(9, 10)), RoundState.PAIRED),
        (situation(4, open_=(9,)), RoundState.WAITING),
        (situation(4), RoundState.NEXT),
        (situation(1, current=0), RoundState.NEXT),
        (situation(3, final=True), RoundState.CLOSED),
        (situation(2, final=True), RoundState.PAST),
        (situation(4, final=True), RoundState.AFTER_FINAL_PHASE),
        (situation(6, current=5), RoundState.EXHAUSTED),
        (situation(5), RoundState.UNKNOWN),
        (situation(0), RoundState.UNKNOWN),
    ],
)
def test_the_state_of_a_round(given: RoundSituation, state: RoundState) -> None:
    assert state_of(given) is state


@pytest.mark.parametrize(
    ("action", "given", "refusal", "words"),
    [
        (A.RESULT, situation(2), RoundLocked, "only in the latest round"),
        (A.UNDO, situation(2), RoundLocked, "undo round 3 first"),
        (A.REPAIR_BY_HAND, situation(2), RoundLocked, "only the latest round can be paired"),
        (A.UNDO, situation(3, recorded=(9, 11)), RoundHasResults, "(matches 9, 11)"),
        (A.REPAIR_BY_HAND, situation(3, recorded=(9,)), RoundHasResults, "pair the round again"),
        (A.GENERATE, situation(4, open_=(9,)), RoundIncomplete, "before generating round 4"),
        (A.PAIR_BY_HAND, situation(4, open_=(9,)), RoundIncomplete, "pairing round 4 by hand"),
        (A.UNDO, situation(4), UnknownRound, "round 4 has not been generated"),
        (A.REPAIR_BY_HAND, situation(3, final=True), WrongStatus, "paired again any more"),
        (A.GENERATE, situation(4, final=True), WrongStatus, "no Swiss round follows"),
        (A.PAIR_BY_HAND, situation(6, current=5), NoMoreRounds, "all 5 Swiss rounds"),
    ],
)
def test_what_a_state_refuses_and_why(
    action: RoundAction, given: RoundSituation, refusal: type[Exception], words: str
) -> None:
    with pytest.raises(refusal, match=None) as refused:
        require(action, given)
    assert words in str(refused.value)


def test_what_a_state_allows() -> None:
    assert require(A.REPAIR_BY_HAND, situation(3, open_=(9,))) is RoundState.PAIRED
    assert require(A.RESULT, situation(3, recorded=(9,))) is RoundState.PLAYING
    assert require(A.PAIR_BY_HAND, situation(4)) is RoundState.NEXT
