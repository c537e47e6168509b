"""How often pairing leaves a home−away difference of 3 or more (``colours.md``).

Pairing ignores colours in both systems, so two players who were both away twice can meet and
one of them ends a third time away. This benchmark plays whole random evenings through
``Tournament`` and counts, at the end of the Swiss rounds, the players whose home and away counts
differ by 3 or more. A figure for the docs, not a pass/fail property.

Run: ``.venv/bin/python bench/bench_colours.py [--evenings 200]``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem, Result

SIZES = (8, 12, 16, 24, 32, 64, 128)


def imbalance(players: int, seed: int, pairing: PairingSystem) -> tuple[int, int]:
    """Players with |home − away| ≥ 3 after the Swiss rounds, and the number of players."""
    rng = random.Random(seed)
    t = Tournament.create(
        Settings(seed=seed, pairing=pairing), [NewPlayer(f"P{i}") for i in range(players)]
    )
    for _ in range(t.format.swiss_rounds):
        number = t.generate_round().number
        for m in t.round_matches(number):
            a, b = rng.randint(0, 3), rng.randint(0, 3)
            t.record_result(m.id, Result(a, b))
    home = dict.fromkeys(t.players, 0)
    away = dict.fromkeys(t.players, 0)
    for m in t.matches.values():
        home[m.home] += 1
        away[m.away] += 1
    return sum(1 for pid in t.players if abs(home[pid] - away[pid]) >= 3), players


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--evenings", type=int, default=200)
    args = parser.parse_args()
    print("| pairing | players | Swiss rounds | players with diff ≥ 3 | evenings with one |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for pairing in PairingSystem:
        for size in SIZES:
            hit_players = total = hit_evenings = 0
            for seed in range(args.evenings):
                hits, count = imbalance(size, seed, pairing)
                hit_players += hits
                total += count
                hit_evenings += hits > 0
            rounds = Tournament.create(
                Settings(seed=0), [NewPlayer(f"P{i}") for i in range(size)]
            ).format.swiss_rounds
            print(
                f"| {pairing} | {size} | {rounds} | {100 * hit_players / total:.2f}% "
                f"| {100 * hit_evenings / args.evenings:.1f}% |"
            )


if __name__ == "__main__":
    main()
