"""What the test suite costs: wall and CPU time of a run, and of a test's PostgreSQL database.

    .venv/bin/python bench/bench_tests.py suite [--junit FILE] -- make test
    .venv/bin/python bench/bench_tests.py databases [--rounds 10]

``suite`` runs the command and prints its wall time, the CPU time of it and its children (user
+ system), their ratio (how much of the machine's CPU the run used: 2.0 is both cores of a
two-core machine) and the load average before and after; with ``--junit`` (a file the command
writes, e.g. ``PYTEST_ADDOPTS=--junitxml=FILE``) also the tests that ran. PostgreSQL's own CPU
is not in it.

``databases`` (needs ``SVIZZERA_TEST_POSTGRES_URL``) compares, for a test that creates a
tournament and plays a round in process, what its database costs the test: a copy of the
migrated template made and dropped (the suite before issue 23) against one taken from
``tests.databases.DatabasePool`` and given back (emptied while the next test runs). Figures in
docs/performance.md, "The test suite".
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def suite(command: list[str], junit: Path | None) -> None:
    load_before = os.getloadavg()
    start = time.monotonic()
    code = subprocess.call(command)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    print(f"command: {' '.join(command)} (exit {code})")
    print(
        f"wall {wall:.0f} s, CPU {cpu:.0f} s (user {usage.ru_utime:.0f}, system "
        f"{usage.ru_stime:.0f}), CPU/wall {cpu / wall:.2f} of {os.cpu_count()} cores"
    )
    print(f"load average before {load_before[0]:.1f}, after {os.getloadavg()[0]:.1f}")
    if junit is not None and junit.exists():
        cases = list(ET.parse(junit).getroot().iter("testcase"))
        ran = [c for c in cases if c.find("skipped") is None]
        postgres = [c for c in ran if "postgres" in c.get("name", "")]
        print(
            f"{len(ran)} tests ran ({len(postgres)} on PostgreSQL), {len(cases) - len(ran)} skipped"
        )


def databases(rounds: int) -> None:
    from app.main import create_app
    from app.settings import Settings
    from tests.api.helpers import create, play_round
    from tests.client import ApiClient
    from tests.databases import POSTGRES_URL, DatabasePool, PostgresServer, migrate

    if not POSTGRES_URL:
        sys.exit("set SVIZZERA_TEST_POSTGRES_URL")
    server = PostgresServer(POSTGRES_URL)
    template = f"svz_tpl_{uuid.uuid4().hex[:10]}"
    migrate(server.create(template))

    def use(url: str) -> None:
        app = create_app(Settings(database_url=url))
        with ApiClient(app) as client:
            play_round(client, create(client, 8))
        app.state.engine.dispose()

    made: list[float] = []
    pooled: list[float] = []
    pool = DatabasePool(server, template)
    try:
        for _ in range(rounds):
            begin = time.monotonic()
            name = f"svz_t_{uuid.uuid4().hex[:12]}"
            url = server.create(name, template=template)
            ready = time.monotonic()
            use(url)
            done = time.monotonic()
            server.drop(name)
            made.append(ready - begin + time.monotonic() - done)

            begin = time.monotonic()
            url = pool.take()
            ready = time.monotonic()
            use(url)
            done = time.monotonic()
            pool.give(url)
            pooled.append(ready - begin + time.monotonic() - done)
    finally:
        pool.close()
        server.drop(template)
    for label, seconds in (("create + drop", made), ("pool take + give", pooled)):
        print(
            f"{label}: median {statistics.median(seconds):.3f} s, max {max(seconds):.3f} s "
            f"a test ({rounds} rounds)"
        )
    print(f"pool: {pool.made} databases made, {pool.reused} reuses, {pool.dropped} dropped")


def main() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="what", required=True)
    run = commands.add_parser("suite")
    run.add_argument("--junit", type=Path)
    run.add_argument("command", nargs="+")
    db = commands.add_parser("databases")
    db.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    if args.what == "suite":
        suite(args.command, args.junit)
    else:
        databases(args.rounds)


if __name__ == "__main__":
    main()
