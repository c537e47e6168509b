"""How long a ``lim`` round takes on a large field, and how close it stays to its score groups.

Run: ``.venv/bin/python bench/bench_pairing_lim.py``. Tournaments are paired by ``lim`` itself
from round 1, with random results on the 3/1/0 table (a fifth drawn); the order is points, goal
difference, start number (the median Buchholz tiebreak does not change the cost). Figures go
in ``docs/performance.md`` under "Pairing ``lim``".

(a) one round 6 of 11 at 1,000 players (target < 300 ms median) and 4,096 (target < 3 s), and a
sweep of field sizes; (b) on small random tournaments, how often a round has more pairs across
score groups than the fewest any rematch-free round with the same bye could have.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.pairing.base import Entrant, PairingContext, PairingHistory
from app.domain.pairing.lim import pair_round
from app.domain.types import RoundNumber
from bench.simulate import POINTS, Simulation, fifth_drawn
from tests.domain.lim_reference import rematch_free_rounds

ROUNDS = 11


def inputs(
    field: Simulation, round_number: int
) -> tuple[list[Entrant], PairingHistory, PairingContext]:
    """Round ``round_number`` of ``ROUNDS``: the order is points, goal difference, start number."""
    context = PairingContext(RoundNumber(round_number), ROUNDS - round_number, "bench", POINTS)
    return field.order(by_goals=True), field.history(), context


def time_round(size: int, round_number: int, *, repeats: int, seed: int = 1) -> list[float]:
    """Play rounds 1 .. round_number - 1, then time pairing round ``round_number``."""
    field = Simulation(size, seed=seed, outcome=fifth_drawn)
    for played in range(1, round_number):
        field.record(pair_round(*inputs(field, played)))
    timed = inputs(field, round_number)
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        pair_round(*timed)
        timings.append(time.perf_counter() - start)
    return timings


def cross_group_excess(tournaments: int, *, seed: int) -> tuple[int, int, int, int]:
    """Rounds checked, rounds above the minimum, total excess pairs, fallback rounds."""
    rng = random.Random(seed)
    checked = above = excess = fallbacks = 0
    for index in range(tournaments):
        size = rng.randint(4, 12)
        field = Simulation(size, seed=seed + index, outcome=fifth_drawn)
        for round_number in range(2, min(size, 8)):
            order, history, context = inputs(field, round_number)
            pairing = pair_round(order, history, context)
            if pairing.is_fallback:
                fallbacks += 1
            else:
                points = field.points
                players = [int(e.id) for e in order if e.id != pairing.bye]
                fewest = min(
                    sum(points[a] != points[b] for a, b in r)
                    for r in rematch_free_rounds(players, field.opponents)
                )
                got = sum(points[p.higher] != points[p.lower] for p in pairing.pairs)
                checked += 1
                above += got > fewest
                excess += got - fewest
            field.record(pairing)
    return checked, above, excess, fallbacks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--tournaments", type=int, default=400)
    args = parser.parse_args()

    print(f"(a) one lim round 6 of {ROUNDS}, random results, median of {args.repeats}")
    for size, target in ((1_000, 0.3), (4_096, 3.0)):
        timings = time_round(size, 6, repeats=args.repeats)
        print(
            f"  {size:>5} players: median {statistics.median(timings) * 1000:8.1f} ms, "
            f"max {max(timings) * 1000:8.1f} ms (target < {target * 1000:.0f} ms)"
        )
    print("  sweep, round 6:")
    for size in (64, 128, 256, 512, 1_000, 2_048, 4_096, 8_192):
        timings = time_round(size, 6, repeats=3)
        print(f"  {size:>5} players: median {statistics.median(timings) * 1000:8.1f} ms")
    print("  sweep, 1,000 players by round:")
    for round_number in (2, 4, 6, 8, 10, 11):
        timings = time_round(1_000, round_number, repeats=3)
        print(f"  round {round_number:>2}: median {statistics.median(timings) * 1000:8.1f} ms")

    checked, above, excess, fallbacks = cross_group_excess(args.tournaments, seed=2026)
    print(f"(b) {args.tournaments} random tournaments of 4-12 players, rounds 2-7")
    print(
        f"  {checked} rounds checked: {above} ({100 * above / checked:.1f} %) have more "
        f"cross-group pairs than the brute-force minimum with the same bye, {excess} extra "
        f"pairs in all; {fallbacks} rounds had no rematch-free pairing"
    )


if __name__ == "__main__":
    main()
