"""How long a club's rating list of 10,000 rated register entries takes to read, and how long
rating a club of 10,000 entries and 1,000 tournaments again takes (``ratings.recompute``, a
full replay) and each write that rates it again, on SQLite and PostgreSQL.

Run: ``.venv/bin/python bench/bench_ratings.py [--entries 10000] [--runs 40] [--tournaments 1000]
[--templates 10] [--recomputes 5] [--writes 3]
[--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]``. Each database is made by the
migrations. The list (``--runs 0`` leaves it out): a club's entries and their ratings are
inserted in bulk (not timed), beside another club's as many (then, on PostgreSQL, ``ANALYZE``,
as autovacuum would); ``GET /v1/clubs/{id}/ratings`` is asked ``--runs`` times for the first
page, a page 5,000 entries down (its cursor) and a page of 100, through the HTTP API in process
with the club key, and ``rating_reads.page`` alone (the SQL and reading the rows).
The club: ``--entries`` register entries; ``--templates`` evenings of 16–30 of them, 4 Swiss
rounds each, played through the API; the rest of ``--tournaments`` copies of their rows with
other entries, each a rated period (not timed); the club rated once, ``ANALYZE``. Then
``recompute`` timed ``--recomputes`` times in a transaction rolled back (wall, this process's
CPU, and the PostgreSQL server process's CPU read from ``/proc``), and ``--writes`` times each
write that rates the club again, over HTTP: a correction of the last and of the first evening,
a merge of two entries first seen in the last and in the first evenings, a deletion of the
last and of the first evening, new rating settings. Figures go in ``docs/performance.md``
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
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, select, text
from sqlalchemy.orm import Session
from sqlmodel import SQLModel

from app.main import create_app
from app.services import rating_reads, ratings
from app.services.ratings import CR
from app.services.register import CP
from app.services.tournaments import new_tournament_id
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


def _play(
    client: ApiClient,
    club_id: str,
    auth: dict[str, str],
    ids: list[int],
    rng: random.Random,
    size: int,
) -> str:
    """One evening of ``size`` register players, 4 Swiss rounds, played through the API."""
    body = {
        "name": "Evening",
        "players": [{"club_player_id": i} for i in rng.sample(ids, size)],
        "swiss_rounds": 4,
        "final_phase": "none",
        "seed": rng.randint(0, 10**6),
    }
    made = client.post(f"/v1/clubs/{club_id}/tournaments", json=body, headers=auth)
    assert made.status_code == 201, made.text
    tid: str = made.json()["id"]
    for _round in range(4):
        matches = client.post(f"/v1/tournaments/{tid}/rounds", headers=auth).json()
        results = [
            {"match_id": m["id"], "home": rng.randint(0, 2), "away": rng.randint(0, 2)}
            for m in matches["matches"]
        ]
        done = client.post(
            f"/v1/tournaments/{tid}/results", json={"results": results}, headers=auth
        )
        assert done.status_code == 200, done.text
    return tid


COPIED = ("match", "result", "round", "evening_placing", "evening_game")
"""A template evening's tables copied as they are (besides the tournament and its players)."""


def _copies(
    app: Any, club_id: str, templates: list[str], count: int, ids: list[int], rng: random.Random
) -> None:
    """``count`` more finished, rated evenings of the club: copies of the templates' rows with
    other register players, each a rating period after them (not timed; the digests are
    wrong until the club is rated again)."""
    tables = SQLModel.metadata.tables
    tournament = tables["tournament"]
    with app.state.engine.begin() as connection:
        rows = {
            name: {
                tid: [
                    dict(r._mapping)
                    for r in connection.execute(
                        select(tables[name]).where(tables[name].c.tournament_id == tid)
                    )
                ]
                for tid in templates
            }
            for name in ("player", *COPIED)
        }
        heads = {
            tid: dict(
                connection.execute(select(tournament).where(tournament.c.id == tid)).one()._mapping
            )
            for tid in templates
        }
        seq = len(templates)
        at = heads[templates[-1]]["created_at"]
        for start in range(0, count, 50):
            batch: dict[str, list[dict[str, Any]]] = {
                n: [] for n in ("tournament", "player", *COPIED, "club_rating_period")
            }
            for _ in range(min(50, count - start)):
                template = rng.choice(templates)
                tid = new_tournament_id()
                seq += 1
                at = at + timedelta(seconds=1)
                batch["tournament"].append(
                    {
                        **heads[template],
                        "id": tid,
                        "token_hash": uuid.uuid4().hex * 2,
                        "created_at": at,
                        "updated_at": at,
                    }
                )
                people = rng.sample(ids, len(rows["player"][template]))
                batch["player"] += [
                    {**r, "tournament_id": tid, "club_player_id": people[i]}
                    for i, r in enumerate(rows["player"][template])
                ]
                for name in COPIED:
                    batch[name] += [{**r, "tournament_id": tid} for r in rows[name][template]]
                batch["club_rating_period"].append(
                    {
                        "club_id": club_id,
                        "tournament_id": tid,
                        "seq": seq,
                        "rated_at": at,
                        "games_digest": "",
                    }
                )
            for name, values in batch.items():
                if values:
                    connection.execute(insert(tables[name]), values)


