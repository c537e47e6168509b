"""Double elimination (``docs/rules.md``, "Double elimination"): layouts of 4 and 8 worked by
hand, and the invariants of every size 4–16 with any winners:

- nobody is out before two losses (with the reset; without it only the winners' bracket winner
  may finish second after one);
- nobody plays twice in a bracket round;
- seeds 1 and 2 cannot meet, both unbeaten, before the winners' final;
- the losers' bracket's first rounds are never a rematch;
- the final ranking is a permutation of the qualifiers (then the rest by the standings).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import final_phase as fp
from app.domain.bracket import Bracket, BracketSide, Slot, SlotSource, reset_needed, slot_player
from app.domain.double_elimination import build_double_elimination, double_elimination_ranking
from app.domain.errors import FinalPlayed, InvalidSettings, NotEnoughQualifiers
from app.domain.formats import FinalPhaseKind, GroupAssignment, GroupsSetting, resolve_format
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, PlayerId, Result, Side, Stage
from tests.domain.evening import players

SEED = SlotSource.SEED
WINNER = SlotSource.WINNER
LOSER = SlotSource.LOSER
W, L, G = BracketSide.WINNERS, BracketSide.LOSERS, BracketSide.GRAND_FINAL


def layout(bracket: Bracket) -> list[tuple[int, BracketSide, int, Stage, int, tuple[Slot, Slot]]]:
    return [(m.number, m.side, m.round, m.stage, m.board, m.slots) for m in bracket.matches]


def test_a_double_elimination_of_4_worked_by_hand() -> None:
    bracket = build_double_elimination(4, reset=True)
    assert layout(bracket) == [
        (1, W, 1, Stage.WINNERS_ROUND_1, 1, (Slot(SEED, 1), Slot(SEED, 4))),
        (2, W, 1, Stage.WINNERS_ROUND_1, 2, (Slot(SEED, 2), Slot(SEED, 3))),
        (3, W, 2, Stage.WINNERS_ROUND_2, 1, (Slot(WINNER, 1), Slot(WINNER, 2))),
        (4, L, 1, Stage.LOSERS_ROUND_1, 1, (Slot(LOSER, 1), Slot(LOSER, 2))),
        (5, L, 2, Stage.LOSERS_ROUND_2, 1, (Slot(WINNER, 4), Slot(LOSER, 3))),
        (6, G, 1, Stage.GRAND_FINAL, 1, (Slot(WINNER, 3), Slot(WINNER, 5))),
        (7, G, 2, Stage.GRAND_FINAL_RESET, 1, (Slot(WINNER, 6), Slot(LOSER, 6))),
    ]
    assert [m.if_needed for m in bracket.matches] == [False] * 6 + [True]
    assert bracket.fed_by(3) == (5, 6)
    # seeds 1 and 2 win the winners' bracket matches, 3 beats 4, then 2 beats 3 in the losers'
    # final; 2 wins the grand final, so the reset is played, and 1 wins it
    seeds = [PlayerId(s) for s in range(1, 5)]
    d = fp.Decided
    decided = {1: d(1, 4), 2: d(2, 3), 3: d(1, 2), 4: d(3, 4), 5: d(2, 3), 6: d(2, 1)}
    rank = {pid: pid for pid in seeds}
    reset = bracket.matches[-1]
    assert reset_needed(bracket, reset, seeds, decided)
    assert double_elimination_ranking(bracket, decided, rank) is None
    assert double_elimination_ranking(bracket, {**decided, 7: d(1, 2)}, rank) == [1, 2, 3, 4]
    # had 1 won the grand final, no reset
    won = {**decided, 6: d(1, 2)}
    assert not reset_needed(bracket, reset, seeds, won)
    assert double_elimination_ranking(bracket, won, rank) == [1, 2, 3, 4]
    # without the reset the grand final decides
    no_reset = build_double_elimination(4, reset=False)
    assert len(no_reset.matches) == 6
    assert double_elimination_ranking(no_reset, decided, rank) == [2, 1, 3, 4]


def test_a_double_elimination_of_8_worked_by_hand() -> None:
    """The losers of winners' round 2 drop in crossed: the loser of match 6 (bottom half)
    meets the winner of losers' match 7 (losers of the top half), so neither has met the other."""
    bracket = build_double_elimination(8, reset=True)
    assert layout(bracket) == [
        (1, W, 1, Stage.WINNERS_ROUND_1, 1, (Slot(SEED, 1), Slot(SEED, 8))),
        (2, W, 1, Stage.WINNERS_ROUND_1, 2, (Slot(SEED, 4), Slot(SEED, 5))),
        (3, W, 1, Stage.WINNERS_ROUND_1, 3, (Slot(SEED, 2), Slot(SEED, 7))),
        (4, W, 1, Stage.WINNERS_ROUND_1, 4, (Slot(SEED, 3), Slot(SEED, 6))),
        (5, W, 2, Stage.WINNERS_ROUND_2, 1, (Slot(WINNER, 1), Slot(WINNER, 2))),
        (6, W, 2, Stage.WINNERS_ROUND_2, 2, (Slot(WINNER, 3), Slot(WINNER, 4))),
        (7, L, 1, Stage.LOSERS_ROUND_1, 1, (Slot(LOSER, 1), Slot(LOSER, 2))),
        (8, L, 1, Stage.LOSERS_ROUND_1, 2, (Slot(LOSER, 3), Slot(LOSER, 4))),
        (9, L, 2, Stage.LOSERS_ROUND_2, 1, (Slot(WINNER, 7), Slot(LOSER, 6))),
        (10, L, 2, Stage.LOSERS_ROUND_2, 2, (Slot(WINNER, 8), Slot(LOSER, 5))),
        (11, W, 3, Stage.WINNERS_ROUND_3, 1, (Slot(WINNER, 5), Slot(WINNER, 6))),
        (12, L, 3, Stage.LOSERS_ROUND_3, 1, (Slot(WINNER, 9), Slot(WINNER, 10))),
        (13, L, 4, Stage.LOSERS_ROUND_4, 1, (Slot(WINNER, 12), Slot(LOSER, 11))),
        (14, G, 1, Stage.GRAND_FINAL, 1, (Slot(WINNER, 11), Slot(WINNER, 13))),
        (15, G, 2, Stage.GRAND_FINAL_RESET, 1, (Slot(WINNER, 14), Slot(LOSER, 14))),
    ]
    # the upper slot wins everywhere: 1 wins the winners' bracket without a loss and the grand
    # final, no reset; 3rd the losers' final's loser, then by the round one went out
    decided, _ = play_out(8, True, [True])
    assert 15 not in decided
    ranking = double_elimination_ranking(bracket, decided, {PlayerId(s): s for s in range(1, 9)})
    # W1: 1, 4, 2, 3 win; W2: 1 beats 4, 2 beats 3; L1: 8 beats 5, 7 beats 6; L2: 8 beats 3,
    # 7 beats 4; W3: 1 beats 2; L3: 8 beats 7; L4: 8 beats 2; grand final: 1 beats 8
    assert ranking == [1, 8, 2, 7, 3, 4, 5, 6]


