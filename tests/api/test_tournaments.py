"""Tournaments: create, read, list, change, delete."""

from __future__ import annotations

from tests.api.helpers import assert_problem, create, play_round
from tests.client import ApiClient


def test_create_answers_the_tournament_its_players_and_a_token(client: ApiClient) -> None:
    response = client.post(
        "/v1/tournaments",
        json={
            "name": "  Friday evening ",
            "players": [{"name": "Rossi", "rating": 1500}, {"name": "Bianchi", "rating": 1700}]
            + [{"name": f"P{i}", "rating": 1000 + i} for i in range(6)],
            "points": {"win": 1, "draw": 0.5, "loss": 0, "bye": 1},
            "seed": 42,
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"] == f"/v1/tournaments/{body['id']}"
    assert response.headers["etag"] == '"1"'
    assert len(body["id"]) >= 16
    assert len(body["organizer_token"]) >= 43
    assert body["name"] == "Friday evening"
    assert body["status"] == "registration"
    assert body["pairing"] == "nearest"
    assert body["tiebreak"] == "buchholz"
    assert body["tiebreak_criteria"] == [
        "points",
        "buchholz",
        "goal_difference",
        "goals_for",
        "start_number",
    ]
    assert body["points"] == {"win": 1, "draw": 0.5, "loss": 0, "bye": 1}
    assert body["format"] == {
        "preset": "standard",
        "swiss_rounds": 4,
        "final_phase": "semifinals",
        "groups": None,
    }
    assert body["seed"] == 42
    assert body["current_round"] == 0
    assert body["player_count"] == 8
    assert [(p["name"], p["start_number"]) for p in body["players"][:3]] == [
        ("Bianchi", 1),
        ("Rossi", 2),
        ("P5", 3),
    ]


def test_a_seed_is_drawn_and_kept_when_not_given(client: ApiClient) -> None:
    t = create(client, 4, seed=None)
    assert isinstance(t.body["seed"], int)
    assert client.get(f"/v1/tournaments/{t.id}").json()["seed"] == t.body["seed"]


def test_read_is_public_and_carries_the_version_as_etag(client: ApiClient) -> None:
    t = create(client, 6)
    response = client.get(f"/v1/tournaments/{t.id}")
    assert response.status_code == 200
    assert response.headers["etag"] == '"1"'
    body = response.json()
    assert "organizer_token" not in body
    assert body["id"] == t.id and body["player_count"] == 6 and body["version"] == 1


def test_if_none_match_answers_304_until_something_changes(client: ApiClient) -> None:
    t = create(client, 6)
    url = f"/v1/tournaments/{t.id}/standings"
    etag = client.get(url).headers["etag"]
    not_modified = client.get(url, headers={"If-None-Match": etag})
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    play_round(client, t)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] == '"5"'  # round + three results


def test_list_is_newest_first_and_paginated(client: ApiClient) -> None:
    ids = [create(client, 4).id for _ in range(5)]
    first = client.get("/v1/tournaments", params={"limit": 2}).json()
    assert [t["id"] for t in first["items"]] == ids[::-1][:2]
    second = client.get("/v1/tournaments", params={"limit": 2, "cursor": first["next_cursor"]})
    third = client.get(
        "/v1/tournaments", params={"limit": 2, "cursor": second.json()["next_cursor"]}
    ).json()
    assert [t["id"] for t in second.json()["items"]] == ids[::-1][2:4]
    assert [t["id"] for t in third["items"]] == ids[:1]
    assert third["next_cursor"] is None


def test_bad_cursor_is_a_validation_error(client: ApiClient) -> None:
    assert_problem(client.get("/v1/tournaments", params={"cursor": "%%%"}), 422, "validation_error")


def test_rename_any_time_and_settings_only_in_registration(client: ApiClient) -> None:
    t = create(client, 8)
    response = client.patch(
        f"/v1/tournaments/{t.id}",
        json={"name": "Saturday", "swiss_rounds": 3, "final_phase": "final", "tiebreak": "goals"},
        headers=t.auth,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["name"] == "Saturday"
    assert body["format"]["swiss_rounds"] == 3
    assert body["format"]["final_phase"] == "final"
    assert body["tiebreak"] == "goals"
    assert body["settings"]["swiss_rounds"] == 3
    assert response.headers["etag"] == '"2"'

    play_round(client, t)
    refused = client.patch(f"/v1/tournaments/{t.id}", json={"swiss_rounds": 2}, headers=t.auth)
    assert_problem(refused, 409, "registration_closed")
    renamed = client.patch(f"/v1/tournaments/{t.id}", json={"name": "Late"}, headers=t.auth)
    assert renamed.json()["name"] == "Late"
    assert renamed.json()["format"]["swiss_rounds"] == 3


def test_invalid_settings_are_refused_with_422(client: ApiClient) -> None:
    response = client.post(
        "/v1/tournaments",
        json={"name": "x", "players": [{"name": f"P{i}"} for i in range(6)], "swiss_rounds": 6},
    )
    assert_problem(response, 422, "invalid_settings")


def test_groups_variant_is_resolved(client: ApiClient) -> None:
    t = create(client, 12, groups={"count": 2, "assignment": "seeded"})
    assert t.body["format"] == {
        "preset": "standard",
        "swiss_rounds": 4,
        "final_phase": "semifinals",
        "groups": 2,
    }
    groups = [p["group"] for p in t.body["players"]]
    assert groups[:4] == ["A", "B", "B", "A"]
    assert groups.count("A") == groups.count("B") == 6


def test_delete_removes_everything(client: ApiClient) -> None:
    t = create(client, 4)
    play_round(client, t)
    assert client.delete(f"/v1/tournaments/{t.id}", headers=t.auth).status_code == 204
    assert_problem(client.get(f"/v1/tournaments/{t.id}"), 404, "tournament_not_found")
    assert_problem(client.get(f"/v1/tournaments/{t.id}/rounds"), 404, "tournament_not_found")


def test_audit_trail_lists_every_accepted_write(client: ApiClient) -> None:
    t = create(client, 4)
    play_round(client, t)
    response = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth)
    entries = response.json()["items"]
    assert [e["action"] for e in entries] == [
        "tournaments-create",
        "rounds-generate",
        "results-record",
        "results-record",
    ]
    assert {e["actor"] for e in entries} == {"organizer"}
    assert entries[1]["detail"] == {"round": 1}
    assert client.get(f"/v1/tournaments/{t.id}/audit").status_code == 401


def test_health(client: ApiClient) -> None:
    response = client.get("/health")
    assert response.json() == {"status": "ok", "database": "ok"}


def test_standings_of_a_group_the_tournament_does_not_have(client: ApiClient) -> None:
    t = create(client, 6)
    response = client.get(f"/v1/tournaments/{t.id}/standings", params={"group": "A"})
    assert_problem(response, 404, "group_not_found")
