"""The event outbox: every change writes its events in its own transaction, numbered 1, 2, 3, …
per tournament; each event's data has the documented shape (the REST API's own schemas)."""

from __future__ import annotations

import json
import threading
from typing import Any

import anyio
import pytest
import sqlalchemy
from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.api.event_schemas import ENVELOPES, validate
from app.broadcast import Hub
from app.services import access, events, results
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round, record
from tests.client import ApiClient


def stored(app: FastAPI, tournament_id: str) -> list[dict[str, Any]]:
    with Session(app.state.engine) as session:
        return [events.envelope(e) for e in events.events_after(session, tournament_id, 0, 10_000)]


def types(app: FastAPI, t: Organizer) -> list[str]:
    return [e["type"] for e in stored(app, t.id)]


def result_url(t: Organizer, match_id: int) -> str:
    return f"/v1/tournaments/{t.id}/matches/{match_id}/result"


def test_an_evening_writes_every_event_type_numbered_without_gaps(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 8)
    client.post(f"/v1/tournaments/{t.id}/players", json={"name": "Late"}, headers=t.auth)
    generate(client, t)
    assert client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth).status_code == 204
    first = generate(client, t)
    same = {"boards": [{"home": m["home"], "away": m["away"]} for m in first["matches"]]}
    paired_again = client.put(
        f"/v1/tournaments/{t.id}/rounds/1/pairing",
        json={**same, "byes": first["byes"]},
        headers=t.auth,
    )
    assert paired_again.status_code == 200, paired_again.text  # the same boards: the same matches
    for action in ({"action": "start", "duration": 900}, {"action": "pause"}, {"action": "resume"}):
        clocked = client.post(f"/v1/tournaments/{t.id}/rounds/1/clock", json=action, headers=t.auth)
        assert clocked.status_code == 200, clocked.text
    for m in first["matches"]:
        record(client, t, m["id"], home=2, away=1)
    record(client, t, first["matches"][0]["id"], home=0, away=0)  # a correction
    client.delete(result_url(t, first["matches"][0]["id"]), headers=t.auth)
    record(client, t, first["matches"][0]["id"], home=1, away=0)
    client.patch(f"/v1/tournaments/{t.id}/players/9", json={"withdrawn": True}, headers=t.auth)
    client.patch(f"/v1/tournaments/{t.id}/players/8", json={"name": "Otto"}, headers=t.auth)
    ended = client.post(
        f"/v1/tournaments/{t.id}/rounds/1/clock", json={"action": "end"}, headers=t.auth
    )
    assert ended.status_code == 200, ended.text
    for _ in range(3):
        play_round(client, t)
    semis = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth).json()["matches"]
    for m in semis:
        record(client, t, m["id"], home=2, away=0)
    finals = client.get(f"/v1/tournaments/{t.id}/final-phase").json()["matches"][2:]
    for m in finals:
        record(client, t, m["id"], home=1, away=0)

    envelopes = stored(app, t.id)
    assert [e["id"] for e in envelopes] == list(range(1, len(envelopes) + 1))
    # every type but the byes a player asks for (a chess tournament's: test_bye_events.py),
    # the forbidden pairs (test_forbidden_pairs.py) and players' claims (test_player_results.py)
    assert {e["type"] for e in envelopes} == set(ENVELOPES) - {
        "bye.requested",
        "bye.cancelled",
        "forbidden_pair.added",
        "forbidden_pair.removed",
        "report.claimed",
        "report.confirmed",
        "report.disputed",
    }
    assert [e["type"] for e in envelopes[:5]] == [
        "tournament.created",
        "player.added",
        "round.generated",
        "round.undone",
        "round.generated",
    ]
    assert [e["type"] for e in envelopes[-2:]] == ["result.recorded", "tournament.finished"]
    for envelope in envelopes:
        assert envelope["tournament_id"] == t.id
        validate(envelope)  # the OpenAPI schema of its type describes it


