"""The boards players reported and nobody settled yet, as the live page lists them under the
current round: waiting for the opponent's confirmation, or disputed (the organizer decides)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.domain.reports import BoardState
from app.domain.tournament import Tournament
from app.domain.types import Stage, Status


@dataclass(frozen=True, slots=True)
class Reported:
    """A board of the current round with a claim: its number, players and state."""

    board: int
    home: str
    away: str
    state: BoardState


def reported_boards(tournament: Tournament, states: Mapping[int, BoardState]) -> list[Reported]:
    """The latest Swiss round's boards without result but with a claim, by board number."""
    if not states or tournament.status is not Status.SWISS or not tournament.rounds:
        return []
    number = len(tournament.rounds)
    found = [
        Reported(m.board, tournament.players[m.home].name, tournament.players[m.away].name, state)
        for m in tournament.matches.values()
        if m.stage is Stage.SWISS
        and m.round == number
        and m.result is None
        and (state := states.get(m.id, BoardState.OPEN)) is not BoardState.OPEN
    ]
    return sorted(found, key=lambda r: r.board)
