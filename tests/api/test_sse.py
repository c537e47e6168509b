"""Live event streams against the real server (uvicorn subprocesses): every event exactly once
across a disconnect and a resume; on PostgreSQL, across two app processes."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server import serve

WAIT = 60.0
"""Generous limit for what a test waits for; a passing test never waits that long."""
NO_POLL = "3600"
"""A poll interval no test outlives: an event that arrives came by NOTIFY or the wake-up."""


class Reader(threading.Thread):
    """Reads one stream in the background; stops after ``stop_after`` events or on ``close``."""

    def __init__(
        self,
        url: str,
        *,
        last_event_id: int | None = None,
        stop_after: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.headers = dict(headers or {})
        if last_event_id:
            self.headers["Last-Event-ID"] = str(last_event_id)
        self.stop_after = stop_after
        self.events: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.connected = threading.Event()
        self.stopped = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(10, read=10)) as client,
                client.stream("GET", self.url, headers=self.headers) as response,
            ):
                assert response.status_code == 200
                self.connected.set()
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if self.stopped.is_set():
                        return
                    if line.startswith(":") and "heartbeat" in line:
                        self.heartbeats += 1
                    elif line == "" and "data" in fields:
                        envelope = json.loads(fields["data"])
                        assert str(envelope["id"]) == fields["id"]
                        assert envelope["type"] == fields["event"]
                        self.events.append(envelope)
                        fields = {}
                        if self.stop_after and len(self.events) >= self.stop_after:
                            return  # leaving the block closes the connection: a disconnect
                    elif ": " in line:
                        key, value = line.split(": ", 1)
                        fields[key] = value
        except BaseException as exc:
            self.error = exc
        finally:
            self.connected.set()

    def wait_for(self, count: int, *, heartbeats: int = 0) -> None:
        """At least ``count`` events and ``heartbeats`` heartbeats, within ``WAIT``."""
        deadline = time.monotonic() + WAIT
        while (
            (len(self.events) < count or self.heartbeats < heartbeats)
            and time.monotonic() < deadline
            and self.is_alive()
        ):
            time.sleep(0.01)
        assert self.error is None, self.error
        assert len(self.events) >= count, (len(self.events), count)
        assert self.heartbeats >= heartbeats, (self.heartbeats, heartbeats)

    def connect(self) -> None:
        self.start()
        assert self.connected.wait(WAIT)

    def close(self) -> None:
        self.stopped.set()


@pytest.fixture
def server(db_url: str) -> Iterator[str]:
    with serve(db_url, sse_heartbeat="0.3", sse_poll_interval="0.2") as base:
        yield base


def create(base: str, players: int = 8) -> tuple[str, dict[str, str]]:
    body = {"name": "Live", "players": [{"name": f"P{i}"} for i in range(players)], "seed": 3}
    created = httpx.post(f"{base}/v1/tournaments", json=body).json()
    return created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}


def generate(base: str, tid: str, auth: dict[str, str]) -> list[int]:
    response = httpx.post(f"{base}/v1/tournaments/{tid}/rounds", headers=auth)
    assert response.status_code == 201, response.text
    return [m["id"] for m in response.json()["matches"]]


def put_result(base: str, tid: str, auth: dict[str, str], match_id: int, home: int) -> None:
    response = httpx.put(
        f"{base}/v1/tournaments/{tid}/matches/{match_id}/result",
        json={"home": home, "away": 0},
        headers=auth,
    )
    assert response.status_code == 200, response.text


def test_live_stream_disconnect_and_resume_every_event_exactly_once(server: str) -> None:
    tid, auth = create(server)
    url = f"{server}/v1/tournaments/{tid}/events?timeout=120"
    first = Reader(url, stop_after=6)
    first.connect()
    matches = generate(server, tid, auth)  # events 1 (created, replayed) and 2
    for i, match_id in enumerate(matches):  # 3..6 live; the reader leaves after 6
        put_result(server, tid, auth, match_id, home=i % 3)
    first.join(WAIT)
    assert not first.is_alive()
    assert first.error is None, first.error
    # saved while nobody listens: corrections of the same round
    for match_id in matches:
        put_result(server, tid, auth, match_id, home=5)
    total = 2 + 2 * len(matches)
    last_seen = first.events[-1]["id"]
    second = Reader(url, last_event_id=last_seen)
    second.connect()
    second.wait_for(total - last_seen)
    more = generate(server, tid, auth)  # live again, on the resumed stream
    put_result(server, tid, auth, more[0], home=1)
    second.wait_for(total - last_seen + 2)
    # Two heartbeats after the last event: the stream had nothing more to send (a duplicate
    # would have come before them).
    second.wait_for(total - last_seen + 2, heartbeats=second.heartbeats + 2)
    second.close()

    seen = [e["id"] for e in first.events + second.events]
    assert seen == list(range(1, total + 3))
    assert [e["type"] for e in first.events[:2]] == ["tournament.created", "round.generated"]
    assert {e["type"] for e in second.events[: len(matches)]} == {"result.corrected"}
    assert second.heartbeats >= 1


def test_a_requested_bye_and_its_cancellation_reach_a_live_stream(server: str) -> None:
    players = [{"name": f"P{i}", "rating": 2000 - 10 * i} for i in range(4)]
    body = {"name": "Chess", "players": players, "pairing": "dutch", "seed": 3}
    created = httpx.post(f"{server}/v1/tournaments", json=body).json()
    auth = {"Authorization": f"Bearer {created['organizer_token']}"}
    reader = Reader(f"{server}/v1/tournaments/{created['id']}/events?timeout=120")
    reader.connect()
    reader.wait_for(1)  # the replay: tournament.created
    url = f"{server}/v1/tournaments/{created['id']}/players/2/byes/1"
    asked = httpx.put(url, json={"kind": "zero_point"}, headers=auth)
    assert asked.status_code == 200, asked.text
    reader.wait_for(2)
    cancelled = httpx.delete(url, headers=auth)
    assert cancelled.status_code == 200, cancelled.text
    reader.wait_for(3)
    reader.close()
    assert [(e["id"], e["type"], e["data"]) for e in reader.events[1:3]] == [
        (
            2,
            "bye.requested",
            {"player": asked.json(), "round": 1, "kind": "zero_point", "version": 2},
        ),
        (
            3,
            "bye.cancelled",
            {"player": cancelled.json(), "round": 1, "kind": "zero_point", "version": 3},
        ),
    ]


@pytest.mark.postgres
def test_two_app_processes_an_event_saved_through_one_reaches_a_client_of_the_other(
    request: pytest.FixtureRequest, db_url: str
) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("LISTEN/NOTIFY across processes is the PostgreSQL design")
    # No poll within the test: only NOTIFY brings the events (a write saved before the listener
    # connects is found by the look every (re)connection makes).
    settings = {"sse_heartbeat": "5", "sse_poll_interval": NO_POLL}
    with serve(db_url, **settings) as writer, serve(db_url, **settings) as streamer:
        tid, auth = create(writer, 4)
        reader = Reader(f"{streamer}/v1/tournaments/{tid}/events?timeout=120")
        reader.connect()
        reader.wait_for(1)  # the replay: tournament.created
        matches = generate(writer, tid, auth)
        put_result(writer, tid, auth, matches[0], home=2)
        reader.wait_for(3)
        reader.close()
    assert [e["type"] for e in reader.events[:3]] == [
        "tournament.created",
        "round.generated",
        "result.recorded",
    ]


def test_a_write_wakes_the_streams_of_its_own_process_at_once(db_url: str) -> None:
    # No poll within the test, and (on SQLite) no NOTIFY: only the wake-up that follows the
    # commit in the writing process brings the events.
    with serve(db_url, sse_heartbeat="5", sse_poll_interval=NO_POLL) as base:
        tid, auth = create(base, 4)
        reader = Reader(f"{base}/v1/tournaments/{tid}/events?timeout=120")
        reader.connect()
        reader.wait_for(1)  # the replay: tournament.created
        matches = generate(base, tid, auth)
        put_result(base, tid, auth, matches[0], home=2)
        reader.wait_for(3)
        reader.close()
    assert [e["type"] for e in reader.events[:3]] == [
        "tournament.created",
        "round.generated",
        "result.recorded",
    ]
