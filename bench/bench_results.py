"""Results on a busy tournament: many scorekeepers recording results at once (issue 21).

A tournament of ``--players`` (200) at round ``--round`` (4; the rounds before it played in
process) gets ``--scorekeepers`` scorekeeper tokens (50); then every match of the round gets
its result in one burst: one thread per match, all released together, each ``PUT …/result``
with its scorekeeper's token (scorekeeper k records matches k, k + 50, …). The server is
uvicorn with two workers, started the README way; ``--load N`` runs N busy-loop processes
beside it the whole time (the loaded machine of the issue).

Reported per database: the answers by status (and 503 codes), the latency of the PUTs
(p50, p99, max; wall time as the scorekeeper sees it), the results found stored afterwards, and
the CPU time the server processes used for the burst divided by the PUTs (the work per
result, which load does not inflate). Figures in ``docs/performance.md``, "Results on a busy
tournament".

    .venv/bin/python bench/bench_results.py --load 2 \
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
    .venv/bin/python bench/bench_results.py --databases sqlite --repeat 3
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_http import build_large, scratch_database
from tests.load import cpu_load
from tests.server import serve


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (uvicorn's workers)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children[int(fields[1])].append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children[current])
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of ``pids`` so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def server_pids(port: int) -> list[int]:
    """The uvicorn process listening on ``port`` and its workers."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if b"uvicorn" in b" ".join(words) and str(port).encode() in words:
            return descendants(int(entry))
    raise RuntimeError(f"no uvicorn on port {port}")


def burst(base: str, tid: str, number: int, tokens: list[str]) -> dict[str, object]:
    """Every match of round ``number`` gets its result at once, one thread per match."""
    with httpx.Client(timeout=60) as http:
        matches = http.get(f"{base}/v1/tournaments/{tid}/rounds/{number}").json()["matches"]
    barrier = threading.Barrier(len(matches))

    def put(index: int) -> tuple[int, str | None, float]:
        match = matches[index]
        auth = {"Authorization": f"Bearer {tokens[index % len(tokens)]}"}
        url = f"{base}/v1/tournaments/{tid}/matches/{match['id']}/result"
        with httpx.Client(timeout=60) as http:
            barrier.wait()
            start = time.perf_counter()
            response = http.put(url, json={"home": 1 + index % 3, "away": index % 2}, headers=auth)
            took = time.perf_counter() - start
        code = response.json().get("code") if response.status_code >= 400 else None
        return response.status_code, code, took

    port = int(base.rsplit(":", 1)[1])
    pids = server_pids(port)
    cpu_before = cpu_seconds(pids)
    with ThreadPoolExecutor(len(matches)) as pool:
        answers = list(pool.map(put, range(len(matches))))
    cpu = cpu_seconds(pids) - cpu_before
    with httpx.Client(timeout=60) as http:
        stored = http.get(f"{base}/v1/tournaments/{tid}/rounds/{number}").json()["matches"]
    times = sorted(took * 1000 for _, _, took in answers)
    statuses = collections.Counter(
        f"{status}" + (f" {code}" if code else "") for status, code, _ in answers
    )
    return {
        "puts": len(answers),
        "statuses": dict(statuses),
        "stored": sum(1 for m in stored if m["result"] is not None),
        "p50_ms": statistics.median(times),
        "p99_ms": times[max(0, int(len(times) * 0.99) - 1)],
        "max_ms": times[-1],
        "server_cpu_ms_per_put": cpu * 1000 / len(answers),
    }


def scorekeepers(base: str, tid: str, organizer: str, count: int) -> list[str]:
    auth = {"Authorization": f"Bearer {organizer}"}
    with httpx.Client(timeout=60) as http:
        return [
            http.post(
                f"{base}/v1/tournaments/{tid}/tokens", json={"label": f"Table {k}"}, headers=auth
            ).json()["token"]
            for k in range(1, count + 1)
        ]


def organizer_token(url: str, tid: str) -> str:
    """A new organizer token for a tournament built in process (its hash is all that is kept)."""
    from sqlalchemy.orm import Session

    from app.db import make_engine
    from app.services import access, tokens

    engine = make_engine(url)
    with Session(engine) as session, session.begin():
        secret = tokens.rotate_organizer(session, access.Write(tid))
    engine.dispose()
    return secret


def run(url: str, args: argparse.Namespace) -> Iterator[dict[str, object]]:
    for attempt in range(args.repeat):
        tid = build_large(url, args.players, args.round - 1)
        organizer = organizer_token(url, tid)
        with serve(url, workers=2) as base:
            with httpx.Client(timeout=60) as http:
                auth = {"Authorization": f"Bearer {organizer}"}
                http.post(f"{base}/v1/tournaments/{tid}/rounds", headers=auth).raise_for_status()
            tokens = scorekeepers(base, tid, organizer, args.scorekeepers)
            with cpu_load(args.load) if args.load else nullcontext():
                yield {"run": attempt + 1, **burst(base, tid, args.round, tokens)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--postgres", default=None)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--round", type=int, default=4)
    parser.add_argument("--scorekeepers", type=int, default=50)
    parser.add_argument("--load", type=int, default=0, help="busy-loop processes beside it")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with open("/proc/loadavg") as loadavg:
        print(f"load average before: {loadavg.read().split()[:3]}")
    for kind in args.databases.split(","):
        with scratch_database(kind, args.postgres) as url:
            for figures in run(url, args):
                print(kind, figures, flush=True)


if __name__ == "__main__":
    main()