def test_a_double_elimination_of_12_gives_the_top_4_a_bye() -> None:
    bracket = build_double_elimination(12, reset=True)
    first = [m.slots for m in bracket.matches if m.stage is Stage.WINNERS_ROUND_1]
    assert first == [
        (Slot(SEED, 8), Slot(SEED, 9)),
        (Slot(SEED, 5), Slot(SEED, 12)),
        (Slot(SEED, 7), Slot(SEED, 10)),
        (Slot(SEED, 6), Slot(SEED, 11)),
    ]
    # the first losers' round has no match left (every place had one loser): the next one,
    # where the losers of winners' round 2 drop in, is losers' round 1
    assert [m.slots for m in bracket.matches if m.stage is Stage.LOSERS_ROUND_1] == [
        (Slot(LOSER, 1), Slot(LOSER, 8)),
        (Slot(LOSER, 2), Slot(LOSER, 7)),
        (Slot(LOSER, 3), Slot(LOSER, 6)),
        (Slot(LOSER, 4), Slot(LOSER, 5)),
    ]
    assert [(c.side, c.round, c.places) for c in bracket.columns][:2] == [
        (W, 1, (None, 1, None, 2, None, 3, None, 4)),
        (W, 2, (5, 6, 7, 8)),
    ]
    assert max(m.round for m in bracket.matches if m.side is L) == 5
    assert len(bracket.matches) == 2 * 12 - 1