def test_result_events_carry_the_match_and_the_version_not_the_standings(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 8)
    swiss_round = generate(client, t)
    match = swiss_round["matches"][0]
    standings = client.get(f"/v1/tournaments/{t.id}/standings")
    answer = client.put(result_url(t, match["id"]), json={"home": 3, "away": 1}, headers=t.auth)
    recorded = stored(app, t.id)[-1]
    assert recorded["type"] == "result.recorded"
    version = int(answer.headers["ETag"].strip('"'))
    assert recorded["data"] == {"match": answer.json(), "status": "swiss", "version": version}
    # The version tells a client holding the standings whether to read them again: the copy
    # read before is stale, a read at the event's version is current.
    assert standings.headers["ETag"] == f'"{version - 1}"'
    fresh = client.get(
        f"/v1/tournaments/{t.id}/standings", headers={"If-None-Match": standings.headers["ETag"]}
    )
    assert fresh.status_code == 200
    assert fresh.headers["ETag"] == f'"{version}"'
    again = {"If-None-Match": f'"{recorded["data"]["version"]}"'}
    assert client.get(f"/v1/tournaments/{t.id}/standings", headers=again).status_code == 304

    record(client, t, match["id"], home=1, away=3)
    assert stored(app, t.id)[-1]["type"] == "result.corrected"
    client.delete(result_url(t, match["id"]), headers=t.auth)
    cleared = stored(app, t.id)[-1]
    assert cleared["type"] == "result.cleared"
    assert cleared["data"]["match"]["result"] is None
    assert cleared["data"]["version"] == version + 2


def record_round(client: ApiClient, t: Organizer, matches: list[dict[str, Any]]) -> None:
    """Every result of ``matches`` in one request (a home win, a draw or an away win in turn)."""
    results = [
        {"match_id": m["id"], "home": (i + 1) % 3, "away": i % 2} for i, m in enumerate(matches)
    ]
    answer = client.post(
        f"/v1/tournaments/{t.id}/results", json={"results": results}, headers=t.auth
    )
    assert answer.status_code == 200, answer.text


def bulk_event_sizes(client: ApiClient, app: FastAPI, players: int) -> list[int]:
    """The bytes of each event that one request recording every result of round 2 wrote (the
    envelope as the stream and webhooks send it)."""
    t = create(client, players)
    record_round(client, t, generate(client, t)["matches"])  # round 2's results move ranks
    matches = generate(client, t)["matches"]
    before = len(stored(app, t.id))
    record_round(client, t, matches)
    written = stored(app, t.id)[before:]
    assert [e["type"] for e in written] == ["result.recorded"] * len(matches)
    assert [e["data"]["match"]["id"] for e in written] == [m["id"] for m in matches]
    return [len(json.dumps(e, separators=(",", ":")).encode()) for e in written]


def test_result_events_do_not_grow_with_the_field(app: FastAPI, client: ApiClient) -> None:
    """A bulk of N results writes N events of a size that does not depend on the number of
    players: 64 and 1,024 players give events within a few bytes (longer ids) of each other."""
    small = bulk_event_sizes(client, app, 64)
    large = bulk_event_sizes(client, app, 1024)
    assert len(small) == 32
    assert len(large) == 512
    assert max(large) <= EVENT_BYTES
    assert max(large) - max(small) <= 16
    assert sum(large) <= 512 * EVENT_BYTES


EVENT_BYTES = 512
"""A ``result.recorded`` envelope of a Swiss match (ids, result, status, version): ~380 bytes."""


