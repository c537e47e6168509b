"""Helpers for domain tests: build tournaments and play their rounds with chosen results."""

from __future__ import annotations

from collections.abc import Callable

from app.domain.matches import Match
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PlayerId, Result

Decide = Callable[[Match], Result]


def players(count: int, *, prefix: str = "P") -> list[NewPlayer]:
    return [NewPlayer(f"{prefix}{i}") for i in range(1, count + 1)]


def new(count: int, **settings: object) -> Tournament:
    options: dict[str, object] = {"seed": 7, **settings}
    return Tournament.create(Settings(**options), players(count))  # type: ignore[arg-type]


def stronger_wins(tournament: Tournament) -> Decide:
    """The player with the lower start number wins 2–0 (a predictable evening)."""

    def decide(match: Match) -> Result:
        home = tournament.players[match.home].start_number
        away = tournament.players[match.away].start_number
        return Result(2, 0) if home < away else Result(0, 2)

    return decide


def home_wins(_: Match) -> Result:
    return Result(1, 0)


def play_round(tournament: Tournament, decide: Decide) -> None:
    swiss_round = tournament.generate_round()
    for match in tournament.round_matches(swiss_round.number):
        tournament.record_result(match.id, decide(match))


def play_swiss(tournament: Tournament, decide: Decide | None = None) -> None:
    """Play every Swiss round of the format."""
    while tournament.current_round < tournament.format.swiss_rounds:
        play_round(tournament, decide or stronger_wins(tournament))


def order(tournament: Tournament) -> list[PlayerId]:
    return [row.player_id for row in tournament.standings()]
