"""The top cut's bracket (``tournament.md``, "Top cut"): golden layouts worked by hand, and the
invariants of every size, with any winners.

- seeds 1 and 2 can meet only in the final;
- nobody plays twice in a bracket round;
- the final ranking is a permutation of the qualifiers (then the rest by the standings);
- the semifinals are the bracket of 4 with a third-place match, the final the bracket of 2.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import final_phase as fp
from app.domain.bracket import (
    Slot,
    SlotSource,
    bracket_order,
    bracket_ranking,
    build_bracket,
    crossed_seeds,
    slot_player,
)
from app.domain.errors import FinalPlayed, InvalidSettings, NotEnoughQualifiers
from app.domain.formats import FinalPhaseKind, GroupAssignment, GroupsSetting, resolve_format
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, GroupName, PlayerId, Result, Side, Stage
from tests.domain.evening import players

SEED = SlotSource.SEED
WINNER = SlotSource.WINNER
LOSER = SlotSource.LOSER


def play_out(
    size: int, third_place: bool, home_wins: list[bool]
) -> tuple[dict[int, fp.Decided], dict[int, tuple[PlayerId, PlayerId]]]:
    """Every match of a top cut of ``size`` played, seed ``s`` being player ``s``; the upper
    slot wins where ``home_wins`` says so (cycled)."""
    bracket = build_bracket(size, third_place=third_place)
    seeds = [PlayerId(s) for s in range(1, size + 1)]
    decided: dict[int, fp.Decided] = {}
    players_of: dict[int, tuple[PlayerId, PlayerId]] = {}
    for i, m in enumerate(bracket.matches):
        top, bottom = (slot_player(s, seeds, decided) for s in m.slots)
        assert top is not None and bottom is not None  # feeders come first
        players_of[m.number] = (top, bottom)
        upper = home_wins[i % len(home_wins)]
        decided[m.number] = fp.Decided(top, bottom) if upper else fp.Decided(bottom, top)
    return decided, players_of


def test_the_standard_seeding_of_8_and_16() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_a_top_8_with_a_third_place_match() -> None:
    bracket = build_bracket(8, third_place=True)
    assert [(m.number, m.round, m.stage, m.board, m.slots) for m in bracket.matches] == [
        (1, 1, Stage.QUARTERFINAL, 1, (Slot(SEED, 1), Slot(SEED, 8))),
        (2, 1, Stage.QUARTERFINAL, 2, (Slot(SEED, 4), Slot(SEED, 5))),
        (3, 1, Stage.QUARTERFINAL, 3, (Slot(SEED, 2), Slot(SEED, 7))),
        (4, 1, Stage.QUARTERFINAL, 4, (Slot(SEED, 3), Slot(SEED, 6))),
        (5, 2, Stage.SEMIFINAL, 1, (Slot(WINNER, 1), Slot(WINNER, 2))),
        (6, 2, Stage.SEMIFINAL, 2, (Slot(WINNER, 3), Slot(WINNER, 4))),
        (7, 3, Stage.FINAL, 1, (Slot(WINNER, 5), Slot(WINNER, 6))),
        (8, 3, Stage.THIRD_PLACE, 2, (Slot(LOSER, 5), Slot(LOSER, 6))),
    ]
    assert bracket.fed_by(5) == (7, 8)
    assert bracket.fed_by(7) == ()


def test_a_top_6_gives_seeds_1_and_2_a_bye() -> None:
    bracket = build_bracket(6, third_place=False)
    assert [(m.number, m.stage, m.board, m.slots) for m in bracket.matches] == [
        (1, Stage.QUARTERFINAL, 1, (Slot(SEED, 4), Slot(SEED, 5))),
        (2, Stage.QUARTERFINAL, 2, (Slot(SEED, 3), Slot(SEED, 6))),
        (3, Stage.SEMIFINAL, 1, (Slot(SEED, 1), Slot(WINNER, 1))),
        (4, Stage.SEMIFINAL, 2, (Slot(SEED, 2), Slot(WINNER, 2))),
        (5, Stage.FINAL, 1, (Slot(WINNER, 3), Slot(WINNER, 4))),
    ]


def test_a_top_5_pairs_seeds_2_and_3_in_the_second_round() -> None:
    bracket = build_bracket(5, third_place=True)
    assert [m.slots for m in bracket.matches if m.stage is Stage.SEMIFINAL] == [
        (Slot(SEED, 1), Slot(WINNER, 1)),
        (Slot(SEED, 2), Slot(SEED, 3)),
    ]


def test_the_semifinals_and_the_final_are_the_brackets_of_4_and_2() -> None:
    """The same matches on the same boards as ``final_phase`` lays out."""
    q = [PlayerId(i) for i in (11, 12, 13, 14)]
    semis = fp.opening_fixtures(q, FinalPhaseKind.SEMIFINALS, groups=None)
    four = build_bracket(4, third_place=True)
    laid_out = [
        (m.stage, m.board, *(slot_player(s, q, {}) for s in m.slots))
        for m in four.matches
        if m.round == 1
    ]
    assert laid_out == [(f.stage, f.board, f.home, f.away) for f in semis]
    first, second = fp.Decided(q[3], q[0]), fp.Decided(q[1], q[2])
    finals = fp.finals_fixtures(first, second, {pid: i for i, pid in enumerate(q)})
    decided = {1: first, 2: second}
    later = [
        (m.stage, m.board, *sorted(slot_player(s, q, decided) or 0 for s in m.slots))
        for m in four.matches
        if m.round == 2
    ]
    assert later == [(f.stage, f.board, f.home, f.away) for f in finals]
    two = build_bracket(2, third_place=False)
    final = fp.opening_fixtures(q[:2], FinalPhaseKind.FINAL, groups=None)[0]
    assert [(m.stage, m.board, m.slots) for m in two.matches] == [
        (final.stage, final.board, (Slot(SEED, 1), Slot(SEED, 2)))
    ]


def test_crossed_seeds_after_groups() -> None:
    """A top 8 after groups: A1 v B4, A2 v B3, B1 v A4, B2 v A3 (the pairs of positions whose
    seeds meet keep one order), whatever the cross order of each position; a top 4: A1 v B2,
    B1 v A2, as the crossed semifinals."""
    groups = {PlayerId(i): GroupName("A" if i < 10 else "B") for i in range(1, 20)}
    a = [PlayerId(i) for i in range(1, 5)]
    b = [PlayerId(i) for i in range(11, 15)]
    # cross order as the standings give it: A1 B1, B2 A2, A3 B3, B4 A4
    cross = [a[0], b[0], b[1], a[1], a[2], b[2], b[3], a[3]]
    seeds = crossed_seeds(cross, groups, 8)
    first_round = [
        tuple(slot_player(s, seeds, {}) for s in m.slots)
        for m in build_bracket(8, third_place=False).matches
        if m.round == 1
    ]
    assert first_round == [(a[0], b[3]), (a[1], b[2]), (b[0], a[3]), (b[1], a[2])]
    four = crossed_seeds([b[0], a[0], b[1], a[1]], groups, 4)
    assert [
        tuple(slot_player(s, four, {}) for s in m.slots)
        for m in build_bracket(4, third_place=False).matches
        if m.round == 1
    ] == [(b[0], a[1]), (a[0], b[1])]


@pytest.mark.parametrize("size", [1, 65])
def test_a_top_cut_takes_2_to_64(size: int) -> None:
    with pytest.raises(InvalidSettings):
        build_bracket(size, third_place=False)


def test_a_third_place_match_needs_two_semifinals() -> None:
    with pytest.raises(InvalidSettings):
        build_bracket(3, third_place=True)
    with pytest.raises(InvalidSettings):
        resolve_format(8, final_phase=FinalPhaseKind.TOP_CUT, top_cut_size=2, third_place=True)


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"final_phase": FinalPhaseKind.TOP_CUT}, 8),
        ({"final_phase": FinalPhaseKind.TOP_CUT, "top_cut_size": 9}, 8),
        ({"final_phase": FinalPhaseKind.TOP_CUT, "top_cut_size": 70}, 80),
        ({"final_phase": FinalPhaseKind.SEMIFINALS, "top_cut_size": 8}, 8),
        ({"final_phase": FinalPhaseKind.FINAL, "third_place": True}, 8),
        (
            {
                "final_phase": FinalPhaseKind.TOP_CUT,
                "top_cut_size": 5,
                "groups": GroupsSetting(GroupAssignment.DRAW),
            },
            10,
        ),
    ],
)
def test_top_cut_settings_are_refused_where_they_cannot_be_played(
    options: dict[str, object], players: int
) -> None:
    with pytest.raises(InvalidSettings):
        resolve_format(players, **options)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(2, 64),
    third_place=st.booleans(),
    home_wins=st.lists(st.booleans(), min_size=1, max_size=70),
)
def test_every_top_cut_holds_its_invariants(
    size: int, third_place: bool, home_wins: list[bool]
) -> None:
    third_place = third_place and size >= 4
    bracket = build_bracket(size, third_place=third_place)
    decided, players_of = play_out(size, third_place, home_wins)
    # seeds 1 and 2 meet only in the last round (the final, or both lost their semifinals
    # and play for 3rd place), whoever wins elsewhere
    assert all(
        m.round == bracket.rounds and m.stage in (Stage.FINAL, Stage.THIRD_PLACE)
        for m in bracket.matches
        if set(players_of[m.number]) == {1, 2}
    )
    # nobody plays twice in a bracket round, nobody plays himself
    for number in range(1, bracket.rounds + 1):
        seen = [p for m in bracket.matches if m.round == number for p in players_of[m.number]]
        assert len(seen) == len(set(seen))
    # every seed plays, once per round until he loses; byes only for the top seeds
    first = {p for m in bracket.matches if m.round == 1 for p in players_of[m.number]}
    places = 1 << (size - 1).bit_length()
    assert set(range(1, size + 1)) - first == set(range(1, places - size + 1))
    assert len(bracket.matches) == size - 1 + third_place
    ranking = bracket_ranking(bracket, decided, {PlayerId(s): s for s in range(1, size + 1)})
    assert ranking is not None
    assert sorted(ranking) == list(range(1, size + 1))
    final = decided[bracket.final.number]
    assert ranking[:2] == [final.winner, final.loser]


def test_the_ranking_waits_for_the_final_and_the_third_place_match() -> None:
    bracket = build_bracket(4, third_place=True)
    decided, _ = play_out(4, True, [True])
    rank = {PlayerId(s): s for s in range(1, 5)}
    assert bracket_ranking(bracket, {k: v for k, v in decided.items() if k != 4}, rank) is None
    assert bracket_ranking(bracket, {k: v for k, v in decided.items() if k != 3}, rank) is None
    # the upper slot wins everywhere: the loser of semifinal 1 (seed 4) takes 3rd place
    assert bracket_ranking(bracket, decided, rank) == [1, 2, 4, 3]


FINAL_RESULTS = [
    Result(2, 1),
    Result(0, 1),
    Result(1, 1, winner=Side.HOME, decided_by=DecidedBy.PENALTIES),
]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(4, 24),
    size=st.integers(2, 24),
    third_place=st.booleans(),
    grouped=st.booleans(),
    data=st.data(),
)
def test_a_top_cut_tournament_ranks_its_qualifiers_then_the_rest_by_standings(
    count: int, size: int, third_place: bool, grouped: bool, data: st.DataObject
) -> None:
    size = min(size, count) - (grouped and min(size, count) % 2)
    third_place = third_place and size >= 4
    if size < 2:
        return
    t = Tournament.create(
        Settings(
            seed=data.draw(st.integers(0, 10**6), label="seed"),
            final_phase=FinalPhaseKind.TOP_CUT,
            top_cut_size=size,
            third_place=third_place,
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
    qualifiers = t.seeds()
    try:
        opening = t.start_final_phase()
    except NotEnoughQualifiers:
        assert len(qualifiers) < size
        return
    seeds = list(t.final_seeds)
    assert sorted(seeds) == sorted(qualifiers) and not set(seeds) & withdrawn
    assert [(m.stage, m.board) for m in opening.written] == [
        (m.stage, m.board)
        for m in t.bracket().matches
        if all(s.source is SlotSource.SEED for s in m.slots)
    ]
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
    standings = t.standings()
    rest = [r.player_id for r in standings if r.player_id not in seeds]
    if not grouped:
        assert ranking[size:] == rest
    assert sorted(ranking) == sorted(t.players)
    assert len(t.final_matches()) == size - 1 + third_place


def top_8(seed: int = 3) -> Tournament:
    t = Tournament.create(
        Settings(seed=seed, final_phase=FinalPhaseKind.TOP_CUT, top_cut_size=8), players(12)
    )
    for _ in range(3):
        number = t.generate_round().number
        for m in t.round_matches(number):
            t.record_result(m.id, Result(2, 1))
    t.start_final_phase()
    return t


def test_a_quarterfinal_winner_changes_only_while_its_semifinal_has_no_result() -> None:
    t = top_8()
    quarterfinals = [m for m in t.final_matches() if m.stage is Stage.QUARTERFINAL]
    t.record_result(quarterfinals[0].id, Result(2, 0))
    changes = t.record_result(quarterfinals[1].id, Result(2, 0))
    (semifinal,) = changes.written[1:]
    assert (semifinal.stage, semifinal.board) == (Stage.SEMIFINAL, 1)
    assert {semifinal.home, semifinal.away} == {quarterfinals[0].home, quarterfinals[1].home}
    # a correction re-forms the semifinal in place
    changes = t.record_result(quarterfinals[1].id, Result(0, 2))
    assert [m.id for m in changes.written] == [quarterfinals[1].id, semifinal.id]
    assert quarterfinals[1].away in (changes.written[1].home, changes.written[1].away)
    # clearing a quarterfinal removes its semifinal
    changes = t.clear_result(quarterfinals[1].id)
    assert changes.removed == (semifinal.id,)
    t.record_result(quarterfinals[1].id, Result(2, 0))
    semifinal = next(m for m in t.final_matches() if m.stage is Stage.SEMIFINAL)
    t.record_result(semifinal.id, Result(1, 0))
    with pytest.raises(FinalPlayed):
        t.record_result(quarterfinals[0].id, Result(0, 1))
    with pytest.raises(FinalPlayed):
        t.clear_result(quarterfinals[0].id)
    t.record_result(quarterfinals[0].id, Result(3, 0))  # the same winner: allowed
    assert t.final_matches()[0].result == Result(3, 0)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(4, 14), grouped=st.booleans(), data=st.data())
def test_the_semifinals_bracket_names_the_players_of_their_matches(
    count: int, grouped: bool, data: st.DataObject
) -> None:
    """The bracket of 4 drawn from ``seeds()`` has, slot by slot, the players of the
    semifinals as played, also after a group leader withdrew before the start."""
    t = Tournament.create(
        Settings(
            seed=data.draw(st.integers(0, 10**6), label="seed"),
            groups=GroupsSetting(GroupAssignment.SEEDED) if grouped else None,
        ),
        players(count),
    )
    number = t.generate_round().number
    for m in t.round_matches(number):
        t.record_result(m.id, data.draw(st.sampled_from(FINAL_RESULTS[:2]), label="swiss"))
    leader = t.standings()[0].player_id
    if data.draw(st.booleans(), label="leader withdraws"):
        t.withdraw_player(leader)
    try:
        t.start_final_phase()
    except NotEnoughQualifiers:
        return
    seeds = t.seeds()
    drawn = {
        (m.stage, m.board): tuple(slot_player(s, seeds, {}) for s in m.slots)
        for m in t.bracket().matches
        if m.round == 1
    }
    assert drawn == {(m.stage, m.board): (m.home, m.away) for m in t.final_matches()}
