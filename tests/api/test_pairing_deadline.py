"""The pairing deadline through the API: it counts the CPU time the pairing uses, so a round
slowed by a busy machine is paired; a separate, larger bound on the clock still holds.

A fake step of the ``nearest`` search stands in for a slow pairing: it either waits while
another thread uses the CPU (the pairing thread preempted on a loaded machine) or burns CPU
itself, then checks the deadline as every search step does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi import FastAPI

from app.domain import tournament
from app.domain.deadline import Deadline
from app.domain.matches import GeneratedRound
from app.domain.pairing.interface import Constraints, RoundRequest
from app.domain.pairing.registry import SYSTEMS
from app.domain.types import PairingSystem
from app.main import create_app
from app.settings import Settings
from tests.api.helpers import assert_problem, create
from tests.client import ApiClient
from tests.conftest import fresh_database
from tests.load import burn_cpu, burn_cpu_elsewhere

BUDGET = 0.3
"""Seconds of CPU time the pairing may use here; loading and pairing 16 players needs ~0.01."""


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The deadline is the same on every database: SQLite only."""
    yield from fresh_database(request, "sqlite", tmp_path)


def app_with(db_url: str, *, wall: float = 60.0) -> Iterator[ApiClient]:
    settings = Settings(database_url=db_url, pairing_timeout=BUDGET, pairing_wall_timeout=wall)
    application: FastAPI = create_app(settings)
    with ApiClient(application) as api_client:
        yield api_client
    application.state.engine.dispose()


@pytest.fixture
def client(db_url: str) -> Iterator[ApiClient]:
    yield from app_with(db_url)


@pytest.fixture
def walled(db_url: str) -> Iterator[ApiClient]:
    yield from app_with(db_url, wall=2 * BUDGET)


def slow_step(monkeypatch: pytest.MonkeyPatch, step: Callable[[], None]) -> None:
    """``nearest`` runs ``step`` first, then checks the deadline, then pairs."""
    real = SYSTEMS[PairingSystem.NEAREST]

    def pair(
        request: RoundRequest, constraints: Constraints, *, deadline: Deadline
    ) -> GeneratedRound:
        step()
        deadline.check()
        return real.pair_round(request, constraints, deadline=deadline)

    slowed = {**SYSTEMS, PairingSystem.NEAREST: replace(real, pair_round=pair)}
    monkeypatch.setattr(tournament, "SYSTEMS", slowed)


def test_a_pairing_that_waits_for_the_cpu_is_not_refused(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 16, pairing="nearest")
    slow_step(monkeypatch, lambda: burn_cpu_elsewhere(3 * BUDGET))

    response = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)

    assert response.status_code == 201, response.text
    assert response.json()["number"] == 1
    assert len(response.json()["matches"]) == 8


def test_a_pairing_that_uses_more_cpu_than_its_budget_is_refused_and_saves_nothing(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 16, pairing="nearest")
    before = client.get(f"/v1/tournaments/{t.id}")
    slow_step(monkeypatch, lambda: burn_cpu(2 * BUDGET))

    response = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)

    body = assert_problem(response, 503, "pairing_timeout")
    assert body["detail"] == (
        "pairing needed more than the 0.3 s of CPU time allowed; nothing was changed: ask the "
        "server's operator to raise SVIZZERA_PAIRING_TIMEOUT"
    )
    after = client.get(f"/v1/tournaments/{t.id}")
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.json()["current_round"] == 0
    assert client.get(f"/v1/tournaments/{t.id}/rounds").json() == []


def test_the_bound_on_the_clock_still_holds(
    walled: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(walled, 16, pairing="nearest")
    before = walled.get(f"/v1/tournaments/{t.id}")
    slow_step(monkeypatch, lambda: burn_cpu_elsewhere(3 * BUDGET))

    response = walled.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)

    body = assert_problem(response, 503, "pairing_timeout")
    assert body["detail"] == (
        "pairing ran longer than the 0.6 s allowed on the clock (the server is very busy); "
        "nothing was changed: try again when it is quieter, or ask its operator to raise "
        "SVIZZERA_PAIRING_WALL_TIMEOUT"
    )
    after = walled.get(f"/v1/tournaments/{t.id}")
    assert after.headers["ETag"] == before.headers["ETag"]
    assert walled.get(f"/v1/tournaments/{t.id}/rounds").json() == []


def test_the_bound_on_the_clock_may_not_be_below_the_cpu_budget() -> None:
    with pytest.raises(ValueError, match="SVIZZERA_PAIRING_WALL_TIMEOUT must be at least"):
        Settings(pairing_timeout=5, pairing_wall_timeout=4)
    assert Settings().pairing_timeout == 5.0
    assert Settings().pairing_wall_timeout == 60.0


def test_a_preview_has_the_same_budget(client: ApiClient, monkeypatch: pytest.MonkeyPatch) -> None:
    t = create(client, 16, pairing="nearest")
    slow_step(monkeypatch, lambda: burn_cpu(2 * BUDGET))

    response = client.post(f"/v1/tournaments/{t.id}/rounds/preview", headers=t.auth)

    body = assert_problem(response, 503, "pairing_timeout")
    assert body["detail"].startswith("pairing needed more than the 0.3 s of CPU time allowed")
