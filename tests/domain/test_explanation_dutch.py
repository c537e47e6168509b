"""``dutch`` explains its rounds (issue 22, "Why this pairing"; ``docs/dutch.md``).

Every board of every round of the shared reference tournaments (``tests/data/dutch``, the
1,000-player file marked ``slow``) and of the regressions has a placement naming its bracket
and the criterion that chose its pair; a pair named ``first`` is the pair of the bracket's
first candidate (Art. 4), worked out here from the rules, and the colour rule named gives the
board's White.

Worked by hand from the rules, ``dutch_p0008_r05_s101.trf``:

- Round 2. After round 1, players 1–4 won (1 and 3 with Black, 2 and 4 with White), so the
  1-point bracket is 1, 2, 3, 4, with mild preferences 1 W, 2 B, 3 W, 4 B. S1 = {1, 2},
  S2 = {3, 4}; the first candidate 1–3, 2–4 leaves two players without their colour in each
  pair; the transposition 1–4, 2–3 gives everyone theirs: C12 chose both boards, the first
  candidate's partner of 1 being 3 and of 2 being 4. Player 1 is White by 5.2.1 (1 wants
  White, 4 Black).
- Round 4. Scores after round 3: 2 has 2½; 1, 4, 5 have 2; 3 has 1½; 6, 7 have 1; 8 has 0.
  Player 2 moves down alone from the top (``first``: nobody to pair with) into the 2-point
  bracket, where the first candidate pairs the MDP 2 with the highest resident, 1, whom 2
  beat in round 3: C1. So 2 meets 5 and 1, 4 (who met in round 2) both move down, by C1.
- Round 4, board 3. In the 1-point bracket the MDP 4 meets 7, not 6, the first candidate's
  partner: with 6 paired, 7 would be left to meet 8 alone below, whom 7 played in round 3:
  the rest could not be paired, C4. 6 moves down (C4) and plays 8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings

from app.domain.deadline import NO_DEADLINE
from app.domain.errors import PairingImpossible
from app.domain.explanation import Placement, RoundExplanation, Step
from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.colours import colour_rule
from app.domain.pairing.dutch.criteria import Layout
from app.domain.pairing.dutch.explanation import (
    BRACKET,
    BYE,
    COLOUR,
    MOVED_DOWN,
    PAIR,
    first_candidate,
    reference,
)
from app.domain.pairing.dutch.round import dutch_round
from app.domain.pairing.dutch.state import PlayerState, player_states
from app.domain.pairing.dutch.types import Colour, DutchInput, DutchPairing
from app.domain.trf import read_trf
from app.domain.types import PlayerId
from tests.domain.dutch_reference import (
    GOLDEN_PARAMS,
    REGRESSIONS,
    cut_round_input,
    round_input,
    rounds,
)
from tests.domain.test_pairing_dutch_properties import (
    _may_meet,
    _quality,
    one_scoregroup,
)

CRITERIA = {
    "first",
    "A4.2",
    "A4.3",
    "A4.4",
    *(f"C{k}" for k in range(1, 22)),
}
"""The values of the fact ``criterion`` (``docs/dutch.md``, "Why this pairing")."""


def facts(step: Step) -> dict[str, int | str]:
    return dict(step.facts)


def only(placement: Placement, rule: str) -> Step:
    found = [step for step in placement.steps if step.rule == rule]
    assert len(found) == 1, (placement, rule)
    return found[0]


def check_round(round_: DutchInput, pairing: DutchPairing) -> None:
    """Every board and the bye placed, each with its bracket, criterion and colour rule; a
    ``first`` pair is the first candidate's pair of its bracket."""
    explanation = pairing.explanation
    assert explanation.system == "dutch"
    states = player_states(round_)
    rank = {
        s.id: k
        for k, s in enumerate(
            sorted(
                (states[p.id] for p in round_.players if p.present),
                key=lambda s: (-s.score, s.number),
            )
        )
    }
    brackets = {facts(s)["bracket"]: s for s in explanation.round_steps if s.rule == BRACKET}
    boards = [p for p in explanation.placements if p.board is not None]
    assert [p.board for p in boards] == list(range(1, len(pairing.boards) + 1))
    for placement, board in zip(boards, pairing.boards, strict=True):
        higher, lower = placement.players
        assert {higher, lower} == {board.white, board.black}
        assert rank[higher] < rank[lower]
        bracket = only(placement, BRACKET)
        number = facts(bracket)["bracket"]
        assert facts(brackets[number])["score"] == facts(bracket)["score"]
        pair = only(placement, PAIR)
        criterion = facts(pair)["criterion"]
        assert criterion in CRITERIA
        assert pair.ref == reference(str(criterion))
        first = _first_pairs(states, rank, brackets[number])
        assert (criterion == "first") == ((higher, lower) in first), placement
        moved = {s.players[0] for s in placement.steps if s.rule == MOVED_DOWN}
        assert moved == {p for p in (higher, lower) if p in bracket.players}
        colour = only(placement, COLOUR)
        assert facts(colour)["white"] == board.white == colour.players[0]
        assert colour.ref == f"C.04.3 Art. {facts(colour)['rule']}"
    byes = [p for p in explanation.placements if p.board is None]
    assert [p.players for p in byes] == ([(pairing.bye,)] if pairing.bye is not None else [])
    for placement in byes:
        only(placement, BRACKET)
        assert facts(only(placement, BYE))["criterion"] in CRITERIA