@pytest.mark.parametrize("size", [3, 17])
def test_a_double_elimination_takes_4_to_16(size: int) -> None:
    with pytest.raises(InvalidSettings):
        build_double_elimination(size, reset=True)


@pytest.mark.parametrize(
    ("options", "players_count"),
    [
        ({"final_phase": FinalPhaseKind.DOUBLE_ELIMINATION}, 8),
        ({"final_phase": FinalPhaseKind.DOUBLE_ELIMINATION, "top_cut_size": 3}, 8),
        ({"final_phase": FinalPhaseKind.DOUBLE_ELIMINATION, "top_cut_size": 17}, 20),
        ({"final_phase": FinalPhaseKind.DOUBLE_ELIMINATION, "top_cut_size": 9}, 8),
        (
            {
                "final_phase": FinalPhaseKind.DOUBLE_ELIMINATION,
                "top_cut_size": 8,
                "third_place": True,
            },
            8,
        ),
        ({"final_phase": FinalPhaseKind.TOP_CUT, "top_cut_size": 8, "grand_final_reset": False}, 8),
        (
            {
                "final_phase": FinalPhaseKind.DOUBLE_ELIMINATION,
                "top_cut_size": 7,
                "groups": GroupsSetting(GroupAssignment.DRAW),
            },
            10,
        ),
    ],
)
def test_double_elimination_settings_are_refused_where_they_cannot_be_played(
    options: dict[str, object], players_count: int
) -> None:
    with pytest.raises(InvalidSettings):
        resolve_format(players_count, **options)  # type: ignore[arg-type]


def test_the_reset_is_played_unless_turned_off() -> None:
    kind = FinalPhaseKind.DOUBLE_ELIMINATION
    assert resolve_format(8, final_phase=kind, top_cut_size=8).grand_final_reset
    off = resolve_format(8, final_phase=kind, top_cut_size=8, grand_final_reset=False)
    assert (off.grand_final_reset, off.qualifier_count) == (False, 8)


def play_out(
    size: int, reset: bool, upper_wins: list[bool]
) -> tuple[dict[int, fp.Decided], dict[int, tuple[PlayerId, PlayerId]]]:
    """Every match of a double elimination of ``size`` played in play order, seed ``s`` being
    player ``s``; the upper slot wins where ``upper_wins`` says so (cycled); the reset only
    where needed."""
    bracket = build_double_elimination(size, reset=reset)
    seeds = [PlayerId(s) for s in range(1, size + 1)]
    decided: dict[int, fp.Decided] = {}
    players_of: dict[int, tuple[PlayerId, PlayerId]] = {}
    for i, m in enumerate(bracket.matches):
        if not reset_needed(bracket, m, seeds, decided):
            continue
        top, bottom = (slot_player(s, seeds, decided) for s in m.slots)
        assert top is not None and bottom is not None  # feeders come first
        players_of[m.number] = (top, bottom)
        upper = upper_wins[i % len(upper_wins)]
        decided[m.number] = fp.Decided(top, bottom) if upper else fp.Decided(bottom, top)
    return decided, players_of


