"""Random ``dutch`` tournaments played with the engine, for the property tests.

``play`` pairs every round with ``pair_dutch`` and invents the results: wins, draws and losses,
forfeits, half-point and zero-point byes asked for, and players who stop coming. Each round's
input and pairing are handed to a check before the results are made up.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.domain.errors import PairingImpossible
from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.types import (
    Colour,
    DutchInput,
    DutchPairing,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.types import PlayerId, RoundNumber

Check = Callable[[DutchInput, DutchPairing], None]

_GAME = ((Outcome.WIN, Outcome.LOSS), (Outcome.DRAW, Outcome.DRAW), (Outcome.LOSS, Outcome.WIN))


def play(
    seed: int,
    players: int,
    rounds: int,
    check: Check,
    impossible: Callable[[DutchInput], None] | None = None,
    *,
    pair: Callable[[DutchInput], DutchPairing] = pair_dutch,
    mishaps: bool = True,
) -> int:
    """Play up to ``rounds`` rounds with ``pair``; return how many were paired. A round that
    cannot be paired ends the tournament, after ``impossible`` has seen it. Without
    ``mishaps`` every game is played and everybody comes to every round (no forfeits,
    requested byes or withdrawals), as in a long override played to the end."""
    rng = random.Random(seed)
    history: dict[PlayerId, list[RoundRecord]] = {PlayerId(n): [] for n in range(1, players + 1)}
    gone: set[PlayerId] = set()
    initial = rng.choice([Colour.WHITE, Colour.BLACK])
    for number in range(1, rounds + 1):
        asked = {
            p: rng.choice([Outcome.HALF_POINT_BYE, Outcome.ZERO_POINT_BYE])
            for p in history
            if mishaps and p not in gone and rng.random() < 0.08
        }
        if mishaps and rng.random() < 0.1 and len(gone) < players // 3:
            gone.add(rng.choice(list(history)))
        round_ = DutchInput(
            tuple(
                DutchPlayer(p, int(p), tuple(records), present=p not in gone and p not in asked)
                for p, records in history.items()
            ),
            RoundNumber(number),
            rounds,
            initial,
        )
        try:
            pairing = pair(round_)
        except PairingImpossible:
            if impossible is not None:
                impossible(round_)
            return number - 1
        check(round_, pairing)
        played: dict[PlayerId, RoundRecord] = {}
        for board in pairing.boards:
            roll = rng.random() if mishaps else 1.0
            if roll < 0.05:
                white, black = Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS
            elif roll < 0.08:
                white, black = Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN
            else:
                white, black = rng.choice(_GAME)
            played[board.white] = RoundRecord(white, board.black, Colour.WHITE)
            played[board.black] = RoundRecord(black, board.white, Colour.BLACK)
        if pairing.bye is not None:
            played[pairing.bye] = RoundRecord(Outcome.PAIRING_BYE)
        for p, records in history.items():
            records.append(played.get(p) or RoundRecord(asked.get(p, Outcome.ABSENT)))
    return rounds
