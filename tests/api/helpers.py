"""Small HTTP helpers shared by the API tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.client import ApiClient


@dataclass(frozen=True)
class Organizer:
    """A created tournament and the headers that authorize writes to it."""

    id: str
    token: str
    body: dict[str, Any]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def create(client: ApiClient, players: int | list[str] = 8, **settings: Any) -> Organizer:
    names = (
        players if isinstance(players, list) else [f"Player {i:02d}" for i in range(1, players + 1)]
    )
    body = {
        "name": "Friday evening",
        "players": [{"name": n} for n in names],
        "seed": 7,
        **settings,
    }
    response = client.post("/v1/tournaments", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return Organizer(data["id"], data["organizer_token"], data)


def generate(client: ApiClient, t: Organizer) -> dict[str, Any]:
    response = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)
    assert response.status_code == 201, response.text
    return response.json()


def record(client: ApiClient, t: Organizer, match_id: int, **result: Any) -> dict[str, Any]:
    response = client.put(
        f"/v1/tournaments/{t.id}/matches/{match_id}/result", json=result, headers=t.auth
    )
    assert response.status_code == 200, response.text
    return response.json()


def play_round(client: ApiClient, t: Organizer, home: int = 2, away: int = 1) -> dict[str, Any]:
    """Generate a round and give every match the same score."""
    swiss_round = generate(client, t)
    for match in swiss_round["matches"]:
        record(client, t, match["id"], home=home, away=away)
    return swiss_round


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith("/" + code)
    assert body["title"] and body["detail"]
    return body
