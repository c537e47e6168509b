"""Where a ``dutch`` round robin stops: N players, N − 1 rounds (N for an odd N), everybody
present every round, random results (30% drawn, the rest won by either player), paired with
``pair_dutch`` until a round has no pairing that keeps C1–C3.

    .venv/bin/python -m bench.dutch_round_robin 16 20 64 --seeds 5

prints, for each field and seed, the round that could not be paired (or ``complete``), and the
CPU time. The figure goes with ``chess.sure_rounds`` in docs/rules.md ("How many rounds").
"""

from __future__ import annotations

import argparse
import random
import time

from app.domain.errors import PairingImpossible
from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.types import (
    Colour,
    DutchInput,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.types import PlayerId, RoundNumber


def stop_round(players: int, seed: int) -> int | None:
    """The first round that cannot be paired, or ``None`` when all are."""
    rng = random.Random(seed)
    rounds = players if players % 2 else players - 1
    history: dict[PlayerId, list[RoundRecord]] = {PlayerId(n): [] for n in range(1, players + 1)}
    for number in range(1, rounds + 1):
        round_ = DutchInput(
            tuple(DutchPlayer(p, int(p), tuple(r)) for p, r in history.items()),
            RoundNumber(number),
            rounds,
            Colour.WHITE,
        )
        try:
            pairing = pair_dutch(round_)
        except PairingImpossible:
            return number
        for board in pairing.boards:
            roll = rng.random()
            white, black = (
                (Outcome.DRAW, Outcome.DRAW)
                if roll < 0.3
                else (Outcome.WIN, Outcome.LOSS)
                if roll < 0.65
                else (Outcome.LOSS, Outcome.WIN)
            )
            history[board.white].append(RoundRecord(white, board.black, Colour.WHITE))
            history[board.black].append(RoundRecord(black, board.white, Colour.BLACK))
        if pairing.bye is not None:
            history[pairing.bye].append(RoundRecord(Outcome.PAIRING_BYE))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fields", type=int, nargs="+")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    for players in args.fields:
        for seed in range(1, args.seeds + 1):
            start = time.process_time()
            stopped = stop_round(players, seed)
            cpu = time.process_time() - start
            where = "complete" if stopped is None else f"round {stopped} cannot be paired"
            print(f"{players} players, seed {seed}: {where} ({cpu:.1f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
