"""Replay: a tournament rebuilt from its settings, players and the commands applied to it.

Every draw is seeded by ``Settings.seed`` and every rule is deterministic, so replaying the same
commands gives the same rounds, colours, standings and final phase. Storage keeps the rounds it
generated (so that a later change of a pairing rule never rewrites history); replay is how tests
and scripts check that the engine is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.domain.matches import MatchId
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PlayerId, Result


@dataclass(frozen=True, slots=True)
class GenerateRound:
    pass


@dataclass(frozen=True, slots=True)
class RecordResult:
    match_id: MatchId
    result: Result


@dataclass(frozen=True, slots=True)
class ClearResult:
    match_id: MatchId


@dataclass(frozen=True, slots=True)
class Withdraw:
    player_id: PlayerId


@dataclass(frozen=True, slots=True)
class AddPlayer:
    player: NewPlayer


@dataclass(frozen=True, slots=True)
class StartFinalPhase:
    pass


Command = GenerateRound | RecordResult | ClearResult | Withdraw | AddPlayer | StartFinalPhase


def apply(tournament: Tournament, command: Command) -> None:
    """Apply one command to the tournament (it raises the command's domain error, if any)."""
    match command:
        case GenerateRound():
            tournament.generate_round()
        case RecordResult(match_id, result):
            tournament.record_result(match_id, result)
        case ClearResult(match_id):
            tournament.clear_result(match_id)
        case Withdraw(player_id):
            tournament.withdraw_player(player_id)
        case AddPlayer(player):
            tournament.add_player(player)
        case StartFinalPhase():
            tournament.start_final_phase()


def replay(
    settings: Settings, players: Sequence[NewPlayer], commands: Iterable[Command]
) -> Tournament:
    """The tournament that results from creating it and applying ``commands`` in order."""
    tournament = Tournament.create(settings, players)
    for command in commands:
        apply(tournament, command)
    return tournament
