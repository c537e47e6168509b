"""What a bulk results request costs in events (figures in docs/performance.md, "Events: size").

One tournament of ``--players`` (4,096: 2,048 boards a round) on a SQLite file (or
``--postgres``), through the ASGI app in process. Round 1 is recorded in one request, round 2
is generated and recorded in one request too (its results move ranks across the field). For
each bulk request: the CPU time of the process while it ran (``time.process_time``), the events
it wrote and their bytes (each envelope as the stream and webhooks send it), and on SQLite the
database file and its WAL afterwards. Then the largest event of each type.

    .venv/bin/python bench/bench_events.py --players 4096
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.main import create_app
from app.services import events
from app.settings import Settings
from tests.client import ApiClient
from tests.databases import PostgresServer
from tests.server import upgrade


def size(envelope: dict[str, Any]) -> int:
    return len(json.dumps(envelope, separators=(",", ":")).encode())


def stored(app: Any, tournament_id: str, after: int) -> list[dict[str, Any]]:
    with Session(app.state.engine) as session:
        found = events.events_after(session, tournament_id, after, limit=1_000_000)
        return [events.envelope(e) for e in found]


def bulk(client: ApiClient, tid: str, auth: dict[str, str], matches: list[dict[str, Any]]) -> None:
    results = [
        {"match_id": m["id"], "home": (i + 1) % 3, "away": i % 2} for i, m in enumerate(matches)
    ]
    answer = client.post(f"/v1/tournaments/{tid}/results", json={"results": results}, headers=auth)
    assert answer.status_code == 200, answer.text


def measure(url: str, players: int, database: Path | None) -> None:
    upgrade(url)
    app = create_app(Settings(database_url=url))
    try:
        with ApiClient(app) as client:
            names = [{"name": f"Player {i:04d}"} for i in range(players)]
            body = {"name": "Bench", "players": names}
            created = client.post("/v1/tournaments", json=body)
            assert created.status_code == 201, created.text
            tid = created.json()["id"]
            auth = {"Authorization": f"Bearer {created.json()['organizer_token']}"}
            largest: dict[str, int] = defaultdict(int)
            for number in (1, 2):
                seen = len(stored(app, tid, 0))
                generated = client.post(f"/v1/tournaments/{tid}/rounds", headers=auth)
                assert generated.status_code == 201, generated.text
                matches = generated.json()["matches"]
                before = len(stored(app, tid, 0))
                cpu, wall = time.process_time(), time.perf_counter()
                bulk(client, tid, auth, matches)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                written = stored(app, tid, before)
                sizes = [size(e) for e in written]
                files = ""
                if database is not None:
                    wal = Path(f"{database}-wal")
                    files = (
                        f", database {database.stat().st_size / 1e6:.1f} MB, "
                        f"WAL {(wal.stat().st_size if wal.exists() else 0) / 1e6:.1f} MB"
                    )
                print(
                    f"round {number}: {len(matches)} results in one request: "
                    f"{cpu:.2f} s CPU ({wall:.2f} s wall), {len(written)} events, "
                    f"{sum(sizes) / 1e6:.3f} MB of events (largest {max(sizes)} B){files}"
                )
                for envelope in stored(app, tid, seen):
                    largest[envelope["type"]] = max(largest[envelope["type"]], size(envelope))
            for envelope in stored(app, tid, 0)[:1]:
                largest[envelope["type"]] = size(envelope)
            for type_, most in sorted(largest.items()):
                print(f"  largest {type_}: {most:,} B")
    finally:
        app.state.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--postgres", help="a server URL; a scratch database is made")
    args = parser.parse_args()
    if args.postgres:
        server = PostgresServer(args.postgres)
        name = f"svz_bench_{uuid.uuid4().hex[:8]}"
        try:
            measure(server.create(name), args.players, None)
        finally:
            server.drop(name)
        return
    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "svizzera.db"
        measure(f"sqlite:///{database}", args.players, database)


if __name__ == "__main__":
    main()
