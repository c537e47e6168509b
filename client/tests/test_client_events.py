"""The event stream as an iterator: every event once and in order, across a server that dies
mid-stream and comes back (resumed with ``Last-Event-ID``)."""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

import anyio
import httpx
import pytest
from live_server import LiveServer

from svizzera_client import (
    AsyncClient,
    Client,
    PlayerCreate,
    PlayerUpdate,
    ResultWrite,
    TournamentCreate,
)
from svizzera_client.cli.render import event_line
from svizzera_client.events import (
    EventEnvelope,
    PlayerUpdatedEvent,
    PlayerWithdrawnEvent,
    ResultRecordedEvent,
    RoundGeneratedEvent,
    RoundPairedManuallyEvent,
    TournamentCreatedEvent,
    parse_event,
)

WAIT = 60  # seconds: generous, for a busy machine


def play_round(client: Client, tournament_id: str) -> None:
    round_ = client.generate_round(tournament_id)
    for match in round_.matches:
        client.record_result(tournament_id, match.id, ResultWrite(home=1, away=0))


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_the_stream_resumes_after_the_server_dies(tmp_path: Path, kind: str) -> None:
    server = LiveServer.started(tmp_path)
    requests: list[httpx.Request] = []
    received: queue.Queue[EventEnvelope | Exception] = queue.Queue()

    def follow(tournament_id: str) -> None:
        """Read the stream until the sentinel (a withdrawal) comes; hand over each event."""
        try:
            if kind == "sync":
                http = httpx.Client(event_hooks={"request": [requests.append]})
                with http, Client(server.url, http=http) as reader:
                    for event in reader.events(tournament_id, reconnects=30, timeout=5 * WAIT):
                        received.put(event)
                        if isinstance(event, PlayerWithdrawnEvent):
                            return
            else:
                anyio.run(follow_async, tournament_id)
        except Exception as exc:  # the test thread reports it
            received.put(exc)

    async def follow_async(tournament_id: str) -> None:
        async def record(request: httpx.Request) -> None:
            requests.append(request)

        http = httpx.AsyncClient(event_hooks={"request": [record]})
        async with http, AsyncClient(server.url, http=http) as reader:
            async for event in reader.events(tournament_id, reconnects=30, timeout=5 * WAIT):
                received.put(event)
                if isinstance(event, PlayerWithdrawnEvent):
                    return

    def take_until(last_id: int) -> list[EventEnvelope]:
        taken: list[EventEnvelope] = []
        while not taken or taken[-1].id < last_id:
            item = received.get(timeout=WAIT)
            if isinstance(item, Exception):
                raise item
            taken.append(item)
        return taken

    try:
        with Client(server.url) as client:
            players = [PlayerCreate(name=n) for n in ("Anna", "Bruno", "Carla", "Dario")]
            created = client.create_tournament(TournamentCreate(name="Resume", players=players))
            reader = threading.Thread(target=follow, args=(created.id,), daemon=True)
            reader.start()
            play_round(client, created.id)
            before = take_until(client.get_tournament(created.id).last_event_id)

            server.kill()  # the connection drops mid-stream
            server.start()
            play_round(client, created.id)
            client.update_player(created.id, 1, PlayerUpdate(withdrawn=True))
            after = take_until(client.get_tournament(created.id).last_event_id)
            reader.join(timeout=WAIT)
    finally:
        server.stop()

    events = before + after
    assert [e.id for e in events] == list(range(1, len(events) + 1))  # each once, in order
    assert len(events) == 1 + 2 * (1 + 2) + 1  # created, 2 × (round + 2 results), withdrawn
    assert [type(e) for e in after[:3]] == [
        RoundGeneratedEvent,
        ResultRecordedEvent,
        ResultRecordedEvent,
    ]
    assert isinstance(after[-1], PlayerWithdrawnEvent) and after[-1].data.player.id == 1
    # the first connection asked for everything; the one that got through after the restart
    # resumed after the last event it had
    streams = [r for r in requests if r.url.path.endswith("/events")]
    assert "Last-Event-ID" not in streams[0].headers
    assert streams[-1].headers["Last-Event-ID"] == str(before[-1].id)
    assert not reader.is_alive()


