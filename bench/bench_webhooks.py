"""Webhook latency on PostgreSQL (figures in docs/performance.md, "Events: webhooks").

The time from a saved result (the moment ``PUT …/result`` returns to the client) to the arrival
of its ``result.recorded``/``result.corrected`` delivery at a receiver on loopback: median, p99
and max over ``--samples`` results saved one after another. The server is uvicorn started the
README way, its delivery worker running in the app (``SVIZZERA_WEBHOOK_WORKER``, the default),
woken by ``NOTIFY``. The receiver is a threaded ``http.server`` answering 200 at once; an
arrival is stamped when its request has been read. A delivery can arrive before the PUT's
answer has reached the client (the worker starts at the commit): such a sample counts as 0.

    python bench/bench_webhooks.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.databases import PostgresServer, migrate
from tests.server import serve
from tests.webhooks.receiver import Receiver, receiving


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(base: str, receiver: Receiver, samples: int) -> list[float]:
    with httpx.Client(base_url=base, timeout=10) as http:
        players = [{"name": f"Player {i:02d}"} for i in range(16)]
        created = http.post("/v1/tournaments", json={"name": "Bench", "players": players}).json()
        tid, auth = created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}
        hook = http.post(
            f"/v1/tournaments/{tid}/webhooks",
            json={"url": receiver.url, "events": ["result.recorded", "result.corrected"]},
            headers=auth,
        )
        assert hook.status_code == 201, hook.text
        matches = [
            m["id"]
            for m in http.post(f"/v1/tournaments/{tid}/rounds", headers=auth).json()["matches"]
        ]
        latencies: list[float] = []
        for i in range(samples):
            match = matches[i % len(matches)]
            put = http.put(
                f"/v1/tournaments/{tid}/matches/{match}/result",
                json={"home": i % 5, "away": (i + 1) % 5},
                headers=auth,
            )
            saved = time.perf_counter()
            assert put.status_code == 200, put.text
            arrival = receiver.wait_for(i + 1)[i]
            assert arrival.envelope["data"]["match"]["id"] == match
            latencies.append(max(0.0, arrival.at - saved) * 1000)
        return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--postgres", required=True, help="a server URL; a scratch database is made"
    )
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()

    server = PostgresServer(args.postgres)
    name = f"svz_bench_{uuid.uuid4().hex[:8]}"
    url = server.create(name)
    try:
        migrate(url)
        with (
            receiving() as receiver,
            serve(url, workers=args.workers, webhook_allow_private="true") as base,
        ):
            latencies = measure(base, receiver, args.samples)
        print(
            f"webhook latency, {args.samples} results, {args.workers} worker(s): "
            f"median {statistics.median(latencies):.1f} ms, "
            f"p99 {percentile(latencies, 0.99):.1f} ms, max {max(latencies):.1f} ms"
        )
    finally:
        server.drop(name)
        server.admin.dispose()


if __name__ == "__main__":
    main()
