"""A register merge against the writes to a club's tournament that need the club too, on
PostgreSQL (SQLite has one write lock, so they never interleave): no deadlock, no refused
write, whichever gets where first.

Such a write locks its tournament, then the club (the result that finishes it, to rate it; a
change to a finished season evening, for its ``season.updated``). A merge locks the
tournaments of the entry it merges, then the club. The orders that went wrong before are set
up exactly: a side transaction holds a row one of them needs, both requests are sent, and
the side lets go once both wait (``pg_stat_activity``); then both requests run concurrently,
many times, from a barrier.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.settings import Settings
from tests.api.clubs import Club, add_entry, new_club
from tests.api.test_rating_replay import assert_as_from_nothing
from tests.client import ApiClient

WAIT = 20.0
"""Seconds a test waits for requests to reach their lock waits (a loaded machine)."""


@pytest.fixture
def settings(db_url: str) -> Settings:
    if db_url.startswith("sqlite"):
        pytest.skip("row locks: PostgreSQL's")
    return Settings(database_url=db_url, create_rate=0)


def waiting(connection: Connection) -> int:
    found = connection.execute(
        text(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
    ).scalar_one()
    return int(found)


def wait_until_waiting(app: FastAPI, count: int) -> None:
    """Until ``count`` sessions of this database wait for a lock (polled, bounded)."""
    deadline = time.monotonic() + WAIT
    with app.state.engine.connect() as connection:
        while waiting(connection) < count:
            assert time.monotonic() < deadline, "the requests never reached their lock waits"
            time.sleep(0.005)
            connection.rollback()


@contextmanager
def holding(app: FastAPI, statement: str, **params: Any) -> Iterator[None]:
    """A side transaction that locks a row (``… FOR UPDATE``) until the block ends."""
    with app.state.engine.connect() as connection:
        connection.execute(text(statement), params)
        yield
        connection.rollback()


class Evening:
    """A club tournament of four register entries, one round of two boards; ``merged`` plays
    in it, ``kept`` does not (the merge keeps ``kept``)."""

    def __init__(self, client: ApiClient, club: Club, label: str, *, season: int | None) -> None:
        self.client, self.club = client, club
        names = [f"{label} {n}" for n in ("Merged", "A", "B", "C")]
        entries = [add_entry(client, club, n)["id"] for n in names]
        self.merged = entries[0]
        self.kept = add_entry(client, club, f"{label} Kept")["id"]
        made = client.post(
            f"/v1/clubs/{club.id}/tournaments",
            json={
                "name": label,
                "players": [{"club_player_id": i} for i in entries],
                "swiss_rounds": 1,
                "final_phase": "none",
                "seed": 7,
                **({"season_id": season} if season else {}),
            },
            headers=club.auth,
        )
        assert made.status_code == 201, made.text
        self.id = made.json()["id"]
        paired = client.post(f"/v1/tournaments/{self.id}/rounds", headers=club.auth)
        assert paired.status_code == 201, paired.text
        self.boards = [m["id"] for m in paired.json()["matches"]]
        players = client.get(f"/v1/tournaments/{self.id}/players").json()
        self.player = next(p["id"] for p in players if p["name"] == names[0])
        self.result(0)

    def result(self, board: int) -> httpx.Response:
        path = f"/v1/tournaments/{self.id}/matches/{self.boards[board]}/result"
        return self.client.put(path, json={"home": 2, "away": 1}, headers=self.club.auth)

    def finish(self) -> httpx.Response:
        return self.result(1)

    def rename(self) -> httpx.Response:
        path = f"/v1/tournaments/{self.id}/players/{self.player}"
        return self.client.patch(path, json={"name": "Renamed"}, headers=self.club.auth)

    def merge(self) -> httpx.Response:
        path = f"/v1/clubs/{self.club.id}/players/{self.kept}/merge"
        return self.client.post(path, json={"merged_id": self.merged}, headers=self.club.auth)


def both(
    app: FastAPI,
    first: Callable[[], httpx.Response],
    second: Callable[[], httpx.Response],
    *,
    side: tuple[str, dict[str, Any]],
) -> list[httpx.Response]:
    """``first``, then ``second`` once ``first`` waits for the side transaction's row, which
    it lets go once both wait."""
    with ThreadPoolExecutor(2) as pool:
        with holding(app, side[0], **side[1]):
            sent: list[Future[httpx.Response]] = [pool.submit(first)]
            wait_until_waiting(app, 1)
            sent.append(pool.submit(second))
            wait_until_waiting(app, 2)
        return [f.result(timeout=WAIT) for f in sent]


def assert_ok(responses: list[httpx.Response]) -> None:
    assert [r.status_code for r in responses] == [200, 200], [r.text for r in responses]


def test_a_merge_that_holds_the_club_while_the_last_result_waits(
    app: FastAPI, client: ApiClient
) -> None:
    """Before: the merge held the club and waited for the side's lock on the kept entry; the
    last result saved its tournament and waited for the club with the players' entries read
    before the merge moved them, then rated the merged (gone) entry: 409 ``conflict``."""
    club = new_club(client)
    evening = Evening(client, club, "Friday", season=None)
    side = ("SELECT id FROM club_player WHERE id = :id FOR UPDATE", {"id": evening.kept})
    assert_ok(both(app, evening.merge, evening.finish, side=side))
    assert_as_from_nothing(app, club.id)
    history = client.get(
        f"/v1/clubs/{club.id}/players/{evening.kept}/history", headers=club.auth
    ).json()
    assert [h["tournament_id"] for h in history["items"]] == [evening.id]


def test_a_change_to_a_finished_season_evening_and_a_merge_do_not_deadlock(
    app: FastAPI, client: ApiClient
) -> None:
    """Before: the rename held its tournament and its player's row and waited for the club
    (``season.updated``); the merge held the club and waited for that player row: PostgreSQL
    found the deadlock and one of them failed (500)."""
    club = new_club(client)
    season = client.post(
        f"/v1/clubs/{club.id}/seasons",
        json={"name": "Winter", "scoring": "points"},
        headers=club.auth,
    )
    assert season.status_code == 201, season.text
    evening = Evening(client, club, "Friday", season=season.json()["id"])
    assert evening.finish().status_code == 200
    side = (
        "SELECT number FROM player WHERE tournament_id = :t AND number = :n FOR UPDATE",
        {"t": evening.id, "n": evening.player},
    )
    assert_ok(both(app, evening.rename, evening.merge, side=side))
    assert_as_from_nothing(app, club.id)


ROUNDS = 12


def after(barrier: threading.Barrier, send: Callable[[], httpx.Response]) -> httpx.Response:
    barrier.wait(timeout=WAIT)
    return send()


def test_last_results_and_merges_at_once_many_times(app: FastAPI, client: ApiClient) -> None:
    """The two sent together from a barrier, again and again: every one answers 200 and the
    ratings are those of rating the club from nothing."""
    club = new_club(client)
    evenings = [Evening(client, club, f"Evening {i}", season=None) for i in range(ROUNDS)]
    for evening in evenings:
        barrier = threading.Barrier(2)

        with ThreadPoolExecutor(2) as pool:
            sent = [pool.submit(after, barrier, send) for send in (evening.finish, evening.merge)]
            assert_ok([f.result(timeout=WAIT) for f in sent])
    assert_as_from_nothing(app, club.id)
