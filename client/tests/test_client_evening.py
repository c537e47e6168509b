"""A whole 8-player evening through the client, sync and async, against the real server."""

from __future__ import annotations

import csv
import io

import pytest
from evening import PLAYERS, SEED, check_final, check_swiss, result
from live_server import LiveServer

from svizzera_client import AsyncClient, Client, PlayerCreate, ResultWrite, TournamentCreate
from svizzera_client.models import MatchRead


def new_evening(name: str) -> TournamentCreate:
    return TournamentCreate(name=name, players=[PlayerCreate(name=n) for n in PLAYERS], seed=SEED)


def test_an_evening_of_eight_players(client: Client) -> None:
    created = client.create_tournament(new_evening("Client evening"))
    assert created.status == "registration" and created.format.swiss_rounds == 4
    assert [p.name for p in created.players] == PLAYERS
    assert client.tokens == {created.id: created.organizer_token}

    played: list[MatchRead] = []
    for number in range(1, 5):
        round_ = client.generate_round(created.id)
        assert round_.number == number and len(round_.matches) == 4 and not round_.byes
        for match in round_.matches:
            recorded = client.record_result(created.id, match.id, result(number, match.board))
            assert recorded.result is not None
            assert (recorded.result.home, recorded.result.away) == (
                result(number, match.board).home,
                result(number, match.board).away,
            )
            played.append(recorded)
        assert client.get_round(created.id, number).complete
    assert [r.number for r in client.list_rounds(created.id)] == [1, 2, 3, 4]

    standings = client.get_standings(created.id)
    check_swiss(standings, played)

    phase = client.start_final_phase(created.id)
    assert phase.started and [m.stage for m in phase.matches] == ["semifinal", "semifinal"]
    for match in phase.matches:
        client.record_result(created.id, match.id, ResultWrite(home=1, away=1, winner="home"))
    finals = [m for m in client.get_final_phase(created.id).matches if m.stage != "semifinal"]
    assert sorted(m.stage for m in finals) == ["final", "third_place"]
    for match in finals:
        client.record_result(created.id, match.id, ResultWrite(home=3, away=0))
    phase = client.get_final_phase(created.id)
    check_final(phase, standings)
    assert client.get_tournament(created.id).status == "finished"

    page = client.get_print_page(created.id)
    assert "Client evening" in page and all(name in page for name in PLAYERS)
    rows = list(csv.DictReader(io.StringIO(client.export_standings(created.id))))
    assert [row["name"] for row in rows] == [row.name for row in standings.rows]
    live = client.get_live_page(created.id, lang="it", tv=True)
    assert '<html lang="it">' in live and '<body class="tv"' in live
    assert "Classifica finale" in client.get_print_page(created.id, lang="it")
    assert client.get_tournament(created.id).live_page == f"/v1/tournaments/{created.id}/live"


@pytest.mark.anyio
async def test_an_evening_through_the_async_client(server: LiveServer) -> None:
    async with AsyncClient(server.url) as client:
        created = await client.create_tournament(new_evening("Async evening"))
        played: list[MatchRead] = []
        for number in range(1, 5):
            round_ = await client.generate_round(created.id)
            for match in round_.matches:
                body = result(number, match.board)
                played.append(await client.record_result(created.id, match.id, body))
        standings = await client.get_standings(created.id)
        check_swiss(standings, played)
        phase = await client.start_final_phase(created.id)
        for match in phase.matches:
            body = ResultWrite(home=0, away=0, winner="home", decided_by="penalties")
            await client.record_result(created.id, match.id, body)
        for match in (await client.get_final_phase(created.id)).matches[2:]:
            await client.record_result(created.id, match.id, ResultWrite(home=2, away=0))
        phase = await client.get_final_phase(created.id)
        check_final(phase, standings)
        csv_text = await client.export_standings(created.id, lang="sk")
        assert csv_text.startswith("rank;player_id;")  # no byte order mark, Slovak separators
        types = [e.type async for e in client.events(created.id, timeout=2)]
        assert types[:2] == ["tournament.created", "round.generated"]
        assert types[-1] == "tournament.finished"
        assert types.count("result.recorded") == 16 + 4
