"""Previewing a round equals generating it next, on random tournaments of every system.

The API's preview rebuilds the tournament from what storage holds and generates on that copy,
never saving it. Here the copy is rebuilt by replaying the commands so far on a fresh tournament
(no memoized standings, no shared state), and the live tournament then generates the round:
round, boards, colours, byes and match ids must be the same. Anything random or time-dependent
outside the tournament's seed would tell them apart.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import DomainError, RegistrationClosed
from app.domain.formats import GroupAssignment, GroupsSetting
from app.domain.matches import Match, SwissRound
from app.domain.registration import NewPlayer
from app.domain.replay import AddPlayer, Command, GenerateRound, RecordResult, Withdraw, replay
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem, PointsTable, Result, Score
from tests.domain.systems import ONE_AGAINST_ONE
from tests.domain.test_tournament_properties import SPECIAL, events

CHESS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))


def generated(t: Tournament) -> tuple[SwissRound, list[Match]] | str:
    """The round ``t`` generates next, with its matches; or why it refuses to."""
    try:
        swiss_round = t.generate_round()
    except DomainError as refused:
        return f"{type(refused).__name__}: {refused}"
    return swiss_round, t.round_matches(swiss_round.number)


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(2, 24),
    seed=st.integers(0, 10**6),
    system=st.sampled_from(ONE_AGAINST_ONE),
    grouped=st.booleans(),
    script=events,
)
def test_the_preview_is_the_round_generated_next(
    count: int, seed: int, system: PairingSystem, grouped: bool, script: list[str]
) -> None:
    dutch = system is PairingSystem.DUTCH
    grouped = grouped and count >= 4 and not dutch
    base = Settings(
        seed=seed,
        pairing=system,
        points=CHESS if dutch else PointsTable.default(),
        groups=GroupsSetting(GroupAssignment.DRAW) if grouped else None,
    )
    entrants = [NewPlayer(f"P{i}", 2400 - 10 * (i % 7) if dutch else None) for i in range(count)]
    win = Result(1, 0) if dutch else Result(2, 1)
    live = Tournament.create(base, entrants)
    done: list[Command] = []
    moves = iter(script)
    late = 0
    while live.current_round < live.format.swiss_rounds:
        active = [pid for pid, p in live.players.items() if not p.withdrawn]
        groups = ("A", "B") if grouped else (None,)
        if min(sum(1 for pid in active if live.players[pid].group == g) for g in groups) < 3:
            break
        preview = generated(replay(base, entrants, done))
        assert generated(replay(base, entrants, done)) == preview  # twice: the same round
        assert generated(live) == preview
        if isinstance(preview, str):  # refused alike (a Dutch field too small to pair)
            break
        done.append(GenerateRound())
        for m in preview[1]:
            result = SPECIAL.get(next(moves, "win"), win)
            live.record_result(m.id, result)
            done.append(RecordResult(m.id, result))
        move = next(moves, "none")
        if move == "withdraw" and len(active) > 6:
            live.withdraw_player(active[seed % len(active)])
            done.append(Withdraw(active[seed % len(active)]))
        elif move == "late":
            late += 1
            newcomer = NewPlayer(f"Late {late}", 2000 if dutch else None)
            try:
                live.add_player(newcomer)
            except RegistrationClosed:
                continue
            done.append(AddPlayer(newcomer))
