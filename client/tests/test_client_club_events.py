"""A club's events from the client: its webhooks (a real signed delivery, read with
``read_club_delivery``) and its live stream (``club_events``, sync and async)."""

from __future__ import annotations

import queue
import time

import pytest
from test_client_webhooks import WAIT, Delivery, receiver  # noqa: F401 - the fixture

from svizzera_client import (
    AsyncClient,
    Client,
    ClubWebhookCreate,
    SignatureError,
    read_club_delivery,
    read_delivery,
)
from svizzera_client.errors import Forbidden
from svizzera_client.events import ClubEventEnvelope, RatingUpdatedEvent, SeasonUpdatedEvent
from svizzera_client.models import (
    ClubCreate,
    ClubDeliveryRead,
    ClubTournamentCreate,
    PlayerCreate,
    ResultWrite,
    SeasonCreate,
)


def finished_evening(client: Client, club_id: str, *, season_id: int | None = None) -> str:
    """Two players, one round, no final phase: finished (and rated) by its one result."""
    players = [PlayerCreate(name=n) for n in ("Rossi", "Bianchi")]
    body = ClubTournamentCreate(
        name="Evening",
        players=list(players),
        seed=7,
        swiss_rounds=1,
        final_phase="none",
        season_id=season_id,
    )
    made = client.create_club_tournament(club_id, body)
    match = client.generate_round(made.id).matches[0]
    client.record_result(made.id, match.id, ResultWrite(home=1, away=0))
    return made.id


def delivered(client: Client, club_id: str, webhook_id: int, count: int) -> list[ClubDeliveryRead]:
    """The delivered entries of the log, waiting (up to ``WAIT``) until there are ``count``."""
    deadline = time.monotonic() + WAIT
    while True:
        found = client.list_club_deliveries(club_id, webhook_id, status="delivered").items
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, "the deliveries were never marked delivered"
        time.sleep(0.05)


def test_a_club_webhook_delivers_its_events_signed(
    client: Client,
    receiver: tuple[str, queue.Queue[Delivery]],  # noqa: F811
) -> None:
    url, arrived = receiver
    club = client.create_club(ClubCreate(name="Hooked"))
    season = client.create_season(club.id, SeasonCreate(name="Winter", scoring="points"))
    hook = client.create_club_webhook(club.id, ClubWebhookCreate(url=url, description="board"))
    assert hook.secret.startswith("whsec_") and hook.events == []
    assert [h.id for h in client.list_club_webhooks(club.id)] == [hook.id]
    assert client.get_club_webhook(club.id, hook.id).description == "board"

    tid = finished_evening(client, club.id, season_id=season.id)
    deliveries = [arrived.get(timeout=WAIT) for _ in range(2)]
    events = [
        read_club_delivery(hook.secret, d.headers["svizzera-signature"], d.body) for d in deliveries
    ]
    assert sorted(e.id for e in events) == [1, 2]
    by_type = {type(e): e for e in events}
    rated, season_event = by_type[RatingUpdatedEvent], by_type[SeasonUpdatedEvent]
    assert isinstance(rated, RatingUpdatedEvent) and isinstance(season_event, SeasonUpdatedEvent)
    assert (rated.data.reason, rated.data.tournament_id, rated.data.players) == (
        "tournament",
        tid,
        2,
    )
    assert (season_event.data.season_id, season_event.data.tournament_id) == (season.id, tid)
    assert season_event.data.reason == "tournament"
    for delivery, event in zip(deliveries, events, strict=True):
        assert delivery.headers["svizzera-event-id"] == f"club:{club.id}:{event.id}"
        with pytest.raises(SignatureError):
            read_club_delivery("whsec_other", delivery.headers["svizzera-signature"], delivery.body)
        with pytest.raises(ValueError):  # a club's body is not a tournament's envelope
            read_delivery(hook.secret, delivery.headers["svizzera-signature"], delivery.body)

    logged = delivered(client, club.id, hook.id, 2)
    again = client.redeliver_club_delivery(club.id, hook.id, logged[0].id)
    assert again.id == logged[0].id
    resent = arrived.get(timeout=WAIT)
    assert resent.headers["svizzera-delivery-id"] == str(logged[0].id)
    client.delete_club_webhook(club.id, hook.id)
    assert client.list_club_webhooks(club.id) == []


def test_another_clubs_key_cannot_hook_or_follow_the_club(client: Client) -> None:
    ours = client.create_club(ClubCreate(name="Ours"))
    theirs = client.create_club(ClubCreate(name="Theirs"))
    client.club_keys[theirs.id] = client.club_keys[ours.id]
    with pytest.raises(Forbidden):
        client.list_club_webhooks(theirs.id)
    with pytest.raises(Forbidden):
        next(iter(client.club_events(theirs.id, timeout=1)))


def test_the_club_stream_from_the_sync_and_async_clients(client: Client) -> None:
    club = client.create_club(ClubCreate(name="Streamed"))
    first = finished_evening(client, club.id)
    second = finished_evening(client, club.id)
    events = list(client.club_events(club.id, timeout=1))
    assert [(e.id, e.type) for e in events] == [(1, "rating.updated"), (2, "rating.updated")]
    assert [e.data.tournament_id for e in events if isinstance(e, RatingUpdatedEvent)] == [
        first,
        second,
    ]
    resumed = list(client.club_events(club.id, after=1, timeout=1))
    assert [e.id for e in resumed] == [2]
    assert all(isinstance(e, ClubEventEnvelope) for e in resumed)


@pytest.mark.anyio
async def test_the_async_club_stream_resumes_after(client: Client) -> None:
    club = client.create_club(ClubCreate(name="Async"))
    finished_evening(client, club.id)
    finished_evening(client, club.id)
    async with AsyncClient(client.server, club_keys=client.club_keys) as async_client:
        seen = [e.id async for e in async_client.club_events(club.id, after=1, timeout=1)]
    assert seen == [2]
