"""Careless and hostile input gets a clear 4xx and changes nothing, on SQLite and PostgreSQL."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from app.inputs import MAX_INTEGER
from tests.api.helpers import assert_problem, create
from tests.client import ApiClient

CONTROL = ["\x00", "\x07", "\x1b", "\x7f", "\x9b", "a\tb"]
"""NUL (a 500 on PostgreSQL once), BEL, ESC, DEL, a C1 control, a tab inside a name."""
TOO_BIG = [MAX_INTEGER + 1, 2**63, 10**30]
"""Past PostgreSQL's INTEGER, past SQLite's and PostgreSQL's BIGINT, past anything."""


def id_cursor(last_id: int) -> str:
    return base64.urlsafe_b64encode(f"id:{last_id}".encode()).decode()


def players(*names: str) -> list[dict[str, str]]:
    return [{"name": n} for n in names]


@pytest.mark.parametrize("bad", CONTROL)
def test_control_characters_are_refused_in_every_name(client: ApiClient, bad: str) -> None:
    four = players("A", "B", "C", "D")
    bodies: list[dict[str, Any]] = [
        {"name": f"Fri{bad}day", "players": four},
        {"name": "Friday", "players": [*four, {"name": f"Ros{bad}si"}]},
        {
            "name": "Friday",
            "players": four,
            "groups": {"assignment": "manual", "manual": [["A", f"B{bad}"], ["C", "D"]]},
        },
    ]
    for body in bodies:
        assert_problem(client.post("/v1/tournaments", json=body), 422, "validation_error")
    assert client.get("/v1/tournaments").json()["items"] == []
    t = create(client, 4)
    base = f"/v1/tournaments/{t.id}"
    writes = [
        ("PATCH", base, {"name": f"x{bad}y"}),
        ("POST", f"{base}/players", {"name": f"x{bad}y"}),
        ("PATCH", f"{base}/players/1", {"name": f"x{bad}y"}),
        ("POST", f"{base}/webhooks", {"url": f"http://127.0.0.1:9/h{bad}ook"}),
        ("POST", f"{base}/webhooks", {"url": "http://127.0.0.1:9/hook", "description": bad}),
        ("POST", f"{base}/tokens", {"label": f"Table{bad}3"}),
    ]
    for method, url, body in writes:
        response = client.request(method, url, json=body, headers=t.auth)
        assert_problem(response, 422, "validation_error")
    assert client.get(base).json()["version"] == 1  # nothing changed
    assert client.get(f"{base}/webhooks", headers=t.auth).json() == []
    for url in ("/v1/tournaments", f"{base}/players"):
        assert_problem(client.get(url, params={"q": f"a{bad}"}), 422, "validation_error")


@pytest.mark.parametrize("big", TOO_BIG)
def test_ids_past_the_database_integer_are_refused_never_a_500(client: ApiClient, big: int) -> None:
    t = create(client, 4)
    base = f"/v1/tournaments/{t.id}"
    calls = [
        ("GET", f"{base}/rounds/{big}"),
        ("PATCH", f"{base}/players/{big}"),
        ("DELETE", f"{base}/players/{big}"),
        ("PUT", f"{base}/matches/{big}/result"),
        ("DELETE", f"{base}/matches/{big}/result"),
        ("GET", f"{base}/webhooks/{big}"),
        ("DELETE", f"{base}/webhooks/{big}"),
        ("DELETE", f"{base}/tokens/{big}"),
        ("GET", f"{base}/webhooks/{big}/deliveries"),
        ("GET", f"{base}/webhooks/1/deliveries?cursor={id_cursor(big)}"),
        ("GET", f"{base}/audit?cursor={id_cursor(big)}"),
        ("GET", f"{base}/webhooks/1/deliveries/{big}"),
        ("GET", f"{base}/events?after={big}"),
        ("GET", "/v1/tournaments/%00"),
        ("GET", "/v1/tournaments/a%00b/standings"),
        ("GET", "/v1/tournaments/" + "x" * 33),
    ]
    for method, url in calls:
        body = {"home": 1, "away": 0} if method == "PUT" else None
        response = client.request(method, url, json=body, headers=t.auth)
        assert response.status_code in (404, 422), (method, url, response.text)
        assert response.headers["content-type"] == "application/problem+json"