@settings(max_examples=400, deadline=None)
@given(
    size=st.integers(4, 16),
    reset=st.booleans(),
    upper_wins=st.lists(st.booleans(), min_size=1, max_size=40),
)
def test_every_double_elimination_holds_its_invariants(
    size: int, reset: bool, upper_wins: list[bool]
) -> None:
    bracket = build_double_elimination(size, reset=reset)
    decided, players_of = play_out(size, reset, upper_wins)
    seeds = range(1, size + 1)
    # nobody plays twice in a bracket round, nobody plays himself
    for side in BracketSide:
        for number in {m.round for m in bracket.matches if m.side is side}:
            seen = [
                p
                for m in bracket.matches
                if m.side is side and m.round == number and m.number in players_of
                for p in players_of[m.number]
            ]
            assert len(seen) == len(set(seen))
    # every match played; a loss in the winners' bracket sends to the losers' bracket, a loss
    # there is the end
    lost: dict[PlayerId, int] = {}
    for m in bracket.matches:
        if m.number not in decided:
            continue
        top, bottom = players_of[m.number]
        # both unbeaten: seeds 1 and 2 meet this way only in the winners' final
        if {top, bottom} == {1, 2} and not lost.get(top) and not lost.get(bottom):
            assert (m.side, m.round) == (W, bracket.rounds)
        loser = decided[m.number].loser
        lost[loser] = lost.get(loser, 0) + 1
    assert len(decided) == len(players_of)
    ranking = double_elimination_ranking(bracket, decided, {PlayerId(s): s for s in seeds})
    assert ranking is not None
    assert sorted(ranking) == list(seeds)
    champion, runner_up = ranking[:2]
    assert lost.get(champion, 0) <= 1
    # nobody out before two losses; without the reset the winners' bracket winner may be
    # second after one
    for pid in ranking[1:]:
        assert lost[pid] == 2 or (not reset and pid == runner_up and lost[pid] == 1)
    # the losers' bracket's first rounds (where nobody has met yet, as far as the layout can
    # keep it: its first two rounds of the full layout, three in a bracket of 16) are no rematch
    places = 1 << (size - 1).bit_length()
    full_rounds = 2 * (places.bit_length() - 2)
    losers_rounds = max(m.round for m in bracket.matches if m.side is L)
    offset = full_rounds - losers_rounds
    safe = {4: 1, 8: 2, 16: 3}[places]
    met: set[frozenset[PlayerId]] = set()
    for m in sorted(bracket.matches, key=lambda m: m.number):
        if m.number not in players_of:
            continue
        pair = frozenset(players_of[m.number])
        if m.side is L and m.round + offset <= safe:
            assert pair not in met, (m.number, pair)
        met.add(pair)
    assert len(bracket.matches) == 2 * size - 2 + reset


FINAL_RESULTS = [
    Result(2, 1),
    Result(0, 1),
    Result(1, 1, winner=Side.HOME, decided_by=DecidedBy.PENALTIES),
]


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(4, 20),
    size=st.integers(4, 16),
    reset=st.booleans(),
    grouped=st.booleans(),
    data=st.data(),
)
def test_a_double_elimination_tournament_ranks_its_qualifiers_then_the_rest_by_standings(
    count: int, size: int, reset: bool, grouped: bool, data: st.DataObject
) -> None:
    size = min(size, count) - (grouped and min(size, count) % 2)
    if size < 4:
        return
    t = Tournament.create(
        Settings(
            seed=data.draw(st.integers(0, 10**6), label="seed"),
            final_phase=FinalPhaseKind.DOUBLE_ELIMINATION,
            top_cut_size=size,
            grand_final_reset=None if reset else False,
            groups=GroupsSetting(GroupAssignment.SEEDED) if grouped else None,
        ),
        players(count),
    )
    for _ in range(data.draw(st.integers(1, min(2, t.format.swiss_rounds)), label="rounds")):
        number = t.generate_round().number
        for m in t.round_matches(number):
            t.record_result(m.id, data.draw(st.sampled_from(FINAL_RESULTS[:2]), label="swiss"))
    withdrawn = data.draw(st.sets(st.sampled_from(sorted(t.players)), max_size=2))
    for pid in withdrawn:
        t.withdraw_player(pid)
    try:
        t.start_final_phase()
    except NotEnoughQualifiers:
        return
    seeds = list(t.final_seeds)
    assert len(seeds) == size and not set(seeds) & withdrawn
    while t.final_ranking() is None:
        open_matches = [m for m in t.final_matches() if m.result is None]
        assert open_matches
        by_stage: dict[Stage, list[PlayerId]] = {}
        for m in t.final_matches():
            by_stage.setdefault(m.stage, []).extend((m.home, m.away))
        assert all(len(p) == len(set(p)) for p in by_stage.values())
        for m in open_matches:
            t.record_result(m.id, data.draw(st.sampled_from(FINAL_RESULTS), label="final"))
    ranking = t.final_ranking()
    assert ranking is not None
    assert sorted(ranking[:size]) == sorted(seeds)
    rest = [r.player_id for r in t.standings() if r.player_id not in seeds]
    if not grouped:
        assert ranking[size:] == rest
    assert sorted(ranking) == sorted(t.players)
    assert t.status.value == "finished"
    played = len(t.final_matches())
    assert played in (2 * size - 2, 2 * size - 1)
    assert played == 2 * size - 2 or reset


