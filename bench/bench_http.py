"""HTTP benchmarks of the service on PostgreSQL (figures in docs/performance.md, "HTTP service").

1. latency of GET …/standings for a 1,000-player tournament after 11 rounds (median, p99);
2. requests per second of GET …/standings for a 16-player tournament, measured with wrk;
3. wall time of a whole 16-player evening played over HTTP.

The 1,000-player tournament is built through the services in process (11 rounds, each round's
results recorded in one transaction): 5,500 PUTs over HTTP would only measure the setup. Every
timed request goes over TCP to a uvicorn server started the README way.

    python bench/bench_http.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db import make_engine
from app.domain.types import Result
from app.services import commands, rounds, tournaments
from app.services.access import Write
from tests.databases import PostgresServer, migrate
from tests.server import serve


def build_large(url: str, players: int, played_rounds: int) -> str:
    """A tournament of ``players`` after ``played_rounds`` complete rounds, made in process."""
    engine = make_engine(url)
    rng = random.Random(1)
    with Session(engine) as session, session.begin():
        tid = tournaments.create(
            session,
            name="Large",
            players=[{"name": f"Player {i:04d}"} for i in range(players)],
            fields={"seed": 11},
        ).id
    for _ in range(played_rounds):
        with Session(engine) as session, session.begin():
            _, swiss_round = rounds.generate(session, Write(tid))

            def play(t: tournaments.Tournament, number: int = swiss_round.number) -> None:
                for m in t.round_matches(number):
                    t.record_result(m.id, Result(rng.randint(0, 5), rng.randint(0, 5)))

            commands.run(session, Write(tid), "results-record", play)
    engine.dispose()
    return tid


def latency(base: str, tid: str, requests: int) -> dict[str, float]:
    url = f"{base}/v1/tournaments/{tid}/standings"
    times = []
    with httpx.Client(timeout=30) as http:
        for _ in range(10):
            http.get(url).raise_for_status()
        for _ in range(requests):
            start = time.perf_counter()
            response = http.get(url)
            times.append((time.perf_counter() - start) * 1000)
            response.raise_for_status()
        etag = response.headers["etag"]
        cached = []
        for _ in range(requests):
            start = time.perf_counter()
            http.get(url, headers={"If-None-Match": etag})
            cached.append((time.perf_counter() - start) * 1000)
    times.sort()
    cached.sort()
    return {
        "median_ms": statistics.median(times),
        "p99_ms": times[int(len(times) * 0.99) - 1],
        "max_ms": times[-1],
        "rows": len(response.json()["rows"]),
        "bytes": len(response.content),
        "304_median_ms": statistics.median(cached),
        "304_p99_ms": cached[int(len(cached) * 0.99) - 1],
    }


def evening(base: str, players: int = 16) -> tuple[float, int, str]:
    """A whole evening over HTTP: create, 5 rounds, results, standings, final phase, print."""
    rng = random.Random(2)
    calls = 0
    start = time.perf_counter()
    with httpx.Client(base_url=base, timeout=30) as http:

        def call(method: str, url: str, **kwargs: object) -> httpx.Response:
            nonlocal calls
            calls += 1
            response = http.request(method, url, **kwargs)  # type: ignore[arg-type]
            response.raise_for_status()
            return response

        names = [{"name": f"Player {i:02d}"} for i in range(players)]
        created = call("POST", "/v1/tournaments", json={"name": "Evening", "players": names}).json()
        t, auth = created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}
        for _ in range(created["format"]["swiss_rounds"]):
            swiss_round = call("POST", f"/v1/tournaments/{t}/rounds", headers=auth).json()
            for m in swiss_round["matches"]:
                score = {"home": rng.randint(0, 4), "away": rng.randint(0, 4)}
                call(
                    "PUT", f"/v1/tournaments/{t}/matches/{m['id']}/result", json=score, headers=auth
                )
            call("GET", f"/v1/tournaments/{t}/standings")
        phase = call("POST", f"/v1/tournaments/{t}/final-phase", headers=auth).json()
        decided = {"home": 2, "away": 1}
        for m in phase["matches"]:
            call("PUT", f"/v1/tournaments/{t}/matches/{m['id']}/result", json=decided, headers=auth)
        phase = call("GET", f"/v1/tournaments/{t}/final-phase").json()
        for m in phase["matches"]:
            if m["stage"] != "semifinal":
                call(
                    "PUT",
                    f"/v1/tournaments/{t}/matches/{m['id']}/result",
                    json=decided,
                    headers=auth,
                )
        ranking = call("GET", f"/v1/tournaments/{t}/final-phase").json()["final_ranking"]
        assert ranking is not None and len(ranking) == players
        call("GET", f"/v1/tournaments/{t}/print")
    return time.perf_counter() - start, calls, t


def throughput(base: str, tid: str, *, seconds: int, connections: int) -> str:
    wrk = shutil.which("wrk")
    if wrk is None:
        return "wrk not installed (apt-get install -y wrk)"
    output = subprocess.run(
        [
            wrk,
            "-t2",
            f"-c{connections}",
            f"-d{seconds}s",
            "--latency",
            f"{base}/v1/tournaments/{tid}/standings",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    p99 = re.search(r"99%\s+([\d.]+\w+)", output)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    rate = float(rps.group(1)) if rps else float("nan")
    tail = p99.group(1) if p99 else "?"
    return f"{rate:.0f} req/s, p99 {tail}, non-2xx {errors.group(1) if errors else 0}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--postgres", required=True, help="a server URL; a scratch database is made"
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=15)
    args = parser.parse_args()

    server = PostgresServer(args.postgres)
    name = f"svz_bench_{uuid.uuid4().hex[:8]}"
    url = server.create(name)
    try:
        migrate(url)
        start = time.perf_counter()
        large = build_large(url, args.players, args.rounds)
        took = time.perf_counter() - start
        print(f"setup: {args.players} players, {args.rounds} rounds in {took:.1f} s")
        with serve(url, workers=args.workers, read_cache_size="0") as base:
            for key, value in latency(base, large, args.requests).items():
                print(f"standings {args.players} players, no read cache: {key} = {value:.1f}")
            _, _, small = evening(base)
            print(
                "standings 16 players, no read cache, wrk -t2 -c32:",
                throughput(base, small, seconds=args.seconds, connections=32),
            )
        with serve(url, workers=args.workers) as base:
            for key, value in latency(base, large, args.requests).items():
                print(f"standings {args.players} players, read cache: {key} = {value:.1f}")
            walls = []
            for _ in range(5):
                wall, calls, small = evening(base)
                walls.append(wall)
            print(
                f"16-player evening over HTTP: {calls} requests, wall time median "
                f"{statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f})"
            )
            print(
                "standings 16 players, wrk -t2 -c32:",
                throughput(base, small, seconds=args.seconds, connections=32),
            )
    finally:
        server.drop(name)
        server.admin.dispose()


if __name__ == "__main__":
    main()
