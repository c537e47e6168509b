"""What explaining a round adds to pairing it (``docs/explanations.md``), for ``nearest`` and
``lim``: one round 6 of 11 of a large field, the pairing alone against the explanation alone.

Run: ``.venv/bin/python bench/bench_explanations.py [--repeats N]``. Tournaments are paired by
the system itself from round 1 with random results (``bench.simulate``). The fastest of
``repeats`` runs is reported (the machine is shared: the minimum is the least disturbed). The
figures go in ``docs/performance.md`` under "Round explanations".
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.pairing.base import PairingContext
from app.domain.pairing.lim import engine as lim_engine
from app.domain.pairing.lim import explanation as lim_explanation
from app.domain.pairing.lim.groups import pair_groups
from app.domain.pairing.lim.unmet import unmet_rows, without
from app.domain.pairing.nearest import engine as nearest_engine
from app.domain.pairing.nearest.explanation import explain_round
from app.domain.types import RoundNumber
from bench.simulate import POINTS, Simulation, fifth_drawn

ROUNDS = 11
ROUND = 6


def context(number: int) -> PairingContext:
    return PairingContext(RoundNumber(number), ROUNDS - number, f"bench-{number}", POINTS)


def fastest(run: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def nearest(size: int, repeats: int) -> tuple[float, float]:
    field = Simulation(size, seed=size)
    while field.played < ROUND - 1:
        field.record(
            nearest_engine.pair_round(field.order(), field.history(), context(field.played + 1))
        )
    order, history, round_context = field.order(), field.history(), context(ROUND)
    unplayed = nearest_engine._unplayed(order, history)
    pairing = nearest_engine._pair(order, history, round_context, unplayed)

    def pair() -> object:
        return nearest_engine._pair(
            order, history, round_context, nearest_engine._unplayed(order, history)
        )

    return fastest(pair, repeats), fastest(
        lambda: explain_round(order, unplayed, round_context, pairing), repeats
    )


def lim(size: int, repeats: int) -> tuple[float, float]:
    field = Simulation(size, seed=size, outcome=fifth_drawn)
    while field.played < ROUND - 1:
        earlier = context(field.played + 1)
        field.record(lim_engine.pair_round(field.order(by_goals=True), field.history(), earlier))
    order, history, round_context = field.order(by_goals=True), field.history(), context(ROUND)
    pairing = lim_engine.pair_round(order, history, round_context)
    bye = pairing.bye
    rank = {e.id: r for r, e in enumerate(order)}
    players = [e for e in order if e.id != bye]
    everyone = unmet_rows([e.id for e in order], history)
    unmet = everyone if bye is None else without(everyone, rank[bye])
    median = POINTS.win * (ROUND - 1)
    grouped = pair_groups([e.points for e in players], unmet, doubled_median=median)
    assert grouped is not None, "the bench round needs the groups, not the fallbacks"
    whole = fastest(lambda: lim_engine.pair_round(order, history, round_context), repeats)
    explaining = fastest(
        lambda: lim_explanation.by_groups(order, players, grouped, pairing, doubled_median=median),
        repeats,
    )
    return whole - explaining, explaining


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print("| system | players | pairing ms | explanation ms | share |")
    print("|---|---|---|---|---|")
    for name, measure in (("nearest", nearest), ("lim", lim)):
        for size in (1000, 4096):
            pairing, explaining = measure(size, args.repeats)
            share = explaining / (pairing + explaining)
            print(f"| {name} | {size:,} | {pairing:.1f} | {explaining:.1f} | {share:.0%} |")


if __name__ == "__main__":
    main()