def test_round_and_final_phase_events_have_the_api_shapes(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 8)
    swiss_round = generate(client, t)
    # the round counted, never its boards (they grow with the field: GET …/rounds/1)
    counted = {"number": 1, "manual": False, "rematches": False, "match_count": 4}
    counted |= {"bye_count": 0, "check_count": 0}
    assert stored(app, t.id)[-1]["data"] == {"round": counted, "version": 2}
    assert len(swiss_round["matches"]) == 4
    for m in swiss_round["matches"]:
        record(client, t, m["id"], home=2, away=1)
    for _ in range(3):
        play_round(client, t)
    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    phase = started.json()
    assert stored(app, t.id)[-1] == {**stored(app, t.id)[-1], "type": "final_phase.started"}
    version = 1 + 1 + 4 + 3 * (1 + 4) + 1  # created, 4 rounds of 4 results, the final phase
    assert started.headers["ETag"] == f'"{version}"'
    assert stored(app, t.id)[-1]["data"] == {"final_phase": phase, "version": version}
    # a semifinal result forms the final: the event says which matches were written
    record(client, t, phase["matches"][0]["id"], home=2, away=0)
    record(client, t, phase["matches"][1]["id"], home=2, away=0)
    data = stored(app, t.id)[-1]["data"]
    assert [m["stage"] for m in data["finals_written"]] == ["final", "third_place"]
    assert data["finals_removed"] == []
    final_phase = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    for m in final_phase["matches"][2:]:
        record(client, t, m["id"], home=1, away=0)
    finished = stored(app, t.id)[-1]
    assert finished["type"] == "tournament.finished"
    read = client.get(f"/v1/tournaments/{t.id}/final-phase")
    podium = read.json()["final_ranking"][:3]
    assert finished["data"] == {"podium": podium, "version": int(read.headers["ETag"].strip('"'))}


def test_player_and_creation_events(app: FastAPI, client: ApiClient) -> None:
    t = create(client, ["Rossi", "Bianchi", "Verdi", "Neri"])
    created = stored(app, t.id)[0]["data"]
    assert created["tournament"]["id"] == t.id
    assert created["version"] == created["tournament"]["version"] == 1
    # the players counted, not listed (they grow with the field: GET …/players)
    assert set(created) == {"tournament", "version"}
    assert created["tournament"]["player_count"] == 4
    read = client.get(f"/v1/tournaments/{t.id}").json()
    assert created["tournament"] == {**read, "last_event_id": 0, "version": 1}
    added = client.post(f"/v1/tournaments/{t.id}/players", json={"name": "Gialli"}, headers=t.auth)
    assert stored(app, t.id)[-1]["data"] == {"player": added.json(), "version": 2}
    # a rename, a team and a check-in are player.updated (the version moved: readers must know)
    renamed = client.patch(
        f"/v1/tournaments/{t.id}/players/1",
        json={"name": "Rossa", "team": "Ovest", "checked_in": True},
        headers=t.auth,
    )
    assert renamed.json()["name"] == "Rossa" and renamed.json()["checked_in"] is True
    assert stored(app, t.id)[-1]["type"] == "player.updated"
    assert stored(app, t.id)[-1]["data"] == {"player": renamed.json(), "version": 3}
    assert client.get(f"/v1/tournaments/{t.id}").headers["ETag"] == '"3"'
    generate(client, t)
    withdrawn = client.patch(
        f"/v1/tournaments/{t.id}/players/2", json={"withdrawn": True}, headers=t.auth
    )
    assert stored(app, t.id)[-1] == {
        **stored(app, t.id)[-1],
        "type": "player.withdrawn",
        "data": {"player": withdrawn.json(), "version": 5},
    }


def test_a_refused_command_writes_no_event(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 8)
    swiss_round = generate(client, t)
    before = stored(app, t.id)
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth), 409, "round_incomplete"
    )
    assert_problem(
        client.put(result_url(t, 999), json={"home": 1, "away": 0}, headers=t.auth),
        404,
        "match_not_found",
    )
    other = client.put(
        result_url(t, swiss_round["matches"][0]["id"]),
        json={"home": 1, "away": 0},
        headers={"Authorization": "Bearer wrong"},
    )
    assert other.status_code == 403
    assert stored(app, t.id) == before


