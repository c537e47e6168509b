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


TRF = "012 Friday\rXXR 3\r" + "".join(
    f"001 {n:>4}      {f'Player {n}':<33} 1500\r" for n in range(1, 5)
)
"""A TRF of four players and three rounds to come."""


def writes(client: ApiClient, origin: str) -> list[httpx.Response]:
    """A TRF creation (a "simple" request: browsers send it without a preflight), a JSON
    creation, and a round of an existing tournament with its token, from a page of ``origin``."""
    t = create(client, 4)
    return [
        client.post(
            "/v1/tournaments",
            content=TRF,
            headers={"Origin": origin, "Content-Type": "text/plain"},
        ),
        client.post(
            "/v1/tournaments",
            json={"name": "Elsewhere", "players": [{"name": "A"}, {"name": "B"}]},
            headers={"Origin": origin},
        ),
        client.post(f"/v1/tournaments/{t.id}/rounds", headers={"Origin": origin, **t.auth}),
    ]


@pytest.mark.parametrize("origins", [[], ["*"], [FRONT_END]])
def test_a_page_of_another_origin_writes_nothing_whatever_the_setting(
    db_url: str, origins: list[str]
) -> None:
    with open_to(db_url, origins) as client:
        refused = writes(client, OTHER)
        for answer in refused:
            body = assert_problem(answer, 403, "cross_origin_write")
            assert body["detail"] == (
                f"a page of {OTHER} may not write here: only this server's own pages and the "
                "origins of SVIZZERA_CORS_ORIGINS (not `*`, which lets any page read)"
            )
            assert "organizer_token" not in body
        # Only the tournaments `writes` made itself, without an Origin; no round generated.
        items = client.get("/v1/tournaments").json()["items"]
        assert [(t["name"], t["current_round"]) for t in items] == [("Friday evening", 0)]
        if origins == ["*"]:  # the page may read the refusal, which holds nothing
            assert refused[0].headers["access-control-allow-origin"] == "*"


@pytest.mark.parametrize(
    "origin", ["http://svizzera.test", "HTTP://Svizzera.test:80", FRONT_END.upper()]
)
def test_the_servers_own_pages_and_a_listed_origin_write(db_url: str, origin: str) -> None:
    with open_to(db_url, [FRONT_END]) as client:
        made = writes(client, origin)
        assert [answer.status_code for answer in made] == [201, 201, 201], made[0].text
        assert made[0].json()["name"] == "Friday"
        assert made[1].json()["organizer_token"]


def test_a_page_on_the_same_host_but_another_port_is_another_origin(client: ApiClient) -> None:
    refused = writes(client, "http://svizzera.test:8080")
    assert [answer.status_code for answer in refused] == [403, 403, 403]
