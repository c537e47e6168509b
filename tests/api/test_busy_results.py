"""Results on a busy tournament (issue 21): 50 scorekeepers record the 100 results of a round at
once against a real server of two workers, while a busy-loop process runs on every core.
Results for different matches must not fail each other: every PUT succeeds, every result is
stored once, the version counts every write, and each has its event and audit entry."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
from sqlalchemy.orm import Session

from app.db import make_engine
from app.services import audit, events
from tests.load import cpu_load
from tests.server import serve

PLAYERS = 200
SCOREKEEPERS = 50


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def score(index: int) -> dict[str, int]:
    return {"home": index % 4, "away": index // 4 % 3}


def result(index: int) -> dict[str, object]:
    home, away = score(index).values()
    winner = "home" if home > away else "away" if away > home else None
    return {"home": home, "away": away, "winner": winner, "decided_by": None, "forfeit": None}


def test_a_hundred_results_at_once_on_a_loaded_machine_all_succeed(db_url: str) -> None:
    with serve(db_url, workers=2) as base, httpx.Client(base_url=base, timeout=60) as http:
        players = [{"name": f"Player {i:03d}"} for i in range(PLAYERS)]
        body = {"name": "Busy", "players": players, "seed": 7}
        created = http.post("/v1/tournaments", json=body).json()
        tid, organizer = created["id"], bearer(created["organizer_token"])
        matches = http.post(f"/v1/tournaments/{tid}/rounds", headers=organizer).json()["matches"]
        assert len(matches) == PLAYERS // 2
        tokens = [
            http.post(
                f"/v1/tournaments/{tid}/tokens", json={"label": f"Table {k}"}, headers=organizer
            ).json()
            for k in range(SCOREKEEPERS)
        ]
        version = http.get(f"/v1/tournaments/{tid}").json()["version"]
        barrier = threading.Barrier(len(matches))

        def put(index: int) -> httpx.Response:
            url = f"{base}/v1/tournaments/{tid}/matches/{matches[index]['id']}/result"
            auth = bearer(tokens[index % SCOREKEEPERS]["token"])
            with httpx.Client(timeout=60) as own:
                barrier.wait()
                return own.put(url, json=score(index), headers=auth)

        with cpu_load(), ThreadPoolExecutor(len(matches)) as pool:
            responses = list(pool.map(put, range(len(matches))))

        refused = [r.text for r in responses if r.status_code != 200]
        assert refused == []
        assert [r.json()["result"] for r in responses] == [result(i) for i in range(len(matches))]
        stored = http.get(f"/v1/tournaments/{tid}/rounds/1").json()["matches"]
        assert {m["id"]: m["result"] for m in stored} == {
            m["id"]: result(i) for i, m in enumerate(matches)
        }
        assert http.get(f"/v1/tournaments/{tid}").json()["version"] == version + len(matches)

    engine = make_engine(db_url)
    with Session(engine) as session:
        trail = audit.entries(session, tid)
        stream = events.events_after(session, tid, 0, limit=1000)
    engine.dispose()
    recorded = [e for e in trail if e["action"] == "results-record"]
    assert sorted(e["detail"]["match_id"] for e in recorded) == sorted(m["id"] for m in matches)
    assert {e["actor"] for e in recorded} == {f"scorekeeper:{t['id']}" for t in tokens}
    assert [e.seq for e in stream] == list(range(1, len(stream) + 1))
    results = [e for e in stream if e.type == events.RESULT_RECORDED]
    assert sorted(e.data["match"]["id"] for e in results) == sorted(m["id"] for m in matches)


def test_writes_beyond_the_worker_threads_at_once_all_succeed(db_url: str) -> None:
    """More organizer writes at once than a worker has threads (its connection pool, 10):
    each commits as its handler returns, so the lock holder never waits for a thread that
    the writers queued behind it hold (before: 20 of 30 late entries refused `busy`)."""
    late = 30
    with serve(db_url, workers=1) as base, httpx.Client(base_url=base, timeout=60) as http:
        body = {"name": "Late", "players": [{"name": f"Player {i}"} for i in range(8)]}
        created = http.post("/v1/tournaments", json=body).json()
        tid, organizer = created["id"], bearer(created["organizer_token"])
        barrier = threading.Barrier(late)

        def enter(index: int) -> httpx.Response:
            with httpx.Client(base_url=base, timeout=60) as own:
                barrier.wait()
                return own.post(
                    f"/v1/tournaments/{tid}/players",
                    json={"name": f"Late {index}"},
                    headers=organizer,
                )

        with ThreadPoolExecutor(late) as pool:
            responses = list(pool.map(enter, range(late)))

        assert [r.text for r in responses if r.status_code != 201] == []
        names = {p["name"] for p in http.get(f"/v1/tournaments/{tid}/players").json()}
        assert names >= {f"Late {i}" for i in range(late)}
        assert len(names) == 8 + late
