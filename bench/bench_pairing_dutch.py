"""Pairing ``dutch`` (FIDE Dutch System, 2026): time per round, and the same pairing as the file.

Part 1 pairs every round of the shared reference files with 200 and 1,000 players
(``tests/data/dutch``, made by bbpPairings v6.0.0) from the rounds before it, checks that the
boards and the bye are the file's, and reports the CPU time of each round (median of
``--repeat`` runs; building the input is not timed). Part 2 plays random tournaments of growing
size (9 rounds, results drawn at random with forfeits, requested byes and withdrawals, see
``tests/domain/dutch_simulation.py``) and reports the mean and slowest round.

Run: ``.venv/bin/python bench/bench_pairing_dutch.py [--repeat 3] [--sizes 100,200,500,1000]``;
online-sized fields, each round listed: ``--no-files --sizes 4000,10000 --seeds 1 --each``.
Targets: a 200-player round under 0.2 s, every round of the 1,000-player file under 4 s, every
round of a 4,000-player tournament under 1 s and of a 10,000-player one under 5 s (CPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.types import DutchInput, DutchPairing
from tests.domain.dutch_reference import round_input, round_result, rounds
from tests.domain.dutch_simulation import play

FILES = ("dutch_p0200_r09_s101.trf", "dutch_p1000_r09_s1.trf")


def cpu(round_: DutchInput) -> float:
    start = time.process_time()
    pair_dutch(round_)
    return time.process_time() - start


class Timed:
    """``pair_dutch`` that notes the CPU time of every round it pairs."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, round_: DutchInput) -> DutchPairing:
        start = time.process_time()
        pairing = pair_dutch(round_)
        self.times.append(time.process_time() - start)
        return pairing


def files(repeat: int) -> None:
    print("| file | round | players paired | same as the file | median s | max s |")
    print("| --- | ---: | ---: | --- | ---: | ---: |")
    for name in FILES:
        for number in range(1, rounds(name) + 1):
            round_ = round_input(name, number)
            pairing = pair_dutch(round_)
            same = (frozenset(pairing.boards), pairing.bye) == round_result(name, number)
            times = [cpu(round_) for _ in range(repeat)]
            paired = sum(1 for p in round_.players if p.present)
            print(
                f"| {name} | {number} | {paired} | {'yes' if same else 'NO'} | "
                f"{statistics.median(times):.3f} | {max(times):.3f} |"
            )


def growth(sizes: list[int], seeds: int, *, each: bool = False) -> None:
    print()
    print(
        "| players | rounds paired | mean s per round | slowest round s |"
        + (" each round s |" if each else "")
    )
    print("| ---: | ---: | ---: | ---: |" + (" --- |" if each else ""))
    for size in sizes:
        timed = Timed()
        for seed in range(seeds):
            play(seed, size, 9, lambda r, p: None, pair=timed)
        times = timed.times
        rounds = " " + " ".join(f"{t:.2f}" for t in times) + " |" if each else ""
        print(
            f"| {size} | {len(times)} | {statistics.mean(times):.3f} | {max(times):.3f} |{rounds}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="50,100,200,500,1000,2000")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-files", action="store_true", help="skip the reference files")
    parser.add_argument("--each", action="store_true", help="list every round's CPU time")
    args = parser.parse_args()
    if not args.no_files:
        files(args.repeat)
    growth([int(s) for s in args.sizes.split(",")], args.seeds, each=args.each)


if __name__ == "__main__":
    main()
