"""Registering, listing, reading and deleting webhook endpoints: auth, URL rules, the secret."""

from __future__ import annotations

import pytest

from app.api.webhook_schemas import EventType
from app.main import create_app
from app.services import events
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create
from tests.client import ApiClient


def hooks(t: Organizer) -> str:
    return f"/v1/tournaments/{t.id}/webhooks"


def register(client: ApiClient, t: Organizer, url: str, **body: object) -> dict[str, object]:
    response = client.post(hooks(t), json={"url": url, **body}, headers=t.auth)
    assert response.status_code == 201, response.text
    created: dict[str, object] = response.json()
    return created


def test_the_secret_is_shown_once(client: ApiClient) -> None:
    t = create(client)
    created = register(client, t, "http://127.0.0.1:9/hook", description="TV")
    secret = created["secret"]
    assert isinstance(secret, str) and secret.startswith("whsec_") and len(secret) > 40
    assert created["events"] == [] and created["description"] == "TV"
    location = f"{hooks(t)}/{created['id']}"
    listed = client.get(hooks(t), headers=t.auth)
    read = client.get(location, headers=t.auth)
    assert listed.status_code == 200 and read.status_code == 200
    assert [w["id"] for w in listed.json()] == [created["id"]]
    assert secret not in listed.text and secret not in read.text
    assert "secret" not in read.json()
    assert {k: v for k, v in created.items() if k != "secret"} == read.json()


def test_organizer_only_reads_and_writes(client: ApiClient) -> None:
    t, other = create(client), create(client)
    created = register(client, t, "http://127.0.0.1:9/hook")
    path = f"{hooks(t)}/{created['id']}"
    calls = [
        ("POST", hooks(t), {"url": "http://127.0.0.1:9/x"}),
        ("GET", hooks(t), None),
        ("GET", path, None),
        ("GET", f"{path}/deliveries", None),
        ("POST", f"{path}/deliveries/1/redeliver", None),
        ("DELETE", path, None),
    ]
    for method, url, body in calls:
        assert_problem(client.request(method, url, json=body), 401, "unauthorized")
        wrong = client.request(method, url, json=body, headers=other.auth)
        assert_problem(wrong, 403, "forbidden")
    assert client.get(path, headers=t.auth).status_code == 200


def test_unknown_and_foreign_webhooks_are_404(client: ApiClient) -> None:
    t, other = create(client), create(client)
    theirs = register(client, other, "http://127.0.0.1:9/hook")
    assert_problem(
        client.get(f"{hooks(t)}/{theirs['id']}", headers=t.auth), 404, "webhook_not_found"
    )
    assert_problem(client.delete(f"{hooks(t)}/999", headers=t.auth), 404, "webhook_not_found")
    mine = register(client, t, "http://127.0.0.1:9/hook")
    missing = client.post(f"{hooks(t)}/{mine['id']}/deliveries/999/redeliver", headers=t.auth)
    assert_problem(missing, 404, "webhook_delivery_not_found")
    assert client.delete(f"{hooks(t)}/{mine['id']}", headers=t.auth).status_code == 204
    assert_problem(client.get(f"{hooks(t)}/{mine['id']}", headers=t.auth), 404, "webhook_not_found")
    assert client.get(hooks(other), headers=other.auth).json()[0]["id"] == theirs["id"]


@pytest.mark.parametrize(
    "url",
    ["ftp://example.org/x", "file:///etc/passwd", "example.org/hook", "http://", "http://u:p@h/"],
)
def test_only_http_and_https_urls(client: ApiClient, url: str) -> None:
    t = create(client)
    response = client.post(hooks(t), json={"url": url}, headers=t.auth)
    assert_problem(response, 422, "webhook_url_invalid")


PRIVATE = [
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://10.1.2.3/hook",
    "http://192.168.0.10/hook",
    "http://172.16.5.4/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
    "http://240.0.0.1/hook",
    "http://100.64.0.1/hook",
]


def test_private_addresses_are_refused_when_not_allowed(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url, webhook_allow_private=False))
    with ApiClient(app) as client:
        t = create(client)
        for url in PRIVATE:
            response = client.post(hooks(t), json={"url": url}, headers=t.auth)
            assert_problem(response, 422, "webhook_url_forbidden")
        assert client.get(hooks(t), headers=t.auth).json() == []
        # a public address is accepted (no DNS needed for a literal)
        register(client, t, "https://93.184.215.14/hook")
    app.state.engine.dispose()


def test_private_addresses_allowed_by_default_only_on_sqlite() -> None:
    assert Settings(database_url="sqlite:///./x.db").webhooks_may_reach_private()
    postgres = "postgresql+psycopg://u@db/x"
    assert not Settings(database_url=postgres).webhooks_may_reach_private()
    assert Settings(database_url=postgres, webhook_allow_private=True).webhooks_may_reach_private()
    assert not Settings(webhook_allow_private=False).webhooks_may_reach_private()


def test_event_types_are_checked_and_match_the_outbox(client: ApiClient) -> None:
    t = create(client)
    assert set(EventType.__args__) == set(events.TYPES)  # type: ignore[attr-defined]
    wrong = client.post(
        hooks(t), json={"url": "http://127.0.0.1/", "events": ["nope"]}, headers=t.auth
    )
    assert_problem(wrong, 422, "validation_error")
    picked = register(client, t, "http://127.0.0.1/", events=["result.recorded", "round.generated"])
    assert picked["events"] == ["result.recorded", "round.generated"]


def test_reads_answer_304_to_their_etag(client: ApiClient) -> None:
    t = create(client)
    created = register(client, t, "http://127.0.0.1:9/hook")
    for path in (hooks(t), f"{hooks(t)}/{created['id']}", f"{hooks(t)}/{created['id']}/deliveries"):
        first = client.get(path, headers=t.auth)
        tag = first.headers["ETag"]
        again = client.get(path, headers={**t.auth, "If-None-Match": tag})
        assert again.status_code == 304 and again.headers["ETag"] == tag
    register(client, t, "http://127.0.0.1:9/other")
    changed = client.get(hooks(t), headers={**t.auth, "If-None-Match": tag})
    assert changed.status_code == 200


def test_operations_are_in_the_openapi_document(client: ApiClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    ids = {op["operationId"] for item in paths.values() for op in item.values()}
    assert {
        "webhooks-create",
        "webhooks-list",
        "webhooks-read",
        "webhooks-delete",
        "webhooks-deliveries-list",
        "webhooks-redeliver",
    } <= ids
