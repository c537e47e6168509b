"""The worker as deployed: inside the real server (a receiver that hangs does not slow the
API), and alone as ``python -m app.webhooks.worker`` (killed mid-delivery, nothing is lost)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi import FastAPI

from app.services import webhooks
from tests.api.helpers import create, generate, play_round, record
from tests.client import ApiClient
from tests.server import ROOT, environment, serve
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import log, register

FAST = {"webhook_allow_private": "true", "webhook_poll_interval": "0.05", "webhook_backoff": "0.05"}
WAIT = 180.0
"""Generous limit for what a test waits for: a worker process starting and delivering."""
DELIVERY_TIMEOUT = "5"
"""The worker process's ``webhook_timeout``: long enough for a loaded machine's receiver to
answer in time, short enough that a killed worker's claim (2 × timeout + 1 s) runs out soon."""


def test_a_receiver_that_never_answers_does_not_slow_the_api(
    db_url: str, receiver: Receiver
) -> None:
    receiver.hang = True  # every delivery hangs until the test releases it (no timeout before)
    with (
        serve(db_url, webhook_timeout="600", **FAST) as base,
        httpx.Client(base_url=base, timeout=WAIT / 2) as http,
    ):
        players = [{"name": f"P{i}"} for i in range(8)]
        created = http.post("/v1/tournaments", json={"name": "Hang", "players": players}).json()
        auth = {"Authorization": f"Bearer {created['organizer_token']}"}
        tid = created["id"]
        hook = http.post(
            f"/v1/tournaments/{tid}/webhooks", json={"url": receiver.url}, headers=auth
        )
        assert hook.status_code == 201, hook.text
        matches = http.post(f"/v1/tournaments/{tid}/rounds", headers=auth).json()["matches"]
        receiver.wait_for(1, timeout=WAIT)  # round.generated is in flight, and hangs
        for match in matches:
            # Answered while the delivery still hangs (a write waiting on it would time out).
            put = http.put(
                f"/v1/tournaments/{tid}/matches/{match['id']}/result",
                json={"home": 1, "away": 0},
                headers=auth,
            )
            assert put.status_code == 200
        assert not receiver.released.is_set()
        assert len(receiver.arrivals) == 1  # the endpoint's next event waits its turn
        receiver.released.set()
        arrivals = receiver.wait_for(5, timeout=WAIT)
    assert [a.envelope["id"] for a in arrivals] == [2, 3, 4, 5, 6]


@contextmanager
def worker_process(db_url: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m app.webhooks.worker``; what it logs goes to ``log`` (shown if a wait fails)."""
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.webhooks.worker"],
            cwd=ROOT,
            env=environment(db_url, webhook_timeout=DELIVERY_TIMEOUT, **FAST),
            stdout=output,
            stderr=output,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(WAIT)


def arrived(receiver: Receiver, count: int, log: Path) -> None:
    """Wait for ``count`` deliveries; a process start on a busy machine can take seconds."""
    try:
        receiver.wait_for(count, timeout=WAIT)
    except AssertionError as error:
        raise AssertionError(f"{error}; the worker logged:\n{log.read_text()}") from None


def test_killing_the_worker_mid_delivery_loses_nothing(
    app: FastAPI, client: ApiClient, db_url: str, receiver: Receiver, tmp_path: Path
) -> None:
    worker_log = tmp_path / "worker.log"
    t = create(client)
    hook = register(client, t, receiver.url)
    first = play_round(client, t)  # seq 2 (round) and 3-6 (results), saved before any worker
    receiver.hang_at = 3
    with worker_process(db_url, worker_log) as worker:
        arrived(receiver, 3, worker_log)  # the third delivery is in flight
        worker.kill()  # SIGKILL: no chance to record anything
        worker.wait(WAIT)
    receiver.released.set()
    record(client, t, first["matches"][0]["id"], home=0, away=0)  # seq 7, saved while down
    generate(client, t)  # seq 8
    with worker_process(db_url, worker_log):
        arrived(receiver, 7, worker_log)
        deadline = time.monotonic() + WAIT
        while {d["status"] for d in log(client, t, hook["id"])} != {"delivered"}:
            assert time.monotonic() < deadline, worker_log.read_text()
            time.sleep(0.05)
    arrivals = list(receiver.arrivals)
    seqs = [a.envelope["id"] for a in arrivals]
    assert seqs[:4] == [2, 3, 4, 4]  # the one in flight at the kill was sent again
    firsts: dict[str, str] = {}
    for arrival in arrivals:
        # a resend carries the same event id and delivery id as the first try
        firsts.setdefault(arrival.event_id, arrival.headers["svizzera-delivery-id"])
        assert firsts[arrival.event_id] == arrival.headers["svizzera-delivery-id"]
    assert list(firsts) == [f"{t.id}:{n}" for n in range(2, 9)]  # first arrivals in order
    delivered = log(client, t, hook["id"])
    assert [d["event_id"] for d in delivered] == list(range(8, 1, -1))
    # Nothing delivered was sent again: each event arrived once per recorded attempt, plus the
    # killed worker's unrecorded one (on a quiet machine every attempt is 1 and seqs is exactly
    # [2, 3, 4, 4, 5, 6, 7, 8]; an answer slower than the timeout is a recorded attempt too).
    unrecorded = {4: 1}
    assert {d["event_id"]: d["attempts"] + unrecorded.get(d["event_id"], 0) for d in delivered} == {
        n: seqs.count(n) for n in range(2, 9)
    }
    assert webhooks.SECRET_PREFIX not in "".join(a.body.decode() for a in arrivals)
