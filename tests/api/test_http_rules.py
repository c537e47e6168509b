"""HTTP habits, checked on every operation of /openapi.json: HEAD on every GET, 405 with the
path's whole Allow, 415 for a body that is not JSON, 400 for one that cannot be decoded, 422 for
an unknown query parameter; and the list filters and pages."""

from __future__ import annotations

from typing import Any

import pytest

from app.api.openapi import OTHER_BODIES
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round
from tests.client import ApiClient

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def settings(db_url: str) -> Settings:
    """A webhook endpoint on loopback fills the webhook paths (never delivered: no worker)."""
    return Settings(database_url=db_url, webhook_allow_private=True)


def operations(client: ApiClient) -> dict[str, dict[str, Any]]:
    """Path → {method: operation} from the served document."""
    paths: dict[str, dict[str, Any]] = client.get("/openapi.json").json()["paths"]
    return {path: {m: op for m, op in item.items() if m in METHODS} for path, item in paths.items()}


Hooks = dict[str, str]
"""The webhook endpoint ids of the paths: the tournament's and the club's."""
STREAMS = ("/v1/tournaments/{tournament_id}/events", "/v1/clubs/{club_id}/events/stream")


def played(client: ApiClient) -> tuple[Organizer, Hooks]:
    """A club's tournament with a played round and a webhook endpoint, and one of the club,
    authorized by the club's key (an organizer of the tournament, and the club's paths'
    credential); its players are the register's entries 1–6, the club's key is key 1, it is in
    the club's season 1."""
    club = client.post("/v1/clubs", json={"name": "Club"}).json()
    key = {"Authorization": f"Bearer {club['key']['key']}"}
    season = client.post(
        f"/v1/clubs/{club['id']}/seasons", json={"name": "Winter", "scoring": "points"}, headers=key
    )
    assert season.status_code == 201, season.text
    made = client.post(
        f"/v1/clubs/{club['id']}/tournaments",
        json={
            "name": "Friday",
            "players": [{"name": f"P{i}"} for i in range(1, 7)],
            "seed": 7,
            "season_id": season.json()["id"],
        },
        headers=key,
    )
    assert made.status_code == 201, made.text
    t = Organizer(made.json()["id"], club["key"]["key"], made.json())
    play_round(client, t)
    generate(client, t)
    hook = client.post(
        f"/v1/tournaments/{t.id}/webhooks",
        json={"url": "http://127.0.0.1:9/hook"},
        headers=t.auth,
    )
    assert hook.status_code == 201, hook.text
    club_hook = client.post(
        f"/v1/clubs/{club['id']}/webhooks", json={"url": "http://127.0.0.1:9/club"}, headers=key
    )
    assert club_hook.status_code == 201, club_hook.text
    return t, {"tournament": str(hook.json()["id"]), "club": str(club_hook.json()["id"])}


def fill(path: str, t: Organizer, hooks: Hooks) -> str:
    webhook_id = hooks["club" if path.startswith("/v1/clubs/") else "tournament"]
    return (
        path.replace("{tournament_id}", t.id)
        .replace("{club_id}", str(t.body["club_id"]))
        .replace("{key_id}", "1")
        .replace("{season_id}", "1")
        .replace("{webhook_id}", webhook_id)
        .replace("{delivery_id}", "1")
        .replace("{token_id}", "1")
        .replace("{player_id}", "1")
        .replace("{match_id}", "1")
        .replace("{number}", "1")
    )


def test_head_answers_like_get_without_a_body_on_every_get(client: ApiClient) -> None:
    t, hooks = played(client)
    reads = [p for p, ops in operations(client).items() if "get" in ops] + ["/docs", "/redoc"]
    assert len(reads) >= 15
    for path in reads:
        url = fill(path, t, hooks)
        head = client.request("HEAD", url, headers=t.auth)
        assert head.content == b"", url
        if path in STREAMS:  # a stream: its headers only
            assert head.status_code == 200
            assert head.headers["content-type"].startswith("text/event-stream")
            continue
        get = client.get(url, headers=t.auth)
        assert head.status_code == get.status_code == 200, (url, get.text)
        for name in ("content-type", "etag", "content-length"):
            assert head.headers.get(name) == get.headers.get(name), (url, name)


def test_405_allows_every_method_of_the_path(client: ApiClient) -> None:
    t, hooks = played(client)
    for path, ops in operations(client).items():
        expected = sorted({m.upper() for m in ops} | ({"HEAD"} if "get" in ops else set()))
        refused = sorted(METHODS - set(ops))[0].upper()
        answer = client.request(refused, fill(path, t, hooks), headers=t.auth)
        body = assert_problem(answer, 405, "method_not_allowed")
        assert answer.headers["allow"] == ", ".join(expected), path
        assert answer.headers["allow"] in body["detail"]


