"""Replay: the same settings, players and commands give the same tournament."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.replay import Command, GenerateRound, RecordResult, StartFinalPhase, replay
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import Result
from tests.domain.evening import players


def record_evening(seed: int, count: int, goals: list[tuple[int, int]]) -> list[Command]:
    """Play a whole evening once, writing down every command applied."""
    t = Tournament.create(Settings(seed=seed), players(count))
    commands: list[Command] = []
    score = iter(goals * 100)
    while t.current_round < t.format.swiss_rounds:
        commands.append(GenerateRound())
        number = t.generate_round().number
        for match in t.round_matches(number):
            result = Result(*next(score))
            commands.append(RecordResult(match.id, result))
            t.record_result(match.id, result)
    if t.format.qualifier_count:
        commands.append(StartFinalPhase())
    return commands


def snapshot(t: Tournament) -> object:
    return (t.rounds, sorted(t.matches.items()), t.standings(), t.status, t.final_ranking())


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    count=st.integers(2, 20),
    goals=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=8),
)
def test_same_commands_same_tournament(seed: int, count: int, goals: list[tuple[int, int]]) -> None:
    commands = record_evening(seed, count, goals)
    first = replay(Settings(seed=seed), players(count), commands)
    second = replay(Settings(seed=seed), players(count), commands)
    assert snapshot(first) == snapshot(second)
    assert first.current_round == first.format.swiss_rounds


def test_restoring_from_stored_state_changes_nothing() -> None:
    commands = record_evening(3, 9, [(1, 0), (2, 2), (0, 3)])
    t = replay(Settings(seed=3), players(9), commands)
    restored = Tournament(
        t.settings,
        t.players.values(),
        rounds=t.rounds,
        matches=t.matches.values(),
        final_phase_started=t.final_phase_started,
    )
    assert snapshot(restored) == snapshot(t)


def test_the_seed_drives_the_draw() -> None:
    a = replay(Settings(seed=1), players(12), [GenerateRound()])
    b = replay(Settings(seed=2), players(12), [GenerateRound()])
    pairs = [{frozenset((m.home, m.away)) for m in t.round_matches(1)} for t in (a, b)]
    assert pairs[0] != pairs[1]
