"""CPU time of a 1 MB TRF body: read and imported (the domain), and created through the service on
SQLite (``app.services.trf.create``: read, import, save), for each shape of
``tests/domain/test_trf_hostile.py``.

    .venv/bin/python -m bench.bench_trf [--service]

Prints one line a shape: the least ``time.process_time`` of three runs, and what came of it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy.orm import Session

from app.db import make_engine
from app.domain.errors import InvalidTrf
from app.services import trf
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
    args = parser.parse_args()
    engine = None
    if args.service:
        path = Path(tempfile.mkdtemp()) / "bench.db"
        migrate(f"sqlite:///{path}")
        engine = make_engine(f"sqlite:///{path}")
    for name, (make, _) in SHAPES.items():
        body = make()
        outcome = import_bytes(body)
        said = str(outcome)[:60] if isinstance(outcome, InvalidTrf) else "accepted"
        domain = least(args.runs, lambda body=body: import_bytes(body))
        line = f"{name:48} {len(body):>9} B  domain {domain:5.2f} s"
        if engine is not None:

            def create(body: bytes = body) -> None:
                with Session(engine) as session:
                    try:
                        trf.create(session, body)
                        session.commit()
                    except InvalidTrf:
                        session.rollback()

            line += f"  service {least(args.runs, create):5.2f} s"
        print(f"{line}  {said}", flush=True)


if __name__ == "__main__":
    main()
