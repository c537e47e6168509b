"""Long ``swiss_rounds`` overrides: every round of a full round robin paired by each system.

The settings allow up to N − 1 Swiss rounds for N players (N even). This plays such a
tournament from round 1 to the last, pairing each round with the system itself (random results:
win, draw or loss equally likely on the 3/1/0 table; for ``lim`` also a goal difference), and
times every round's ``pair_round``. It reports the worst round (wall and CPU time), the median,
the verdict against the target, and the rounds that needed rematches (fallback rounds and their
``rematch_pairs``; ``nearest``'s look-ahead keeps a round robin completable, ``lim`` has none),
the rounds ``nearest`` accepted unproven or rebuilt from a split of the unplayed pairs
(``lookahead_unproven``, ``factorization``). Several ``--seeds``: one row each, then the
totals. Figures in ``docs/performance.md``.

``dutch`` plays the same override through ``pair_dutch`` (every game played, results 1, ½, 0
equally likely, ``tests/domain/dutch_simulation.py``). It has no look-ahead and never pairs a
rematch (C1), so the override ends at the first round that cannot be paired (Art. 1.9.3: the
arbiter decides); ``rounds paired`` says where. Its target: every round of 128 and 256 players
under 0.5 s of CPU.

Targets: any round of up to 256 players under 1 s, of 1,000 players under 2 s. Each round's
wall time is measured, and its CPU time (``time.process_time``) beside it: on a shared machine
a round that waited for the CPU shows a wall time far above its CPU time. Each round is paired
with the cyclic collector paused, as the service pairs it (``app.collector``).

    .venv/bin/python bench/bench_long_override.py                 # 64, 128, 256: every round
    .venv/bin/python bench/bench_long_override.py --sizes 1000 --until 400 --progress

A round cannot be timed without pairing every round before it (it needs their history), so a
run too long for the time at hand (1,000 × 999 rounds) is cut, not sampled: ``--until R`` stops
after round R, every round up to it timed; ``--progress`` prints every 50th round and the worst
so far while it runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.collector import paused
from app.domain.pairing import lim, nearest
from app.domain.pairing.base import Entrant, PairingContext, PairingHistory, RoundPairing
from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.types import DutchInput, DutchPairing
from app.domain.types import RoundNumber
from bench.simulate import POINTS, Simulation
from tests.domain.dutch_simulation import play

SYSTEMS: dict[str, Callable[[list[Entrant], PairingHistory, PairingContext], RoundPairing]] = {
    "nearest": nearest.pair_round,
    "lim": lim.pair_round,
}
"""The systems paired through ``pair_round``; ``dutch`` is played by ``run_dutch``."""


def run(
    system: str, size: int, *, seed: int, until: int | None = None, progress: bool = False
) -> dict[str, object]:
    """Pair and time every round of one round robin (the first ``until`` rounds if given):
    ``size`` − 1 Swiss rounds, ``size`` for an odd field; ``lim`` orders by goal difference."""
    if system == "dutch":
        return run_dutch(size, seed=seed, until=until, progress=progress)
    field = Simulation(size, seed=seed)
    rounds = size if size % 2 else size - 1
    pair = SYSTEMS[system]
    timed: list[tuple[float, int, tuple[str, ...]]] = []
    cpu_times: list[float] = []
    fallbacks = 0
    wall = time.perf_counter()
    last = rounds if until is None else min(until, rounds)
    while field.played < last:
        number = field.played + 1
        order, history = field.order(by_goals=system == "lim"), field.history()
        context = PairingContext(RoundNumber(number), rounds - number, f"long-{number}", POINTS)
        start, cpu = time.perf_counter(), time.process_time()
        with paused():  # as the service pairs (``services.rounds``)
            pairing = pair(order, history, context)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        timed.append((took, number, pairing.path))
        cpu_times.append(cpu)
        fallbacks += bool(pairing.rematch_pairs)
        field.record(pairing)
        if progress and number % 50 == 0:
            worst_cpu = max(cpu_times, default=0.0)
            print(
                f"    {system} {size}: round {number}: {took:.3f} s, CPU {cpu:.3f} s; "
                f"worst so far {max(timed)[0]:.3f} s, CPU {worst_cpu:.3f} s",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - wall
    worst = max(timed)
    return {
        "rounds": rounds,
        "timed": len(timed),
        "worst_s": worst[0],
        "worst_round": worst[1],
        "worst_path": "+".join(worst[2]),
        "median_ms": statistics.median(t for t, _, _ in timed) * 1000,
        "worst_cpu_s": max(cpu_times),
        "rematch_pairs": field.rematches,
        "fallback_rounds": fallbacks,
        "unproven": sum("lookahead_unproven" in path for _, _, path in timed),
        "rebuilt": sum("factorization" in path for _, _, path in timed),
        "wall_s": wall,
        "times": timed,
    }


def run_dutch(
    size: int, *, seed: int, until: int | None = None, progress: bool = False
) -> dict[str, object]:
    """``run`` for ``dutch``: the override played by ``play`` without mishaps, up to the first
    round that cannot be paired."""
    rounds = size if size % 2 else size - 1
    timed: list[tuple[float, int, tuple[str, ...]]] = []
    cpu_times: list[float] = []

    def pair(round_: DutchInput) -> DutchPairing:
        start, cpu = time.perf_counter(), time.process_time()
        with paused():  # as the service pairs (``services.rounds``)
            pairing = pair_dutch(round_)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        timed.append((took, round_.round_number, ("dutch",)))
        cpu_times.append(cpu)
        if progress and round_.round_number % 50 == 0:
            print(
                f"    dutch {size}: round {round_.round_number}: CPU {cpu:.3f} s; "
                f"worst so far {max(cpu_times):.3f} s",
                file=sys.stderr,
                flush=True,
            )
        return pairing

    wall = time.perf_counter()
    paired = play(
        seed, size, rounds if until is None else min(until, rounds), _ok, pair=pair, mishaps=False
    )
    wall = time.perf_counter() - wall
    worst = max(timed)
    return {
        "rounds": rounds,
        "timed": paired,
        "worst_s": worst[0],
        "worst_round": worst[1],
        "worst_path": "dutch",
        "median_ms": statistics.median(t for t, _, _ in timed) * 1000,
        "worst_cpu_s": max(cpu_times),
        "worst_cpu_round": cpu_times.index(max(cpu_times)) + 1,
        "rematch_pairs": 0,
        "fallback_rounds": 0,
        "unproven": 0,
        "rebuilt": 0,
        "wall_s": wall,
        "times": timed,
    }


def _ok(round_: DutchInput, pairing: DutchPairing) -> None:
    """``play``'s check of each round: nothing to check here (the tests do)."""


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--systems", nargs="+", choices=[*sorted(SYSTEMS), "dutch"], default=["nearest", "lim"]
    )
    parser.add_argument("--sizes", nargs="+", type=int, default=[64, 128, 256])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    parser.add_argument("--until", type=int, help="stop after this round (see above)")
    parser.add_argument("--slowest", type=int, default=3, help="list the slowest rounds")
    parser.add_argument("--progress", action="store_true", help="every 50th round on stderr")
    args = parser.parse_args()
    print(
        "| system | players | rounds | timed | worst s (round) | worst CPU s | median ms | "
        "target | fallback rounds | rematch pairs | unproven | rebuilt | wall s | "
        "load before → after |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for system in args.systems:
        for size in args.sizes:
            target = (0.5 if system == "dutch" else 1.0) if size <= 256 else 2.0
            fallback_rounds = rematch_pairs = 0
            worst_cpu = 0.0
            for seed in args.seeds:
                before = loadavg()
                r = run(system, size, seed=seed, until=args.until, progress=args.progress)
                # dutch's target is CPU time (a loaded machine inflates the wall time).
                worst = r["worst_cpu_s"] if system == "dutch" else r["worst_s"]
                verdict = "ok" if float(worst) < target else "OVER"  # type: ignore[arg-type]
                cpu_round = f" ({r['worst_cpu_round']})" if "worst_cpu_round" in r else ""
                print(
                    f"| {system} | {size} | {r['rounds']} | {r['timed']} | "
                    f"{r['worst_s']:.3f} ({r['worst_round']}) | "
                    f"{r['worst_cpu_s']:.3f}{cpu_round} | "
                    f"{r['median_ms']:.1f} | "
                    f"< {target:g} s {verdict} | {r['fallback_rounds']} | {r['rematch_pairs']} | "
                    f"{r['unproven']} | {r['rebuilt']} | {r['wall_s']:.1f} | "
                    f"{before} → {loadavg()} |",
                    flush=True,
                )
                slowest = sorted(r["times"], reverse=True)[: args.slowest]  # type: ignore[call-overload]
                for took, number, path in slowest:
                    print(f"    round {number}: {took * 1000:.1f} ms ({'+'.join(path)})")
                fallback_rounds += int(r["fallback_rounds"])  # type: ignore[call-overload]
                rematch_pairs += int(r["rematch_pairs"])  # type: ignore[call-overload]
                worst_cpu = max(worst_cpu, float(r["worst_cpu_s"]))  # type: ignore[arg-type]
            if len(args.seeds) > 1:
                print(
                    f"    {system} {size}, {len(args.seeds)} seeds: "
                    f"{fallback_rounds} fallback rounds, {rematch_pairs} rematch pairs, "
                    f"worst round {worst_cpu:.3f} s CPU",
                    flush=True,
                )


if __name__ == "__main__":
    main()
