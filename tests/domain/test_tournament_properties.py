"""Whole random tournaments through the aggregate: the invariants of every round and phase."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import RegistrationClosed
from app.domain.formats import GroupAssignment, GroupsSetting
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    Forfeit,
    PairingSystem,
    PlayerId,
    PointsTable,
    Result,
    Score,
    Stage,
    Status,
)
from tests.domain.evening import players

CHESS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))

events = st.lists(
    st.sampled_from(["withdraw", "late", "draw", "forfeit", "double", "win"]), max_size=60
)
SPECIAL = {
    "draw": Result(1, 1),
    "forfeit": Result(0, 0, forfeit=Forfeit.AWAY),
    "double": Result(0, 0, forfeit=Forfeit.BOTH),
}


def check_round(t: Tournament, number: int) -> None:
    """Every active player of the round is in exactly one match or has the bye."""
    swiss_round = t.rounds[number - 1]
    seen = [pid for m in t.round_matches(number) for pid in (m.home, m.away)]
    seen += list(swiss_round.byes)
    assert len(seen) == len(set(seen))
    expected = {pid for pid, p in t.players.items() if p.in_round(swiss_round.number)}
    assert set(seen) == expected
    groups = 2 if t.format.groups else 1
    assert len(swiss_round.byes) <= groups


def check_no_unmarked_rematch(t: Tournament) -> None:
    """A pair that met before is marked as a rematch, and only such a pair; a double forfeit
    is no meeting."""
    met: set[frozenset[PlayerId]] = set()
    for swiss_round in t.rounds:
        marked = {frozenset((p.higher, p.lower)) for p in swiss_round.rematch_pairs}
        for m in t.round_matches(swiss_round.number):
            pair = frozenset((m.home, m.away))
            assert (pair in met) == (pair in marked)
        met |= {
            frozenset((m.home, m.away))
            for m in t.round_matches(swiss_round.number)
            if m.result is None or m.result.forfeit is not Forfeit.BOTH
        }


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(2, 40),
    seed=st.integers(0, 10**6),
    chess=st.booleans(),
    grouped=st.booleans(),
    script=events,
)
def test_random_evenings_keep_every_invariant(
    count: int, seed: int, chess: bool, grouped: bool, script: list[str]
) -> None:
    grouped = grouped and count >= 4
    t = Tournament.create(
        Settings(
            seed=seed,
            pairing=PairingSystem.NEAREST,
            points=CHESS if chess else PointsTable.default(),
            groups=GroupsSetting(GroupAssignment.DRAW) if grouped else None,
        ),
        players(count),
    )
    moves = iter(script)
    late = 0
    while t.current_round < t.format.swiss_rounds:
        active = [pid for pid, p in t.players.items() if not p.withdrawn]
        per_group = [
            sum(1 for pid in active if t.players[pid].group == g)
            for g in (("A", "B") if grouped else (None,))
        ]
        if min(per_group) < 3:
            break
        number = t.generate_round().number
        check_round(t, number)
        for m in t.round_matches(number):
            move = next(moves, "win")
            t.record_result(m.id, SPECIAL.get(move, Result(2, 1)))
        move = next(moves, "none")
        if move == "withdraw" and len(active) > 6:
            t.withdraw_player(active[seed % len(active)])
        elif move == "late":
            late += 1
            try:
                t.add_player(NewPlayer(f"Late {late}"))
            except RegistrationClosed:
                assert 2 * t.current_round >= t.format.swiss_rounds
    check_no_unmarked_rematch(t)
    rows = t.standings()
    assert [r.rank for r in rows] == list(range(1, len(t.players) + 1))
    total = sum(r.points for r in rows)
    win, draw = t.settings.points.win, t.settings.points.draw
    decisive = sum(r.wins for r in rows)
    drawn = sum(r.draws for r in rows)
    byes = sum(r.byes for r in rows)
    assert total == decisive * win + drawn * draw + byes * t.settings.points.bye
    doubles = sum(1 for m in t.matches.values() if m.result and m.result.forfeit is Forfeit.BOTH)
    assert sum(r.losses for r in rows) == decisive + 2 * doubles
    if t.format.qualifier_count and len(t.qualified()) == t.format.qualifier_count:
        t.start_final_phase()
        while t.status is Status.FINAL_PHASE:
            for m in t.final_matches():
                if m.result is None:
                    t.record_result(m.id, Result(1, 0))
        ranking = t.final_ranking()
        assert ranking is not None
        assert sorted(ranking) == sorted(t.players)
        finalists = {
            pid for m in t.final_matches() if m.stage is Stage.FINAL for pid in (m.home, m.away)
        }
        assert set(ranking[:2]) == finalists
