"""Deliveries to a real receiver on loopback: in order, signed, retried, logged, redelivered."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi import FastAPI

from app.api.event_schemas import validate
from app.settings import Settings
from app.webhooks import queue
from app.webhooks.signing import verify
from tests.api.helpers import Organizer, create, generate, play_round, record
from tests.api.test_chess import bye, new_chess
from tests.client import ApiClient
from tests.webhooks.conftest import worker_running
from tests.webhooks.receiver import Receiver


def register(client: ApiClient, t: Organizer, url: str, **body: Any) -> dict[str, Any]:
    response = client.post(
        f"/v1/tournaments/{t.id}/webhooks", json={"url": url, **body}, headers=t.auth
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def log(client: ApiClient, t: Organizer, webhook_id: int) -> list[dict[str, Any]]:
    response = client.get(
        f"/v1/tournaments/{t.id}/webhooks/{webhook_id}/deliveries", headers=t.auth
    )
    assert response.status_code == 200, response.text
    deliveries: list[dict[str, Any]] = response.json()["items"]
    return deliveries


def test_deliveries_arrive_in_order_signed(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    t = create(client)
    hook = register(client, t, receiver.url)
    with worker_running(app.state.engine, settings):
        first = play_round(client, t)  # round.generated + 4 × result.recorded
        corrected = record(client, t, first["matches"][0]["id"], home=0, away=0)
        arrivals = receiver.wait_for(6)
    envelopes = [a.envelope for a in arrivals]
    assert [e["id"] for e in envelopes] == [2, 3, 4, 5, 6, 7]  # seq 1 (created) came before
    assert [e["type"] for e in envelopes] == ["round.generated"] + ["result.recorded"] * 4 + [
        "result.corrected"
    ]
    # What changed, not the standings: the match, the status and the version (1 + 6 writes).
    assert envelopes[-1]["data"] == {"match": corrected, "status": "swiss", "version": 7}
    for arrival in arrivals:
        envelope = arrival.envelope
        validate(envelope)
        assert envelope["tournament_id"] == t.id
        assert verify(hook["secret"], arrival.headers["svizzera-signature"], arrival.body)
        assert not verify("whsec_wrong", arrival.headers["svizzera-signature"], arrival.body)
        assert arrival.event_id == f"{t.id}:{envelope['id']}"
        assert arrival.headers["svizzera-event-type"] == envelope["type"]
        assert arrival.headers["content-type"] == "application/json"
    delivered = log(client, t, hook["id"])
    assert [d["event_id"] for d in delivered] == [7, 6, 5, 4, 3, 2]  # newest first
    assert {(d["status"], d["attempts"], d["last_status_code"]) for d in delivered} == {
        ("delivered", 1, 200)
    }
    ids = {a.headers["svizzera-delivery-id"] for a in arrivals}
    assert ids == {str(d["id"]) for d in delivered}
    assert all(d["delivered_at"] and d["next_attempt_at"] is None for d in delivered)


def test_a_requested_bye_and_its_cancellation_are_delivered(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    t = new_chess(client, 4)
    register(client, t, receiver.url, events=["bye.requested", "bye.cancelled"])
    with worker_running(app.state.engine, settings):
        asked = bye(client, t, 2, 1, "half_point")
        assert asked.status_code == 200, asked.text
        cancelled = client.delete(f"/v1/tournaments/{t.id}/players/2/byes/1", headers=t.auth)
        assert cancelled.status_code == 200, cancelled.text
        arrivals = receiver.wait_for(2)
    assert len(arrivals) == 2
    assert [(a.headers["svizzera-event-type"], a.envelope["id"]) for a in arrivals] == [
        ("bye.requested", 2),
        ("bye.cancelled", 3),
    ]
    assert [a.envelope["data"] for a in arrivals] == [
        {"player": asked.json(), "round": 1, "kind": "half_point", "version": 2},
        {"player": cancelled.json(), "round": 1, "kind": "half_point", "version": 3},
    ]
    for arrival in arrivals:
        validate(arrival.envelope)


def test_a_round_clock_is_delivered_with_its_time_left_and_server_time(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    t = create(client, 4, round_duration=600)
    generate(client, t)
    register(client, t, receiver.url, events=["clock.started", "clock.paused"])
    url = f"/v1/tournaments/{t.id}/rounds/1/clock"
    with worker_running(app.state.engine, settings):
        started = client.post(url, json={"action": "start"}, headers=t.auth)
        paused = client.post(url, json={"action": "pause"}, headers=t.auth)
        assert started.status_code == paused.status_code == 200, (started.text, paused.text)
        arrivals = receiver.wait_for(2)
    assert [a.headers["svizzera-event-type"] for a in arrivals] == ["clock.started", "clock.paused"]
    assert [a.envelope["data"]["clock"] for a in arrivals] == [started.json(), paused.json()]
    assert arrivals[0].envelope["data"]["clock"]["remaining_ms"] == 600_000
    for arrival in arrivals:
        validate(arrival.envelope)


def test_a_receiver_failing_twice_gets_the_event_on_the_third_try_and_order_holds(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    t = create(client)
    hook = register(client, t, receiver.url)
    receiver.fail_next = 2
    with worker_running(app.state.engine, settings):
        swiss_round = generate(client, t)
        record(client, t, swiss_round["matches"][0]["id"], home=1, away=0)
        arrivals = receiver.wait_for(4)
    assert [a.envelope["id"] for a in arrivals] == [2, 2, 2, 3]
    assert len({a.headers["svizzera-delivery-id"] for a in arrivals[:3]}) == 1
    assert all(verify(hook["secret"], a.headers["svizzera-signature"], a.body) for a in arrivals)
    first = log(client, t, hook["id"])[-1]
    assert first["event_type"] == "round.generated"
    assert (first["status"], first["attempts"], first["last_status_code"]) == ("delivered", 3, 200)
    assert first["last_error"] is None


def test_out_of_attempts_is_failed_and_logged_then_redelivered(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    settings = settings.model_copy(update={"webhook_max_attempts": 2})
    t = create(client)
    hook = register(client, t, receiver.url, events=["round.generated"])
    receiver.fail_next, receiver.fail_status = 2, 503
    with worker_running(app.state.engine, settings):
        swiss_round = generate(client, t)
        record(client, t, swiss_round["matches"][0]["id"], home=1, away=0)  # not subscribed
        receiver.wait_for(2)
        failed = _wait(client, t, hook["id"], "failed")[0]
        assert (failed["attempts"], failed["last_status_code"]) == (2, 503)
        assert failed["last_error"] == "HTTP 503" and failed["next_attempt_at"] is None
        again = client.post(
            f"/v1/tournaments/{t.id}/webhooks/{hook['id']}/deliveries/{failed['id']}/redeliver",
            headers=t.auth,
        )
        assert again.status_code == 202, again.text
        assert again.json()["status"] == "pending"
        arrivals = receiver.wait_for(3)
        redelivered = _wait(client, t, hook["id"], "delivered")[0]
    assert [a.envelope["type"] for a in arrivals] == ["round.generated"] * 3
    assert arrivals[2].headers["svizzera-delivery-id"] == str(failed["id"])
    assert (redelivered["attempts"], redelivered["last_status_code"]) == (1, 200)
    only_failed = client.get(
        f"/v1/tournaments/{t.id}/webhooks/{hook['id']}/deliveries?status=failed", headers=t.auth
    )
    assert only_failed.json() == {"items": [], "next_cursor": None}


def test_private_addresses_are_refused_at_delivery_time_too(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    t = create(client)
    hook = register(client, t, receiver.url)  # accepted while private addresses were allowed
    strict = settings.model_copy(update={"webhook_allow_private": False, "webhook_max_attempts": 1})
    with worker_running(app.state.engine, strict):
        generate(client, t)
        failed = _wait(client, t, hook["id"], "failed")[0]
    assert receiver.arrivals == []
    assert "127.0.0.1" in failed["last_error"] and failed["last_status_code"] is None


def _wait(
    client: ApiClient, t: Organizer, webhook_id: int, status: str, timeout: float = 60.0
) -> list[dict[str, Any]]:
    """The delivery log, once its newest delivery has ``status``."""
    deadline = time.monotonic() + timeout
    while True:
        deliveries = log(client, t, webhook_id)
        if deliveries and deliveries[0]["status"] == status:
            return deliveries
        assert time.monotonic() < deadline, f"no {status} delivery: {deliveries}"
        time.sleep(0.05)


def test_a_receiver_that_does_not_answer_in_time_is_retried(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    settings = settings.model_copy(update={"webhook_timeout": 0.3})
    t = create(client)
    hook = register(client, t, receiver.url)
    receiver.hang_at = 1
    with worker_running(app.state.engine, settings):
        generate(client, t)
        receiver.wait_for(2)
        delivered = _wait(client, t, hook["id"], "delivered")[0]
    # The first attempt hangs past the timeout; on a loaded machine a retry may also run out
    # of its 0.3 s, so the test counts attempts up to the 200 rather than expecting two.
    first = receiver.arrivals[0]
    arrivals = [
        a
        for a in receiver.arrivals
        if a.headers["svizzera-delivery-id"] == first.headers["svizzera-delivery-id"]
    ]
    assert {a.event_id for a in arrivals} == {first.event_id}
    assert 2 <= len(arrivals) <= delivered["attempts"]
    assert delivered["last_status_code"] == 200


SLOW_RECORD = 3.0
"""Seconds the outcome's write below takes: longer than the worker's shutdown grace."""


def test_a_delivery_recording_its_outcome_at_shutdown_is_waited_for(
    app: FastAPI,
    client: ApiClient,
    settings: Settings,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker stops while a delivery records its outcome, past the shutdown grace, so the
    delivery's task is cancelled: the write still completes, and its connection is back in
    the pool before the worker returns (not handed to a disposed engine later)."""
    t = create(client)
    hook = register(client, t, receiver.url)
    engine = app.state.engine
    recording, release = threading.Event(), threading.Event()
    finish = queue.finish

    def slow_finish(*args: Any, **kwargs: Any) -> None:
        if not recording.is_set():
            with engine.connect():  # a slow write: it holds a connection for SLOW_RECORD s
                recording.set()
                release.wait(SLOW_RECORD)
        finish(*args, **kwargs)

    monkeypatch.setattr(queue, "finish", slow_finish)
    try:
        with worker_running(engine, settings):
            generate(client, t)
            assert recording.wait(60)
        checked_out = engine.pool.checkedout()
    finally:
        release.set()
    assert checked_out == 0
    delivered = log(client, t, hook["id"])
    assert [(d["event_id"], d["status"]) for d in delivered] == [(2, "delivered")]
