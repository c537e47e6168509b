"""Doubles over HTTP: a tournament whose entries are teams of two named players
(``entry: "team"``), paired and ranked as one entry, with both players named in the players
list, the standings, the CSV, the pages and the events (``docs/rules.md``, "Doubles")."""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi import FastAPI

from tests.api.clubs import new_club
from tests.api.helpers import Organizer, assert_problem, play_round
from tests.api.test_events import stored
from tests.client import ApiClient

TEAMS = [
    ("Rossi / Bianchi", ["Rossi", "Bianchi"]),
    ("Verdi / Neri", ["Verdi", "Neri"]),
    ("I Gialli", ["Anna Giallo", "Bruno Giallo"]),
    ("Colombo / Ricci", ["Colombo", "Ricci"]),
]


def create_doubles(client: ApiClient, **settings: Any) -> Organizer:
    body = {
        "name": "Doubles night",
        "entry": "team",
        "players": [{"name": name, "members": members} for name, members in TEAMS],
        "seed": 3,
        **settings,
    }
    answer = client.post("/v1/tournaments", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return Organizer(data["id"], data["organizer_token"], data)


def test_a_doubles_evening_names_both_players_everywhere(client: ApiClient) -> None:
    t = create_doubles(client)
    assert t.body["entry"] == "team"
    assert [p["members"] for p in t.body["players"]] == [m for _, m in TEAMS]

    first = play_round(client, t, home=10, away=7)
    assert len(first["matches"]) == 2 and first["byes"] == []  # four entries, two boards

    standings = client.get(f"/v1/tournaments/{t.id}/standings").json()
    by_name = {row["name"]: row for row in standings["rows"]}
    assert {name: by_name[name]["members"] for name, _ in TEAMS} == dict(TEAMS)
    winners = {by_name[n]["player_id"] for n in by_name if by_name[n]["points"] == 3}
    assert winners == {m["home"] for m in first["matches"]}
    assert all(row["goal_difference"] in (3, -3) for row in standings["rows"])

    exported = client.get(f"/v1/tournaments/{t.id}/export.csv").text.lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(exported)))
    header = exported.split("\r\n", 1)[0].split(",")
    assert header[header.index("name") + 1 : header.index("name") + 3] == ["member_1", "member_2"]
    assert {r["name"]: [r["member_1"], r["member_2"]] for r in rows} == dict(TEAMS)

    page = client.get(f"/v1/tournaments/{t.id}/print").text
    assert "Anna Giallo · Bruno Giallo" in page
    live = client.get(f"/v1/tournaments/{t.id}/live").text
    assert "Anna Giallo · Bruno Giallo" in live


def test_single_player_tournaments_keep_their_csv_and_name_no_members(
    client: ApiClient,
) -> None:
    answer = client.post(
        "/v1/tournaments", json={"name": "Solo", "players": [{"name": "A"}, {"name": "B"}]}
    )
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["entry"] == "player"
    assert [p["members"] for p in body["players"]] == [None, None]
    exported = client.get(f"/v1/tournaments/{body['id']}/export.csv").text
    assert "member_1" not in exported


def test_team_entries_need_their_two_players_and_single_entries_none(
    client: ApiClient,
) -> None:
    def attempt(entry: str | None, *players: dict[str, Any]) -> Any:
        body: dict[str, Any] = {"name": "x", "players": list(players)}
        if entry is not None:
            body["entry"] = entry
        return client.post("/v1/tournaments", json=body)

    a, b = {"name": "A", "members": ["Ada", "Bea"]}, {"name": "B", "members": ["Cid", "Dan"]}
    problem = assert_problem(attempt("team", a, {"name": "B"}), 422, "invalid_settings")
    assert "members" in problem["detail"]
    problem = assert_problem(
        attempt("team", a, {"name": "B", "members": ["Cid", " cid "]}), 422, "invalid_settings"
    )
    assert "two people" in problem["detail"]
    problem = assert_problem(attempt(None, a, b), 422, "invalid_settings")
    assert "single players" in problem["detail"]
    problem = assert_problem(
        attempt("team", a, {"name": "B", "members": ["Cid", "ada"]}), 422, "repeated_name"
    )
    assert "'Ada' already plays in the team 'A'" in problem["detail"]
    assert_problem(attempt("team", a, {"name": "B", "members": ["Cid"]}), 422, "validation_error")
    listed = client.get("/v1/tournaments").json()
    assert all(t["name"] != "x" for t in listed["items"])  # nothing was created


def test_a_late_team_and_a_substitute(app: FastAPI, client: ApiClient) -> None:
    t = create_doubles(client)
    play_round(client, t)
    late = client.post(
        f"/v1/tournaments/{t.id}/players",
        json={"name": "Late pair", "members": ["Esposito", "Romano"]},
        headers=t.auth,
    )
    assert late.status_code == 201, late.text
    assert late.json()["members"] == ["Esposito", "Romano"]
    taken = client.post(
        f"/v1/tournaments/{t.id}/players",
        json={"name": "Another", "members": ["Romano", "Greco"]},
        headers=t.auth,
    )
    assert_problem(taken, 409, "duplicate_name")

    changed = client.patch(
        f"/v1/tournaments/{t.id}/players/3",
        json={"members": ["Anna Giallo", "Carla Giallo"]},
        headers=t.auth,
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["members"] == ["Anna Giallo", "Carla Giallo"]
    last = stored(app, t.id)[-1]
    assert last["type"] == "player.updated"
    assert last["data"]["player"] == changed.json()
    rows = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    assert next(r for r in rows if r["player_id"] == 3)["members"] == [
        "Anna Giallo",
        "Carla Giallo",
    ]


def test_a_club_tournament_takes_no_team_entries(client: ApiClient) -> None:
    club = new_club(client)
    answer = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={
            "name": "Club doubles",
            "entry": "team",
            "players": [{"name": n, "members": m} for n, m in TEAMS],
        },
        headers=club.auth,
    )
    assert_problem(answer, 422, "team_entries_in_club")
    listed = client.get(f"/v1/clubs/{club.id}/tournaments").json()
    assert listed["items"] == []
