"""Locks only where needed: the token is checked before any lock, a command computes without
one, and a lock that cannot be had in time is a 503 ``busy`` problem, never a 500."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.domain.tournament import Tournament
from app.services import access
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create
from tests.client import ApiClient

WAIT = 60.0
"""Generous limit for an event the test waits for."""


@pytest.fixture
def settings(db_url: str) -> Settings:
    # A request that waited for a lock would give up after a second: 503, not the answer
    # the test expects.
    return Settings(database_url=db_url, lock_timeout=1.0)


@contextmanager
def lock_held(app: FastAPI, tournament_id: str) -> Iterator[None]:
    """Another transaction holds the tournament's lock (on SQLite: the database write lock)."""
    with Session(app.state.engine) as holder:
        access.lock_header(holder, tournament_id)
        try:
            yield
        finally:
            holder.rollback()


def test_a_wrong_token_is_refused_at_once_while_another_write_holds_the_lock(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 4)
    url = f"/v1/tournaments/{t.id}/rounds"
    with lock_held(app, t.id):
        wrong = client.post(url, headers={"Authorization": "Bearer nope"})
        missing = client.post(url)
        read = client.get(f"/v1/tournaments/{t.id}")
    assert_problem(wrong, 403, "forbidden")
    assert_problem(missing, 401, "unauthorized")
    assert read.status_code == 200
    assert read.json()["version"] == 1


def test_a_preview_takes_no_lock(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 4)
    url = f"/v1/tournaments/{t.id}/rounds"
    with lock_held(app, t.id):
        previewed = client.post(f"{url}/preview", headers=t.auth)
        generating = client.post(url, headers=t.auth)
    assert previewed.status_code == 200, previewed.text
    assert_problem(generating, 503, "busy")  # a write waits for the lock, the preview did not
    generated = client.post(url, headers=t.auth)
    assert generated.json() == previewed.json()


def test_a_lock_not_had_in_time_is_a_busy_problem_and_changes_nothing(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 4)
    with lock_held(app, t.id):
        busy = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)
        renamed = client.patch(f"/v1/tournaments/{t.id}", json={"name": "x"}, headers=t.auth)
    body = assert_problem(busy, 503, "busy")
    assert busy.headers["retry-after"] == "1"
    assert "try again" in body["detail"]
    assert_problem(renamed, 503, "busy")
    after = client.get(f"/v1/tournaments/{t.id}").json()
    assert (after["version"], after["name"], after["current_round"]) == (1, "Friday evening", 0)
    assert client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth).status_code == 201


class SlowRounds:
    """``Tournament.generate_round`` that, on its first call, waits until released."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.calls = 0
        self._original = Tournament.generate_round

    def generate_round(self, tournament: Tournament, **options: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            self.entered.set()
            assert self.release.wait(WAIT)
        return self._original(tournament, **options)


@contextmanager
def slow_generation(
    client: ApiClient, t: Organizer, monkeypatch: pytest.MonkeyPatch, **headers: str
) -> Iterator[tuple[SlowRounds, list[httpx.Response]]]:
    """``POST …/rounds`` on ``t`` running in the background, stopped inside the pairing."""
    slow = SlowRounds()
    monkeypatch.setattr(
        Tournament, "generate_round", lambda t, **options: slow.generate_round(t, **options)
    )
    answers: list[httpx.Response] = []
    thread = threading.Thread(
        target=lambda: answers.append(
            client.post(f"/v1/tournaments/{t.id}/rounds", headers={**t.auth, **headers})
        )
    )
    thread.start()
    try:
        assert slow.entered.wait(WAIT)
        yield slow, answers
    finally:
        slow.release.set()
        thread.join(WAIT)
    assert not thread.is_alive()


def test_a_slow_command_delays_no_write_to_another_tournament(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    busy, other = create(client, 8), create(client, 4)
    with slow_generation(client, busy, monkeypatch) as (slow, answers):
        added = client.post(
            f"/v1/tournaments/{other.id}/players", json={"name": "Late"}, headers=other.auth
        )
        renamed = client.patch(
            f"/v1/tournaments/{other.id}", json={"name": "B"}, headers=other.auth
        )
        standings = client.get(f"/v1/tournaments/{busy.id}/standings")
        assert not answers  # the slow round is still being paired
    assert added.status_code == 201, added.text
    assert renamed.status_code == 200, renamed.text
    assert standings.status_code == 200
    assert answers[0].status_code == 201, answers[0].text
    assert slow.calls == 1
    assert client.get(f"/v1/tournaments/{other.id}").json()["version"] == 3


def test_a_write_saved_while_a_round_is_paired_is_kept_and_the_round_sees_it(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 8)
    with slow_generation(client, t, monkeypatch) as (slow, answers):
        added = client.post(
            f"/v1/tournaments/{t.id}/players", json={"name": "Late"}, headers=t.auth
        )
        assert added.status_code == 201, added.text
    assert answers[0].status_code == 201, answers[0].text
    assert slow.calls == 2  # paired again, under the lock, with the player added meanwhile
    swiss_round = answers[0].json()
    paired = [p for m in swiss_round["matches"] for p in (m["home"], m["away"])]
    assert sorted(paired + swiss_round["byes"]) == list(range(1, 10))
    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert (tournament["version"], tournament["current_round"]) == (3, 1)
    assert answers[0].headers["etag"] == '"3"'


def test_if_match_refuses_a_command_whose_tournament_changed_while_it_computed(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 8)
    with slow_generation(client, t, monkeypatch, **{"If-Match": '"1"'}) as (slow, answers):
        renamed = client.patch(f"/v1/tournaments/{t.id}", json={"name": "New"}, headers=t.auth)
        assert renamed.status_code == 200
    assert_problem(answers[0], 412, "precondition_failed")
    assert slow.calls == 1
    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert (tournament["version"], tournament["current_round"]) == (2, 0)
    assert client.get(f"/v1/tournaments/{t.id}/rounds").json() == []