def test_a_body_that_is_not_json_is_415_and_changes_nothing(client: ApiClient) -> None:
    t, hooks = played(client)
    with_body = [
        (method, path, op)
        for path, ops in operations(client).items()
        for method, op in ops.items()
        if "requestBody" in op
    ]
    assert len(with_body) >= 6
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    for method, path, operation in with_body:
        url = fill(path, t, hooks)
        others = {kind for body in operation.get(OTHER_BODIES, []) for kind in body["content"]}
        for headers in ({"Content-Type": "text/plain"}, {}):
            if headers.get("Content-Type") in others:
                continue  # a body of its own (a TRF creates a tournament: test_trf_import.py)
            answer = client.request(
                method, url, content=b'{"name": "x"}', headers={**t.auth, **headers}
            )
            body = assert_problem(answer, 415, "unsupported_media_type")
            assert "Content-Type: application/json" in body["detail"]
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == version
    # `application/<something>+json` and a charset are JSON too.
    renamed = client.patch(
        f"/v1/tournaments/{t.id}",
        content=b'{"name": "Renamed"}',
        headers={**t.auth, "Content-Type": "application/merge-patch+json; charset=utf-8"},
    )
    assert renamed.status_code == 200 and renamed.json()["name"] == "Renamed"


def test_a_body_that_cannot_be_decoded_is_400(client: ApiClient) -> None:
    answer = client.post(
        "/v1/tournaments",
        content=b'{"name": "\xff\xfe"}',
        headers={"Content-Type": "application/json"},
    )
    assert_problem(answer, 400, "malformed_body")


def test_an_unknown_query_parameter_is_422_on_every_operation(client: ApiClient) -> None:
    t, hooks = played(client)
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    for path, ops in operations(client).items():
        for method in ops:
            url = fill(path, t, hooks) + "?stauts=swiss"
            answer = client.request(method.upper(), url, headers=t.auth, json={})
            body = assert_problem(answer, 422, "unknown_query_parameter")
            assert "`stauts`" in body["detail"], (method, path)
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == version
    known = client.get("/v1/tournaments?status=swiss&limit=5")
    assert known.status_code == 200


def test_the_tournament_list_filters_by_status_and_name_and_pages(client: ApiClient) -> None:
    names = ["Cup A", "Cup B", "Cup C", "League", "cup d"]
    made = [create(client, 4, name=name) for name in names]
    generate(client, made[0])
    generate(client, made[3])

    def listed(query: str) -> list[str]:
        found, cursor = [], None
        while True:
            url = f"/v1/tournaments?{query}&limit=2" + (f"&cursor={cursor}" if cursor else "")
            page = client.get(url).json()
            found += [item["name"] for item in page["items"]]
            if (cursor := page["next_cursor"]) is None:
                return found

    assert listed("q=cup") == ["cup d", "Cup C", "Cup B", "Cup A"]
    assert listed("status=swiss") == ["League", "Cup A"]
    assert listed("status=registration&q=CUP") == ["cup d", "Cup C", "Cup B"]
    assert listed("q=%25") == []  # a LIKE wildcard is a plain character
    assert_problem(client.get("/v1/tournaments?status=playing"), 422, "validation_error")


def test_the_player_list_filters_by_status_and_name(client: ApiClient) -> None:
    t = create(client, ["Rossi", "Rossini", "Bianchi", "Verdi"])
    generate(client, t)
    withdrawn = client.patch(
        f"/v1/tournaments/{t.id}/players/2", json={"withdrawn": True}, headers=t.auth
    )
    assert withdrawn.status_code == 200
    base = f"/v1/tournaments/{t.id}/players"

    def names(query: str) -> list[str]:
        return [p["name"] for p in client.get(f"{base}?{query}").json()]

    assert names("status=withdrawn") == ["Rossini"]
    assert names("status=active") == ["Rossi", "Bianchi", "Verdi"]
    assert names("q=ROSS") == ["Rossi", "Rossini"]
    assert names("q=ross&status=active") == ["Rossi"]


def test_the_audit_trail_pages_oldest_first(client: ApiClient) -> None:
    t = create(client, 4)
    play_round(client, t)
    url = f"/v1/tournaments/{t.id}/audit?limit=3"
    first = client.get(url, headers=t.auth).json()
    assert [e["action"] for e in first["items"]] == [
        "tournaments-create",
        "rounds-generate",
        "results-record",
    ]
    second = client.get(f"{url}&cursor={first['next_cursor']}", headers=t.auth).json()
    assert [e["action"] for e in second["items"]] == ["results-record"]
    assert second["next_cursor"] is None
    bad = client.get(f"{url}&cursor=bm9wZQ==", headers=t.auth)
    assert_problem(bad, 422, "validation_error")
