"""How long ``compute_standings`` takes, beside the code of an older commit, in one run.

Run: ``.venv/bin/python bench/bench_standings.py [--against 4968805] [--rounds-of-runs 6]
[--players 16]``.
The older commit's ``app`` is taken out with ``git archive`` into a temporary directory; each
measurement runs in a fresh subprocess that imports ``app.domain`` from one tree or the other,
older and current taking turns so that a busy machine weighs on both alike. Every figure is the
CPU time (``time.process_time``) of one call; the medians are over all the calls of all the
runs. The two trees must give the same rows on the fields they share (checked on each
tournament). Random tournaments: rounds paired at random without repeats (a random permutation,
adjacent players meet, rematches rejected by reshuffling), a tenth of the games forfeited, a
fifth drawn, one bye a round for an odd field; building the input is not timed. Figures go in
``docs/performance.md`` under "Standings".

The default ``--against`` is 4968805, the parent of 559797f, which added Sonneborn-Berger, the
progressive score and direct encounter to every row.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
AGAINST = "4968805"
# (players, rounds, calls per run): the evening (16 players, the format's 5 rounds), the
# headline field, and the largest field the settings allow with the format table's rounds.
SIZES = ((16, 5, 2001), (1000, 11, 41), (4096, 13, 11))
# Fields both trees' rows have: the older one lacks the three new tiebreaks.
SHARED_FIELDS = (
    "player_id",
    "rank",
    "played",
    "wins",
    "draws",
    "losses",
    "byes",
    "goals_for",
    "goals_against",
    "points",
    "buchholz",
    "median_buchholz",
    "withdrawn",
)


def random_tournament(size: int, rounds: int, rng: random.Random) -> tuple[Any, Any, Any]:
    """Players, games and byes, built with the ``app.domain`` of the tree imported."""
    from app.domain.standings import SwissGame
    from app.domain.types import Player, PlayerId, RoundNumber

    players = [
        Player(id=PlayerId(i + 1), name=f"P{i + 1}", start_number=i + 1) for i in range(size)
    ]
    ids = [p.id for p in players]
    met: set[tuple[int, int]] = set()
    games = []
    byes = []
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


def random_result(rng: random.Random) -> Any:
    from app.domain import types

    # A forfeit names the absent side: a ``Side`` before 97724df, a ``Forfeit`` since.
    absent = getattr(types, "Forfeit", types.Side)
    roll = rng.random()
    if roll < 0.1:
        return types.Result(0, 0, forfeit=rng.choice([absent.HOME, absent.AWAY]))
    if roll < 0.3:
        goals = rng.randint(0, 3)
        return types.Result(home_goals=goals, away_goals=goals)
    winner, loser = rng.randint(1, 6), rng.randint(0, 5)
    loser = min(loser, winner - 1)
    return types.Result(winner, loser) if roll < 0.65 else types.Result(loser, winner)


def worker(root: str, size: int, rounds: int, calls: int, tiebreak: str) -> None:
    """Time ``calls`` calls on one tournament with the tree at ``root``; print JSON."""
    sys.path.insert(0, root)
    from app.domain.standings import compute_standings
    from app.domain.types import PointsTable, Tiebreak

    players, games, byes = random_tournament(size, rounds, random.Random(size * 100 + rounds))
    table = PointsTable.default()
    chosen = Tiebreak(tiebreak)
    timings = []
    for _ in range(calls):
        start = time.process_time()
        rows = compute_standings(
            players, games, byes, rounds_played=rounds, points=table, tiebreak=chosen
        )
        timings.append((time.process_time() - start) * 1000)
    shared = [[str(getattr(row, name)) for name in SHARED_FIELDS] for row in rows]
    digest = hashlib.sha256(json.dumps(shared).encode()).hexdigest()
    print(json.dumps({"ms": timings, "rows": digest}))


def run_worker(root: Path, size: int, rounds: int, calls: int, tiebreak: str) -> dict[str, Any]:
    command = [sys.executable, __file__, "--worker", str(root)]
    command += ["--size", str(size), "--rounds", str(rounds), "--calls", str(calls)]
    command += ["--tiebreak", tiebreak]
    found: dict[str, Any] = json.loads(
        subprocess.run(command, check=True, capture_output=True, text=True).stdout
    )
    return found


def older_tree(commit: str, into: Path) -> str:
    """Extract ``app`` of ``commit`` into ``into``; return the commit's short hash and date."""
    archive = subprocess.run(
        ["git", "-C", str(REPOSITORY), "archive", "--format=tar", commit, "app"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return subprocess.run(
        ["git", "-C", str(REPOSITORY), "log", "-1", "--format=%h %cs", commit],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", default=AGAINST, help="the older commit (default: %(default)s)"
    )
    parser.add_argument("--rounds-of-runs", type=int, default=6, help="runs of each tree per size")
    parser.add_argument(
        "--players", type=int, nargs="+", help="only these field sizes (16, 1000, 4096)"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tiebreak", default="buchholz", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.size, args.rounds, args.calls, args.tiebreak)
        return

    current = subprocess.run(
        ["git", "-C", str(REPOSITORY), "log", "-1", "--format=%h %cs"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-standings-") as temporary:
        older = older_tree(args.against, Path(temporary))
        print(f"CPython {platform.python_version()}, {platform.machine()}, {time.strftime('%F')}")
        print(f"older: {older}; current: the working tree at {current}")
        print("buchholz tiebreak, CPU ms per call, medians over every call of every run")
        print()
        print("| players × rounds | games | older ms | current ms | current / older | same rows |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for size, rounds, calls in SIZES:
            if args.players and size not in args.players:
                continue
            timings: dict[str, list[float]] = {"older": [], "current": []}
            digests: dict[str, set[str]] = {"older": set(), "current": set()}
            for _ in range(args.rounds_of_runs):
                for side, root in (("older", Path(temporary)), ("current", REPOSITORY)):
                    found = run_worker(root, size, rounds, calls, "buchholz")
                    timings[side] += found["ms"]
                    digests[side].add(found["rows"])
            older_ms = statistics.median(timings["older"])
            current_ms = statistics.median(timings["current"])
            same = "yes" if digests["older"] == digests["current"] else "NO"
            print(
                f"| {size:,} × {rounds} | {size // 2 * rounds:,} | {older_ms:.3f} "
                f"| {current_ms:.3f} | {current_ms / older_ms:.2f} | {same} |"
            )

    if args.players:
        return
    print()
    print("current code, each tiebreak, 1,000 players × 11 rounds")
    print()
    print("| tiebreak | median ms | min ms | max ms |")
    print("| --- | ---: | ---: | ---: |")
    for tiebreak in (
        "buchholz",
        "goals",
        "lim",
        "sonneborn_berger",
        "progressive",
        "direct_encounter",
    ):
        found = run_worker(REPOSITORY, 1000, 11, 41, tiebreak)
        ms = found["ms"]
        print(f"| {tiebreak} | {statistics.median(ms):.2f} | {min(ms):.2f} | {max(ms):.2f} |")


if __name__ == "__main__":
    main()