def double_8(*, reset: bool = True) -> Tournament:
    t = Tournament.create(
        Settings(
            seed=3,
            final_phase=FinalPhaseKind.DOUBLE_ELIMINATION,
            top_cut_size=8,
            grand_final_reset=None if reset else False,
        ),
        players(10),
    )
    for _ in range(3):
        number = t.generate_round().number
        for m in t.round_matches(number):
            t.record_result(m.id, Result(2, 1))
    t.start_final_phase()
    return t


def play_until(t: Tournament, stage: Stage) -> None:
    """The home side wins every match before ``stage``."""
    while True:
        pending = [m for m in t.final_matches() if m.result is None and m.stage is not stage]
        if not pending:
            return
        for m in pending:
            t.record_result(m.id, Result(1, 0))


def test_the_reset_is_formed_only_when_the_losers_bracket_winner_wins_the_grand_final() -> None:
    t = double_8()
    play_until(t, Stage.GRAND_FINAL)
    (final,) = [m for m in t.final_matches() if m.stage is Stage.GRAND_FINAL]
    winners_champion = next(m.winner for m in t.final_matches() if m.stage is Stage.WINNERS_ROUND_3)
    losers_side = Side.AWAY if final.home == winners_champion else Side.HOME
    winning = Result(0, 1) if losers_side is Side.AWAY else Result(1, 0)
    losing = Result(1, 0) if losers_side is Side.AWAY else Result(0, 1)
    changes = t.record_result(final.id, winning)
    (reset,) = changes.written[1:]
    assert reset.stage is Stage.GRAND_FINAL_RESET
    assert {reset.home, reset.away} == {final.home, final.away}
    assert t.final_ranking() is None and t.status.value == "final_phase"
    # the winners' bracket winner won after all: the reset goes
    changes = t.record_result(final.id, losing)
    assert changes.removed == (reset.id,)
    ranking = t.final_ranking()
    assert ranking is not None and ranking[0] == winners_champion
    # again the losers' bracket winner, who then loses the reset: the champion is the same
    changes = t.record_result(final.id, winning)
    (reset,) = changes.written[1:]
    loser_of_final = final.home if losers_side is Side.AWAY else final.away
    t.record_result(reset.id, Result(1, 0) if reset.home == loser_of_final else Result(0, 1))
    ranking = t.final_ranking()
    assert ranking is not None and ranking[:2] == [
        winners_champion,
        final.home if final.home != winners_champion else final.away,
    ]
    with pytest.raises(FinalPlayed):
        t.record_result(final.id, losing)


def test_without_the_reset_the_grand_final_decides() -> None:
    t = double_8(reset=False)
    play_until(t, Stage.GRAND_FINAL)
    (final,) = [m for m in t.final_matches() if m.stage is Stage.GRAND_FINAL]
    changes = t.record_result(final.id, Result(0, 1))
    assert changes.written == (changes.written[0],)
    ranking = t.final_ranking()
    assert ranking is not None and ranking[:2] == [final.away, final.home]
    assert t.status.value == "finished"
