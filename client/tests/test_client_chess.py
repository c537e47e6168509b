"""A chess tournament through the client: titles and FIDE ids, the initial colour, requested
byes asked for and taken back (and their events), White and Black on the boards."""

from __future__ import annotations

import pytest

from svizzera_client import AsyncClient, Client, NotFound, PlayerCreate, TournamentCreate
from svizzera_client.cli.render import event_line
from svizzera_client.events import ByeCancelledEvent, ByeRequestedEvent, RoundGeneratedEvent


def test_a_dutch_round_with_a_requested_bye(client: Client) -> None:
    players = [
        PlayerCreate(name="Anand", rating=2750, title="GM", fide_id=5000017),
        PlayerCreate(name="Polgar", rating=2675, title="GM"),
        PlayerCreate(name="Club player", rating=1800),
        PlayerCreate(name="Newcomer"),
        PlayerCreate(name="Junior", rating=2100, title="CM"),
    ]
    created = client.create_tournament(
        TournamentCreate(
            name="Chess club", players=players, pairing="dutch", initial_colour="white", seed=3
        )
    )
    assert created.points.draw == 0.5 and created.initial_colour == "white"
    assert created.allowed_byes == ["half_point", "zero_point"]
    anand = next(p for p in created.players if p.name == "Anand")
    assert (anand.start_number, anand.title, anand.fide_id) == (1, "GM", 5000017)
    newcomer = next(p for p in created.players if p.name == "Newcomer")

    asked = client.request_bye(created.id, newcomer.id, 1, "zero_point")
    assert [(b.round, b.kind) for b in asked.requested_byes] == [(1, "zero_point")]
    with pytest.raises(NotFound) as past:
        client.request_bye(created.id, newcomer.id, 99)
    assert past.value.code == "round_not_found"

    round_ = client.generate_round(created.id)
    assert newcomer.id not in {p for m in round_.matches for p in (m.home, m.away)}
    assert round_.byes == []  # four players left: no PAB
    board1 = round_.matches[0]
    assert (board1.white, board1.black) == (board1.home, board1.away)
    assert board1.white == anand.id and board1.colour_rule == "fide"

    client.request_bye(created.id, newcomer.id, 2)
    taken_back = client.cancel_bye(created.id, newcomer.id, 2)
    assert [b.round for b in taken_back.requested_byes] == [1]

    followed = []
    for event in client.events(created.id, timeout=60):  # ends at the fifth, as they arrive
        followed.append(event)
        if len(followed) == 5:
            break
    assert [type(e) for e in followed[1:]] == [
        ByeRequestedEvent,
        RoundGeneratedEvent,
        ByeRequestedEvent,
        ByeCancelledEvent,
    ]
    cancelled = followed[-1]
    assert isinstance(cancelled, ByeCancelledEvent)
    assert (cancelled.data.round, cancelled.data.kind) == (2, "half_point")
    assert cancelled.data.player.model_dump() == taken_back.model_dump()
    assert (
        event_line(followed[1], {}) == "#2 bye.requested: Newcomer skips round 1 (zero_point bye)"
    )
    assert event_line(cancelled, {}) == "#5 bye.cancelled: Newcomer plays round 2 again"


@pytest.mark.anyio
async def test_the_async_client_asks_for_a_bye(client: Client) -> None:
    created = client.create_tournament(
        TournamentCreate(
            name="Async club",
            players=[PlayerCreate(name=n) for n in ("A", "B", "C", "D")],
            pairing="dutch",
        )
    )
    async with AsyncClient(client.server) as other:
        other.tokens[created.id] = client.tokens[created.id]
        asked = await other.request_bye(created.id, 2, 1, "half_point")
        assert asked.requested_byes[0].kind == "half_point"
        cancelled = await other.cancel_bye(created.id, 2, 1)
        assert cancelled.requested_byes == []
