"""The player register: search by name or alias (accents, case, punctuation aside), paged; a
club tournament's players from it or new names that join it; a merge that keeps every result."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.api.clubs import Club, add_entry, club_tournament, new_club, search
from tests.api.helpers import assert_problem
from tests.client import ApiClient


def entry(client: ApiClient, club: Club, entry_id: int) -> dict[str, Any]:
    found = client.get(f"/v1/clubs/{club.id}/players/{entry_id}", headers=club.auth)
    assert found.status_code == 200, found.text
    body: dict[str, Any] = found.json()
    return body


def test_search_folds_accents_case_and_punctuation_and_finds_aliases(client: ApiClient) -> None:
    club = new_club(client)
    add_entry(client, club, "Jürgen Müller", aliases=["Juergen Mueller"], rating=1850)
    add_entry(client, club, "Šťastný", title="FM", fide_id=1503014)
    add_entry(client, club, "O'Brien-Smith", team="Dublin")
    add_entry(client, club, "Ørsted")
    add_entry(client, club, "100%_Rossi")
    assert search(client, club, "muller") == ["Jürgen Müller"]
    assert search(client, club, "MÜLLER") == ["Jürgen Müller"]
    assert search(client, club, "mueller") == ["Jürgen Müller"]  # by its alias
    assert search(client, club, "STASTN") == ["Šťastný"]
    assert search(client, club, "obrien smith") == ["O'Brien-Smith"]
    assert search(client, club, "orsted") == ["Ørsted"]
    assert search(client, club, "%") == search(client, club)  # folds to nothing: every entry
    assert search(client, club, "100 rossi") == ["100%_Rossi"]
    assert search(client, club, "m_ller") == []  # `_` is no wildcard: it folds to a space
    assert search(client, club, "zz") == []
    # every entry, in folded name order
    assert search(client, club) == [
        "100%_Rossi",
        "Jürgen Müller",
        "O'Brien-Smith",
        "Ørsted",
        "Šťastný",
    ]


def test_the_register_is_paged_in_name_order(client: ApiClient) -> None:
    club = new_club(client)
    names = ["Élodie", "adam", "Bruno", "bruno", "Zoë", "Çelik", "émile"]
    for name in names:
        add_entry(client, club, name)
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        params: dict[str, Any] = {"limit": 3}
        if cursor:
            params["cursor"] = cursor
        page = client.get(f"/v1/clubs/{club.id}/players", params=params, headers=club.auth).json()
        seen += [e["name"] for e in page["items"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3
    assert seen == ["adam", "Bruno", "bruno", "Çelik", "Élodie", "émile", "Zoë"]
    foreign = client.get(
        f"/v1/clubs/{club.id}/players", params={"cursor": "bm9wZQ=="}, headers=club.auth
    )
    assert_problem(foreign, 422, "validation_error")


def test_an_entry_is_changed_and_searched_under_its_new_names(client: ApiClient) -> None:
    club = new_club(client)
    made = add_entry(client, club, "Rossi", aliases=["Rossi", "rossi", "Mario"], rating=1500)
    assert made["aliases"] == ["Mario"]  # the name itself and repeats are kept once
    path = f"/v1/clubs/{club.id}/players/{made['id']}"
    changed = client.patch(
        path,
        json={"name": "Mario Rossi", "aliases": ["Rossi M."], "rating": None, "title": "CM"},
        headers=club.auth,
    )
    assert changed.status_code == 200, changed.text
    assert (changed.json()["name"], changed.json()["aliases"]) == ("Mario Rossi", ["Rossi M."])
    assert (changed.json()["rating"], changed.json()["title"]) == (None, "CM")
    assert search(client, club, "rossi m") == ["Mario Rossi"]
    assert search(client, club, "mario") == ["Mario Rossi"]
    too_many = client.post(
        f"/v1/clubs/{club.id}/players",
        json={"name": "X", "aliases": [f"X{i}" for i in range(21)]},
        headers=club.auth,
    )
    assert_problem(too_many, 422, "validation_error")
    assert_problem(
        client.get(f"/v1/clubs/{club.id}/players/9999", headers=club.auth),
        404,
        "club_player_not_found",
    )
    trail = client.get(f"/v1/clubs/{club.id}/audit", headers=club.auth).json()["items"]
    assert [e["action"] for e in trail] == [
        "clubs-create",
        "club-players-create",
        "club-players-update",
    ]


def test_a_club_tournament_takes_entries_and_enters_new_names(client: ApiClient) -> None:
    club = new_club(client)
    muller = add_entry(client, club, "Müller", aliases=["Mueller"], rating=1900, team="Trento")
    rossi = add_entry(client, club, "Rossi")
    made = club_tournament(
        client,
        club,
        [{"club_player_id": muller["id"]}, {"name": "ROSSI"}, {"name": "Verdi", "rating": 1600}],
    )
    assert [(p["name"], p["rating"], p["team"]) for p in made["players"]] == [
        ("Müller", 1900, "Trento"),
        ("ROSSI", None, None),
        ("Verdi", 1600, None),
    ]
    assert [t["tournament_id"] for t in entry(client, club, rossi["id"])["tournaments"]] == [
        made["id"]
    ]
    assert search(client, club) == ["Müller", "Rossi", "Verdi"]  # Verdi joined the register
    verdi = client.get(f"/v1/clubs/{club.id}/players", params={"q": "verdi"}, headers=club.auth)
    verdi_entry = verdi.json()["items"][0]
    assert verdi_entry["rating"] == 1600
    # the next evening, by alias: the same person
    again = club_tournament(client, club, [{"name": "mueller"}, {"club_player_id": rossi["id"]}])
    played = entry(client, club, muller["id"])["tournaments"]
    assert [(t["tournament_id"], t["player_id"], t["name"]) for t in played] == [
        (made["id"], 1, "Müller"),
        (again["id"], 1, "mueller"),
    ]


def test_a_club_tournament_refuses_one_person_twice_and_unknown_entries(client: ApiClient) -> None:
    club = new_club(client)
    other = new_club(client, "Other")
    muller = add_entry(client, club, "Müller")
    theirs = add_entry(client, other, "Bianchi")
    path = f"/v1/clubs/{club.id}/tournaments"
    twice = client.post(
        path,
        json={"name": "x", "players": [{"club_player_id": muller["id"]}, {"name": "muller"}]},
        headers=club.auth,
    )
    assert_problem(twice, 422, "repeated_club_player")
    foreign = client.post(
        path,
        json={"name": "x", "players": [{"club_player_id": theirs["id"]}, {"name": "A"}]},
        headers=club.auth,
    )
    assert_problem(foreign, 404, "club_player_not_found")
    add_entry(client, club, "Bruno", aliases=["Rossi"])
    add_entry(client, club, "Rossi")
    ambiguous = client.post(
        path, json={"name": "x", "players": [{"name": "rossi"}, {"name": "A"}]}, headers=club.auth
    )
    assert_problem(ambiguous, 409, "ambiguous_club_player")
    both = client.post(
        path,
        json={"name": "x", "players": [{"club_player_id": 1, "name": "A"}, {"name": "B"}]},
        headers=club.auth,
    )
    assert_problem(both, 422, "validation_error")
    assert search(client, club) == ["Bruno", "Müller", "Rossi"]  # refusals entered no one


def play_evening(client: ApiClient, club: Club, players: list[dict[str, Any]]) -> dict[str, Any]:
    """One round, home wins every board, and the standings read."""
    made = club_tournament(client, club, players, swiss_rounds=1, final_phase="none")
    tid = made["id"]
    matches = client.post(f"/v1/tournaments/{tid}/rounds", headers=club.auth).json()["matches"]
    for match in matches:
        client.put(
            f"/v1/tournaments/{tid}/matches/{match['id']}/result",
            json={"home": 1, "away": 0},
            headers=club.auth,
        )
    return {"id": tid, "standings": client.get(f"/v1/tournaments/{tid}/standings").json()}


def test_a_merge_keeps_every_past_result_with_the_kept_entry(
    app: FastAPI, client: ApiClient
) -> None:
    club = new_club(client)
    muller = add_entry(client, club, "Müller", rating=1900)
    mueller = add_entry(client, club, "Mueller J.", fide_id=1503014, team="Trento")
    others = [add_entry(client, club, n) for n in ("A", "B", "C")]
    first = play_evening(
        client,
        club,
        [{"club_player_id": muller["id"]}, *[{"club_player_id": o["id"]} for o in others]],
    )
    second = play_evening(
        client,
        club,
        [{"club_player_id": mueller["id"]}, *[{"club_player_id": o["id"]} for o in others]],
    )
    before = [first["standings"], second["standings"]]

    merged = client.post(
        f"/v1/clubs/{club.id}/players/{muller['id']}/merge",
        json={"merged_id": mueller["id"]},
        headers=club.auth,
    )
    assert merged.status_code == 200, merged.text
    body = merged.json()
    assert (body["name"], body["aliases"], body["rating"]) == ("Müller", ["Mueller J."], 1900)
    assert (body["fide_id"], body["team"]) == (1503014, "Trento")
    assert [t["tournament_id"] for t in body["tournaments"]] == [first["id"], second["id"]]
    assert_problem(
        client.get(f"/v1/clubs/{club.id}/players/{mueller['id']}", headers=club.auth),
        404,
        "club_player_not_found",
    )
    assert search(client, club, "mueller j") == ["Müller"]
    # the results themselves did not move: every standings table reads as before
    after = [client.get(f"/v1/tournaments/{t['id']}/standings").json() for t in (first, second)]
    assert after == before
    with Session(app.state.engine) as session:
        linked = session.execute(
            text("SELECT tournament_id, club_player_id FROM player WHERE number = 1 ORDER BY 1")
        ).all()
    assert sorted(linked) == sorted([(first["id"], muller["id"]), (second["id"], muller["id"])])
    trail = client.get(f"/v1/clubs/{club.id}/audit", headers=club.auth).json()["items"]
    assert trail[-1]["action"] == "club-players-merge"
    assert trail[-1]["detail"] == {
        "player_id": muller["id"],
        "merged_id": mueller["id"],
        "merged_name": "Mueller J.",
    }


def test_a_merge_is_refused_for_two_people(client: ApiClient) -> None:
    club = new_club(client)
    a = add_entry(client, club, "Rossi", fide_id=1)
    b = add_entry(client, club, "Rossi M.", fide_id=2)
    c = add_entry(client, club, "Bianchi")
    d = add_entry(client, club, "Verdi")
    path = f"/v1/clubs/{club.id}/players/{{}}/merge"
    refusals = [
        (a["id"], a["id"], 409, "merge_with_itself"),
        (a["id"], b["id"], 409, "merge_different_fide_ids"),
        (a["id"], 999, 404, "club_player_not_found"),
    ]
    for kept, gone, status, code in refusals:
        answer = client.post(path.format(kept), json={"merged_id": gone}, headers=club.auth)
        assert_problem(answer, status, code)
    club_tournament(client, club, [{"club_player_id": c["id"]}, {"club_player_id": d["id"]}])
    together = client.post(path.format(c["id"]), json={"merged_id": d["id"]}, headers=club.auth)
    assert_problem(together, 409, "merge_played_together")
    assert search(client, club) == ["Bianchi", "Rossi", "Rossi M.", "Verdi"]


def test_a_late_entry_of_a_club_tournament_comes_from_the_register(client: ApiClient) -> None:
    club = new_club(client)
    muller = add_entry(client, club, "Müller", rating=2000, title="FM")
    made = club_tournament(client, club, [{"name": "A"}, {"name": "B"}])
    path = f"/v1/tournaments/{made['id']}/players"
    by_id = client.post(path, json={"club_player_id": muller["id"]}, headers=club.auth)
    assert by_id.status_code == 201, by_id.text
    assert (by_id.json()["name"], by_id.json()["rating"], by_id.json()["title"]) == (
        "Müller",
        2000,
        "FM",
    )
    own = {"Authorization": f"Bearer {made['organizer_token']}"}
    by_name = client.post(path, json={"name": "Verdi", "rating": 1500}, headers=own)
    assert by_name.status_code == 201, by_name.text
    assert search(client, club) == ["A", "B", "Müller", "Verdi"]
    played = entry(client, club, muller["id"])["tournaments"]
    assert [(t["tournament_id"], t["player_id"]) for t in played] == [(made["id"], 3)]
    again = client.post(path, json={"name": "MULLER"}, headers=club.auth)
    assert_problem(again, 422, "repeated_club_player")
    alone = client.post(
        "/v1/tournaments", json={"name": "x", "players": [{"name": "A"}, {"name": "B"}]}
    ).json()
    refused = client.post(
        f"/v1/tournaments/{alone['id']}/players",
        json={"club_player_id": muller["id"]},
        headers={"Authorization": f"Bearer {alone['organizer_token']}"},
    )
    assert_problem(refused, 422, "not_a_club_tournament")


def test_a_name_that_folds_longer_than_the_order_key_is_kept_and_found(client: ApiClient) -> None:
    club = new_club(client)
    long_name = "ﷺ" * 80  # one character that unfolds to 18 letters
    made = add_entry(client, club, long_name)
    assert made["name"] == long_name
    assert search(client, club, "ﷺﷺ") == [long_name]
