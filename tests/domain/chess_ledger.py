"""A chess tournament's history as a test writes it down itself, round by round, from what it
decided (results, byes asked for, withdrawals) and what the service answered (boards, PAB):
the engine's input built without ``app.domain.chess``, to check a tournament against
``pair_dutch`` on the same history."""

from __future__ import annotations

from collections.abc import Mapping

from app.domain.pairing.dutch.types import (
    Colour,
    DutchInput,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.types import PlayerId, PointsTable, RoundNumber, Score

WIN_LOSS = {
    "white": (Outcome.WIN, Outcome.LOSS),
    "black": (Outcome.LOSS, Outcome.WIN),
    "draw": (Outcome.DRAW, Outcome.DRAW),
    "white_forfeits": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    "black_forfeits": (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    "both_forfeit": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
}
"""A game's outcome for White and for Black, by what happened."""


class Ledger:
    """One list of records per player; a player first seen in round *r* was absent before."""

    def __init__(self, points: PointsTable) -> None:
        self.points = points
        self.records: dict[PlayerId, list[RoundRecord]] = {}

    def round_input(
        self,
        number: int,
        numbers: Mapping[PlayerId, int],
        present: set[PlayerId],
        *,
        total_rounds: int,
        initial: Colour,
    ) -> DutchInput:
        """The engine's input for round ``number``: pairing numbers as given."""
        for pid in numbers:
            self.records.setdefault(pid, [RoundRecord(Outcome.ABSENT)] * (number - 1))
        players = tuple(
            DutchPlayer(pid, numbers[pid], tuple(records), pid in present)
            for pid, records in self.records.items()
        )
        return DutchInput(players, RoundNumber(number), total_rounds, initial, self.points)

    def game(self, white: PlayerId, black: PlayerId, what: str) -> None:
        for_white, for_black = WIN_LOSS[what]
        self.records[white].append(RoundRecord(for_white, black, Colour.WHITE))
        self.records[black].append(RoundRecord(for_black, white, Colour.BLACK))

    def unpaired(self, pid: PlayerId, outcome: Outcome) -> None:
        self.records[pid].append(RoundRecord(outcome))

    def score(self, pid: PlayerId) -> Score:
        return Score(sum(r.outcome.points(self.points) for r in self.records[pid]))
