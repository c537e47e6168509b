"""Hostile TRF bodies over HTTP: each costs its sender the creation quota, and reads of other
tournaments stay fast while they are refused (a real server, one worker)."""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from datetime import UTC, datetime

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.services import storage
from app.settings import Settings
from tests.api.helpers import assert_problem
from tests.api.test_quotas import creation_rows
from tests.client import ApiClient
from tests.domain.test_trf_hostile import SHAPES
from tests.server import serve

WAIT = 120.0
"""Generous limit for one request on a busy machine."""
TRF = {"Content-Type": "text/plain"}
VALID = "012 Friday\rXXR 3\r" + "".join(
    f"001 {n:>4}      {f'Player {n}':<33} 1500\r" for n in range(1, 5)
)
HOSTILE = ("LF only", "different tags", "4,000 players and one line of byes")
"""Refused shapes: the cheapest, a quarter of a million lines, and the one that took 49 s."""


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, create_rate=3)


def test_a_refused_file_counts_against_the_creation_quota(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage, "now", lambda: datetime(2026, 12, 1, 12, 0, 10, tzinfo=UTC))
    body = SHAPES["LF only"][0]()
    refused = [client.post("/v1/tournaments", content=body, headers=TRF) for _ in range(3)]
    for answer in refused:
        problem = assert_problem(answer, 422, "invalid_trf")
        assert problem["detail"] == "line 65537, column 1: a TRF has at most 65536 lines"
    # The quota is spent: the fourth, though valid, is refused before its body is read as a TRF.
    fourth = client.post("/v1/tournaments", content=VALID, headers=TRF)
    assert_problem(fourth, 429, "too_many_requests")
    assert fourth.headers["retry-after"] == "50"
    assert client.get("/v1/tournaments").json()["items"] == []
    assert creation_rows(app) == 1  # one row: this address, this minute


def test_one_file_at_a_time_is_read_in_a_worker_and_the_others_wait_briefly(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url, lock_timeout=0.3))
    try:
        with ApiClient(app) as client:
            asyncio.run(app.state.trf_imports.acquire())  # a file being read, as it were
            waited = client.post("/v1/tournaments", content=VALID, headers=TRF)
            problem = assert_problem(waited, 503, "busy")
            assert problem["detail"] == "other TRF files are being read: try again in a moment"
            assert waited.headers["retry-after"] == "1"
            assert client.get("/v1/tournaments").json()["items"] == []
            app.state.trf_imports.release()
            made = client.post("/v1/tournaments", content=VALID, headers=TRF)
            assert made.status_code == 201, made.text
            again = client.post("/v1/tournaments", content=VALID, headers=TRF)
            assert again.status_code == 201, again.text  # the slot was given back
    finally:
        app.state.engine.dispose()


def read_time(http: httpx.Client, url: str, etag: str) -> float:
    start = time.perf_counter()
    answer = http.get(url)
    elapsed = time.perf_counter() - start
    assert answer.status_code == 200 and answer.headers["etag"] == etag, answer.text
    return elapsed


def test_reads_of_another_tournament_stay_fast_while_hostile_files_are_refused(
    db_url: str,
) -> None:
    bodies = [SHAPES[name][0]() for name in HOSTILE]
    details = {SHAPES[name][1] for name in HOSTILE}
    players = [{"name": f"Player {n}"} for n in range(1, 41)]
    with serve(db_url, create_rate="0") as base, httpx.Client(base_url=base, timeout=WAIT) as http:
        created = http.post("/v1/tournaments", json={"name": "Neighbour", "players": players})
        token = created.json()["organizer_token"]
        url = f"/v1/tournaments/{created.json()['id']}/standings"
        http.post(url.replace("standings", "rounds"), headers={"Authorization": f"Bearer {token}"})
        etag = http.get(url).headers["etag"]
        alone = [read_time(http, url, etag) for _ in range(20)]

        answers: list[tuple[int, str]] = []
        stop = threading.Event()

        def attack(body: bytes) -> None:
            with httpx.Client(base_url=base, timeout=WAIT) as attacker:
                while not stop.is_set():
                    answer = attacker.post("/v1/tournaments", content=body, headers=TRF)
                    answers.append((answer.status_code, answer.json()["detail"]))

        attackers = [threading.Thread(target=attack, args=(b,)) for b in bodies * 2]
        for thread in attackers:
            thread.start()
        try:
            deadline = time.monotonic() + WAIT
            while len(answers) < len(attackers):  # every attacker is under way
                assert time.monotonic() < deadline, "the hostile imports were never answered"
                time.sleep(0.01)
            refused_before = len(answers)
            during = [read_time(http, url, etag) for _ in range(40)]
            refused_during = len(answers) - refused_before
            while len(answers) == refused_before + refused_during:  # still under way after
                assert time.monotonic() < deadline, "the hostile imports stopped"
                time.sleep(0.01)
        finally:
            stop.set()
            for thread in attackers:
                thread.join(WAIT)

    assert {status for status, _ in answers} == {422}
    assert {detail for _, detail in answers} == details
    assert refused_during >= 1  # the reads were measured under the attack, from start to end
    # Six refusals running at once cost a read 4-9 s when a million blank lines took 12-17 s to
    # refuse. Now each costs a fraction of a second and a worker reads one file at a time: a
    # read takes at most ten times as long as alone (generous: a busy machine).
    slowest_allowed = max(10 * statistics.median(alone), 0.5)
    assert statistics.median(during) < slowest_allowed, (alone, during)