def _first_pairs(
    states: Mapping[PlayerId, PlayerState],
    rank: Mapping[PlayerId, int],
    bracket: Step,
) -> set[tuple[PlayerId, PlayerId]]:
    """Art. 4's first candidate of a bracket from its round step: its MDPs (the step's
    players) in order with the highest residents (everybody of its score), then the
    remainder's first half with the second half, in order."""
    score = facts(bracket)["score"]
    residents = sorted((p for p in rank if states[p].score == score), key=rank.__getitem__)
    mdps = list(bracket.players)
    assert len(residents) == facts(bracket)["residents"]
    k = min(len(mdps), len(residents))
    rest = residents[k:]
    half = len(rest) // 2
    return {(mdps[i], residents[i]) for i in range(k)} | {
        (rest[i], rest[half + i]) for i in range(half)
    }


@pytest.mark.parametrize("name", GOLDEN_PARAMS)
def test_every_board_of_the_reference_rounds_names_its_bracket_and_criterion(name: str) -> None:
    for number in range(1, rounds(name) + 1):
        round_ = round_input(name, number)
        check_round(round_, pair_dutch(round_))


@pytest.mark.parametrize("name", ["c9_bye_mdp_r6_a.trf", "c9_bye_mdp_r6_b.trf"])
def test_the_regression_rounds_are_explained_too(name: str) -> None:
    round_ = cut_round_input(read_trf((REGRESSIONS / name).read_text()), 6)
    check_round(round_, pair_dutch(round_))


def _steps(
    explanation: RoundExplanation, board: int
) -> list[tuple[str, tuple[int, ...], dict[str, int | str]]]:
    placement = next(p for p in explanation.placements if p.board == board)
    return [(s.rule, tuple(s.players), facts(s)) for s in placement.steps]


def test_round_2_of_a_small_file_by_hand() -> None:
    """The module's docstring, round 2: C12 chose both boards of the 1-point bracket."""
    explanation = pair_dutch(round_input("dutch_p0008_r05_s101.trf", 2)).explanation
    assert _steps(explanation, 1) == [
        (BRACKET, (), {"bracket": 1, "score": 2, "residents": 4, "moved_down": 0}),
        (PAIR, (1, 4), {"bracket": 1, "criterion": "C12", "first_partner": 3}),
        (COLOUR, (1,), {"rule": "5.2.1", "white": 1}),
    ]
    assert _steps(explanation, 2)[1] == (
        PAIR,
        (2, 3),
        {"bracket": 1, "criterion": "C12", "first_partner": 4},
    )


