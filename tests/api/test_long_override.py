"""Long ``swiss_rounds`` overrides through the API, and the pairing deadline.

The settings allow up to N − 1 Swiss rounds for N players (a full round robin). Every round of
such a tournament must be paired within the deadline (``SVIZZERA_PAIRING_TIMEOUT``); past it
the request fails with 503 ``pairing_timeout``, saves nothing, and the worker serves on.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create, generate
from tests.client import ApiClient

GENEROUS = 120.0
"""The bound on the clock of ``client`` here: a round of 64 players takes up to ~0.2 s of CPU,
well within the default budget of 5 s of CPU time, but its wall time on a machine running
several test suites can be many times that, and this test is about the rounds being paired,
not about the default 60 s on the clock. The deadline is tested with ``hurried`` and in
``test_pairing_deadline.py``."""


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, pairing_wall_timeout=GENEROUS)


def play(client: ApiClient, t: Organizer, swiss_round: dict[str, Any]) -> None:
    """A whole round's results in one request: home wins, away wins or a draw by board."""
    scores = [(2, 0), (0, 1), (1, 1)]
    entries = [
        dict(zip(("home", "away"), scores[m["board"] % 3], strict=True), match_id=m["id"])
        for m in swiss_round["matches"]
    ]
    response = client.post(
        f"/v1/tournaments/{t.id}/results", json={"results": entries}, headers=t.auth
    )
    assert response.status_code == 200, response.text
    assert [m["result"] is not None for m in response.json()] == [True] * len(entries)


@pytest.mark.slow  # left out of `make test-fast`
def test_sixty_four_players_play_sixty_three_swiss_rounds_to_the_end(client: ApiClient) -> None:
    t = create(client, 64, swiss_rounds=63, final_phase="none")
    assert t.body["format"]["swiss_rounds"] == 63
    met: set[frozenset[int]] = set()
    for number in range(1, 64):
        swiss_round = generate(client, t)
        assert swiss_round["number"] == number
        assert len(swiss_round["matches"]) == 32
        assert swiss_round["byes"] == []
        pairs = {frozenset((m["home"], m["away"])) for m in swiss_round["matches"]}
        assert len(pairs) == 32
        # No round needed a rematch: the look-ahead kept the round robin completable.
        assert swiss_round["rematches"] is False, swiss_round["paths"]
        assert not pairs & met
        met |= pairs
        play(client, t, swiss_round)

    players = {p["id"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    assert met == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert tournament["status"] == "finished"
    assert tournament["current_round"] == 63
    response = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)
    assert_problem(response, 409, "no_more_rounds")


@pytest.fixture
def hurried(db_url: str) -> Iterator[ApiClient]:
    """A second app on the same database whose pairing may take 2 ms at most."""
    application: FastAPI = create_app(Settings(database_url=db_url, pairing_timeout=0.002))
    with ApiClient(application) as hurried_client:
        yield hurried_client
    application.state.engine.dispose()


def test_a_pairing_past_the_timeout_is_refused_and_saves_nothing(
    client: ApiClient, hurried: ApiClient
) -> None:
    # 64 players, 63 rounds: from round 2 on the look-ahead searches for the 62 rounds after
    # the one being paired, which takes far longer than 2 ms.
    t = create(client, 64, swiss_rounds=63, final_phase="none")
    play(client, t, generate(client, t))
    before = client.get(f"/v1/tournaments/{t.id}")
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()

    response = hurried.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)

    body = assert_problem(response, 503, "pairing_timeout")
    assert "0.002 s" in body["detail"]
    after = hurried.get(f"/v1/tournaments/{t.id}")  # the worker serves on
    assert after.status_code == 200
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.json()["current_round"] == 1
    assert len(client.get(f"/v1/tournaments/{t.id}/rounds").json()) == 1
    assert client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json() == audit
    # With a generous budget the same round is paired.
    assert generate(client, t)["number"] == 2
