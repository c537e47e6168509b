"""The tail under load on PostgreSQL, run after run (docs/performance.md, "The cause: a CPU
group per PostgreSQL server process").

Serves the app with two workers on a scratch PostgreSQL database, plays a 16-player evening,
then runs ``wrk -t2 -c16`` on its standings (or ``/health``) ``--runs`` times and prints each
run's p99 and max beside how Linux groups the server processes for the CPU. The tail comes in
some runs and not others, so one run says little: compare series.

    python bench/bench_pg_tail.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test

The A/B of the docs, as root on the machine that runs PostgreSQL (a setting changes the group
of processes started after it, hence the restarts):

    sysctl kernel.sched_autogroup_enabled=1    # the kernel's default
    pg_ctlcluster --skip-systemctl-redirect 15 main restart
    python bench/bench_pg_tail.py --postgres …
    sysctl kernel.sched_autogroup_enabled=0
    pg_ctlcluster --skip-systemctl-redirect 15 main restart
    python bench/bench_pg_tail.py --postgres …
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_http import cpu_groups, evening, loadavg, scratch_database, tail

from tests.server import serve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", required=True, help="a server URL; a scratch database")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=6, help="of each wrk run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--path", choices=["standings", "health"], default="standings")
    args = parser.parse_args()

    with scratch_database("postgres", args.postgres) as url:
        print(cpu_groups(url))
        with serve(url, workers=args.workers) as base:
            _, _, tid = evening(base)
            path = "/health" if args.path == "health" else f"/v1/tournaments/{tid}/standings"
            for run in range(args.runs):
                print(f"run {run}, load {loadavg()}: {tail(base, path, seconds=args.seconds)}")


if __name__ == "__main__":
    main()
