"""Players: add, rename, withdraw, late entry, delete during registration."""

from __future__ import annotations

from tests.api.helpers import assert_problem, create, play_round
from tests.client import ApiClient


def test_add_rename_delete_in_registration(client: ApiClient) -> None:
    t = create(client, ["Rossi", "Bianchi", "Verdi"])
    added = client.post(f"/v1/tournaments/{t.id}/players", json={"name": " Neri "}, headers=t.auth)
    assert added.status_code == 201
    assert added.json() == {
        "id": 4,
        "name": "Neri",
        "rating": None,
        "start_number": 4,
        "group": None,
        "withdrawn": False,
        "entered_round": 1,
        "title": None,
        "fide_id": None,
        "requested_byes": [],
        "team": None,
        "checked_in": False,
        "members": None,
    }
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/players", json={"name": "ROSSI"}, headers=t.auth),
        409,
        "duplicate_name",
    )
    renamed = client.patch(
        f"/v1/tournaments/{t.id}/players/2", json={"name": "Bianchi B."}, headers=t.auth
    )
    assert renamed.json()["name"] == "Bianchi B."
    assert client.delete(f"/v1/tournaments/{t.id}/players/1", headers=t.auth).status_code == 204
    listed = client.get(f"/v1/tournaments/{t.id}/players").json()
    assert [(p["id"], p["name"], p["start_number"]) for p in listed] == [
        (2, "Bianchi B.", 1),
        (3, "Verdi", 2),
        (4, "Neri", 3),
    ]
    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert tournament["player_count"] == 3


def test_withdraw_keeps_results_and_stops_pairing(client: ApiClient) -> None:
    t = create(client, 6)
    play_round(client, t)
    response = client.patch(
        f"/v1/tournaments/{t.id}/players/1", json={"withdrawn": True}, headers=t.auth
    )
    assert response.json()["withdrawn"] is True
    assert_problem(
        client.patch(f"/v1/tournaments/{t.id}/players/1", json={"withdrawn": True}, headers=t.auth),
        409,
        "already_withdrawn",
    )
    assert_problem(
        client.delete(f"/v1/tournaments/{t.id}/players/2", headers=t.auth),
        409,
        "registration_closed",
    )
    second = play_round(client, t)
    paired = {p for m in second["matches"] for p in (m["home"], m["away"])} | set(second["byes"])
    assert 1 not in paired
    rows = {
        r["player_id"]: r for r in client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    }
    assert rows[1]["withdrawn"] is True and rows[1]["played"] == 1


def test_late_entry_until_half_the_rounds(client: ApiClient) -> None:
    t = create(client, 8)  # 4 Swiss rounds
    play_round(client, t)
    late = client.post(f"/v1/tournaments/{t.id}/players", json={"name": "Late"}, headers=t.auth)
    assert late.status_code == 201
    assert (late.json()["start_number"], late.json()["entered_round"]) == (9, 2)
    second = play_round(client, t)
    assert len(second["byes"]) == 1
    play_round(client, t)  # round 3 of 4: more than half generated
    refused = client.post(f"/v1/tournaments/{t.id}/players", json={"name": "Later"}, headers=t.auth)
    assert_problem(refused, 409, "registration_closed")
