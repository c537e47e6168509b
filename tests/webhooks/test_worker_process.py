"""The worker as deployed: inside the real server (a receiver that hangs does not slow the
API), and alone as ``python -m app.webhooks.worker`` (killed mid-delivery, nothing is lost)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from fastapi import FastAPI

from app.services import webhooks
from tests.api.helpers import create, generate, play_round, record
from tests.client import ApiClient
from tests.server import ROOT, environment, serve
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import log, register

FAST = {"webhook_allow_private": "true", "webhook_poll_interval": "0.05", "webhook_backoff": "0.05"}


def test_a_receiver_that_never_answers_does_not_slow_the_api(
    db_url: str, receiver: Receiver
) -> None:
    receiver.hang = True  # every delivery waits until the worker's 5 s timeout
    with serve(db_url, webhook_timeout="5", **FAST) as base, httpx.Client(base_url=base) as http:
        players = [{"name": f"P{i}"} for i in range(8)]
        created = http.post("/v1/tournaments", json={"name": "Hang", "players": players}).json()
        auth = {"Authorization": f"Bearer {created['organizer_token']}"}
        tid = created["id"]
        hook = http.post(
            f"/v1/tournaments/{tid}/webhooks", json={"url": receiver.url}, headers=auth
        )
        assert hook.status_code == 201, hook.text
        matches = http.post(f"/v1/tournaments/{tid}/rounds", headers=auth).json()["matches"]
        receiver.wait_for(1)  # round.generated is in flight, and hangs
        for match in matches:
            started = time.perf_counter()
            put = http.put(
                f"/v1/tournaments/{tid}/matches/{match['id']}/result",
                json={"home": 1, "away": 0},
                headers=auth,
            )
            elapsed = time.perf_counter() - started
            assert put.status_code == 200
            assert elapsed < 1.0, f"a write took {elapsed:.2f} s while the receiver hung"
        assert len(receiver.arrivals) == 1  # the endpoint's next event waits its turn
        receiver.released.set()
        arrivals = receiver.wait_for(5)
    assert [a.envelope["id"] for a in arrivals] == [2, 3, 4, 5, 6]


@contextmanager
def worker_process(db_url: str) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "app.webhooks.worker"],
        cwd=ROOT,
        env=environment(db_url, webhook_timeout="1", **FAST),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


def test_killing_the_worker_mid_delivery_loses_nothing(
    app: FastAPI, client: ApiClient, db_url: str, receiver: Receiver
) -> None:
    t = create(client)
    hook = register(client, t, receiver.url)
    first = play_round(client, t)  # seq 2 (round) and 3-6 (results), saved before any worker
    receiver.hang_at = 3
    with worker_process(db_url) as worker:
        receiver.wait_for(3)  # the third delivery is in flight
        worker.kill()  # SIGKILL: no chance to record anything
        worker.wait(10)
    receiver.released.set()
    record(client, t, first["matches"][0]["id"], home=0, away=0)  # seq 7, saved while down
    generate(client, t)  # seq 8
    with worker_process(db_url):
        receiver.wait_for(7, timeout=20)
        deadline = time.monotonic() + 10
        while {d["status"] for d in log(client, t, hook["id"])} != {"delivered"}:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    arrivals = list(receiver.arrivals)
    seqs = [a.envelope["id"] for a in arrivals]
    assert seqs == [2, 3, 4, 4, 5, 6, 7, 8]
    firsts: dict[str, str] = {}
    for arrival in arrivals:
        # a resend carries the same event id and delivery id as the first try
        firsts.setdefault(arrival.event_id, arrival.headers["svizzera-delivery-id"])
        assert firsts[arrival.event_id] == arrival.headers["svizzera-delivery-id"]
    assert list(firsts) == [f"{t.id}:{n}" for n in range(2, 9)]  # first arrivals in order
    assert len(arrivals) - len(firsts) <= 1  # only the one in flight was sent twice
    assert [d["event_id"] for d in log(client, t, hook["id"])] == list(range(8, 1, -1))
    assert webhooks.SECRET_PREFIX not in "".join(a.body.decode() for a in arrivals)