def test_round_4_of_a_small_file_by_hand() -> None:
    """The module's docstring, round 4: C1 sends 2 to 5 and 1, 4 down; C4 sends 6 down."""
    explanation = pair_dutch(round_input("dutch_p0008_r05_s101.trf", 4)).explanation
    assert _steps(explanation, 1) == [
        (BRACKET, (2,), {"bracket": 2, "score": 4, "residents": 3, "moved_down": 1}),
        (MOVED_DOWN, (2,), {"from_bracket": 1, "from_score": 5, "criterion": "first"}),
        (PAIR, (2, 5), {"bracket": 2, "criterion": "C1", "first_partner": 1}),
        (COLOUR, (5,), {"rule": "5.2.4", "white": 5}),
    ]
    board_3 = _steps(explanation, 3)
    assert board_3[1:4] == [
        (MOVED_DOWN, (4,), {"from_bracket": 2, "from_score": 4, "criterion": "C1"}),
        (MOVED_DOWN, (4,), {"from_bracket": 3, "from_score": 3, "criterion": "first"}),
        (PAIR, (4, 7), {"bracket": 4, "criterion": "C4", "first_partner": 6}),
    ]
    assert _steps(explanation, 4)[1] == (
        MOVED_DOWN,
        (6,),
        {"from_bracket": 4, "from_score": 2, "criterion": "C4"},
    )


# -- the criterion named, checked against the rules' text on one scoregroup -------------------

_BRUTE = ("C2", "C9", "C12", "C13", "C14", "C16")
"""The criteria of ``_quality``'s vector, in its order."""


