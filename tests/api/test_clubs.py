"""Clubs: a key shown once and stored hashed, further keys, rotation and revocation, a club key
that creates and runs the club's tournaments, the club's lists, and who may touch what."""

from __future__ import annotations

import hashlib
import logging

import pytest
from fastapi import FastAPI
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.settings import Settings
from tests.api.clubs import Club, club_tournament, new_club
from tests.api.helpers import Organizer, assert_problem, create
from tests.client import ApiClient

PLAYERS = [{"name": n} for n in ("Rossi", "Bianchi", "Verdi", "Neri")]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_a_club_is_created_with_its_key_shown_once_and_stored_hashed(
    app: FastAPI, client: ApiClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    club = new_club(client)
    assert club.body["name"] == "Circolo Rovereto"
    assert club.body["key"]["label"] == "President"
    assert club.body["tournaments"] == f"/v1/clubs/{club.id}/tournaments"
    read = client.get(f"/v1/clubs/{club.id}")
    assert read.status_code == 200
    assert "key" not in read.json()
    assert (
        client.get(
            f"/v1/clubs/{club.id}", headers={"If-None-Match": read.headers["etag"]}
        ).status_code
        == 304
    )
    keys = client.get(f"/v1/clubs/{club.id}/keys", headers=club.auth).json()
    assert [(k["id"], k["label"], k["revoked_at"]) for k in keys] == [
        (club.body["key"]["id"], "President", None)
    ]
    assert all("key" not in k for k in keys)
    with Session(app.state.engine) as session:
        stored = session.execute(text("SELECT token_hash FROM club_key")).scalars().all()
        trail = " ".join(
            str(r) for r in session.execute(select(text("*")).select_from(text("club_audit_entry")))
        )
    assert stored == [hashlib.sha256(club.key.encode()).hexdigest()]
    assert club.key not in trail
    assert club.key not in caplog.text


def test_keys_are_made_rotated_and_revoked(client: ApiClient) -> None:
    club = new_club(client)
    first = club.body["key"]["id"]
    made = client.post(f"/v1/clubs/{club.id}/keys", json={"label": "Treasurer"}, headers=club.auth)
    assert made.status_code == 201, made.text
    second = made.json()
    assert made.headers["location"] == f"/v1/clubs/{club.id}/keys/{second['id']}"
    treasurer = bearer(second["key"])
    assert client.get(f"/v1/clubs/{club.id}/keys", headers=treasurer).status_code == 200

    rotated = client.post(f"/v1/clubs/{club.id}/keys/{second['id']}/rotate", headers=treasurer)
    assert rotated.status_code == 200, rotated.text
    assert (rotated.json()["id"], rotated.json()["label"]) == (second["id"], "Treasurer")
    assert rotated.json()["key"] != second["key"]
    assert_problem(client.get(f"/v1/clubs/{club.id}/keys", headers=treasurer), 403, "forbidden")
    treasurer = bearer(rotated.json()["key"])

    gone = client.delete(f"/v1/clubs/{club.id}/keys/{first}", headers=treasurer)
    assert gone.status_code == 204
    assert_problem(client.get(f"/v1/clubs/{club.id}/keys", headers=club.auth), 403, "forbidden")
    assert client.delete(f"/v1/clubs/{club.id}/keys/{first}", headers=treasurer).status_code == 204
    last = client.delete(f"/v1/clubs/{club.id}/keys/{second['id']}", headers=treasurer)
    assert_problem(last, 409, "last_club_key")
    assert_problem(
        client.post(f"/v1/clubs/{club.id}/keys/{first}/rotate", headers=treasurer),
        404,
        "club_key_not_found",
    )
    assert_problem(
        client.delete(f"/v1/clubs/{club.id}/keys/999", headers=treasurer), 404, "club_key_not_found"
    )
    keys = client.get(f"/v1/clubs/{club.id}/keys", headers=treasurer).json()
    assert [(k["id"], k["revoked_at"] is None) for k in keys] == [
        (first, False),
        (second["id"], True),
    ]
    trail = client.get(f"/v1/clubs/{club.id}/audit", headers=treasurer).json()["items"]
    assert [(e["actor"], e["action"]) for e in trail] == [
        (f"club:{first}", "clubs-create"),
        (f"club:{first}", "club-keys-create"),
        (f"club:{second['id']}", "club-keys-rotate"),
        (f"club:{second['id']}", "club-keys-revoke"),
    ]


def test_a_club_key_creates_and_runs_a_tournament_whose_own_token_still_works(
    client: ApiClient,
) -> None:
    club = new_club(client)
    made = club_tournament(client, club, PLAYERS)
    tid = made["id"]
    assert made["club_id"] == club.id
    assert [p["name"] for p in made["players"]] == ["Rossi", "Bianchi", "Verdi", "Neri"]
    round_one = client.post(f"/v1/tournaments/{tid}/rounds", headers=club.auth)
    assert round_one.status_code == 201, round_one.text
    for match in round_one.json()["matches"]:
        put = client.put(
            f"/v1/tournaments/{tid}/matches/{match['id']}/result",
            json={"home": 2, "away": 1},
            headers=club.auth,
        )
        assert put.status_code == 200, put.text
    own = bearer(made["organizer_token"])
    assert client.post(f"/v1/tournaments/{tid}/rounds", headers=own).status_code == 201
    audit = client.get(f"/v1/tournaments/{tid}/audit", headers=club.auth).json()["items"]
    key = club.body["key"]["id"]
    assert [(e["actor"], e["action"]) for e in audit] == [
        (f"club:{key}", "tournaments-create"),
        (f"club:{key}", "rounds-generate"),
        (f"club:{key}", "results-record"),
        (f"club:{key}", "results-record"),
        ("organizer", "rounds-generate"),
    ]
    # a revoked key stops at once on the club's tournaments too
    other = client.post(f"/v1/clubs/{club.id}/keys", json={}, headers=club.auth).json()
    client.delete(f"/v1/clubs/{club.id}/keys/{key}", headers=bearer(other["key"]))
    assert_problem(
        client.delete(f"/v1/tournaments/{tid}/rounds/2", headers=club.auth), 403, "forbidden"
    )
    assert (
        client.delete(f"/v1/tournaments/{tid}/rounds/2", headers=bearer(other["key"])).status_code
        == 204
    )


def test_the_club_lists_its_tournaments_paged_and_by_status(client: ApiClient) -> None:
    club = new_club(client)
    made = [club_tournament(client, club, PLAYERS)["id"] for _ in range(3)]
    create(client, 4)  # a tournament of its own: not the club's
    other = new_club(client, "Another")
    club_tournament(client, other, PLAYERS)
    client.post(f"/v1/tournaments/{made[0]}/rounds", headers=club.auth)
    first = client.get(f"/v1/clubs/{club.id}/tournaments", params={"limit": 2})
    assert first.status_code == 200
    second = client.get(
        f"/v1/clubs/{club.id}/tournaments",
        params={"limit": 2, "cursor": first.json()["next_cursor"]},
    )
    listed = [t["id"] for t in first.json()["items"] + second.json()["items"]]
    assert listed == made[::-1]
    assert second.json()["next_cursor"] is None
    swiss = client.get(f"/v1/clubs/{club.id}/tournaments", params={"status": "swiss"}).json()
    assert [t["id"] for t in swiss["items"]] == [made[0]]
    assert_problem(client.get("/v1/clubs/nope/tournaments"), 404, "club_not_found")


def test_a_club_key_cannot_touch_another_clubs_tournaments_or_club(client: ApiClient) -> None:
    ours, theirs = new_club(client, "Ours"), new_club(client, "Theirs")
    their_tournament = club_tournament(client, theirs, PLAYERS)["id"]
    alone = create(client, 4)
    for tid in (their_tournament, alone.id):
        assert_problem(
            client.post(f"/v1/tournaments/{tid}/rounds", headers=ours.auth), 403, "forbidden"
        )
        assert_problem(client.delete(f"/v1/tournaments/{tid}", headers=ours.auth), 403, "forbidden")
        assert_problem(
            client.get(f"/v1/tournaments/{tid}/audit", headers=ours.auth), 403, "forbidden"
        )
    assert_problem(
        client.get(f"/v1/clubs/{theirs.id}/players", headers=ours.auth), 403, "forbidden"
    )
    assert_problem(
        client.post(
            f"/v1/clubs/{theirs.id}/tournaments",
            json={"name": "x", "players": PLAYERS},
            headers=ours.auth,
        ),
        403,
        "forbidden",
    )
    assert_problem(client.get(f"/v1/clubs/{theirs.id}/keys", headers=ours.auth), 403, "forbidden")


def test_a_tournament_token_cannot_touch_the_club(client: ApiClient) -> None:
    club = new_club(client)
    made = club_tournament(client, club, PLAYERS)
    tid = made["id"]
    own = bearer(made["organizer_token"])
    keeper = client.post(f"/v1/tournaments/{tid}/tokens", json={"label": "T1"}, headers=own).json()
    for auth in (own, bearer(keeper["token"])):
        assert_problem(client.get(f"/v1/clubs/{club.id}/players", headers=auth), 403, "forbidden")
        assert_problem(client.get(f"/v1/clubs/{club.id}/keys", headers=auth), 403, "forbidden")
        assert_problem(
            client.post(f"/v1/clubs/{club.id}/keys", json={}, headers=auth), 403, "forbidden"
        )
        assert_problem(
            client.post(
                f"/v1/clubs/{club.id}/tournaments",
                json={"name": "x", "players": PLAYERS},
                headers=auth,
            ),
            403,
            "forbidden",
        )
    assert_problem(client.get(f"/v1/clubs/{club.id}/players"), 401, "unauthorized")
    assert_problem(client.get("/v1/clubs/nope/players", headers=club.auth), 404, "club_not_found")
    # a scorekeeper token records results only, on a club tournament as on any
    assert_problem(
        client.post(f"/v1/tournaments/{tid}/rounds", headers=bearer(keeper["token"])),
        403,
        "forbidden",
    )


def test_a_club_tournament_is_deleted_by_its_club_and_the_club_stays(client: ApiClient) -> None:
    club = new_club(client)
    tid = club_tournament(client, club, PLAYERS)["id"]
    assert client.delete(f"/v1/tournaments/{tid}", headers=club.auth).status_code == 204
    assert client.get(f"/v1/clubs/{club.id}/tournaments").json()["items"] == []
    entries = client.get(f"/v1/clubs/{club.id}/players", headers=club.auth).json()["items"]
    assert len(entries) == 4  # the register keeps the people


class TestCreationRules:
    @pytest.fixture
    def settings(self, db_url: str) -> Settings:
        return Settings(database_url=db_url, create_key="let-me-in", create_rate=2)

    def test_creating_a_club_needs_the_create_key_and_counts_in_the_quota(
        self, client: ApiClient
    ) -> None:
        assert_problem(client.post("/v1/clubs", json={"name": "C"}), 401, "unauthorized")
        assert_problem(
            client.post("/v1/clubs", json={"name": "C"}, headers=bearer("wrong")), 403, "forbidden"
        )
        made = client.post("/v1/clubs", json={"name": "C"}, headers=bearer("let-me-in"))
        assert made.status_code == 201, made.text
        club = Club(made.json()["id"], made.json()["key"]["key"], made.json())
        # a club tournament needs no create key (the club key is enough), but counts too
        body = {"name": "x", "players": PLAYERS}
        path = f"/v1/clubs/{club.id}/tournaments"
        assert client.post(path, json=body, headers=club.auth).status_code == 201
        assert_problem(client.post(path, json=body, headers=club.auth), 429, "too_many_requests")


def test_a_club_is_renamed_by_its_key(client: ApiClient) -> None:
    club = new_club(client)
    renamed = client.patch(
        f"/v1/clubs/{club.id}", json={"name": "Circolo Trento"}, headers=club.auth
    )
    assert renamed.status_code == 200, renamed.text
    assert (renamed.json()["name"], renamed.json()["version"]) == ("Circolo Trento", 2)
    assert_problem(client.patch(f"/v1/clubs/{club.id}", json={"name": "x"}), 401, "unauthorized")
    assert_problem(client.get("/v1/clubs/nope"), 404, "club_not_found")


def test_a_tournament_of_its_own_says_it_has_no_club(client: ApiClient) -> None:
    alone: Organizer = create(client, 4)
    assert alone.body["club_id"] is None
    assert client.get(f"/v1/tournaments/{alone.id}").json()["club_id"] is None