def test_a_rolled_back_write_leaves_no_event(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 4)
    swiss_round = generate(client, t)
    before = stored(app, t.id)
    with Session(app.state.engine) as session:
        results.record(
            session,
            access.Write(t.id),
            swiss_round["matches"][0]["id"],
            home=1,
            away=0,
            winner=None,
            decided_by=None,
            forfeit=None,
        )
        assert len(events.events_after(session, t.id, 0)) == len(before) + 1
        session.rollback()
    assert stored(app, t.id) == before
    # the next write takes the seq the rolled-back one had: no gap
    record(client, t, swiss_round["matches"][0]["id"], home=1, away=0)
    assert [e["id"] for e in stored(app, t.id)] == list(range(1, len(before) + 2))


def test_seq_counts_per_tournament(app: FastAPI, client: ApiClient) -> None:
    a, b = create(client, 4), create(client, 4)
    generate(client, a)
    generate(client, b)
    client.post(f"/v1/tournaments/{a.id}/players", json={"name": "Late"}, headers=a.auth)
    assert [e["id"] for e in stored(app, a.id)] == [1, 2, 3]
    assert [e["id"] for e in stored(app, b.id)] == [1, 2]


def test_deleting_a_tournament_deletes_its_events(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 4)
    generate(client, t)
    assert client.delete(f"/v1/tournaments/{t.id}", headers=t.auth).status_code == 204
    assert stored(app, t.id) == []


# -- the stream endpoint, in process -----------------------------------------------------------


def test_unknown_tournament_is_a_404_problem(client: ApiClient) -> None:
    assert_problem(client.get("/v1/tournaments/nope/events"), 404, "tournament_not_found")


def test_bad_last_event_id_is_a_422_problem(client: ApiClient) -> None:
    t = create(client, 4)
    response = client.get(f"/v1/tournaments/{t.id}/events", headers={"Last-Event-ID": "x"})
    assert_problem(response, 422, "validation_error")


def test_a_stream_with_a_timeout_ends_after_replaying(client: ApiClient) -> None:
    t = create(client, 4)
    generate(client, t)
    response = client.get(f"/v1/tournaments/{t.id}/events?timeout=0.2")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    ids = [line for line in response.text.splitlines() if line.startswith("id: ")]
    assert ids == ["id: 1", "id: 2"]
    resumed = client.get(
        f"/v1/tournaments/{t.id}/events?timeout=0.2&after=0", headers={"Last-Event-ID": "1"}
    )
    assert [line for line in resumed.text.splitlines() if line.startswith("id: ")] == ["id: 2"]


def test_a_client_that_disconnects_costs_nothing(app: FastAPI, client: ApiClient) -> None:
    """The ASGI app directly: after the client's disconnect the stream returns at once, and no
    subscriber, channel or task is left behind."""
    t = create(client, 4)
    hub: Hub = app.state.event_hub

    async def scenario() -> None:
        disconnect = anyio.Event()
        sent: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": f"/v1/tournaments/{t.id}/events",
            "raw_path": f"/v1/tournaments/{t.id}/events".encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"svizzera.test")],
            "client": ("127.0.0.1", 1),
            "server": ("svizzera.test", 80),
        }

        async def receive() -> dict[str, Any]:
            await disconnect.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)
            if any(b"tournament.created" in m.get("body", b"") for m in sent):
                disconnect.set()

        with anyio.fail_after(5):
            await app(scope, receive, send)
        assert sent[0]["status"] == 200
        assert hub.subscriber_count == 0
        assert hub.channels == {}

    client._portal.call(scenario)  # type: ignore[union-attr]  # the loop the hub runs on


SLOW_READ = 2.0
"""Seconds the read below holds its connection: closing must take that long, not return
while it runs (releasing it from the test would race with the close)."""


