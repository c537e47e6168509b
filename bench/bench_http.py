"""HTTP benchmarks of the service on SQLite and PostgreSQL (figures in docs/performance.md,
"HTTP service").

1. the tail under load: ``wrk -t2 -c16`` on ``/health`` and on the standings of a 16-player and
   a 1,000-player tournament (two workers, read cache on): requests per second, p50, p99,
   p99.9, max, and the requests wrk gave up on. wrk's timeout is 10 s, so a slow request is
   measured, not dropped; the Lua script ``bench/wrk_summary.lua`` reports the tail;
2. latency of GET …/standings for the 1,000-player tournament, one client in sequence (median,
   p99, max), without and with the read cache, and the 304 answer;
3. wall time of a whole 16-player evening played over HTTP.

The 1,000-player tournament is built through the services in process (11 rounds, each round's
results recorded in one transaction): 5,500 PUTs over HTTP would only measure the setup. Every
timed request goes over TCP to a uvicorn server started the README way. Note ``uptime`` with
the figures: the client, the server and the database share the machine. It prints how Linux
groups a PostgreSQL server process for the CPU: per-session groups make a tail of seconds
(``cpu_groups``).

    python bench/bench_http.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
    python bench/bench_http.py --databases sqlite --seconds 8
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from sqlalchemy import Engine, text
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
    settle(engine)
    engine.dispose()
    return tid


def settle(engine: Engine) -> None:
    """Let the database finish what the bulk writes left it (on PostgreSQL: autovacuum and a
    checkpoint), so the timed runs measure the service, not that catch-up."""
    if engine.dialect.name != "postgresql":
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM ANALYZE"))
        connection.execute(text("CHECKPOINT"))


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


WRK_SCRIPT = Path(__file__).resolve().parent / "wrk_summary.lua"


def tail(base: str, path: str, *, seconds: int, connections: int = 16) -> str:
    """``wrk -t2 -c<connections>`` on ``path``: throughput and the tail of the latencies."""
    wrk = shutil.which("wrk")
    if wrk is None:
        return "wrk not installed (apt-get install -y wrk)"
    command = [wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"]
    output = subprocess.run(
        [*command, "-s", str(WRK_SCRIPT), base + path], capture_output=True, text=True, check=True
    ).stdout
    line = next(x for x in output.splitlines() if x.startswith("SUMMARY "))
    r = json.loads(line.removeprefix("SUMMARY "))
    return (
        f"{r['requests'] / r['seconds']:.0f} req/s, p50 {r['p50_ms']:.1f} ms, "
        f"p99 {r['p99_ms']:.1f} ms, p99.9 {r['p999_ms']:.1f} ms, max {r['max_ms']:.1f} ms, "
        f"timeouts {r['timeouts']}, non-2xx {r['non_2xx']}, socket errors {r['socket_errors']}"
    )


@contextmanager
def scratch_database(kind: str, postgres: str | None) -> Iterator[str]:
    """A new, migrated database of ``kind`` (``sqlite`` or ``postgres``), dropped afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{folder}/bench.db"
            migrate(url)
            yield url
        return
    if postgres is None:
        raise SystemExit("--postgres URL needed for the postgres runs")
    server = PostgresServer(postgres)
    name = f"svz_bench_{uuid.uuid4().hex[:8]}"
    url = server.create(name)
    try:
        migrate(url)
        yield url
    finally:
        server.drop(name)
        server.admin.dispose()


def loadavg() -> str:
    """The machine's load averages (1, 5, 15 minutes), to print beside the figures."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_groups(url: str) -> str:
    """How Linux groups a PostgreSQL server process for the CPU, to print beside the figures.

    With ``kernel.sched_autogroup_enabled = 1`` every session is a CPU group of its own, and
    every PostgreSQL server process starts a session, unless it sits in a CPU cgroup other than
    the root; under load such groups left server processes waiting seconds for a CPU
    (docs/performance.md, "The cause: a CPU group per PostgreSQL server process"). Read from
    ``/proc``, so only for a server on this machine."""
    switch = Path("/proc/sys/kernel/sched_autogroup_enabled")
    autogroup = switch.read_text().strip() if switch.exists() else "absent"
    if not url.startswith("postgresql"):
        return f"kernel.sched_autogroup_enabled={autogroup}"
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            pid = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
            proc = Path(f"/proc/{pid}")
            if not proc.exists():
                return f"kernel.sched_autogroup_enabled={autogroup}, server not on this machine"
            controllers = dict(
                line.split(":", 2)[1:] for line in (proc / "cgroup").read_text().splitlines()
            )
            cgroup = controllers.get(
                "cpu", controllers.get("cpu,cpuacct", controllers.get("", "?"))
            )
            in_group = (proc / "autogroup").read_text().split()[0] if autogroup == "1" else "-"
    finally:
        engine.dispose()
    own = autogroup == "1" and cgroup == "/"
    return (
        f"kernel.sched_autogroup_enabled={autogroup}, a server process's cpu cgroup {cgroup}, "
        f"autogroup {in_group}: " + ("a CPU group per server process" if own else "no own group")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", help="a server URL; a scratch database is made there")
    parser.add_argument(
        "--databases", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"]
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=15, help="of each wrk run")
    args = parser.parse_args()

    for kind in args.databases:
        with scratch_database(kind, args.postgres) as url:
            start = time.perf_counter()
            large = build_large(url, args.players, args.rounds)
            took = time.perf_counter() - start
            print(f"[{kind}] setup: {args.players} players, {args.rounds} rounds in {took:.1f} s")
            print(f"[{kind}] {cpu_groups(url)}")
            with serve(url, workers=args.workers) as base:
                _, _, small = evening(base)
                targets = {
                    "/health": "/health",
                    "standings 16 players": f"/v1/tournaments/{small}/standings",
                    f"standings {args.players} players": f"/v1/tournaments/{large}/standings",
                }
                for label, path in targets.items():
                    print(f"[{kind}] wrk -t2 -c16 {label}, load {loadavg()}:")
                    print("    " + tail(base, path, seconds=args.seconds))
                for key, value in latency(base, large, args.requests).items():
                    print(f"[{kind}] standings {args.players} players, cache: {key} = {value:.1f}")
                walls = []
                for _ in range(5):
                    wall, calls, _ = evening(base)
                    walls.append(wall)
                print(
                    f"[{kind}] 16-player evening over HTTP: {calls} requests, wall time median "
                    f"{statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f})"
                )
            with serve(url, workers=args.workers, read_cache_size="0") as base:
                for key, value in latency(base, large, args.requests).items():
                    print(
                        f"[{kind}] standings {args.players} players, no read cache: "
                        f"{key} = {value:.1f}"
                    )
                path = f"/v1/tournaments/{large}/standings"
                print(f"[{kind}] wrk -t2 -c16 standings {args.players} players, no read cache:")
                print("    " + tail(base, path, seconds=args.seconds))


if __name__ == "__main__":
    main()
