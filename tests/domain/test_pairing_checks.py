"""The checks of a pairing by hand, each on a tournament worked out by hand
(``app.domain.pairing_checks``, ``docs/rules.md`` "Pairing by hand")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from app.domain.colours import ColourRule
from app.domain.forbidden import PairConstraint, PairKind
from app.domain.manual_rounds import (
    HandPairing,
    PairingPlayersInvalid,
    PairingRulesBroken,
    round_facts,
)
from app.domain.pairing_checks import (
    Board,
    CheckedPlayer,
    CheckRule,
    PairingCheck,
    RoundFacts,
    Severity,
    check_pairing,
)
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    Forfeit,
    PairingSystem,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Score,
)
from tests.domain.systems import ONE_AGAINST_ONE

CHESS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))
EVERYTHING = frozenset(CheckRule)
HOME_WINS = Result(1, 0)
DRAW = Result(0, 0)

Played = tuple[int, int, Result]


def tournament(
    system: PairingSystem, count: int, rounds: Sequence[tuple[Sequence[Played], Sequence[int]]]
) -> Tournament:
    """Players P1..Pn (ids 1..n, P1 the highest rated); each round made by hand as written
    (home first), every rule accepted, then its results recorded."""
    dutch = system is PairingSystem.DUTCH
    t = Tournament.create(
        Settings(seed=3, pairing=system, points=CHESS if dutch else PointsTable.default()),
        [NewPlayer(f"P{i}", 2000 - i) for i in range(1, count + 1)],
    )
    for boards, byes in rounds:
        pairing = HandPairing(
            tuple(Board(PlayerId(h), PlayerId(a)) for h, a, _ in boards),
            tuple(PlayerId(p) for p in byes),
            EVERYTHING,
        )
        swiss_round = t.pair_by_hand(pairing)
        for match in t.round_matches(swiss_round.number):
            result = next(r for h, a, r in boards if (h, a) == (match.home, match.away))
            t.record_result(match.id, result)
    return t


def checks(
    t: Tournament,
    boards: Sequence[tuple[int, int]],
    byes: Sequence[int] = (),
    forbidden: Sequence[PairConstraint] = (),
) -> list[PairingCheck]:
    proposed = [Board(PlayerId(h), PlayerId(a)) for h, a in boards]
    placed = [p for b in proposed for p in (b.home, b.away)] + [PlayerId(p) for p in byes]
    facts = round_facts(t, RoundNumber(t.current_round + 1), placed)
    return list(check_pairing(facts, proposed, [PlayerId(p) for p in byes], forbidden=forbidden))


def rules(found: Sequence[PairingCheck]) -> list[tuple[str, str, tuple[int, ...]]]:
    return [(c.rule.value, c.severity.value, tuple(c.players)) for c in found]


@pytest.mark.parametrize("system", ONE_AGAINST_ONE)
def test_a_rematch_is_an_error_in_every_system(system: PairingSystem) -> None:
    t = tournament(system, 4, [([(1, 2, HOME_WINS), (3, 4, HOME_WINS)], [])])
    # 2 and 3 met nobody of each other: no rematch there.
    found = checks(t, [(2, 1), (3, 4)])
    assert [c for c in rules(found) if c[0] == "rematch"] == [
        ("rematch", "error", (2, 1)),
        ("rematch", "error", (3, 4)),
    ]
    assert found[0].sentence.startswith("P2 and P1 have already met")
    assert not [c for c in checks(t, [(1, 3), (4, 2)]) if c.rule is CheckRule.REMATCH]


def test_a_forfeit_is_a_meeting_in_nearest_but_no_game_in_dutch() -> None:
    forfeit = Result(0, 0, forfeit=Forfeit.AWAY)
    for system, met in ((PairingSystem.NEAREST, True), (PairingSystem.DUTCH, False)):
        t = tournament(system, 4, [([(1, 2, forfeit), (3, 4, HOME_WINS)], [])])
        found = [c for c in checks(t, [(2, 1), (4, 3)]) if c.rule is CheckRule.REMATCH]
        assert [c.players for c in found] == ([(2, 1), (4, 3)] if met else [(4, 3)])


def test_a_second_bye_while_others_had_none_is_a_warning_in_nearest_and_lim() -> None:
    for system in (PairingSystem.NEAREST, PairingSystem.LIM):
        t = tournament(system, 5, [([(1, 2, HOME_WINS), (3, 4, HOME_WINS)], [5])])
        found = [c for c in checks(t, [(1, 3), (2, 4)], byes=[5]) if c.rule.value == "repeated_bye"]
        assert rules(found) == [("repeated_bye", "warning", (5,))]
        assert found[0].sentence == (
            "P5 has already had a bye while 4 player(s) of the round have had none (the bye "
            "goes to a player without one first)"
        )
        assert not [
            c for c in checks(t, [(1, 3), (2, 5)], byes=[4]) if c.rule.value == "repeated_bye"
        ]


def test_a_second_bye_when_everybody_had_one_is_no_error_in_nearest() -> None:
    def player(pid: int, byes: int) -> CheckedPlayer:
        return CheckedPlayer(PlayerId(pid), f"P{pid}", None, Score(0), pid, frozenset(), byes)

    facts = RoundFacts(
        False,
        False,
        4,
        {PlayerId(p): player(p, 1) for p in (1, 2, 3)},
        last_round=False,
        top_line=Score(0),
        lot_home_to_better={None: True},
    )
    one = [Board(PlayerId(1), PlayerId(2))]
    assert not [
        c for c in check_pairing(facts, one, [PlayerId(3)]) if c.rule.value == "repeated_bye"
    ]
    facts = replace(facts, players={**facts.players, PlayerId(1): player(1, 0)})
    found = [c for c in check_pairing(facts, one, [PlayerId(3)]) if c.rule.value == "repeated_bye"]
    assert rules(found) == [("repeated_bye", "warning", (3,))]


def test_dutch_c2_a_second_pab_and_a_pab_after_a_forfeit_win() -> None:
    forfeit = Result(0, 0, forfeit=Forfeit.AWAY)
    t = tournament(PairingSystem.DUTCH, 5, [([(1, 2, forfeit), (3, 4, HOME_WINS)], [5])])
    assert rules(checks(t, [(2, 3), (4, 1)], byes=[5]))[:1] == [("repeated_bye", "error", (5,))]
    found = [c for c in checks(t, [(2, 3), (4, 5)], byes=[1]) if c.rule.value != "score_difference"]
    c2 = [c for c in found if c.rule is CheckRule.ABSOLUTE_CRITERIA]
    assert rules(c2) == [("absolute_criteria", "error", (1,))]
    assert "C2" in c2[0].sentence


def four_after_two_rounds() -> Tournament:
    """Colours after two drawn rounds: P1 and P3 White twice, P2 and P4 Black twice; all on
    1 point of 2 (no topscorer: round 3 of 3 needs more than 2 points of 4)."""
    return tournament(
        PairingSystem.DUTCH,
        4,
        [([(1, 2, DRAW), (3, 4, DRAW)], []), ([(1, 4, DRAW), (3, 2, DRAW)], [])],
    )


def test_dutch_c3_and_the_colour_rule() -> None:
    t = four_after_two_rounds()
    assert t.format.swiss_rounds == 3
    found = checks(t, [(2, 4), (1, 3)])
    # P2 and P4 have not met, nor P1 and P3: only the colours stand in the way.
    assert rules(found) == [
        ("absolute_criteria", "error", (2, 4)),
        ("absolute_criteria", "error", (1, 3)),
        ("colour", "error", (4,)),
        ("colour", "error", (1,)),
    ]
    assert "both have an absolute preference for White (C3" in found[0].sentence
    assert found[2].sentence.startswith("P4 would have a colour difference of -3 with Black")
    assert found[3].sentence.startswith("P1 would have a colour difference of +3 with White")


def test_dutch_a_topscorers_board_in_the_last_round_is_exempt() -> None:
    """P1 won both rounds (2 of 2 points: a topscorer before round 3 of 3, over half the
    maximum); P3 drew both (1 point: not one). Both had White twice."""
    t = tournament(
        PairingSystem.DUTCH,
        4,
        [([(1, 2, HOME_WINS), (3, 4, DRAW)], []), ([(1, 4, HOME_WINS), (3, 2, DRAW)], [])],
    )
    for board in ((3, 1), (1, 3)):
        found = checks(t, [board, (2, 4)])
        assert not [c for c in found if set(c.players) & {1, 3}], board
    # P2 and P4 (Black twice, neither a topscorer) still may not meet, nor take Black again.
    assert rules(
        [c for c in checks(t, [(3, 1), (2, 4)]) if c.rule.value != "score_difference"]
    ) == [
        ("absolute_criteria", "error", (2, 4)),
        ("colour", "error", (4,)),
    ]


def test_dutch_three_in_a_row_without_a_difference_beyond_two() -> None:
    # P1: Black, White, White → White again is three in a row with a difference of +2.
    t = tournament(
        PairingSystem.DUTCH,
        6,
        [
            ([(2, 1, DRAW), (3, 4, DRAW), (5, 6, DRAW)], []),
            ([(1, 3, DRAW), (4, 5, DRAW), (6, 2, DRAW)], []),
            ([(1, 5, DRAW), (2, 4, DRAW), (3, 6, DRAW)], []),
        ],
    )
    found = [c for c in checks(t, [(1, 6), (4, 2), (5, 3)]) if c.players == (1,)]
    assert rules(found) == [("colour", "error", (1,))]
    assert "White three times in a row" in found[0].sentence


def test_nearest_colours_follow_colours_md_or_warn() -> None:
    t = tournament(PairingSystem.NEAREST, 4, [([(1, 2, HOME_WINS), (3, 4, HOME_WINS)], [])])
    # P2 was away, P3 at home: rule 1 seats P2 at home.
    found = checks(t, [(3, 2), (1, 4)])
    colour = [c for c in found if c.rule is CheckRule.COLOUR]
    assert rules(colour) == [("colour", "warning", (3, 2)), ("colour", "warning", (1, 4))]
    assert colour[0].sentence == (
        "colours.md seats P2 at home against P3 (rule 1: fewer home games)"
    )
    assert not [c for c in checks(t, [(2, 3), (4, 1)]) if c.rule is CheckRule.COLOUR]
    t.pair_by_hand(
        HandPairing(
            (Board(PlayerId(2), PlayerId(3)), Board(PlayerId(1), PlayerId(4))), accept=EVERYTHING
        )
    )
    rules_used = [m.colour_rule for m in t.round_matches(2)]
    assert rules_used == [ColourRule.FEWER_HOME, ColourRule.MANUAL]


def test_a_score_group_between_the_two_players_is_a_warning() -> None:
    # After round 1: P1 and P5 3 points, P3 and P4 1 point, P2 and P6 nothing.
    t = tournament(
        PairingSystem.LIM, 6, [([(1, 2, HOME_WINS), (3, 4, DRAW), (5, 6, HOME_WINS)], [])]
    )
    found = [c for c in checks(t, [(1, 6), (5, 3), (4, 2)]) if c.rule is CheckRule.SCORE_DIFFERENCE]
    assert rules(found) == [("score_difference", "warning", (1, 6))]
    assert found[0].sentence == (
        "P1 and P6 have 3 and 0 points: 1 score group(s) of the round lie between them"
    )


def test_forbidden_pairs_hard_and_soft() -> None:
    t = tournament(PairingSystem.NEAREST, 4, [])
    kept_apart = [
        PairConstraint(PlayerId(1), PlayerId(2), PairKind.HARD),
        PairConstraint(PlayerId(3), PlayerId(4), PairKind.SOFT),
    ]
    found = [
        c
        for c in checks(t, [(2, 1), (3, 4)], forbidden=kept_apart)
        if c.rule.value == "forbidden_pair"
    ]
    assert rules(found) == [
        ("forbidden_pair", "error", (2, 1)),
        ("forbidden_pair", "warning", (3, 4)),
    ]
    assert found[0].sentence == "P2 and P1 must never be paired (a hard forbidden pair)"


def test_an_error_refuses_the_round_unless_accepted_and_changes_nothing() -> None:
    t = tournament(PairingSystem.NEAREST, 4, [([(1, 2, HOME_WINS), (3, 4, HOME_WINS)], [])])
    again = (Board(PlayerId(1), PlayerId(2)), Board(PlayerId(3), PlayerId(4)))
    with pytest.raises(PairingRulesBroken) as refused:
        t.pair_by_hand(HandPairing(again))
    assert refused.value.refused == (CheckRule.REMATCH,)
    assert t.current_round == 1 and len(t.matches) == 2
    with pytest.raises(PairingRulesBroken):
        t.pair_by_hand(HandPairing(again, accept=frozenset({CheckRule.COLOUR})))
    made = t.pair_by_hand(HandPairing(again, accept=frozenset({CheckRule.REMATCH})))
    assert made.manual and [c.rule for c in made.checks if c.severity is Severity.ERROR] == [
        CheckRule.REMATCH,
        CheckRule.REMATCH,
    ]
    assert len(made.rematch_pairs) == 2


def test_every_player_exactly_once() -> None:
    t = tournament(PairingSystem.NEAREST, 5, [])
    with pytest.raises(PairingPlayersInvalid) as refused:
        t.pair_by_hand(
            HandPairing((Board(PlayerId(1), PlayerId(1)), Board(PlayerId(2), PlayerId(7))))
        )
    found = refused.value.problems
    assert (found.missing, found.twice, found.unknown) == ((3, 4, 5), (1,), (7,))
    assert str(refused.value) == (
        "every player of the round must be placed exactly once, on a board or on the bye "
        "(missing: P3, P4, P5; placed twice: P1; no such player: 7)"
    )
    with pytest.raises(PairingPlayersInvalid) as refused:
        t.pair_by_hand(
            HandPairing(
                (Board(PlayerId(1), PlayerId(2)),), byes=(PlayerId(3), PlayerId(4), PlayerId(5))
            )
        )
    assert refused.value.problems.extra_byes == (3, 4, 5)
