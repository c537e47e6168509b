"""The English sentences of ``dutch``'s explanation steps: every rule code and every value of
the facts that choose a variant has a template, and every step the engine gives (the reference
rounds of ``tests/data/dutch``) reads as its own sentence, not the generic one."""

from __future__ import annotations

from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.explanation import (
    BRACKET,
    BYE,
    BYE_SCORE,
    COLOUR,
    MOVED_DOWN,
    PAIR,
)
from app.domain.types import PlayerId
from app.pages.explanations import sentence
from app.pages.explanations_dutch import SENTENCES, VARIANTS
from tests.domain.dutch_reference import round_input, rounds
from tests.domain.test_explanation_dutch import CRITERIA

FILES = ("dutch_p0016_r07_s101.trf", "dutch_p0031_r09_s102.trf", "dutch_p0040_r09_s101.trf")


def _key(rule: str, facts: dict[str, int | str]) -> str:
    variant = VARIANTS.get(rule)
    return (variant(facts) if variant is not None else "") or rule


def test_every_criterion_and_colour_rule_has_its_own_sentence() -> None:
    for rule in (BYE_SCORE, BRACKET, MOVED_DOWN, PAIR, COLOUR, BYE):
        assert rule in SENTENCES
    for criterion in CRITERIA:
        for rule in (PAIR, MOVED_DOWN):
            assert _key(rule, {"criterion": criterion}) in SENTENCES, (rule, criterion)
    for colour_rule in ("5.2.1", "5.2.2", "5.2.3", "5.2.4", "5.2.5"):
        key = _key(COLOUR, {"rule": colour_rule})
        assert key != COLOUR and key in SENTENCES


def test_every_step_of_the_reference_rounds_fills_its_sentence() -> None:
    """Through the pages' ``sentence``: no step falls back to the generic sentence."""
    filled = set()
    for name in FILES:
        for number in range(1, rounds(name) + 1):
            explanation = pair_dutch(round_input(name, number)).explanation
            steps = [*explanation.round_steps]
            for placement in explanation.placements:
                steps.extend(placement.steps)
            for step in steps:
                text = sentence(step, {}, "en")
                assert not text.startswith("Rule "), (step, text)
                assert "%(" not in text
                filled.add(_key(step.rule, dict(step.facts)))
    assert {"dutch.pair/first", "dutch.pair/C1", "dutch.pair/colour"} <= filled
    assert {"dutch.bracket", "dutch.bracket/round", "dutch.moved_down/first"} <= filled


def test_a_sentence_in_words() -> None:
    explanation = pair_dutch(round_input("dutch_p0008_r05_s101.trf", 2)).explanation
    board_1 = next(p for p in explanation.placements if p.board == 1)
    names = {PlayerId(1): "Ada", PlayerId(4): "Bo"}
    assert [sentence(s, names, "en") for s in board_1.steps] == [
        "Paired in bracket 1 (score 1): 4 players of that score and 0 moved down from above.",
        "Ada plays Bo: the pairs the order of the rules gives would meet fewer colour "
        "preferences (C12).",
        "Ada has White: both players get the colour they prefer (Art. 5.2.1).",
    ]
