"""Benchmark of pairing ``nearest``: one round of a large field, median of several runs.

Run: ``.venv/bin/python bench/bench_pairing_nearest.py [--quick]``. Tournaments are simulated
with random results (win, draw or loss, default points) through the rounds before the one
timed; the order is points, then start number. The figures go in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.pairing.base import PairingContext
from app.domain.pairing.nearest import pair_round
from app.domain.types import RoundNumber
from bench.simulate import POINTS, Simulation


def context(number: int, rounds: int) -> PairingContext:
    return PairingContext(RoundNumber(number), rounds - number, f"bench-{number}", POINTS)


def time_round(size: int, number: int, rounds: int, runs: int) -> tuple[float, tuple[str, ...]]:
    """Median milliseconds to pair round ``number`` of ``rounds`` over ``runs`` tournaments."""
    timings: list[float] = []
    path: tuple[str, ...] = ()
    for run in range(runs):
        field = Simulation(size, seed=1000 * size + run)
        while field.played < number - 1:
            earlier = context(field.played + 1, rounds)
            field.record(pair_round(field.order(), field.history(), earlier))
        order, history, round_context = field.order(), field.history(), context(number, rounds)
        start = time.perf_counter()
        result = pair_round(order, history, round_context)
        timings.append((time.perf_counter() - start) * 1000)
        path = result.path
    return statistics.median(timings), path


def _table(rows: Sequence[tuple[str, ...]], header: tuple[str, ...]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer runs and a shorter sweep")
    args = parser.parse_args()
    runs = 3 if args.quick else 7

    targets = [(1000, 25.0), (4096, 150.0)]
    rows = []
    for size, target in targets:
        median, path = time_round(size, 6, 11, runs)
        verdict = "ok" if median < target else "OVER"
        rows.append(
            (f"{size:,}", "6 of 11", f"{median:.1f}", f"< {target:.0f}", verdict, "+".join(path))
        )
    print("Targets (median ms, one round):")
    print(_table(rows, ("players", "round", "median ms", "target", "", "path")))

    heavy = []
    for size, number, rounds in [(16, 11, 15), (15, 11, 15), (40, 20, 39)]:
        median, path = time_round(size, number, rounds, 3)
        heavy.append((str(size), f"{number} of {rounds}", f"{median:.1f}", "+".join(path)))
    print()
    print("Long overrides (exact or bounded look-ahead at work):")
    print(_table(heavy, ("players", "round", "median ms", "path of last run")))
    print()
    sizes = [250, 500, 1000] if args.quick else [250, 500, 1000, 2000, 4096]
    numbers = [2, 6, 10] if args.quick else list(range(2, 11))
    sweep = []
    for size in sizes:
        cells = [f"{size:,}"]
        for number in numbers:
            median, _ = time_round(size, number, 11, max(3, runs // 2))
            cells.append(f"{median:.1f}")
        sweep.append(tuple(cells))
    print()
    print("Sweep (median ms to pair round r of 11):")
    print(_table(sweep, ("players", *(f"r{n}" for n in numbers))))


if __name__ == "__main__":
    main()