def test_a_cursor_naming_no_possible_tournament_is_refused(client: ApiClient) -> None:
    for tid in ("a\x00b", "x" * 40, "a'b"):
        cursor = base64.urlsafe_b64encode(f"2026-01-01T00:00:00+00:00|{tid}".encode()).decode()
        response = client.get("/v1/tournaments", params={"cursor": cursor})
        assert_problem(response, 422, "validation_error")


def test_a_last_event_id_past_the_integer_is_refused_before_the_stream(client: ApiClient) -> None:
    t = create(client, 4)
    url = f"/v1/tournaments/{t.id}/events"
    for value in (*map(str, TOO_BIG), "9" * 40, "-1", "+1", "1e3", "1_000"):
        response = client.get(url, headers={"Last-Event-ID": value})
        assert_problem(response, 422, "validation_error")
    # the largest id that fits opens a stream that lives until its own timeout
    stream = client.get(url, params={"timeout": 0.3}, headers={"Last-Event-ID": str(MAX_INTEGER)})
    assert stream.status_code == 200
    assert stream.text.startswith("retry: 2000\n")
    assert "event:" not in stream.text


def test_a_value_of_the_wrong_json_type_is_refused(client: ApiClient) -> None:
    four = players("A", "B", "C", "D")
    creations: list[dict[str, Any]] = [
        {"swiss_rounds": True},  # not 1 round
        {"swiss_rounds": "3"},
        {"seed": True},
        {"points": {"win": True}},
        {"points": {"win": "3"}},
        {"groups": {"count": True, "assignment": "draw"}},
        {"players": [*four[:3], {"name": "D", "rating": "1500"}]},
        {"players": [*four[:3], {"name": "D", "rating": False}]},
    ]
    for fields in creations:
        body = {"name": "Typed", "players": four, **fields}
        response = client.post("/v1/tournaments", json=body)
        assert_problem(response, 422, "validation_error")
    assert client.get("/v1/tournaments").json()["items"] == []
    t = create(client, 4, points={"win": 2.5, "draw": 1.0})  # 1.0 is the integer 1 in JSON
    assert t.body["points"] == {"win": 2.5, "draw": 1, "loss": 0, "bye": 3}
    base = f"/v1/tournaments/{t.id}"
    for body in ({"withdrawn": 1}, {"withdrawn": "true"}):
        response = client.patch(f"{base}/players/1", json=body, headers=t.auth)
        assert_problem(response, 422, "validation_error")
    assert client.post(f"{base}/rounds", headers=t.auth).status_code == 201
    result = f"{base}/matches/1/result"
    for body in ({"home": True, "away": 0}, {"home": "3", "away": 0}, {"home": 1.5, "away": 0}):
        assert_problem(client.put(result, json=body, headers=t.auth), 422, "validation_error")
    batch = {"results": [{"match_id": True, "home": 1, "away": 0}]}
    assert_problem(
        client.post(f"{base}/results", json=batch, headers=t.auth), 422, "validation_error"
    )
    recorded = client.put(result, json={"home": 2.0, "away": 0}, headers=t.auth)
    assert recorded.json()["result"]["home"] == 2


def test_a_partial_points_table_keeps_the_other_values(client: ApiClient) -> None:
    """It was a 500 (a missing key) before schemathesis-style bodies were tried."""
    t = create(client, 4, points={"win": 2})
    assert t.body["points"] == {"win": 2, "draw": 1, "loss": 0, "bye": 3}
    changed = client.patch(f"/v1/tournaments/{t.id}", json={"points": {"bye": 1.5}}, headers=t.auth)
    assert changed.status_code == 200, changed.text
    assert changed.json()["points"] == {"win": 2, "draw": 1, "loss": 0, "bye": 1.5}
