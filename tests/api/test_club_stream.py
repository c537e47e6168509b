"""A club's live event stream (``GET /v1/clubs/{id}/events/stream``): the tournament stream's
code over the club's outbox. Against the real server: every event once, in ``seq`` order,
across a disconnect and a ``Last-Event-ID`` resume; woken by the writing process (and on
PostgreSQL by ``NOTIFY`` across processes), never by a poll. In process: the club key only."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from app import broadcast
from app.services import club_events
from tests.api.clubs import Club, new_club
from tests.api.helpers import assert_problem, create
from tests.api.ratings import evening, win
from tests.api.test_sse import NO_POLL, WAIT, Reader
from tests.client import ApiClient
from tests.server import serve

FOUR = [{"name": n} for n in ("Rossi", "Bianchi", "Verdi", "Neri")]


def play(http: httpx.Client, club: Club) -> None:
    """A finished evening of the club: its events are a `rating.updated` (and none other
    without a season)."""
    evening(http, club, FOUR, lambda _h, _a: win(1, 0))  # type: ignore[arg-type]


def polled(http: httpx.Client, club: Club) -> list[dict[str, Any]]:
    found = http.get(f"/v1/clubs/{club.id}/events", headers=club.auth)
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["items"]
    return items


def test_the_club_stream_sends_every_event_once_in_order_and_resumes(db_url: str) -> None:
    # No poll within the test: live events come by the writing process's wake-up.
    with (
        serve(db_url, sse_heartbeat="0.3", sse_poll_interval=NO_POLL) as base,
        httpx.Client(base_url=base, timeout=WAIT) as http,
    ):
        club = new_club(http)  # type: ignore[arg-type]
        play(http, club)  # event 1, saved before anyone listens: the replay
        url = f"{base}/v1/clubs/{club.id}/events/stream?timeout=120"
        first = Reader(url, headers=club.auth, stop_after=2)
        first.connect()
        first.wait_for(1)
        play(http, club)  # event 2, live; the reader leaves after it
        first.join(WAIT)
        assert not first.is_alive() and first.error is None, first.error
        play(http, club)  # event 3, while nobody listens
        second = Reader(url, headers=club.auth, last_event_id=first.events[-1]["id"])
        second.connect()
        second.wait_for(1)
        play(http, club)  # event 4, live on the resumed stream
        second.wait_for(2, heartbeats=second.heartbeats + 2)  # then nothing more: no duplicate
        second.close()
        stored = polled(http, club)
    events = first.events + second.events
    assert [e["id"] for e in events] == [1, 2, 3, 4]
    assert [e["id"] for e in second.events] == [3, 4]
    assert {e["type"] for e in events} == {"rating.updated"}
    assert all(e["club_id"] == club.id for e in events)
    assert [(e["id"], e["data"]) for e in events] == [(e["id"], e["data"]) for e in stored]


@pytest.mark.postgres
def test_a_club_event_saved_through_one_process_reaches_a_stream_of_the_other(
    db_url: str,
) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("LISTEN/NOTIFY across processes is the PostgreSQL design")
    settings = {"sse_heartbeat": "5", "sse_poll_interval": NO_POLL}
    with (
        serve(db_url, **settings) as writer,
        serve(db_url, **settings) as streamer,
        httpx.Client(base_url=writer, timeout=WAIT) as http,
    ):
        club = new_club(http)  # type: ignore[arg-type]
        reader = Reader(f"{streamer}/v1/clubs/{club.id}/events/stream", headers=club.auth)
        reader.connect()
        play(http, club)
        reader.wait_for(1)
        reader.close()
    assert [(e["id"], e["type"]) for e in reader.events] == [(1, "rating.updated")]


def test_the_stream_needs_the_club_s_key(client: ApiClient) -> None:
    club, other = new_club(client), new_club(client, "Other")
    t = create(client, 4)
    url = f"/v1/clubs/{club.id}/events/stream?timeout=0.2"
    assert_problem(client.get(url), 401, "unauthorized")
    for foreign in (t.auth, other.auth):
        assert_problem(client.get(url, headers=foreign), 403, "forbidden")
    assert_problem(
        client.get("/v1/clubs/nope/events/stream", headers=club.auth), 404, "club_not_found"
    )
    bad = client.get(url, headers={**club.auth, "Last-Event-ID": "x"})
    assert_problem(bad, 422, "validation_error")
    opened = client.get(url, headers=club.auth)
    assert opened.status_code == 200
    assert opened.headers["content-type"].startswith("text/event-stream")
    assert opened.text.startswith(f"retry: 2000\n: events of club {club.id}\n")


def test_the_hub_reads_both_outboxes_by_topic(app: FastAPI, client: ApiClient) -> None:
    """What the channels and the poll read (``app.broadcast``): a tournament's events by its
    id, a club's by ``club:<id>``, the latest seq of each watched topic in one call."""
    club = new_club(client)
    evening(client, club, FOUR, lambda _h, _a: win(1, 0))
    t = create(client, 4)
    topics = [t.id, club_events.topic(club.id), club_events.topic("nope"), "nope"]
    with Session(app.state.engine) as session:
        seqs = broadcast.last_seqs(session, topics)
        ours = broadcast.events_after(session, club_events.topic(club.id), 0)
        theirs = broadcast.events_after(session, t.id, 0)
    assert seqs == {t.id: 1, f"club:{club.id}": 1}
    assert [(e.seq, e.type) for e in ours] == [(1, "rating.updated")]
    assert [(e.seq, e.type) for e in theirs] == [(1, "tournament.created")]
    frame = broadcast.frame(ours[0]).decode()
    assert frame.startswith("id: 1\nevent: rating.updated\ndata: {")
    assert f'"club_id":"{club.id}"' in frame


def test_a_revoked_key_s_open_stream_ends_within_a_heartbeat(db_url: str) -> None:
    """A key revoked because it leaked stops what is already open too, not only the next
    connection: the stream asks again once a heartbeat (0.3 s here) and ends; the stream of
    the key that is kept runs on."""
    with (
        serve(db_url, sse_heartbeat="0.3", sse_poll_interval=NO_POLL) as base,
        httpx.Client(base_url=base, timeout=WAIT) as http,
    ):
        club = new_club(http)  # type: ignore[arg-type]
        made = http.post(f"/v1/clubs/{club.id}/keys", json={"label": "Leaked"}, headers=club.auth)
        assert made.status_code == 201, made.text
        leaked = {"Authorization": f"Bearer {made.json()['key']}"}
        url = f"{base}/v1/clubs/{club.id}/events/stream?timeout=3000"
        theirs, ours = Reader(url, headers=leaked), Reader(url, headers=club.auth)
        for reader in (theirs, ours):
            reader.connect()
            reader.wait_for(0, heartbeats=1)
        revoked = http.delete(f"/v1/clubs/{club.id}/keys/{made.json()['id']}", headers=club.auth)
        assert revoked.status_code == 204, revoked.text
        theirs.join(WAIT)
        assert not theirs.is_alive() and theirs.error is None, theirs.error
        play(http, club)
        ours.wait_for(1, heartbeats=ours.heartbeats + 1)
        ours.close()
    assert theirs.events == []
    assert [e["type"] for e in ours.events] == ["rating.updated"]
