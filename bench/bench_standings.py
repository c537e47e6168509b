"""How long ``compute_standings`` takes on a large evening, and how it grows.

Run: ``.venv/bin/python bench/bench_standings.py``. Rounds are paired at random without
repeats (a random permutation, adjacent players meet, rematches rejected by reshuffling), with
random results: a tenth of the games forfeited, a fifth drawn. Figures go in
``docs/performance.md`` under "Standings".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.standings import SwissGame, compute_standings
from app.domain.types import (
    Forfeit,
    Player,
    PlayerId,
    PointsTable,
    Result,
    RoundNumber,
    Tiebreak,
)

Bye = tuple[RoundNumber, PlayerId]


def random_tournament(
    size: int, rounds: int, rng: random.Random
) -> tuple[list[Player], list[SwissGame], list[Bye]]:
    players = [
        Player(id=PlayerId(i + 1), name=f"P{i + 1}", start_number=i + 1) for i in range(size)
    ]
    ids = [p.id for p in players]
    met: set[tuple[PlayerId, PlayerId]] = set()
    games: list[SwissGame] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        while True:
            rng.shuffle(ids)
            pairs = list(zip(ids[0::2], ids[1::2], strict=False))
            if not any((a, b) in met for a, b in pairs):
                break
        if size % 2:
            byes.append((RoundNumber(number), ids[-1]))
        for home, away in pairs:
            met.add((home, away))
            met.add((away, home))
            games.append(SwissGame(RoundNumber(number), home, away, random_result(rng)))
    return players, games, byes


def random_result(rng: random.Random) -> Result:
    roll = rng.random()
    if roll < 0.1:
        return Result(home_goals=0, away_goals=0, forfeit=rng.choice([Forfeit.HOME, Forfeit.AWAY]))
    if roll < 0.3:
        goals = rng.randint(0, 3)
        return Result(home_goals=goals, away_goals=goals)
    winner, loser = rng.randint(1, 6), rng.randint(0, 5)
    loser = min(loser, winner - 1)
    return Result(home_goals=winner, away_goals=loser) if roll < 0.65 else Result(loser, winner)


def time_standings(size: int, rounds: int, *, repeats: int, tiebreak: Tiebreak) -> list[float]:
    """Milliseconds of each of ``repeats`` calls, on one random tournament."""
    players, games, byes = random_tournament(size, rounds, random.Random(size * 100 + rounds))
    table = PointsTable.default()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        compute_standings(
            players, games, byes, rounds_played=rounds, points=table, tiebreak=tiebreak
        )
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=31)
    args = parser.parse_args()

    print("## Headline: 1,000 players, 11 rounds")
    print("| tiebreak | games | median ms | min ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    games = 1000 // 2 * 11
    for tiebreak in Tiebreak:
        timings = time_standings(1000, 11, repeats=args.repeats, tiebreak=tiebreak)
        print(
            f"| {tiebreak} | {games} | {statistics.median(timings):.2f} "
            f"| {min(timings):.2f} | {max(timings):.2f} |"
        )

    rounds_sweep = (5, 7, 9, 11)
    print()
    print("## Sweep: median ms, buchholz tiebreak")
    print(
        "| players | "
        + " | ".join(f"{r} rounds" for r in rounds_sweep)
        + " | µs per game (11 r.) |"
    )
    print("| ---: | " + " | ".join("---:" for _ in rounds_sweep) + " | ---: |")
    for size in (100, 250, 500, 1000, 2000, 4096):
        medians = [
            statistics.median(
                time_standings(size, rounds, repeats=args.repeats, tiebreak=Tiebreak.BUCHHOLZ)
            )
            for rounds in rounds_sweep
        ]
        per_game = medians[-1] * 1000 / (size // 2 * rounds_sweep[-1])
        cells = " | ".join(f"{m:.2f}" for m in medians)
        print(f"| {size} | {cells} | {per_game:.2f} |")


if __name__ == "__main__":
    main()
