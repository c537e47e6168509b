"""How long the engine takes for a whole evening, from creation to the final ranking.

Run: ``.venv/bin/python bench/bench_engine.py [--runs 201] [--sweep-runs 31]``. One evening:
create the tournament, generate every Swiss round of the format with random results (a fifth
drawn), start the final phase, play the semifinals (a level one names its winner), the final and
the third-place final, read the final ranking. The results are drawn before the clock starts, per
board, so every run does the same work. Figures go in ``docs/performance.md`` under
"Engine: a whole evening".
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem, Result, Side, Status

TARGET_MS = 10.0


def random_results(count: int, seed: int) -> list[Result]:
    """Enough results for any evening: a fifth level (a draw, or a winner in the final phase)."""
    rng = random.Random(seed)
    results = []
    for _ in range(count):
        if rng.random() < 0.2:
            goals = rng.randint(0, 3)
            results.append(Result(goals, goals))
        else:
            winner, loser = rng.randint(1, 5), rng.randint(0, 4)
            loser = min(loser, winner - 1)
            home_wins = rng.random() < 0.5
            results.append(Result(winner, loser) if home_wins else Result(loser, winner))
    return results


def play_evening(players: int, results: list[Result], *, pairing: PairingSystem) -> Tournament:
    """A whole evening in the engine; ``results`` are used in order, one per match."""
    feed = iter(results)
    tournament = Tournament.create(
        Settings(seed=players, pairing=pairing),
        [NewPlayer(f"Player {i}") for i in range(1, players + 1)],
    )
    for _ in range(tournament.format.swiss_rounds):
        tournament.generate_round()
        for match in tournament.round_matches(tournament.current_round):
            tournament.record_result(match.id, next(feed))
    tournament.start_final_phase()
    while tournament.status is not Status.FINISHED:
        match = next(m for m in tournament.final_matches() if m.result is None)
        result = next(feed)
        if result.home_goals == result.away_goals:
            result = Result(result.home_goals, result.away_goals, winner=Side.HOME)
        tournament.record_result(match.id, result)
    if tournament.final_ranking() is None:
        raise RuntimeError("the evening ended without a final ranking")
    return tournament


def time_evening(players: int, runs: int, *, pairing: PairingSystem) -> list[float]:
    """Milliseconds of each run; every run plays the same evening."""
    results = random_results(players * 16, seed=players)
    play_evening(players, results, pairing=pairing)  # warm-up: imports, caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        play_evening(players, results, pairing=pairing)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=201)
    parser.add_argument("--sweep-runs", type=int, default=31)
    parser.add_argument("--pairing", choices=[p.value for p in PairingSystem], default="nearest")
    args = parser.parse_args()
    pairing = PairingSystem(args.pairing)

    print(f"CPython {platform.python_version()}, pairing {pairing.value}")
    times = time_evening(16, args.runs, pairing=pairing)
    median = statistics.median(times)
    verdict = "within" if median < TARGET_MS else "OVER"
    print(
        f"16 players, whole evening: median {median:.2f} ms, min {min(times):.2f}, "
        f"max {max(times):.2f} over {args.runs} runs ({verdict} the {TARGET_MS:.0f} ms target)"
    )
    print()
    print("| players | Swiss rounds | matches | median ms | min ms | max ms |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for players in (8, 12, 16, 24, 32, 48, 64):
        times = time_evening(players, args.sweep_runs, pairing=pairing)
        evening = play_evening(players, random_results(players * 16, seed=players), pairing=pairing)
        print(
            f"| {players} | {evening.format.swiss_rounds} | {len(evening.matches)} "
            f"| {statistics.median(times):.2f} | {min(times):.2f} | {max(times):.2f} |"
        )


if __name__ == "__main__":
    main()
