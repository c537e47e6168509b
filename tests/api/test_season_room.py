"""A season's 366 places: counted under the club's lock, so two writes that each add the 366th
tournament at once cannot both pass the count (one gets 409 ``season_full``)."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from app.services import seasons, storage
from tests.api.clubs import Club, club_tournament, new_club
from tests.api.helpers import assert_problem
from tests.client import ApiClient

WAIT = 60.0
"""Generous limit for the other thread to reach the barrier (a failure, not a sleep)."""
T = storage.T
PLAYERS = [{"name": n} for n in ("Rossi", "Bianchi", "Verdi", "Neri")]


def fill(app: FastAPI, season_id: int, like: str, count: int) -> None:
    """``count`` tournaments in the season, as copies of the row of tournament ``like`` (only
    their number matters to the season's room), in one statement."""
    with Session(app.state.engine) as session:
        row = dict(session.execute(select(T).where(T.c.id == like)).mappings().one())
        session.execute(
            insert(T),
            [{**row, "id": f"filler{i:05d}", "season_id": season_id} for i in range(count)],
        )
        session.commit()


def in_season(app: FastAPI, season_id: int) -> int:
    with Session(app.state.engine) as session:
        return int(
            session.execute(
                select(func.count()).select_from(T).where(T.c.season_id == season_id)
            ).scalar_one()
        )


def new_season(client: ApiClient, club: Club) -> dict[str, Any]:
    made = client.post(
        f"/v1/clubs/{club.id}/seasons",
        json={"name": "Winter", "scoring": "points"},
        headers=club.auth,
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def test_a_full_season_refuses_a_join_and_a_creation(app: FastAPI, client: ApiClient) -> None:
    club = new_club(client)
    season = new_season(client, club)
    last, extra = (club_tournament(client, club, PLAYERS) for _ in range(2))
    fill(app, season["id"], last["id"], seasons.MAX_EVENINGS - 1)
    put = {"season_id": season["id"]}
    joined = client.put(f"/v1/tournaments/{last['id']}/season", json=put, headers=club.auth)
    assert joined.status_code == 200, joined.text  # the 366th
    again = client.put(f"/v1/tournaments/{last['id']}/season", json=put, headers=club.auth)
    assert again.status_code == 200, again.text  # already in it: takes no place
    full = client.put(f"/v1/tournaments/{extra['id']}/season", json=put, headers=club.auth)
    assert_problem(full, 409, "season_full")
    made = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={"name": "One more", "players": PLAYERS, "season_id": season["id"]},
        headers=club.auth,
    )
    assert_problem(made, 409, "season_full")
    assert in_season(app, season["id"]) == seasons.MAX_EVENINGS
    assert client.get(f"/v1/tournaments/{extra['id']}").json()["season_id"] is None


@pytest.mark.postgres
def test_two_joins_at_365_only_one_gets_the_last_place(
    app: FastAPI, client: ApiClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite runs one write at a time (its database lock): a PostgreSQL race")
    club = new_club(client)
    season = new_season(client, club)
    joining = [club_tournament(client, club, PLAYERS) for _ in range(2)]
    fill(app, season["id"], joining[0]["id"], seasons.MAX_EVENINGS - 1)
    # Both writes hold their own tournament's lock and reach the count together: without the
    # club's lock around it both would count 365 and both would join.
    barrier = threading.Barrier(2)
    original = seasons.claim_room

    def claim_room(session: Session, club_id: str, season_id: int) -> None:
        barrier.wait(WAIT)
        original(session, club_id, season_id)

    monkeypatch.setattr(seasons, "claim_room", claim_room)
    answers: dict[str, httpx.Response] = {}

    def join(tournament_id: str) -> None:
        answers[tournament_id] = client.put(
            f"/v1/tournaments/{tournament_id}/season",
            json={"season_id": season["id"]},
            headers=club.auth,
        )

    threads = [threading.Thread(target=join, args=(t["id"],)) for t in joining]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not any(thread.is_alive() for thread in threads)
    assert sorted(a.status_code for a in answers.values()) == [200, 409]
    refused = next(a for a in answers.values() if a.status_code == 409)
    assert_problem(refused, 409, "season_full")
    assert in_season(app, season["id"]) == seasons.MAX_EVENINGS
    seasons_now = [client.get(f"/v1/tournaments/{t['id']}").json()["season_id"] for t in joining]
    assert sorted(seasons_now, key=str) == sorted([season["id"], None], key=str)
