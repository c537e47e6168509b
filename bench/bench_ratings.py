"""How long a club's rating list of 10,000 rated register entries takes to read, and how long
rating a club again from its tournaments (``ratings.recompute``, what a merge runs) takes, on
SQLite and PostgreSQL.

Run: ``.venv/bin/python bench/bench_ratings.py [--entries 10000] [--runs 40] [--tournaments 60]
[--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]``. Each database is made by the
migrations. The list: a club's entries and their ratings are inserted in bulk (not timed),
beside another club's as many (then, on PostgreSQL, ``ANALYZE``, as autovacuum would);
``GET /v1/clubs/{id}/ratings`` is asked ``--runs`` times for the first page, a page 5,000
entries down (its cursor) and a page of 100, through the HTTP API in process with the club
key, and ``rating_reads.page`` alone (the SQL and reading the rows).
The recompute: ``--tournaments`` club tournaments of 30 of 60 register players, 4 rounds
each, played through the API (each rated as it finishes, not timed), then ``recompute`` of
the club timed 5 times in a transaction rolled back. Figures go in ``docs/performance.md``
under "Club ratings".
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, select, text
from sqlalchemy.orm import Session

from app.main import create_app
from app.services import rating_reads, ratings
from app.services.ratings import CR
from app.services.register import CP
from app.settings import Settings
from bench.bench_register import entries
from tests.client import ApiClient
from tests.databases import PostgresServer, migrate

Row = tuple[str, float, float, float, int]


def fill(app: Any, club_id: str, count: int, rng: random.Random) -> None:
    """``count`` register entries of the club, each with a club rating (not timed)."""
    with app.state.engine.begin() as connection:
        rows = entries(club_id, count, rng)
        for start in range(0, len(rows), 1000):
            connection.execute(insert(CP), rows[start : start + 1000])
        ids = connection.execute(select(CP.c.id).where(CP.c.club_id == club_id)).scalars().all()
        rated = [
            {
                "club_player_id": i,
                "club_id": club_id,
                "rating": rng.gauss(1500, 200),
                "deviation": None,
                "volatility": None,
                "games": rng.randint(1, 200),
                "last_change": rng.gauss(0, 10),
                "last_tournament_id": "t" * 12,
            }
            for i in ids
        ]
        for start in range(0, len(rated), 1000):
            connection.execute(insert(CR), rated[start : start + 1000])


def list_times(url: str, count: int, runs: int) -> list[Row]:
    app = create_app(Settings(database_url=url, webhook_worker=False, create_rate=0))
    try:
        with ApiClient(app) as client:
            clubs = [client.post("/v1/clubs", json={"name": n}).json() for n in ("A", "B")]
            rng = random.Random(25)
            for club in clubs:
                fill(app, club["id"], count, rng)
            if app.state.engine.dialect.name == "postgresql":
                # as autovacuum does after a bulk load: without statistics the planner sorts
                # the club's 10,000 rows instead of reading the index backwards (15 ms, not 0.3)
                with app.state.engine.begin() as connection:
                    connection.execute(text("ANALYZE club_rating, club_player"))
            club = clubs[0]
            auth = {"Authorization": f"Bearer {club['key']['key']}"}
            path = f"/v1/clubs/{club['id']}/ratings"
            deep = None
            cursor = None
            for _ in range(50):  # 50 pages of 100: the cursor 5,000 entries down
                page = client.get(
                    path,
                    params={"limit": 100, **({"cursor": cursor} if cursor else {})},
                    headers=auth,
                ).json()
                cursor = page["next_cursor"]
            deep = cursor
            cases: list[tuple[str, dict[str, Any]]] = [
                ("first page of 20", {"limit": 20}),
                ("a page of 20, 5,000 entries down", {"limit": 20, "cursor": deep}),
                ("first page of 100", {"limit": 100}),
            ]
            times: dict[str, list[float]] = {label: [] for label, _ in cases}
            alone: dict[str, list[float]] = {label: [] for label, _ in cases}
            found: dict[str, int] = {}
            for run in range(runs + 3):
                for label, params in cases:
                    started = time.perf_counter()
                    sent = {k: v for k, v in params.items() if v is not None}
                    answer = client.get(path, params=sent, headers=auth)
                    elapsed = time.perf_counter() - started
                    assert answer.status_code == 200, answer.text
                    found[label] = len(answer.json()["items"])
                    with Session(app.state.engine) as session:
                        started = time.perf_counter()
                        rating_reads.page(
                            session,
                            club["id"],
                            limit=params["limit"],
                            cursor=params.get("cursor"),
                        )
                        query_only = time.perf_counter() - started
                    if run >= 3:
                        times[label].append(elapsed * 1000)
                        alone[label].append(query_only * 1000)
    finally:
        app.state.engine.dispose()
    return [
        (
            label,
            statistics.median(times[label]),
            statistics.quantiles(times[label], n=20)[18],
            statistics.median(alone[label]),
            found[label],
        )
        for label, _ in cases
    ]


def recompute_times(url: str, tournaments: int) -> tuple[int, list[float]]:
    """Play ``tournaments`` evenings of the club through the API, then time ``recompute``."""
    app = create_app(Settings(database_url=url, webhook_worker=False, create_rate=0))
    rng = random.Random(7)
    games = 0
    try:
        with ApiClient(app) as client:
            made = client.post("/v1/clubs", json={"name": "Season"}).json()
            club_id, auth = made["id"], {"Authorization": f"Bearer {made['key']['key']}"}
            ids = [
                client.post(
                    f"/v1/clubs/{club_id}/players", json={"name": f"P{i}"}, headers=auth
                ).json()["id"]
                for i in range(60)
            ]
            for _ in range(tournaments):
                players = [{"club_player_id": i} for i in rng.sample(ids, 30)]
                body = {
                    "name": "Evening",
                    "players": players,
                    "swiss_rounds": 4,
                    "final_phase": "none",
                    "seed": rng.randint(0, 10**6),
                }
                tid = client.post(f"/v1/clubs/{club_id}/tournaments", json=body, headers=auth)
                tid = tid.json()["id"]
                for _round in range(4):
                    matches = client.post(f"/v1/tournaments/{tid}/rounds", headers=auth).json()
                    results = [
                        {"match_id": m["id"], "home": rng.randint(0, 2), "away": rng.randint(0, 2)}
                        for m in matches["matches"]
                    ]
                    games += len(results)
                    done = client.post(
                        f"/v1/tournaments/{tid}/results", json={"results": results}, headers=auth
                    )
                    assert done.status_code == 200, done.text
            spent = []
            for _ in range(5):
                with Session(app.state.engine) as session:
                    started = time.perf_counter()
                    ratings.recompute(session, club_id)
                    spent.append((time.perf_counter() - started) * 1000)
                    session.rollback()
    finally:
        app.state.engine.dispose()
    return games, spent


def report(name: str, rows: list[Row], games: int, spent: list[float], tournaments: int) -> None:
    print(f"\n{name}")
    print("| read | HTTP median ms | HTTP p95 ms | page alone, median ms | rows |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, median, p95, query_only, found in rows:
        print(f"| {label} | {median:.1f} | {p95:.1f} | {query_only:.1f} | {found} |")
    print(
        f"recompute of {tournaments} tournaments, {games} games: median "
        f"{statistics.median(spent):.0f} ms (min {min(spent):.0f}, max {max(spent):.0f})"
    )


def run(url: str, args: argparse.Namespace, name: str) -> None:
    migrate(url)
    rows = list_times(url, args.entries, args.runs)
    games, spent = recompute_times(url, args.tournaments)
    report(name, rows, games, spent, args.tournaments)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--tournaments", type=int, default=60)
    parser.add_argument("--postgres", default=None, help="a server URL; omit for SQLite only")
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{machine}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}")
    with tempfile.TemporaryDirectory() as tmp:
        run(f"sqlite:///{Path(tmp) / 'ratings.db'}", args, "SQLite")
    if args.postgres:
        server = PostgresServer(args.postgres)
        name = f"svz_bench_{uuid.uuid4().hex[:10]}"
        url = server.create(name)
        try:
            run(url, args, "PostgreSQL")
        finally:
            server.drop(name)
            server.admin.dispose()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load at the end {load}")


if __name__ == "__main__":
    main()
