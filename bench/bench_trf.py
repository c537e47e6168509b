"""CPU time of a 1 MB TRF body: read and imported (the domain), and created through the service on
SQLite (``app.services.trf.create``: read, import, save, commit), for each shape of
``tests/domain/test_trf_hostile.py``; with ``--postgres URL`` on that PostgreSQL database too
(migrated first; each tournament created is deleted again, untimed).

    .venv/bin/python -m bench.bench_trf [--service] [--postgres URL]

Prints one line a shape: the least ``time.process_time`` of three runs, and what came of it.
The process's CPU time only: PostgreSQL's own work is in its server process.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine, delete
from sqlalchemy.orm import Session

from app.db import make_engine
from app.domain.errors import InvalidTrf
from app.services import storage, trf
from tests.databases import migrate
from tests.domain.test_trf_hostile import SHAPES, import_bytes


def least(runs: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--service", action="store_true", help="also create through the service")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgres", help="also create on this PostgreSQL database")
    args = parser.parse_args()
    engines = {}
    if args.service:
        path = Path(tempfile.mkdtemp()) / "bench.db"
        migrate(f"sqlite:///{path}")
        engines["SQLite"] = make_engine(f"sqlite:///{path}")
    if args.postgres:
        migrate(args.postgres)
        engines["PostgreSQL"] = make_engine(args.postgres)
    created_ids: list[str] = []
    for name, (make, _) in SHAPES.items():
        body = make()
        outcome = import_bytes(body)
        said = str(outcome)[:60] if isinstance(outcome, InvalidTrf) else "accepted"
        domain = least(args.runs, lambda body=body: import_bytes(body))
        line = f"{name:48} {len(body):>9} B  domain {domain:5.2f} s"
        for database, engine in engines.items():

            def create(body: bytes = body, engine: Engine = engine) -> None:
                with Session(engine) as session:
                    try:
                        created = trf.create(session, body)
                        session.commit()
                    except InvalidTrf:
                        session.rollback()
                        return
                    created_ids.append(created.id)

            line += f"  {database} {least(args.runs, create):5.2f} s"
            with Session(engine) as session:
                session.execute(delete(storage.T).where(storage.T.c.id.in_(created_ids)))
                session.commit()
            created_ids.clear()
        print(f"{line}  {said}", flush=True)


if __name__ == "__main__":
    main()
