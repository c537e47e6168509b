"""CORS: listed origins read and write, ``*`` reads only, no origin by default."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from pydantic import ValidationError

from app.main import create_app
from app.settings import Settings
from tests.api.helpers import assert_problem, create
from tests.client import ApiClient

FRONT_END = "https://scores.example"
OTHER = "https://elsewhere.example"


@contextmanager
def open_to(db_url: str, origins: list[str]) -> Iterator[ApiClient]:
    """A client of an app started with ``SVIZZERA_CORS_ORIGINS`` set to ``origins``."""
    app = create_app(Settings(database_url=db_url, cors_origins=origins))
    try:
        with ApiClient(app) as client:
            yield client
    finally:
        app.state.engine.dispose()


def preflight(client: ApiClient, path: str, method: str, origin: str = FRONT_END) -> httpx.Response:
    return client.request(
        "OPTIONS",
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type, if-match",
        },
    )


def listed(header: str) -> set[str]:
    return {part.strip().lower() for part in header.split(",")}


def test_the_setting_reads_a_comma_separated_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVIZZERA_CORS_ORIGINS", " https://a.example, https://b.example/ ,")
    assert Settings().cors_origins == ["https://a.example", "https://b.example"]
    monkeypatch.setenv("SVIZZERA_CORS_ORIGINS", "")
    assert Settings().cors_origins == []
    monkeypatch.setenv("SVIZZERA_CORS_ORIGINS", "*, https://a.example")
    with pytest.raises(ValidationError, match="cannot be combined"):
        Settings()


def test_no_origin_is_allowed_by_default(client: ApiClient) -> None:
    t = create(client, 4)
    read = client.get(f"/v1/tournaments/{t.id}", headers={"Origin": FRONT_END})
    assert read.status_code == 200
    assert "access-control-allow-origin" not in read.headers
    answer = preflight(client, "/v1/tournaments", "POST")
    assert "access-control-allow-origin" not in answer.headers


def test_a_listed_origin_passes_a_preflight_then_writes_and_reads_the_headers(db_url: str) -> None:
    with open_to(db_url, [FRONT_END]) as client:
        answer = preflight(client, "/v1/tournaments/x/matches/1/result", "PUT")
        assert answer.status_code == 200
        assert answer.headers["access-control-allow-origin"] == FRONT_END
        assert {"get", "head", "post", "put", "patch", "delete"} <= listed(
            answer.headers["access-control-allow-methods"]
        )
        assert {"authorization", "content-type", "if-match", "if-none-match", "last-event-id"} <= (
            listed(answer.headers["access-control-allow-headers"])
        )
        assert answer.headers["access-control-max-age"] == "600"
        assert "access-control-allow-credentials" not in answer.headers

        players = [{"name": n} for n in ("A", "B", "C", "D")]
        created = client.post(
            "/v1/tournaments",
            json={"name": "Cross-origin", "players": players},
            headers={"Origin": FRONT_END},
        )
        assert created.status_code == 201
        assert created.headers["access-control-allow-origin"] == FRONT_END
        exposed = listed(created.headers["access-control-expose-headers"])
        assert {"etag", "location", "retry-after", "last-event-id", "www-authenticate"} <= exposed

        # A refusal is readable by the page too: the problem body carries the CORS headers.
        refused = client.post(
            f"/v1/tournaments/{created.json()['id']}/rounds", headers={"Origin": FRONT_END}
        )
        assert_problem(refused, 401, "unauthorized")
        assert refused.headers["access-control-allow-origin"] == FRONT_END


def test_an_origin_not_listed_is_refused(db_url: str) -> None:
    with open_to(db_url, [FRONT_END]) as client:
        answer = preflight(client, "/v1/tournaments", "POST", origin=OTHER)
        assert answer.status_code == 400
        assert "access-control-allow-origin" not in answer.headers
        read = client.get("/v1/tournaments", headers={"Origin": OTHER})
        assert read.status_code == 200
        assert "access-control-allow-origin" not in read.headers


def test_star_lets_any_origin_read_but_not_write(db_url: str) -> None:
    with open_to(db_url, ["*"]) as client:
        t = create(client, 4)
        read = client.get(f"/v1/tournaments/{t.id}/standings", headers={"Origin": OTHER})
        assert read.status_code == 200
        assert read.headers["access-control-allow-origin"] == "*"
        assert "etag" in listed(read.headers["access-control-expose-headers"])
        polling = preflight(client, f"/v1/tournaments/{t.id}/standings", "GET", origin=OTHER)
        assert polling.status_code == 200
        writing = preflight(client, f"/v1/tournaments/{t.id}/rounds", "POST", origin=OTHER)
        assert writing.status_code == 400
        assert listed(writing.headers["access-control-allow-methods"]) == {"get", "head"}
