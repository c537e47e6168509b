"""The rest of the operations, and refusals as exceptions carrying the problem+json."""

from __future__ import annotations

import pytest
from evening import PLAYERS

from svizzera_client import (
    AsyncClient,
    BoardWrite,
    Client,
    Conflict,
    Forbidden,
    HandPairingWrite,
    InvalidRequest,
    NotFound,
    PlayerCreate,
    PlayerUpdate,
    PreconditionFailed,
    ResultEntry,
    ResultsBatch,
    ResultWrite,
    TournamentCreate,
    TournamentUpdate,
    TransportError,
    Unauthorized,
)
from svizzera_client.models import TokenCreate, TournamentCreated


def create(client: Client, name: str, players: list[str] = PLAYERS) -> TournamentCreated:
    body = TournamentCreate(name=name, players=[PlayerCreate(name=n) for n in players], seed=7)
    return client.create_tournament(body)


def test_refusals_raise_the_problem(client: Client) -> None:
    created = create(client, "Refusals")
    with pytest.raises(NotFound) as missing:
        client.get_tournament("no-such-tournament")
    assert (missing.value.status, missing.value.code) == (404, "tournament_not_found")
    assert missing.value.problem["type"].endswith("/tournament_not_found")

    round_ = client.generate_round(created.id)
    with pytest.raises(Conflict) as incomplete:
        client.generate_round(created.id)
    assert (incomplete.value.status, incomplete.value.code) == (409, "round_incomplete")
    assert "without result" in incomplete.value.detail

    with pytest.raises(InvalidRequest) as invalid:
        client.record_result(created.id, round_.matches[0].id, ResultWrite(home=1000, away=0))
    assert invalid.value.code == "validation_error" and invalid.value.errors

    with Client(client.server) as stranger:
        with pytest.raises(Unauthorized) as anonymous:
            stranger.generate_round(created.id)
        assert anonymous.value.code == "unauthorized"
        stranger.tokens[created.id] = "not-the-token"
        with pytest.raises(Forbidden) as wrong:
            stranger.record_result(created.id, round_.matches[0].id, ResultWrite(home=1, away=0))
        assert wrong.value.code == "forbidden"
    # none of the refusals changed anything
    assert client.get_tournament(created.id).etag == round_.etag


def test_if_match_refuses_a_stale_write(client: Client) -> None:
    created = create(client, "If-Match")
    round_ = client.generate_round(created.id)
    first, second = round_.matches[:2]
    assert round_.etag is not None
    recorded = client.record_result(
        created.id, first.id, ResultWrite(home=2, away=0), if_match=round_.etag
    )
    assert recorded.etag != round_.etag
    with pytest.raises(PreconditionFailed) as stale:
        client.record_result(
            created.id, second.id, ResultWrite(home=2, away=0), if_match=round_.etag
        )
    assert (stale.value.status, stale.value.code) == (412, "precondition_failed")
    assert client.get_round(created.id, 1).matches[1].result is None
    version = client.get_tournament(created.id).version
    client.record_result(created.id, second.id, ResultWrite(forfeit="away"), if_match=version)
    assert client.get_round(created.id, 1).matches[1].result is not None


def test_players_settings_audit_and_deletion(client: Client) -> None:
    create(client, "An older one", PLAYERS[:4])  # the list's second page, whatever ran before
    created = create(client, "Registration", PLAYERS[:4])
    added = client.add_player(created.id, PlayerCreate(name="Late", rating=1500))
    assert (added.id, added.rating, added.start_number) == (5, 1500, 5)
    client.update_player(created.id, added.id, PlayerUpdate(name="Later"))
    client.delete_player(created.id, 2)
    assert [p.name for p in client.list_players(created.id)] == ["Rossi", "Verdi", "Neri", "Later"]

    updated = client.update_tournament(created.id, TournamentUpdate(name="Renamed", swiss_rounds=2))
    assert (updated.name, updated.format.swiss_rounds) == ("Renamed", 2)
    client.generate_round(created.id)
    withdrawn = client.update_player(created.id, 3, PlayerUpdate(withdrawn=True))
    assert withdrawn.withdrawn

    assert [entry.action for entry in client.list_audit(created.id).items] == [
        "tournaments-create",
        "players-create",
        "players-update",
        "players-delete",
        "tournaments-update",
        "rounds-generate",
        "players-update",
    ]

    page = client.list_tournaments(limit=1)
    assert len(page.items) == 1 and page.next_cursor is not None
    assert page.items[0].id == created.id  # newest first
    assert client.list_tournaments(limit=1, cursor=page.next_cursor).items[0].id != created.id

    client.delete_tournament(created.id)
    with pytest.raises(NotFound):
        client.list_players(created.id)
    assert client.health().database == "ok"


def test_an_unreachable_server_is_a_transport_error() -> None:
    with (
        Client("http://127.0.0.1:9", timeout=5) as nowhere,
        pytest.raises(TransportError) as failed,
    ):
        nowhere.health()
    assert "cannot reach http://127.0.0.1:9" in str(failed.value)


@pytest.mark.parametrize("address", ["localhost:8000", "ftp://localhost", "http://x:port", "/v1"])
def test_an_address_that_is_no_server_url_is_refused_at_once(address: str) -> None:
    with pytest.raises(ValueError, match="is not a server address"):
        Client(address)
    with pytest.raises(ValueError, match="is not a server address"):
        AsyncClient(address)
    with Client("https://svizzera.example/") as fine:
        assert fine.server == "https://svizzera.example"


