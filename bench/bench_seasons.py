"""How long a season table over 100 finished evenings takes, on SQLite and PostgreSQL, through
the HTTP API in process (``GET /v1/clubs/{id}/seasons/{id}/standings``).

Run: ``.venv/bin/python bench/bench_seasons.py [--evenings 100] [--players 20] [--runs 100]
[--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]``. Each database is made by the
migrations. A club with 10,000 register entries (inserted in bulk) plays ``--evenings``
evenings of ``--players`` players drawn from its first 300 entries, four Swiss rounds each, no
final phase, through the API (not timed; the stronger player by register id wins, a draw in a
tenth of the games), all in one season. Then the table is read ``--runs`` times for each rule
(the season's rule changed by ``PATCH …/seasons/{id}`` between rules), and the figures are the
wall time of one request, 50th, 95th and 99th percentiles, three ways:

- **cold**: an app with the read cache off (``SVIZZERA_READ_CACHE_SIZE=0``): every read
  computes the table, as the first read after an evening finishes does;
- **cached**: an app with the read cache on (the default size), a plain ``GET`` (no
  ``If-None-Match``): the body made by the first read, after its season, evenings and club
  versions are read;
- **304**: ``If-None-Match`` with the table's ETag, as the live page asks every 30 seconds;

and the median of the service's ``seasons.table`` alone (its queries and the domain's table,
no HTTP), with the CPU time of this process for it. Figures go in ``docs/performance.md``
under "Season tables".
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert
from sqlalchemy.orm import Session

from app.domain.register import fold_name, search_key
from app.main import create_app
from app.services import seasons
from app.services.register import CP
from app.services.storage import now
from app.settings import Settings
from tests.client import ApiClient
from tests.databases import PostgresServer, migrate

RULES = (
    ("places", {"scoring": "places"}),
    ("places, best 10", {"scoring": "places", "best": 10}),
    ("points", {"scoring": "points"}),
    ("average", {"scoring": "average"}),
)

Row = tuple[str, list[float], list[float], list[float], float, float, int]


def percentile(values: list[float], p: int) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def measure(url: str, evenings: int, players: int, runs: int) -> list[Row]:
    app = create_app(
        Settings(database_url=url, webhook_worker=False, create_rate=0, read_cache_size=0)
    )
    try:
        with ApiClient(app) as client:
            club = client.post("/v1/clubs", json={"name": "Bench"}).json()
            auth = {"Authorization": f"Bearer {club['key']['key']}"}
            at = now()
            with app.state.engine.begin() as connection:
                rows = [
                    {
                        "club_id": club["id"],
                        "name": f"Player {i:05d}",
                        "aliases": [],
                        "name_key": fold_name(f"Player {i:05d}"),
                        "search_key": search_key(f"Player {i:05d}", []),
                        "created_at": at,
                    }
                    for i in range(10_000)
                ]
                for start in range(0, len(rows), 1000):
                    connection.execute(insert(CP), rows[start : start + 1000])
            entries = [
                e["id"]
                for page in range(3)
                for e in client.get(
                    f"/v1/clubs/{club['id']}/players",
                    params={"q": f"player 00{page}", "limit": 100},
                    headers=auth,
                ).json()["items"]
            ]
            made = client.post(
                f"/v1/clubs/{club['id']}/seasons",
                json={"name": "Winter", **RULES[0][1]},
                headers=auth,
            ).json()
            rng = random.Random(25)
            for _ in range(evenings):
                came = rng.sample(entries, players)
                t = client.post(
                    f"/v1/clubs/{club['id']}/tournaments",
                    json={
                        "name": "Evening",
                        "players": [{"club_player_id": i} for i in came],
                        "swiss_rounds": 4,
                        "final_phase": "none",
                        "season_id": made["id"],
                    },
                    headers=auth,
                ).json()
                names = {p["id"]: p["name"] for p in t["players"]}
                for _ in range(4):
                    r = client.post(f"/v1/tournaments/{t['id']}/rounds", headers=auth).json()
                    results = []
                    for m in r["matches"]:
                        home, away = names[m["home"]], names[m["away"]]
                        draw = rng.random() < 0.1
                        results.append(
                            {"match_id": m["id"], "home": int(draw or home < away),
                             "away": int(draw or away < home)}
                        )  # fmt: skip
                    done = client.post(
                        f"/v1/tournaments/{t['id']}/results",
                        json={"results": results},
                        headers=auth,
                    )
                    assert done.status_code == 200, done.text
            season = made
            path = f"/v1/clubs/{club['id']}/seasons/{season['id']}"
            cached_app = create_app(Settings(database_url=url, webhook_worker=False))
            figures = []
            with ApiClient(cached_app) as cached:
                for label, rule in RULES:
                    client.patch(path, json={"best": None, **rule}, headers=auth)
                    cold, warm, unchanged, alone, cpu = [], [], [], [], []
                    lines = 0
                    for run in range(runs + 3):
                        started = time.perf_counter()
                        answer = client.get(f"{path}/standings")
                        elapsed = time.perf_counter() - started
                        assert answer.status_code == 200, answer.text
                        lines = len(answer.json()["rows"])
                        assert sum(e["counted"] for e in answer.json()["evenings"]) == evenings
                        started = time.perf_counter()
                        again = cached.get(f"{path}/standings")
                        cached_elapsed = time.perf_counter() - started
                        assert again.content == answer.content
                        started = time.perf_counter()
                        same = cached.get(
                            f"{path}/standings", headers={"If-None-Match": again.headers["etag"]}
                        )
                        not_modified = time.perf_counter() - started
                        assert same.status_code == 304
                        with Session(app.state.engine) as session:
                            started, used = time.perf_counter(), time.process_time()
                            s = seasons.read(session, club["id"], season["id"])
                            seasons.table(session, s, seasons.evenings_of(session, s))
                            query_only = time.perf_counter() - started
                            cpu_only = time.process_time() - used
                        if run >= 3:
                            cold.append(elapsed * 1000)
                            warm.append(cached_elapsed * 1000)
                            unchanged.append(not_modified * 1000)
                            alone.append(query_only * 1000)
                            cpu.append(cpu_only * 1000)
                    figures.append(
                        (label, cold, warm, unchanged, statistics.median(alone),
                         statistics.median(cpu), lines)
                    )  # fmt: skip
            cached_app.state.engine.dispose()
    finally:
        app.state.engine.dispose()
    return figures


def report(name: str, rows: list[Row]) -> None:
    print(f"\n{name} (ms; p50 / p95 / p99)")
    print("| rule | cold | cached | 304 | table alone (CPU) | players |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")

    def spread(values: list[float]) -> str:
        return " / ".join(f"{percentile(values, p):.1f}" for p in (50, 95, 99))

    for label, cold, warm, unchanged, alone, cpu, lines in rows:
        print(
            f"| {label} | {spread(cold)} | {spread(warm)} | {spread(unchanged)} | "
            f"{alone:.1f} ({cpu:.1f}) | {lines} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--evenings", type=int, default=100)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--postgres", default=None, help="a server URL; omit for SQLite only")
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{machine}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'seasons.db'}"
        migrate(url)
        report("SQLite", measure(url, args.evenings, args.players, args.runs))
    if args.postgres:
        server = PostgresServer(args.postgres)
        name = f"svz_bench_{uuid.uuid4().hex[:10]}"
        url = server.create(name)
        try:
            migrate(url)
            report("PostgreSQL", measure(url, args.evenings, args.players, args.runs))
        finally:
            server.drop(name)
            server.admin.dispose()
    print("load after:", ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