def _timed(client: ApiClient, method: str, path: str, auth: dict[str, str], **kwargs: Any) -> float:
    started = time.perf_counter()
    answer = client.request(method, path, headers=auth, **kwargs)
    spent = (time.perf_counter() - started) * 1000
    assert answer.status_code in (200, 204), (path, answer.status_code, answer.text)
    return spent


def _last_match(client: ApiClient, tid: str) -> dict[str, Any]:
    """A match of the evening's last round (the only round a correction may change)."""
    rounds = client.get(f"/v1/tournaments/{tid}/rounds").json()
    last: dict[str, Any] = rounds[-1]["matches"][0]
    return last


def _backend(session: Session) -> int | None:
    """The PostgreSQL server process of the session's connection (a server on this machine)."""
    if session.get_bind().dialect.name != "postgresql":
        return None
    return int(session.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _server_cpu(backend: int | None) -> float:
    """Milliseconds of CPU the server process has used (user + system), 0 without one."""
    if backend is None:
        return 0.0
    fields = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def club_times(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """A club of ``--entries`` register players and ``--tournaments`` rated evenings of 16–30
    of them: ``recompute`` timed alone (rolled back), then the writes that rate again over
    HTTP."""
    app = create_app(Settings(database_url=url, webhook_worker=False, create_rate=0))
    rng = random.Random(7)
    out: dict[str, Any] = {}
    try:
        with ApiClient(app) as client:
            made = client.post("/v1/clubs", json={"name": "Season"}).json()
            club_id, auth = made["id"], {"Authorization": f"Bearer {made['key']['key']}"}
            with app.state.engine.begin() as connection:
                rows = entries(club_id, args.entries, rng)
                for start in range(0, len(rows), 1000):
                    connection.execute(insert(CP), rows[start : start + 1000])
                names: dict[int, str] = {
                    r[0]: r[1]
                    for r in connection.execute(
                        select(CP.c.id, CP.c.name).where(CP.c.club_id == club_id)
                    )
                }
                ids = list(
                    connection.execute(
                        select(CP.c.id).where(CP.c.club_id == club_id).order_by(CP.c.id)
                    ).scalars()
                )
            count = Counter(names.values())
            unique = [i for i in ids if count[names[i]] == 1]  # a tournament's names differ
            templates = [
                _play(client, club_id, auth, unique, rng, rng.randint(16, 30))
                for _ in range(args.templates)
            ]
            _copies(app, club_id, templates, args.tournaments - len(templates), ids, rng)
            with Session(app.state.engine) as session:
                started = time.perf_counter()
                ratings.recompute(session, club_id)
                session.commit()
                out["first"] = (time.perf_counter() - started) * 1000
            with app.state.engine.begin() as connection:
                if app.state.engine.dialect.name == "postgresql":
                    connection.execute(text("ANALYZE"))
                out["games"] = connection.execute(
                    text(
                        "SELECT count(*) FROM result r JOIN club_rating_period p"
                        " ON p.tournament_id = r.tournament_id WHERE p.club_id = :c"
                    ),
                    {"c": club_id},
                ).scalar()
                out["history"] = connection.execute(
                    text("SELECT count(*) FROM club_rating_history WHERE club_id = :c"),
                    {"c": club_id},
                ).scalar()
                out["rated"] = connection.execute(
                    text("SELECT count(*) FROM club_rating WHERE club_id = :c"), {"c": club_id}
                ).scalar()
                order = list(
                    connection.execute(
                        text(
                            "SELECT tournament_id FROM club_rating_period WHERE club_id = :c"
                            " ORDER BY seq"
                        ),
                        {"c": club_id},
                    ).scalars()
                )
            wall, cpu, server = [], [], []
            for _ in range(args.recomputes):
                with Session(app.state.engine) as session:
                    backend = _backend(session)
                    started, started_cpu = time.perf_counter(), time.process_time()
                    started_server = _server_cpu(backend)
                    ratings.recompute(session, club_id)
                    session.flush()
                    wall.append((time.perf_counter() - started) * 1000)
                    cpu.append((time.process_time() - started_cpu) * 1000)
                    server.append(_server_cpu(backend) - started_server)
                    session.rollback()
            out["recompute"] = (wall, cpu, server)
            http: dict[str, list[float]] = {}

            def correct(label: str, tid: str) -> None:
                match = _last_match(client, tid)
                for i in range(args.writes):
                    body = {"home": 2, "away": 0} if i % 2 == 0 else {"home": 0, "away": 2}
                    path = f"/v1/tournaments/{tid}/matches/{match['id']}/result"
                    http.setdefault(label, []).append(_timed(client, "PUT", path, auth, json=body))

            correct("correct the last evening", order[-1])
            correct("correct the first evening", order[0])
            played: dict[int, set[int]] = {}
            with app.state.engine.connect() as connection:
                for entry, seq in connection.execute(
                    text(
                        "SELECT p.club_player_id, c.seq FROM player p JOIN club_rating_period c"
                        " ON c.tournament_id = p.tournament_id WHERE c.club_id = :c"
                    ),
                    {"c": club_id},
                ):
                    played.setdefault(entry, set()).add(seq)
            by_first = sorted(played, key=lambda e: (min(played[e]), e))

            def pairs(candidates: list[int]) -> list[tuple[int, int]]:
                """Two entries that never played one evening together, ``--writes`` times."""
                found: list[tuple[int, int]] = []
                used: set[int] = set()
                for a in candidates:
                    for b in candidates:
                        if len(found) == args.writes:
                            return found
                        if a != b and not {a, b} & used and not played[a] & played[b]:
                            found.append((a, b))
                            used |= {a, b}
                            break
                return found

            late = pairs(list(reversed(by_first))[:40])
            early = pairs(by_first[:40])
            for label, chosen in (
                ("merge two entries first seen in the last evenings", late),
                ("merge two entries first seen in the first evenings", early),
            ):
                for kept, merged in chosen:
                    path = f"/v1/clubs/{club_id}/players/{kept}/merge"
                    http.setdefault(label, []).append(
                        _timed(client, "POST", path, auth, json={"merged_id": merged})
                    )
            for i in range(args.writes):
                http.setdefault("delete the last evening", []).append(
                    _timed(client, "DELETE", f"/v1/tournaments/{order[-1 - i]}", auth)
                )
            for i in range(args.writes):
                http.setdefault("delete the first evening", []).append(
                    _timed(client, "DELETE", f"/v1/tournaments/{order[i]}", auth)
                )
            for i in range(args.writes):
                body = {"elo_k": 24 if i % 2 == 0 else 20}
                http.setdefault("change the rating settings", []).append(
                    _timed(client, "PATCH", f"/v1/clubs/{club_id}", auth, json=body)
                )
            out["http"] = http
    finally:
        app.state.engine.dispose()
    return out


def report(name: str, rows: list[Row], club: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"\n{name}")
    print("| read | HTTP median ms | HTTP p95 ms | page alone, median ms | rows |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, median, p95, query_only, found in rows:
        print(f"| {label} | {median:.1f} | {p95:.1f} | {query_only:.1f} | {found} |")
    wall, cpu, server = club["recompute"]
    print(
        f"club of {args.entries} entries, {args.tournaments} evenings, {club['games']} results, "
        f"{club['history']} history rows, {club['rated']} rated entries; first rating "
        f"{club['first']:.0f} ms"
    )
    print(
        f"recompute: median {statistics.median(wall):.0f} ms wall (min {min(wall):.0f}, max "
        f"{max(wall):.0f}), {statistics.median(cpu):.0f} ms CPU of this process, "
        f"{statistics.median(server):.0f} ms of the database server's process"
    )
    print("| write over HTTP | median ms | min | max | runs |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, times in club["http"].items():
        print(
            f"| {label} | {statistics.median(times):.0f} | {min(times):.0f} | {max(times):.0f} "
            f"| {len(times)} |"
        )


def run(url: str, args: argparse.Namespace, name: str) -> None:
    migrate(url)
    rows = list_times(url, args.entries, args.runs) if args.runs else []
    club = club_times(url, args)
    report(name, rows, club, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--templates", type=int, default=10, help="evenings played via HTTP")
    parser.add_argument("--recomputes", type=int, default=5)
    parser.add_argument("--writes", type=int, default=3, help="runs of each write over HTTP")
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
