"""Quotas of a public deployment: tournaments created per address and minute, webhook endpoints
per tournament, event streams per worker. Each refusal is a 429 problem with ``Retry-After``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.services import quotas, storage
from app.settings import Settings
from tests.api.helpers import assert_problem, create
from tests.client import ApiClient
from tests.server import serve

WAIT = 60.0
"""Generous limit for what a test waits for."""
BODY = {"name": "Quota", "players": [{"name": "A"}, {"name": "B"}]}


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(
        database_url=db_url,
        create_rate=3,
        webhooks_per_tournament=2,
        webhook_allow_private=True,
        webhook_worker=False,
    )


class Clock:
    """``storage.now`` stopped at a moment the test chooses (the minute of the create quota)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.at = datetime(2026, 12, 1, 12, 0, 10, tzinfo=UTC)
        monkeypatch.setattr(storage, "now", lambda: self.at)


def creation_rows(app: FastAPI) -> int:
    with Session(app.state.engine) as session:
        return session.execute(select(func.count()).select_from(quotas.C)).scalar_one()


def test_an_address_creates_at_most_the_quota_a_minute(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    made = [client.post("/v1/tournaments", json=BODY) for _ in range(3)]
    refused = client.post("/v1/tournaments", json=BODY)
    assert [r.status_code for r in made] == [201, 201, 201]
    body = assert_problem(refused, 429, "too_many_requests")
    assert refused.headers["retry-after"] == "50"  # the minute ends 50 s after 12:00:10
    assert "3 tournaments a minute" in body["detail"]
    assert len(client.get("/v1/tournaments").json()["items"]) == 3

    with ApiClient(app, client_address="192.0.2.7") as elsewhere:  # another address
        assert elsewhere.post("/v1/tournaments", json=BODY).status_code == 201

    clock.at = clock.at.replace(minute=1)  # the next minute: the count starts again
    assert client.post("/v1/tournaments", json=BODY).status_code == 201
    assert creation_rows(app) == 1  # the past minute's counts are gone
    with Session(app.state.engine) as session:
        stored = session.execute(select(quotas.C.c.client)).scalars().all()
    assert stored == [quotas.client_key("127.0.0.1")]  # a hash, not the address


def test_a_refused_creation_counts_as_a_made_one(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refusals cost the server work too (a TRF is read before it is refused): each counts."""
    Clock(monkeypatch)
    duplicate = {"name": "Dup", "players": [{"name": "A"}, {"name": "a"}]}
    assert_problem(client.post("/v1/tournaments", json=duplicate), 422, "repeated_name")
    unnamed = {"players": [{"name": "A"}, {"name": "B"}]}
    assert_problem(client.post("/v1/tournaments", json=unnamed), 422, "validation_error")
    made = [client.post("/v1/tournaments", json=BODY).status_code for _ in range(2)]
    assert made == [201, 429]
    assert len(client.get("/v1/tournaments").json()["items"]) == 1
    with ApiClient(app, client_address="192.0.2.7") as elsewhere:  # another address's count
        assert elsewhere.post("/v1/tournaments", json=BODY).status_code == 201


def test_a_tournament_has_at_most_the_quota_of_webhook_endpoints(client: ApiClient) -> None:
    t = create(client, 4)
    url = f"/v1/tournaments/{t.id}/webhooks"
    hooks = [
        client.post(url, json={"url": f"http://127.0.0.1:9/h{i}"}, headers=t.auth) for i in range(2)
    ]
    refused = client.post(url, json={"url": "http://127.0.0.1:9/h2"}, headers=t.auth)
    assert [h.status_code for h in hooks] == [201, 201]
    assert_problem(refused, 429, "too_many_requests")
    assert int(refused.headers["retry-after"]) > 0
    assert len(client.get(url, headers=t.auth).json()) == 2
    other = create(client, 4)  # the quota is per tournament
    assert (
        client.post(
            f"/v1/tournaments/{other.id}/webhooks",
            json={"url": "http://127.0.0.1:9/o"},
            headers=other.auth,
        ).status_code
        == 201
    )
    client.delete(f"{url}/{hooks[0].json()['id']}", headers=t.auth)
    again = client.post(url, json={"url": "http://127.0.0.1:9/h3"}, headers=t.auth)
    assert again.status_code == 201, again.text


@pytest.fixture
def one_stream_server(db_url: str) -> Iterator[str]:
    with serve(db_url, max_streams="1", sse_heartbeat="0.2") as base:
        yield base


def test_a_worker_keeps_at_most_the_quota_of_streams_open(one_stream_server: str) -> None:
    base = one_stream_server
    created = httpx.post(f"{base}/v1/tournaments", json=BODY, timeout=WAIT).json()
    url = f"{base}/v1/tournaments/{created['id']}/events?timeout=120"
    with httpx.Client(timeout=WAIT) as http:
        with http.stream("GET", url) as first:
            assert first.status_code == 200
            lines = first.iter_lines()  # kept: a dropped iterator closes the connection
            assert next(lines).startswith("retry:")  # the first line: it is subscribed
            refused = http.get(url)
            lines.close()
        assert_problem(refused, 429, "too_many_requests")
        assert refused.headers["retry-after"] == "10"
        # The first stream is closed: its place frees once the server notices.
        deadline = time.monotonic() + WAIT
        while True:
            with http.stream("GET", url) as again:
                if again.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the closed stream's place never freed"
            time.sleep(0.05)


def test_a_club_stream_counts_in_the_same_quota(one_stream_server: str) -> None:
    base = one_stream_server
    created = httpx.post(f"{base}/v1/tournaments", json=BODY, timeout=WAIT).json()
    club = httpx.post(f"{base}/v1/clubs", json={"name": "Circolo"}, timeout=WAIT).json()
    auth = {"Authorization": f"Bearer {club['key']['key']}"}
    club_url = f"{base}/v1/clubs/{club['id']}/events/stream?timeout=120"
    with httpx.Client(timeout=WAIT) as http:
        with http.stream("GET", f"{base}/v1/tournaments/{created['id']}/events") as first:
            assert first.status_code == 200
            lines = first.iter_lines()
            assert next(lines).startswith("retry:")
            refused = http.get(club_url, headers=auth)
            lines.close()
        assert_problem(refused, 429, "too_many_requests")
        assert refused.headers["retry-after"] == "10"
