"""How long a search of a club's player register of 10,000 entries takes, on SQLite and
PostgreSQL, through the HTTP API in process (``GET /v1/clubs/{id}/players?q=…``).

Run: ``.venv/bin/python bench/bench_register.py [--entries 10000] [--runs 60]
[--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]``. Each database is made by the
migrations (a temporary SQLite file; a PostgreSQL database created and dropped on the server
given). The club is made through the API; its entries are inserted in bulk (not timed), with
names drawn from Italian, Czech, Slovak and German first names and surnames, accents included,
a fifth with an alias, plus 10,000 entries of another club in the same table. Each query is
asked ``--runs`` times, queries taking turns; the figures are the wall time of one request
(median and 95th percentile), the wall time of the service's search alone (``register.search``
in a session of its own: the SQL and the reading of 20 rows, no HTTP, no key check), and the
rows the first page returns. Figures go in
``docs/performance.md`` under "Player register search".
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

from sqlalchemy import insert
from sqlalchemy.orm import Session

from app.domain.register import fold_name, search_key
from app.main import create_app
from app.services import register
from app.services.register import CP
from app.services.storage import now
from app.settings import Settings
from tests.client import ApiClient
from tests.databases import PostgresServer, migrate

FIRST = [
    "Marco",
    "Luca",
    "Giulia",
    "Chiara",
    "Jiří",
    "Tomáš",
    "Zuzana",
    "Lucia",
    "Ľubomír",
    "Jürgen",
    "Öztürk",
    "Renée",
    "Niccolò",
    "Mário",
    "Štefan",
    "Dušan",
    "Anežka",
    "Kateřina",
    "Matthäus",
    "Bärbel",
    "Élodie",
    "François",
    "Søren",
    "Łukasz",
    "Ágnes",
    "Zoë",
]
LAST = [
    "Rossi",
    "Bianchi",
    "Ferrari",
    "Esposito",
    "Romano",
    "Colombo",
    "Ricci",
    "Marino",
    "Greco",
    "Bruno",
    "Novák",
    "Svoboda",
    "Dvořák",
    "Černý",
    "Procházka",
    "Kučera",
    "Veselý",
    "Horváth",
    "Kováč",
    "Varga",
    "Tóth",
    "Nagy",
    "Müller",
    "Schröder",
    "Weiß",
    "Groß",
    "Fuchs",
    "Wagner",
    "Šťastný",
    "Hrubý",
    "Kráľ",
    "D'Angelo",
    "Dell'Orto",
    "Lombardi",
    "Conti",
    "Mancini",
    "Costa",
    "Giordano",
]
QUERIES = (
    ("a common piece, `ro`", "ro"),
    ("a surname, accents folded, `dvorak`", "dvorak"),
    ("a full name in capitals, `JÜRGEN MÜLLER`", "JÜRGEN MÜLLER"),
    ("an alias only, `nickname 42`", "nickname 42"),
    ("nothing matches, `zzqx`", "zzqx"),
    ("the whole register, first page", None),
)


def entries(club_id: str, count: int, rng: random.Random) -> list[dict[str, Any]]:
    rows = []
    at = now()
    for i in range(count):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if rng.random() < 0.3:
            name += f" {i}"  # namesakes told apart, as clubs do
        aliases = [f"Nickname {i}"] if rng.random() < 0.2 else []
        rows.append(
            {
                "club_id": club_id,
                "name": name[:80],
                "aliases": aliases,
                "name_key": fold_name(name),
                "search_key": search_key(name, aliases),
                "rating": rng.randint(1000, 2400) if rng.random() < 0.7 else None,
                "created_at": at,
            }
        )
    return rows


def measure(url: str, count: int, runs: int) -> list[tuple[str, float, float, float, int]]:
    app = create_app(Settings(database_url=url, webhook_worker=False, create_rate=0))
    try:
        with ApiClient(app) as client:
            clubs = [client.post("/v1/clubs", json={"name": n}).json() for n in ("A", "B")]
            rng = random.Random(25)
            with app.state.engine.begin() as connection:
                for club in clubs:
                    rows = entries(club["id"], count, rng)
                    for start in range(0, len(rows), 1000):
                        connection.execute(insert(CP), rows[start : start + 1000])
            club = clubs[0]
            auth = {"Authorization": f"Bearer {club['key']['key']}"}
            path = f"/v1/clubs/{club['id']}/players"
            times: dict[str, list[float]] = {label: [] for label, _ in QUERIES}
            alone: dict[str, list[float]] = {label: [] for label, _ in QUERIES}
            found: dict[str, int] = {}
            for run in range(runs + 3):
                for label, q in QUERIES:
                    params = {"q": q} if q else {}
                    started = time.perf_counter()
                    answer = client.get(path, params=params, headers=auth)
                    elapsed = time.perf_counter() - started
                    assert answer.status_code == 200, answer.text
                    found[label] = len(answer.json()["items"])
                    with Session(app.state.engine) as session:
                        started = time.perf_counter()
                        register.search(session, club["id"], q=q, limit=20, cursor=None)
                        query_only = time.perf_counter() - started
                    if run >= 3:  # the first runs warm the pool and the caches
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
        for label, _ in QUERIES
    ]


Row = tuple[str, float, float, float, int]


def report(name: str, rows: list[Row]) -> None:
    print(f"\n{name}")
    print("| query | HTTP median ms | HTTP p95 ms | search alone, median ms | rows on page 1 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, median, p95, query_only, found in rows:
        print(f"| {label} | {median:.1f} | {p95:.1f} | {query_only:.1f} | {found} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--postgres", default=None, help="a server URL; omit for SQLite only")
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{machine}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'register.db'}"
        migrate(url)
        report("SQLite", measure(url, args.entries, args.runs))
    if args.postgres:
        server = PostgresServer(args.postgres)
        name = f"svz_bench_{uuid.uuid4().hex[:10]}"
        url = server.create(name)
        try:
            migrate(url)
            report("PostgreSQL", measure(url, args.entries, args.runs))
        finally:
            server.drop(name)
            server.admin.dispose()


if __name__ == "__main__":
    main()
