"""A season renamed, given another rule, and deleted (its tournaments leave it and stay); who
may; what the club's trail and events say."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.services import seasons
from tests.api.clubs import Club, club_tournament, new_club
from tests.api.helpers import assert_problem
from tests.api.test_seasons import NAMES, made_auth, new_season, play_evening
from tests.client import ApiClient

WAIT = 60.0
PLAYERS = [{"name": n} for n in NAMES[:4]]


def club_events(client: ApiClient, club: Club, after: int = 0) -> list[tuple[str, dict[str, Any]]]:
    read = client.get(
        f"/v1/clubs/{club.id}/events", params={"after": after, "limit": 500}, headers=club.auth
    )
    assert read.status_code == 200, read.text
    return [(e["type"], e["data"]) for e in read.json()["items"]]


def club_trail(client: ApiClient, club: Club) -> list[dict[str, Any]]:
    read = client.get(f"/v1/clubs/{club.id}/audit", params={"limit": 100}, headers=club.auth)
    assert read.status_code == 200, read.text
    items: list[dict[str, Any]] = read.json()["items"]
    return items


def test_a_new_rule_re_ranks_the_table_and_a_rename_shows_in_it(client: ApiClient) -> None:
    club = new_club(client)
    season = new_season(client, club, "points")
    made = club_tournament(
        client, club, PLAYERS, swiss_rounds=3, final_phase="none", season_id=season["id"]
    )
    play_evening(client, club, made)
    url = f"/v1/clubs/{club.id}/seasons/{season['id']}"
    table = client.get(f"{url}/standings")
    assert [(r["name"], r["score"]) for r in table.json()["rows"]] == [
        ("Giocatore 01", 9), ("Giocatore 02", 6), ("Giocatore 03", 3), ("Giocatore 04", 0),
    ]  # fmt: skip
    seen = len(club_events(client, club))

    changed = client.patch(
        url, json={"scoring": "places", "place_points": [5, 3, 1]}, headers=club.auth
    )
    assert changed.status_code == 200, changed.text
    body = changed.json()
    assert (body["scoring"], body["place_points"], body["best"], body["version"]) == (
        "places", [5, 3, 1], None, 2,
    )  # fmt: skip
    assert changed.headers["etag"] == '"2"'
    again = client.get(f"{url}/standings", headers={"If-None-Match": table.headers["etag"]})
    assert again.status_code == 200  # the rule moved the table's ETag
    assert [(r["name"], r["score"]) for r in again.json()["rows"]] == [
        ("Giocatore 01", 5), ("Giocatore 02", 3), ("Giocatore 03", 1), ("Giocatore 04", 0),
    ]  # fmt: skip
    assert client.get(url).json()["place_points"] == [5, 3, 1]

    renamed = client.patch(url, json={"name": "Inverno"}, headers=club.auth)
    assert (renamed.json()["name"], renamed.json()["version"]) == ("Inverno", 3)
    assert renamed.json()["place_points"] == [5, 3, 1]  # the rest as it was
    assert client.get(f"{url}/standings").json()["season"]["name"] == "Inverno"
    same = client.patch(url, json={"name": "Inverno", "scoring": "places"}, headers=club.auth)
    assert same.json()["version"] == 3  # the same values: nothing changes
    # leaving `places` drops the table; `best` given, then cleared with null
    averaged = client.patch(url, json={"scoring": "average", "best": 2}, headers=club.auth)
    assert (averaged.json()["place_points"], averaged.json()["best"]) == ([], 2)
    cleared = client.patch(url, json={"best": None}, headers=club.auth)
    assert (cleared.json()["scoring"], cleared.json()["best"]) == ("average", None)
    assert client.patch(url, json={"scoring": "places"}, headers=club.auth).json()[
        "place_points"
    ] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]

    told = club_events(client, club)[seen:]
    assert told == [
        ("season.updated", {"season_id": season["id"], "tournament_id": None,
                            "reason": "settings", "changed": changed_fields})
        for changed_fields in (
            ["place_points", "scoring"], ["name"], ["best", "place_points", "scoring"], ["best"],
            ["place_points", "scoring"],
        )
    ]  # fmt: skip
    trail = [e for e in club_trail(client, club) if e["action"] == "seasons-update"]
    assert [e["detail"] for e in trail][:2] == [
        {"season_id": season["id"], "scoring": "places", "place_points": [5, 3, 1]},
        {"season_id": season["id"], "name": "Inverno"},
    ]
    assert trail[0]["actor"].startswith("club:")


def test_what_a_change_refuses(client: ApiClient) -> None:
    club = new_club(client)
    other = new_club(client, "Circolo Trento")
    season = new_season(client, club, "points")
    theirs = new_season(client, other, "points")
    url = f"/v1/clubs/{club.id}/seasons/{season['id']}"
    body = {"name": "x"}
    assert_problem(client.patch(url, json=body), 401, "unauthorized")
    assert_problem(client.delete(url), 401, "unauthorized")
    assert_problem(client.patch(url, json=body, headers=other.auth), 403, "forbidden")
    assert_problem(client.delete(url, headers=other.auth), 403, "forbidden")
    mine = club_tournament(client, club, PLAYERS)
    assert_problem(client.patch(url, json=body, headers=made_auth(mine)), 403, "forbidden")
    assert_problem(client.delete(url, headers=made_auth(mine)), 403, "forbidden")
    elsewhere = f"/v1/clubs/{club.id}/seasons/{theirs['id']}"  # another club's, with our key
    assert_problem(client.patch(elsewhere, json=body, headers=club.auth), 404, "season_not_found")
    assert_problem(client.delete(elsewhere, headers=club.auth), 404, "season_not_found")
    assert_problem(
        client.patch(url, json={"place_points": [3, 2, 1]}, headers=club.auth),
        422,
        "place_points_without_places",
    )
    assert_problem(
        client.patch(url, json={"scoring": "points", "place_points": [3]}, headers=club.auth),
        422,
        "validation_error",
    )
    assert_problem(client.patch(url, json={"best": 0}, headers=club.auth), 422, "validation_error")
    assert_problem(client.patch(url, json={"club_id": "x"}, headers=club.auth), 422,
                   "validation_error")  # fmt: skip
    stale = client.patch(url, json=body, headers={**club.auth, "If-Match": '"7"'})
    assert_problem(stale, 412, "precondition_failed")
    assert_problem(client.delete(url, headers={**club.auth, "If-Match": '"7"'}), 412,
                   "precondition_failed")  # fmt: skip
    fresh = client.patch(url, json=body, headers={**club.auth, "If-Match": '"1"'})
    assert fresh.status_code == 200, fresh.text
    assert client.get(url).json()["name"] == "x"
    assert client.get(elsewhere).status_code == 404
    assert client.get(f"/v1/clubs/{other.id}/seasons/{theirs['id']}").json()["version"] == 1


def test_a_deleted_season_lets_its_tournaments_go_and_they_stay(client: ApiClient) -> None:
    club = new_club(client)
    season = new_season(client, club, "points")
    spring = new_season(client, club, "places")
    finished = club_tournament(
        client, club, PLAYERS, swiss_rounds=3, final_phase="none", season_id=season["id"]
    )
    play_evening(client, club, finished)
    waiting = club_tournament(client, club, PLAYERS, season_id=season["id"])
    elsewhere = club_tournament(client, club, PLAYERS, season_id=spring["id"])
    before = {t["id"]: client.get(f"/v1/tournaments/{t['id']}") for t in (finished, waiting)}
    standings = client.get(f"/v1/tournaments/{finished['id']}/standings").json()
    seen = len(club_events(client, club))

    url = f"/v1/clubs/{club.id}/seasons/{season['id']}"
    gone = client.delete(url, headers={**club.auth, "If-Match": '"1"'})
    assert gone.status_code == 204, gone.text
    assert_problem(client.get(url), 404, "season_not_found")
    assert_problem(client.get(f"{url}/standings"), 404, "season_not_found")
    assert_problem(client.delete(url, headers=club.auth), 404, "season_not_found")
    assert [s["id"] for s in client.get(f"/v1/clubs/{club.id}/seasons").json()["items"]] == [
        spring["id"]
    ]
    for tid, read in before.items():
        now = client.get(f"/v1/tournaments/{tid}", headers={"If-None-Match": read.headers["etag"]})
        assert now.status_code == 200  # its version moved: a cached read is not current
        assert now.json()["season_id"] is None
        assert now.json()["version"] == read.json()["version"] + 1
        trail = client.get(f"/v1/tournaments/{tid}/audit", headers=club.auth).json()["items"]
        assert (trail[-1]["action"], trail[-1]["detail"], trail[-1]["actor"][:5]) == (
            "tournaments-season", {"season_id": None, "deleted_season_id": season["id"]}, "club:",
        )  # fmt: skip
    assert client.get(f"/v1/tournaments/{finished['id']}/standings").json() == standings
    assert client.get(f"/v1/tournaments/{elsewhere['id']}").json()["season_id"] == spring["id"]
    assert club_events(client, club)[seen:] == [
        ("season.deleted", {"season_id": season["id"], "tournaments": 2})
    ]
    deleted = [e for e in club_trail(client, club) if e["action"] == "seasons-delete"]
    assert [e["detail"] for e in deleted] == [
        {"season_id": season["id"], "name": "Winter points",
         "tournaments": sorted([finished["id"], waiting["id"]])}
    ]  # fmt: skip
    # the finished evening counts in the season it joins next, as any
    joined = client.put(
        f"/v1/tournaments/{finished['id']}/season",
        json={"season_id": spring["id"]},
        headers=club.auth,
    )
    assert joined.status_code == 200, joined.text
    rows = client.get(f"/v1/clubs/{club.id}/seasons/{spring['id']}/standings").json()["rows"]
    assert [(r["name"], r["score"]) for r in rows][:2] == [
        ("Giocatore 01", 25),
        ("Giocatore 02", 18),
    ]
    empty = client.delete(f"/v1/clubs/{club.id}/seasons/{spring['id']}", headers=club.auth)
    assert empty.status_code == 204


@pytest.mark.postgres
def test_a_join_that_waited_for_a_deleted_season_is_refused(
    app: FastAPI, client: ApiClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite runs one write at a time: the join holds the database's write lock")
    club = new_club(client)
    season = new_season(client, club, "points")
    joining = club_tournament(client, club, PLAYERS)
    url = f"/v1/clubs/{club.id}/seasons/{season['id']}"
    deleted: list[httpx.Response] = []
    original = seasons.claim_room

    def claim_room(session: Session, club_id: str, season_id: int) -> None:
        # The join holds its tournament's lock; the season is deleted before it counts.
        worker = threading.Thread(
            target=lambda: deleted.append(client.delete(url, headers=club.auth))
        )
        worker.start()
        worker.join(WAIT)
        original(session, club_id, season_id)

    monkeypatch.setattr(seasons, "claim_room", claim_room)
    joined = client.put(
        f"/v1/tournaments/{joining['id']}/season",
        json={"season_id": season["id"]},
        headers=club.auth,
    )
    assert deleted[0].status_code == 204, deleted[0].text
    assert_problem(joined, 404, "season_not_found")
    assert client.get(f"/v1/tournaments/{joining['id']}").json()["season_id"] is None
