"""Every refusal is application/problem+json with a stable code, and changes nothing."""

from __future__ import annotations

import asyncio

import httpx

from app.main import create_app
from app.settings import Settings
from tests.api.helpers import assert_problem, create, generate, record
from tests.client import ApiClient


def test_unknown_route_is_a_problem(client: ApiClient) -> None:
    assert_problem(client.get("/v1/nothing-here"), 404, "not_found")


def test_unknown_tournament(client: ApiClient) -> None:
    assert_problem(client.get("/v1/tournaments/nope/standings"), 404, "tournament_not_found")


def test_unknown_match_and_player_and_round(client: ApiClient) -> None:
    t = create(client, 4)
    generate(client, t)
    assert_problem(
        client.put(
            f"/v1/tournaments/{t.id}/matches/99/result", json={"home": 1, "away": 0}, headers=t.auth
        ),
        404,
        "match_not_found",
    )
    assert_problem(
        client.patch(f"/v1/tournaments/{t.id}/players/99", json={"name": "x"}, headers=t.auth),
        404,
        "player_not_found",
    )
    assert_problem(client.get(f"/v1/tournaments/{t.id}/rounds/2"), 404, "round_not_found")


def test_body_that_does_not_validate(client: ApiClient) -> None:
    body = assert_problem(
        client.post("/v1/tournaments", json={"name": "", "players": [{"name": "A"}]}),
        422,
        "validation_error",
    )
    assert {tuple(e["loc"]) for e in body["errors"]} == {("body", "name"), ("body", "players")}
    assert_problem(
        client.post(
            "/v1/tournaments", content=b"{not json", headers={"content-type": "application/json"}
        ),
        422,
        "validation_error",
    )
    t = create(client, 4)
    generate(client, t)
    for bad in ({"home": 1000, "away": 0}, {"home": 1}, {"home": 1, "away": 0, "extra": 1}):
        assert_problem(
            client.put(f"/v1/tournaments/{t.id}/matches/1/result", json=bad, headers=t.auth),
            422,
            "validation_error",
        )


def test_too_many_players(client: ApiClient) -> None:
    players = [{"name": f"P{i}"} for i in range(4097)]
    response = client.post("/v1/tournaments", json={"name": "Huge", "players": players})
    assert_problem(response, 422, "too_many_players")


def test_a_body_that_cannot_be_valid_is_a_422(client: ApiClient) -> None:
    """``api.md``: 422 for a body that does not validate, whatever the state."""

    def created(players: int | list[str], **settings: object) -> httpx.Response:
        names = players if isinstance(players, list) else [f"P{i}" for i in range(players)]
        body = {"name": "x", "players": [{"name": n} for n in names], **settings}
        return client.post("/v1/tournaments", json=body)

    assert_problem(created(["Rossi", " rossi "]), 422, "repeated_name")
    groups = {"groups": {"assignment": "seeded"}}
    assert_problem(created(3, **groups), 422, "invalid_settings")  # 2 in each group
    assert_problem(created(3, final_phase="final"), 422, "invalid_settings")  # no final with 3
    # 13 players: groups of 7 and 6, and 6 players allow at most 5 rounds
    assert_problem(created(13, swiss_rounds=7, **groups), 422, "invalid_settings")
    assert created(13, swiss_rounds=5, **groups).status_code == 201
    assert client.get("/v1/tournaments").json()["items"][0]["format"]["swiss_rounds"] == 5


def test_a_state_that_forbids_the_command_is_a_409(client: ApiClient) -> None:
    t = create(client, 4, groups={"assignment": "seeded"})
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/players", json={"name": "PLAYER 01"}, headers=t.auth),
        409,
        "duplicate_name",
    )
    # 3 players cannot fill two groups: this tournament's players refuse the deletion
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/players/1", headers=t.auth), 409, "too_few_players"
    )
    assert len(client.get(f"/v1/tournaments/{t.id}/players").json()) == 4


def test_round_incomplete_changes_nothing(client: ApiClient) -> None:
    t = create(client, 6)
    generate(client, t)
    before = client.get(f"/v1/tournaments/{t.id}/rounds")
    refused = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)
    body = assert_problem(refused, 409, "round_incomplete")
    assert "round 1" in body["detail"]
    after = client.get(f"/v1/tournaments/{t.id}/rounds")
    assert after.json() == before.json()
    assert after.headers["etag"] == before.headers["etag"] == '"2"'
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    assert [e["action"] for e in audit] == ["tournaments-create", "rounds-generate"]


def test_a_refused_command_leaves_earlier_changes_of_the_request_undone(client: ApiClient) -> None:
    # rename succeeds in the domain, then the withdrawal is refused: neither is kept
    t = create(client, 4)
    response = client.patch(
        f"/v1/tournaments/{t.id}/players/1",
        json={"name": "Renamed", "withdrawn": True},
        headers=t.auth,
    )
    assert_problem(response, 409, "wrong_status")
    names = [p["name"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()]
    assert "Renamed" not in names


def test_final_phase_before_any_round(client: ApiClient) -> None:
    t = create(client, 8)
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth), 409, "wrong_status"
    )
    record_url = f"/v1/tournaments/{t.id}/matches/1/result"
    assert_problem(
        client.put(record_url, json={"home": 1, "away": 0}, headers=t.auth), 404, "match_not_found"
    )


def test_body_too_large(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url, max_body_bytes=200))
    with ApiClient(app) as small:
        players = [{"name": f"Player {i}"} for i in range(20)]
        response = small.post("/v1/tournaments", json={"name": "x", "players": players})
        assert_problem(response, 413, "payload_too_large")
    app.state.engine.dispose()


def test_openapi_names_operations_and_lists_errors(client: ApiClient) -> None:
    document = client.get("/openapi.json").json()
    operations = {
        op["operationId"]: op for path in document["paths"].values() for op in path.values()
    }
    assert {"tournaments-create", "rounds-generate", "results-record", "standings-read"} <= set(
        operations
    )
    record_op = operations["results-record"]
    assert {"401", "403", "404", "409", "412", "422"} <= set(record_op["responses"])
    assert "application/problem+json" in record_op["responses"]["409"]["content"]
    assert "Problem" in document["components"]["schemas"]
    assert document["components"]["schemas"]["ResultWrite"]["examples"]
    _ = record


def test_an_unexpected_error_is_a_500_problem(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url))

    def boom() -> None:
        raise RuntimeError("bug")

    app.add_api_route("/boom", boom)

    async def call() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.get("/boom")

    response = asyncio.run(call())
    app.state.engine.dispose()
    assert_problem(response, 500, "internal_error")
    assert "bug" not in response.text
