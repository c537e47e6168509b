"""Twenty simultaneous round generations against a real server create exactly one round."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.server import serve

CALLS = 20


def test_twenty_simultaneous_generations_make_one_round(db_url: str) -> None:
    with serve(db_url, workers=2) as base:
        players = [{"name": f"P{i}"} for i in range(16)]
        created = httpx.post(
            f"{base}/v1/tournaments", json={"name": "Race", "players": players}, timeout=10
        ).json()
        url = f"{base}/v1/tournaments/{created['id']}/rounds"
        auth = {"Authorization": f"Bearer {created['organizer_token']}"}
        barrier = threading.Barrier(CALLS)

        def generate(_: int) -> httpx.Response:
            with httpx.Client(timeout=30) as http:
                barrier.wait()
                return http.post(url, headers=auth)

        with ThreadPoolExecutor(CALLS) as pool:
            responses = list(pool.map(generate, range(CALLS)))

        statuses = sorted(r.status_code for r in responses)
        assert statuses == [201] + [409] * (CALLS - 1)
        assert {r.json()["code"] for r in responses if r.status_code == 409} == {"round_incomplete"}
        rounds = httpx.get(url, timeout=10).json()
        assert [r["number"] for r in rounds] == [1]
        assert len(rounds[0]["matches"]) == 8
        tournament = httpx.get(f"{base}/v1/tournaments/{created['id']}", timeout=10).json()
        assert tournament["version"] == 2