def test_closing_the_hub_waits_for_the_read_of_a_dropped_channel(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream goes away while its channel reads (in a worker thread, on a pooled
    connection), then the app stops: the hub's close waits for that read, so the connection
    is back in the pool before the engine is disposed, not handed to a disposed pool and left
    to the garbage collector (a ResourceWarning in whichever test ran next)."""
    t = create(client, 4)
    hub: Hub = app.state.event_hub
    reading, release = threading.Event(), threading.Event()
    last_seqs = events.last_seqs

    def slow_last_seqs(session: Session, ids: list[str]) -> dict[str, int]:
        seqs = last_seqs(session, ids)  # the session now holds a connection
        reading.set()
        release.wait(SLOW_READ)  # a read that takes SLOW_READ seconds, unless released
        return seqs

    monkeypatch.setattr(events, "last_seqs", slow_last_seqs)

    async def scenario() -> int:
        subscriber = hub.subscribe(t.id)  # its channel starts by reading the last seq
        assert await anyio.to_thread.run_sync(reading.wait, 30)
        hub.unsubscribe(subscriber)  # drops the channel while that read runs
        assert hub.channels == {}
        await hub.close()
        checked_out: int = app.state.engine.pool.checkedout()
        return checked_out

    try:
        checked_out = client._portal.call(scenario)  # type: ignore[union-attr]
    finally:
        release.set()
    assert checked_out == 0


def test_openapi_documents_the_stream_and_every_event_body(client: ApiClient) -> None:
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    stream = document["paths"]["/v1/tournaments/{tournament_id}/events"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert "404" in stream["responses"]
    for type_ in ENVELOPES:
        body = document["webhooks"][type_]["post"]["requestBody"]["content"]["application/json"]
        name = body["schema"]["$ref"].rsplit("/", 1)[1]
        schema = document["components"]["schemas"][name]
        assert schema["properties"]["type"]["const"] == type_
        assert set(schema["required"]) >= {"id", "tournament_id", "type", "created_at", "data"}


def test_a_read_tells_where_the_stream_resumes(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 4)
    assert t.body["last_event_id"] == 1  # its own tournament.created
    created = stored(app, t.id)[0]
    assert created["data"]["tournament"]["last_event_id"] == 0  # read before it was stored
    play_round(client, t)  # round.generated and two result.recorded
    read = client.get(f"/v1/tournaments/{t.id}").json()
    assert read["last_event_id"] == 4 == stored(app, t.id)[-1]["id"]
    listed = client.get("/v1/tournaments").json()["items"]
    assert next(item for item in listed if item["id"] == t.id)["last_event_id"] == 4
    generate(client, t)
    after = read["last_event_id"]
    stream = client.get(f"/v1/tournaments/{t.id}/events?timeout=0.2&after={after}")
    ids = [line for line in stream.text.splitlines() if line.startswith("id: ")]
    assert ids == ["id: 5"]  # exactly what followed the read


def statements_of_a_bulk(app: FastAPI, client: ApiClient, players: int) -> int:
    """SQL statements run by one request recording every result of round 1."""
    t = create(client, players)
    matches = generate(client, t)["matches"]
    run: list[str] = []

    def count(*args: Any) -> None:
        run.append(args[2])

    sqlalchemy.event.listen(app.state.engine, "before_cursor_execute", count)
    try:
        record_round(client, t, matches)
    finally:
        sqlalchemy.event.remove(app.state.engine, "before_cursor_execute", count)
    assert len(stored(app, t.id)) == 2 + len(matches)
    return len(run)


def test_a_bulk_request_stores_its_events_in_a_few_statements(
    app: FastAPI, client: ApiClient
) -> None:
    """A bulk of 32 results runs as many statements as a bulk of 4: the events are inserted
    in one statement, after one query for the next ``seq``, not two statements each."""
    assert statements_of_a_bulk(app, client, 64) == statements_of_a_bulk(app, client, 8)
