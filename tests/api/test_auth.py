"""The organizer token: required for writes, hashed at rest; the optional create key."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from app.main import create_app
from app.settings import Settings
from tests.api.helpers import assert_problem, create
from tests.client import ApiClient

WRITES = [
    ("POST", "/rounds", None),
    ("POST", "/players", {"name": "Late"}),
    ("PATCH", "", {"name": "x"}),
    ("DELETE", "", None),
    ("PUT", "/matches/1/result", {"home": 1, "away": 0}),
    ("DELETE", "/matches/1/result", None),
    ("POST", "/final-phase", None),
    ("PATCH", "/players/1", {"name": "y"}),
    ("DELETE", "/players/1", None),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_every_write_needs_the_token(
    client: ApiClient, method: str, path: str, body: dict[str, object] | None
) -> None:
    t = create(client, 4)
    url = f"/v1/tournaments/{t.id}{path}"
    missing = client.request(method, url, json=body)
    assert_problem(missing, 401, "unauthorized")
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = client.request(method, url, json=body, headers={"Authorization": "Bearer nope"})
    assert_problem(wrong, 403, "forbidden")
    other = create(client, 4)
    assert_problem(client.request(method, url, json=body, headers=other.auth), 403, "forbidden")
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == 1


def test_token_is_stored_only_as_its_hash(client: ApiClient, db_url: str) -> None:
    t = create(client, 4)
    engine = create_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT token_hash FROM tournament WHERE id = :id"), {"id": t.id}
        ).scalar_one()
    engine.dispose()
    assert stored == hashlib.sha256(t.token.encode()).hexdigest()
    assert t.token not in stored


@pytest.fixture
def guarded_client(db_url: str) -> Iterator[ApiClient]:
    app = create_app(Settings(database_url=db_url, create_key="club-secret"))
    with ApiClient(app) as client:
        yield client
    app.state.engine.dispose()


def test_create_key_guards_creation_when_set(guarded_client: ApiClient) -> None:
    body = {"name": "x", "players": [{"name": "A"}, {"name": "B"}]}
    assert_problem(guarded_client.post("/v1/tournaments", json=body), 401, "unauthorized")
    wrong = guarded_client.post(
        "/v1/tournaments", json=body, headers={"Authorization": "Bearer guess"}
    )
    assert_problem(wrong, 403, "forbidden")
    ok = guarded_client.post(
        "/v1/tournaments", json=body, headers={"Authorization": "Bearer club-secret"}
    )
    assert ok.status_code == 201
    assert ok.json()["organizer_token"] != "club-secret"