def test_a_round_undone_then_its_results_in_one_batch(client: Client) -> None:
    players = [PlayerCreate(name=name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    created = client.create_tournament(TournamentCreate(name="Batch", players=players))
    previewed = client.preview_round(created.id)
    assert client.get_tournament(created.id).current_round == 0
    first = client.generate_round(created.id)
    assert first.model_dump() == previewed.model_dump()
    client.undo_round(created.id, first.number)
    assert client.get_tournament(created.id).current_round == 0
    again = client.generate_round(created.id)
    batch = ResultsBatch(
        results=[ResultEntry(match_id=m.id, home=2, away=1) for m in again.matches]
    )
    recorded = client.record_results(created.id, batch)
    assert [m.id for m in recorded] == [m.id for m in again.matches]
    assert all(m.result is not None and m.result.home == 2 for m in recorded)


def test_a_scorekeeper_token_records_and_the_rotated_organizer_token_takes_over(
    client: Client,
) -> None:
    players = [PlayerCreate(name=name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    created = client.create_tournament(TournamentCreate(name="Tokens", players=players))
    keeper = client.create_token(created.id, TokenCreate(label="Table 1"))
    assert [t.label for t in client.list_tokens(created.id)] == ["Table 1"]
    match = client.generate_round(created.id).matches[0]
    organizer = client.tokens[created.id]
    client.tokens[created.id] = keeper.token
    assert client.record_result(created.id, match.id, ResultWrite(home=1, away=0)).result
    with pytest.raises(Forbidden):
        client.generate_round(created.id)
    client.tokens[created.id] = organizer
    client.revoke_token(created.id, keeper.id)
    rotated = client.rotate_organizer_token(created.id)
    assert client.tokens[created.id] == rotated.organizer_token  # kept by the client
    assert client.list_tokens(created.id)[0].revoked_at is not None
    client.tokens[created.id] = organizer
    with pytest.raises(Forbidden):
        client.list_tokens(created.id)


def test_a_round_explanation_names_each_board_in_the_language_asked(client: Client) -> None:
    created = create(client, "Why")
    paired = client.generate_round(created.id)
    english = client.round_explanation(created.id, 1)
    italian = client.round_explanation(created.id, 1, lang="it")

    assert (english.round, english.system, english.language) == (1, "nearest", "en")
    assert [p.board for p in english.placements if p.board] == [m.board for m in paired.matches]
    assert english.placements[0].steps[0].rule == "nearest.drawn"
    assert italian.language == "it"
    assert italian.placements[0].steps[0].text != english.placements[0].steps[0].text
    with pytest.raises(NotFound):
        client.round_explanation(created.id, 2)


def test_the_standings_csv_comes_without_its_byte_order_mark(client: Client) -> None:
    created = create(client, "CSV", ["Šťastný", "Niccolò", "Rossi", "Neri"])
    matches = client.generate_round(created.id).matches
    for match in matches:
        client.record_result(created.id, match.id, ResultWrite(home=1, away=1))
    plain = client.export_standings(created.id)
    assert plain.startswith("rank,player_id,start_number,name,")  # no "\ufeff" first
    assert "\ufeff" not in plain and "Šťastný" in plain
    # 3-1-0: a 1-1 draw is 1 point, no halves; the flavour shows in separators only
    italian = client.export_standings(created.id, lang="it")
    assert italian.startswith("rank;player_id;start_number;name;")
    assert italian == client.export_standings(created.id, sep="semicolon")
    assert client.export_standings(created.id, sep="comma", lang="cs") == plain
    assert plain.count("\r\n") == italian.count("\r\n") == 1 + 4


def test_a_round_paired_by_hand_and_paired_again(client: Client) -> None:
    players = [PlayerCreate(name=name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    created = client.create_tournament(TournamentCreate(name="By hand", players=players))
    ids = sorted(p.id for p in created.players)
    boards = [BoardWrite(home=ids[0], away=ids[1]), BoardWrite(home=ids[2], away=ids[3])]
    first = client.pair_round_by_hand(created.id, HandPairingWrite(boards=boards))
    assert first.manual and all(m.manual for m in first.matches)
    assert [(m.home, m.away) for m in first.matches] == [(ids[0], ids[1]), (ids[2], ids[3])]
    with pytest.raises(InvalidRequest) as invalid:
        client.replace_pairing(created.id, 1, HandPairingWrite(boards=boards[:1]))
    assert invalid.value.code == "pairing_players_invalid"
    assert invalid.value.problem["missing"] == ids[2:]
    for match in first.matches:
        client.record_result(created.id, match.id, ResultWrite(home=1, away=0))
    again = HandPairingWrite(boards=boards)
    with pytest.raises(Conflict) as refused:
        client.pair_round_by_hand(created.id, again)
    assert refused.value.code == "pairing_rules_broken"
    assert refused.value.problem["refused"] == ["rematch"]
    accepted = again.model_copy(update={"accept": ["rematch"]})
    second = client.pair_round_by_hand(created.id, accepted)
    assert {c.rule for c in second.checks if c.severity == "error"} == {"rematch"}
    assert second.rematches
    swapped = HandPairingWrite(
        boards=[BoardWrite(home=ids[0], away=ids[2]), BoardWrite(home=ids[3], away=ids[1])]
    )
    replaced = client.replace_pairing(created.id, 2, swapped)
    assert replaced.manual and not replaced.rematches and replaced.number == 2
