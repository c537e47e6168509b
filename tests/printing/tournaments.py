"""Real tournaments played through the domain engine, for the printing tests."""

from __future__ import annotations

import random

from app.domain.formats import FormatPreset, GroupAssignment, GroupsSetting
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, Result, Side, Stage, Status, Tiebreak

NAMES = (
    "Alice Rossi", "Bruno Bianchi", "Carla Conti", "Dario Greco", "Elena Ferri", "Fabio Gallo",
    "Giulia Marino", "Hugo Brun", "Ines Keller", "Jonas Meier", "Katrin Weber", "Luca Moretti",
    "Marta Colombo", "Nico Fontana", "Olga Huber", "Paolo Ricci",
)  # fmt: skip


def new_players(count: int, *, extra: tuple[str, ...] = ()) -> list[NewPlayer]:
    names = [*extra, *NAMES, *(f"Player {i}" for i in range(len(NAMES) + 1, count + 1))]
    return [NewPlayer(name) for name in names[:count]]


def play_swiss(tournament: Tournament, rounds: int, rng: random.Random) -> None:
    """Generate ``rounds`` Swiss rounds, each with random scores (draws included)."""
    for _ in range(rounds):
        tournament.generate_round()
        for match in tournament.round_matches(tournament.current_round):
            tournament.record_result(match.id, Result(rng.randint(0, 4), rng.randint(0, 3)))


def play_final_phase(tournament: Tournament, rng: random.Random) -> None:
    """Start the final phase and play it to the end; the semifinal 1 is level, won on penalties."""
    tournament.start_final_phase()
    for stage in (Stage.SEMIFINAL, Stage.FINAL, Stage.THIRD_PLACE):
        for match in [m for m in tournament.final_matches() if m.stage is stage]:
            if match.result is not None:
                continue
            if stage is Stage.SEMIFINAL and match.board == 1:
                result = Result(1, 1, winner=Side.AWAY, decided_by=DecidedBy.PENALTIES)
            else:
                result = Result(rng.randint(1, 4), rng.randint(0, 0))
            tournament.record_result(match.id, result)


def standard_evening(
    *,
    players: int = 16,
    seed: int = 7,
    tiebreak: Tiebreak | None = None,
    first: tuple[str, ...] = ("<b>Bob & Co</b>",),
) -> Tournament:
    """16 players, 5 Swiss rounds, semifinals and finals; the 5th withdraws after round 3.

    The first player is named ``<b>Bob & Co</b>`` (``first``) to check escaping.
    """
    rng = random.Random(seed)
    tournament = Tournament.create(
        Settings(seed=seed, tiebreak=tiebreak), new_players(players, extra=first)
    )
    play_swiss(tournament, 3, rng)
    tournament.withdraw_player(tournament.standings()[4].player_id)
    play_swiss(tournament, tournament.format.swiss_rounds - 3, rng)
    play_final_phase(tournament, rng)
    assert tournament.status is Status.FINISHED
    return tournament


def groups_evening(*, seed: int = 11) -> Tournament:
    """12 players in two seeded groups of 6, 4 rounds each, crossed semifinals and finals."""
    rng = random.Random(seed)
    settings = Settings(seed=seed, groups=GroupsSetting(GroupAssignment.SEEDED))
    tournament = Tournament.create(settings, new_players(12))
    play_swiss(tournament, tournament.format.swiss_rounds, rng)
    play_final_phase(tournament, rng)
    return tournament


def short_evening(*, seed: int = 5) -> Tournament:
    """The short formula: 13 players (a bye each round), 4 Swiss rounds, then only the final."""
    rng = random.Random(seed)
    tournament = Tournament.create(Settings(seed=seed, format=FormatPreset.SHORT), new_players(13))
    play_swiss(tournament, tournament.format.swiss_rounds, rng)
    play_final_phase(tournament, rng)
    return tournament