def _change(
    chosen: Sequence[tuple[int, int]], first: Sequence[tuple[int, int]], start: int
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The pairs of ``chosen`` and of ``first`` reached from ``start`` along pairs the two do
    not share."""
    mate = {v: w for a, b in chosen for v, w in ((a, b), (b, a))}
    mate0 = {v: w for a, b in first for v, w in ((a, b), (b, a))}
    seen, stack = {start}, [start]
    while stack:
        v = stack.pop()
        for w in (mate.get(v), mate0.get(v)):
            if w is not None and w not in seen and mate.get(w) != mate0.get(w):
                seen.add(w)
                stack.append(w)
    return (
        {p for p in chosen if p[0] in seen or p[1] in seen},
        {p for p in first if p[0] in seen or p[1] in seen},
    )


@settings(max_examples=150, deadline=None)
@given(one_scoregroup())
def test_the_criterion_named_is_the_first_the_undone_change_loses_on(
    round_: DutchInput,
) -> None:
    """One scoregroup: undoing a board's change (its players paired as the first candidate
    pairs them) gives a candidate that breaks C1 or C3, or is worse on exactly the criterion
    named, by the criteria vector written from the rules (not from the engine's weights)."""
    try:
        pairing = pair_dutch(round_)
    except PairingImpossible:
        return  # nothing to explain
    states_by_id = player_states(round_)
    states = sorted(
        (states_by_id[p.id] for p in round_.players if p.present), key=lambda s: s.number
    )
    index = {s.id: k for k, s in enumerate(states)}
    chosen = [tuple(sorted((index[b.white], index[b.black]))) for b in pairing.boards]
    first = first_candidate((), range(len(states)))
    check_round(round_, pairing)
    for placement in pairing.explanation.placements:
        if placement.board is None:
            continue
        criterion = facts(only(placement, PAIR))["criterion"]
        a, b = (index[p] for p in placement.players)
        if criterion == "first":
            assert (a, b) in first
            continue
        mine, theirs = _change(chosen, first, a)
        undone = sorted((set(chosen) - mine) | theirs)
        forbidden = [(x, y) for x, y in undone if not _may_meet(states[x], states[y], round_)]
        if forbidden:
            met = any(states[y].id in states[x].opponents for x, y in forbidden)
            assert criterion == ("C1" if met else "C3")
            continue
        left = sorted(set(range(len(states))) - {v for p in undone for v in p})
        bye = index[pairing.bye] if pairing.bye is not None else None
        before = _quality(states, chosen, bye)
        after = _quality(states, undone, left[0] if left else None)
        differ = [k for k in range(len(before)) if before[k] != after[k]]
        if not differ:
            assert criterion in ("A4.2", "A4.3", "A4.4")
            continue
        assert before[differ[0]] < after[differ[0]]
        assert criterion == _BRUTE[differ[0]]


# -- the parts -------------------------------------------------------------------------------


def test_the_fields_add_up_to_the_width_below_completion() -> None:
    for rounds_played in (0, 1, 2, 7):
        layout = Layout(4, 12, {}, rounds_played)
        assert sum(width for _, width in layout.fields()) == layout.under_completion
    names = [name for name, _ in Layout(4, 12, {}, 2).fields()]
    assert names[0] == "C6" and names[-1] == "C21"
    assert names == sorted(names, key=lambda name: int(name[1:]))


def test_the_first_difference_is_read_field_by_field() -> None:
    layout = Layout(4, 8, {}, 2)
    widths = dict(reversed(layout.fields()))  # the first C8 field: the count's
    shift = {}
    offset = 0
    for name, width in reversed(layout.fields()):
        shift.setdefault(name, offset)
        offset += width
    c12 = 1 << shift["C12"]
    c14 = 1 << shift["C14"]
    assert widths["C12"] == 4
    assert layout.first_difference(c12, c14) == "C12"
    assert layout.first_difference(c14, c12) is None
    assert layout.first_difference(c12 + c14, c12) == "C14"
    assert layout.first_difference(c12, c12) == ""
    top = 1 << layout.under_completion
    assert layout.first_difference(top, c12) == "C4"
    # Sums of several pairs stay in their fields: three C12 pairs beat two plus every C13.
    c13 = 1 << shift["C13"]
    assert layout.first_difference(3 * c12, 2 * c12 + 5 * c13) == "C12"


def test_every_colour_rule_is_named_somewhere_in_the_reference_rounds() -> None:
    named = set()
    for name in ("dutch_p0012_r07_s101.trf", "dutch_p0031_r09_s101.trf"):
        for number in range(1, rounds(name) + 1):
            for placement in pair_dutch(round_input(name, number)).explanation.placements:
                named.update(facts(s)["rule"] for s in placement.steps if s.rule == COLOUR)
    assert named == {"5.2.1", "5.2.2", "5.2.3", "5.2.4", "5.2.5"}


def test_colour_rule_agrees_with_the_colour_given() -> None:
    round_ = round_input("dutch_p0016_r07_s101.trf", 5)
    states = player_states(round_)
    pairing = pair_dutch(round_)
    for placement in pairing.explanation.placements:
        if placement.board is None:
            continue
        higher, lower = (states[p] for p in placement.players)
        colour, rule = colour_rule(higher, lower, round_.initial_colour)
        white = higher.id if colour is Colour.WHITE else lower.id
        assert pairing.boards[placement.board - 1].white == white
        assert facts(only(placement, COLOUR))["rule"] == rule


def test_the_round_carries_the_explanation_of_its_own_boards() -> None:
    """``dutch_round``: the round's explanation is the engine's, placement *k* is board *k*,
    the bye's is the PAB."""
    round_ = round_input("dutch_p0031_r09_s101.trf", 6)
    generated = dutch_round(round_, next_id=100, deadline=NO_DEADLINE)
    explanation = generated.swiss_round.explanation
    assert explanation == pair_dutch(round_).explanation
    boards = {p.board: set(p.players) for p in explanation.placements if p.board is not None}
    assert boards == {m.board: {m.home, m.away} for m in generated.matches}
    assert [p.players for p in explanation.placements if p.board is None] == [
        generated.swiss_round.byes
    ]