def test_after_and_timeout_bound_the_stream(client: Client) -> None:
    players = [PlayerCreate(name=n) for n in ("Anna", "Bruno", "Carla")]
    created = client.create_tournament(TournamentCreate(name="Bounded", players=players))
    play_round(client, created.id)
    ids = [event.id for event in client.events(created.id, after=1, timeout=1)]
    assert ids == [2, 3]  # the round and its one result (the third player has the bye)


def test_a_result_event_says_which_standings_include_it(client: Client) -> None:
    """A result's event carries its match and the version after it, not the standings: the
    client reads those again only when its copy is older than the event."""
    players = [PlayerCreate(name=n) for n in ("Anna", "Bruno", "Carla", "Dario")]
    created = client.create_tournament(TournamentCreate(name="Versions", players=players))
    held = client.get_standings(created.id)
    play_round(client, created.id)  # the round and 2 results: versions 2, 3, 4
    results = [
        e for e in client.events(created.id, timeout=1) if isinstance(e, ResultRecordedEvent)
    ]
    assert [e.data.version for e in results] == [3, 4]
    assert [e.data.match.result.home for e in results if e.data.match.result] == [1, 1]
    assert "standings" not in results[-1].data.model_dump()
    assert held.etag == '"1"'  # older than the events: read again
    assert client.get_standings(created.id).etag == f'"{results[-1].data.version}"'


def test_a_player_update_reads_as_a_line_with_the_check_in() -> None:
    player = {
        "id": 3,
        "name": "Rossa",
        "rating": None,
        "start_number": 3,
        "group": None,
        "withdrawn": False,
        "entered_round": 1,
        "team": "Ovest",
        "checked_in": True,
    }
    raw = {
        "id": 7,
        "tournament_id": "t",
        "type": "player.updated",
        "created_at": "2026-12-02T10:00:00Z",
        "data": {"player": player, "version": 7},
    }
    event = parse_event(json.dumps(raw))
    assert isinstance(event, PlayerUpdatedEvent) and event.data.player.team == "Ovest"
    assert event_line(event, {}) == "#7 player.updated: Rossa (checked in)"


def test_round_and_creation_events_count_what_grows_with_the_field(client: Client) -> None:
    """A round's event counts the round (its boards are a read: ``get_round``); the creation
    event carries the tournament, not its players (``list_players``)."""
    players = [PlayerCreate(name=n) for n in ("Anna", "Bruno", "Carla", "Dario", "Elio")]
    created = client.create_tournament(TournamentCreate(name="Counted", players=players))
    round_ = client.generate_round(created.id)
    first, generated = list(client.events(created.id, timeout=1))
    assert isinstance(first, TournamentCreatedEvent)
    assert first.data.tournament.player_count == 5
    assert isinstance(generated, RoundGeneratedEvent)
    counted = generated.data.round
    assert (counted.number, counted.match_count, counted.bye_count) == (1, 2, 1)
    assert client.get_round(created.id, counted.number).matches == round_.matches
    assert event_line(generated, {}) == "#2 round.generated: round 1, 2 matches"
    assert event_line(first, {}) == "#1 tournament.created: Counted, 5 players"


def test_round_events_stored_before_they_were_counted_still_parse() -> None:
    """Events stored before events counted the round carried the whole round (and the ids of
    the matches a repair removed): the client counts them."""
    match = {"id": 7, "stage": "swiss", "round": 2, "group": None, "board": 1, "home": 1}
    match |= {"away": 2, "white": None, "black": None, "colour_rule": "manual"}
    match |= {"result": None, "manual": True}
    whole = {"number": 2, "matches": [match], "byes": [3], "rematches": False}
    whole |= {"rematch_pairs": [], "paths": [], "complete": False, "manual": True, "checks": []}
    stored = {"id": 9, "tournament_id": "q3Jd0xZ1v7kR", "type": "round.paired_manually"}
    stored |= {"created_at": "2026-12-01T20:14:03+00:00"}
    event = parse_event(json.dumps({**stored, "data": {"round": whole, "removed_matches": [5, 6]}}))
    assert isinstance(event, RoundPairedManuallyEvent)
    assert (event.data.round.match_count, event.data.round.bye_count) == (1, 1)
    assert event.data.removed_match_count == 2 and event.data.version is None
