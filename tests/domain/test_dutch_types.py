"""The Dutch engine's input refuses histories that cannot have happened."""

from __future__ import annotations

import pytest

from app.domain.pairing.dutch.types import (
    CHESS_POINTS,
    Colour,
    DutchInput,
    DutchPlayer,
    InvalidDutchInput,
    Outcome,
    RoundRecord,
)
from app.domain.types import PlayerId, RoundNumber, Score


def test_every_outcome_scores_by_the_chess_table() -> None:
    scored = {outcome: outcome.points(CHESS_POINTS) for outcome in Outcome}
    assert scored == {
        Outcome.WIN: 2,
        Outcome.DRAW: 1,
        Outcome.LOSS: 0,
        Outcome.FORFEIT_WIN: 2,
        Outcome.FORFEIT_LOSS: 0,
        Outcome.PAIRING_BYE: 2,
        Outcome.HALF_POINT_BYE: 1,
        Outcome.FULL_POINT_BYE: 2,
        Outcome.ZERO_POINT_BYE: 0,
        Outcome.ABSENT: 0,
    }


def test_a_score_sums_the_history_in_half_points() -> None:
    player = DutchPlayer(
        PlayerId(1),
        1,
        (
            RoundRecord(Outcome.WIN, PlayerId(2), Colour.WHITE),
            RoundRecord(Outcome.HALF_POINT_BYE),
            RoundRecord(Outcome.PAIRING_BYE),
        ),
    )
    assert player.score(CHESS_POINTS) == Score(5)


def test_a_game_needs_an_opponent_and_a_colour_a_forfeit_an_opponent_a_bye_neither() -> None:
    with pytest.raises(InvalidDutchInput):
        RoundRecord(Outcome.WIN)
    with pytest.raises(InvalidDutchInput):
        RoundRecord(Outcome.LOSS, PlayerId(3))
    with pytest.raises(InvalidDutchInput):
        RoundRecord(Outcome.FORFEIT_LOSS)
    assert RoundRecord(Outcome.FORFEIT_LOSS, PlayerId(3)).colour is None
    with pytest.raises(InvalidDutchInput):
        RoundRecord(Outcome.PAIRING_BYE, PlayerId(3), Colour.BLACK)


def _two(first: RoundRecord, second: RoundRecord) -> tuple[DutchPlayer, ...]:
    return (
        DutchPlayer(PlayerId(1), 1, (first,)),
        DutchPlayer(PlayerId(2), 2, (second,)),
    )


def test_a_meeting_must_be_recorded_on_both_sides_with_opposite_colours() -> None:
    good = _two(
        RoundRecord(Outcome.WIN, PlayerId(2), Colour.WHITE),
        RoundRecord(Outcome.LOSS, PlayerId(1), Colour.BLACK),
    )
    assert len(DutchInput(good, RoundNumber(2), 5).players) == 2
    same_colour = _two(
        RoundRecord(Outcome.WIN, PlayerId(2), Colour.WHITE),
        RoundRecord(Outcome.LOSS, PlayerId(1), Colour.WHITE),
    )
    with pytest.raises(InvalidDutchInput):
        DutchInput(same_colour, RoundNumber(2), 5)
    one_sided = _two(
        RoundRecord(Outcome.WIN, PlayerId(2), Colour.WHITE),
        RoundRecord(Outcome.PAIRING_BYE),
    )
    with pytest.raises(InvalidDutchInput):
        DutchInput(one_sided, RoundNumber(2), 5)


def test_histories_must_cover_every_earlier_round_and_numbers_be_unique() -> None:
    with pytest.raises(InvalidDutchInput):
        DutchInput((DutchPlayer(PlayerId(1), 1),), RoundNumber(2), 5)
    with pytest.raises(InvalidDutchInput):
        DutchInput((DutchPlayer(PlayerId(1), 1), DutchPlayer(PlayerId(2), 1)), RoundNumber(1), 5)
    with pytest.raises(InvalidDutchInput):
        DutchInput((DutchPlayer(PlayerId(1), 1),), RoundNumber(6), 5)
