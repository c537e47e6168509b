"""Scorekeeper tokens (record results only) and the organizer token's rotation: hashed at rest,
every action audited, a revoked or rotated token refused at once."""

from __future__ import annotations

import hashlib

from fastapi import FastAPI
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from tests.api.helpers import Organizer, assert_problem, create, generate
from tests.client import ApiClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_scorekeeper(client: ApiClient, t: Organizer, label: str = "Table 1") -> dict[str, object]:
    made = client.post(f"/v1/tournaments/{t.id}/tokens", json={"label": label}, headers=t.auth)
    assert made.status_code == 201, made.text
    assert made.headers["location"] == f"/v1/tournaments/{t.id}/tokens/{made.json()['id']}"
    body: dict[str, object] = made.json()
    return body


def actions(client: ApiClient, t: Organizer, auth: dict[str, str]) -> list[tuple[str, str]]:
    items = client.get(f"/v1/tournaments/{t.id}/audit", headers=auth).json()["items"]
    return [(e["actor"], e["action"]) for e in items]


def test_a_scorekeeper_records_and_clears_results_and_nothing_else(client: ApiClient) -> None:
    t = create(client, 8)
    matches = generate(client, t)["matches"]
    keeper = new_scorekeeper(client, t)
    assert (keeper["kind"], keeper["label"], keeper["revoked_at"]) == (
        "scorekeeper",
        "Table 1",
        None,
    )
    auth = bearer(str(keeper["token"]))
    url = f"/v1/tournaments/{t.id}/matches/{matches[0]['id']}/result"
    assert client.put(url, json={"home": 2, "away": 1}, headers=auth).status_code == 200
    assert client.delete(url, headers=auth).status_code == 200
    batch = [{"match_id": m["id"], "home": 1, "away": 0} for m in matches]
    recorded = client.post(f"/v1/tournaments/{t.id}/results", json={"results": batch}, headers=auth)
    assert recorded.status_code == 200, recorded.text

    for method, path in (
        ("POST", "/rounds"),
        ("PATCH", ""),
        ("DELETE", ""),
        ("POST", "/players"),
        ("POST", "/tokens"),
        ("GET", "/tokens"),
        ("GET", "/audit"),
        ("POST", "/organizer-token"),
        ("DELETE", "/rounds/1"),
    ):
        body = {"name": "X"} if method in ("PATCH", "POST") and path in ("", "/players") else None
        answer = client.request(method, f"/v1/tournaments/{t.id}{path}", json=body, headers=auth)
        problem = assert_problem(answer, 403, "forbidden")
        assert "scorekeeper token may only record" in problem["detail"], (method, path)

    writer = f"scorekeeper:{keeper['id']}"
    assert actions(client, t, t.auth)[-4:] == [
        ("organizer", "tokens-create"),
        (writer, "results-record"),
        (writer, "results-clear"),
        (writer, "results-record-batch"),
    ]


def test_tokens_are_listed_without_secrets_and_revoked_at_once(client: ApiClient) -> None:
    t = create(client, 4)
    matches = generate(client, t)["matches"]
    first, second = new_scorekeeper(client, t, "Anna"), new_scorekeeper(client, t, "Bruno")
    listed = client.get(f"/v1/tournaments/{t.id}/tokens", headers=t.auth).json()
    assert [(k["id"], k["label"]) for k in listed] == [
        (first["id"], "Anna"),
        (second["id"], "Bruno"),
    ]
    assert all("token" not in k for k in listed)

    revoke = client.delete(f"/v1/tournaments/{t.id}/tokens/{first['id']}", headers=t.auth)
    assert revoke.status_code == 204
    url = f"/v1/tournaments/{t.id}/matches/{matches[0]['id']}/result"
    refused = client.put(url, json={"home": 1, "away": 0}, headers=bearer(str(first["token"])))
    assert_problem(refused, 403, "forbidden")
    assert (
        client.put(
            url, json={"home": 1, "away": 0}, headers=bearer(str(second["token"]))
        ).status_code
        == 200
    )
    again = client.delete(f"/v1/tournaments/{t.id}/tokens/{first['id']}", headers=t.auth)
    assert again.status_code == 204
    listed = client.get(f"/v1/tournaments/{t.id}/tokens", headers=t.auth).json()
    assert listed[0]["revoked_at"] is not None and listed[1]["revoked_at"] is None
    assert [a for _, a in actions(client, t, t.auth)].count("tokens-revoke") == 1
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/tokens/999", headers=t.auth), 404, "token_not_found"
    )
    other = create(client, 4)
    assert_problem(
        client.delete(f"/v1/tournaments/{other.id}/tokens/{second['id']}", headers=other.auth),
        404,
        "token_not_found",
    )
    # A token of one tournament is nothing in another.
    generate(client, other)
    foreign = client.put(
        f"/v1/tournaments/{other.id}/matches/1/result",
        json={"home": 1, "away": 0},
        headers=bearer(str(second["token"])),
    )
    assert_problem(foreign, 403, "forbidden")


def test_rotating_the_organizer_token_stops_the_old_one_at_once(client: ApiClient) -> None:
    t = create(client, 4)
    keeper = new_scorekeeper(client, t)
    rotated = client.post(f"/v1/tournaments/{t.id}/organizer-token", headers=t.auth)
    assert rotated.status_code == 200
    fresh = rotated.json()["organizer_token"]
    assert len(fresh) >= 43 and fresh != t.token
    assert_problem(client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth), 403, "forbidden")
    assert client.post(f"/v1/tournaments/{t.id}/rounds", headers=bearer(fresh)).status_code == 201
    # Scorekeepers are not affected by the organizer's rotation.
    url = f"/v1/tournaments/{t.id}/matches/1/result"
    assert (
        client.put(
            url, json={"home": 1, "away": 0}, headers=bearer(str(keeper["token"]))
        ).status_code
        == 200
    )
    assert ("organizer", "organizer-token-rotate") in actions(client, t, bearer(fresh))


def test_secrets_are_stored_only_as_hashes_and_never_audited(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 4)
    keeper = new_scorekeeper(client, t)
    fresh = client.post(f"/v1/tournaments/{t.id}/organizer-token", headers=t.auth).json()[
        "organizer_token"
    ]
    with Session(app.state.engine) as session:
        stored = session.execute(text("SELECT token_hash FROM access_token")).scalars().all()
        organizer = session.execute(text("SELECT token_hash FROM tournament")).scalar_one()
        dumped = " ".join(
            str(row) for row in session.execute(select(text("*")).select_from(text("audit_entry")))
        )
    assert stored == [hashlib.sha256(str(keeper["token"]).encode()).hexdigest()]
    assert organizer == hashlib.sha256(fresh.encode()).hexdigest()
    for secret in (str(keeper["token"]), fresh, t.token):
        assert secret not in dumped


def test_token_writes_move_the_audit_etag_and_a_refusal_changes_nothing(client: ApiClient) -> None:
    t = create(client, 4)
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth)
    new_scorekeeper(client, t)
    again = client.get(
        f"/v1/tournaments/{t.id}/audit", headers={**t.auth, "If-None-Match": audit.headers["etag"]}
    )
    assert again.status_code == 200
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/tokens", json={"label": ""}, headers=t.auth),
        422,
        "validation_error",
    )
    assert_problem(client.post(f"/v1/tournaments/{t.id}/tokens", json={}), 401, "unauthorized")
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == version
