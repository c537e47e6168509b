"""Helpers of the club tests: a created club and the headers of its key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.client import ApiClient


@dataclass(frozen=True)
class Club:
    id: str
    key: str
    body: dict[str, Any]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


def new_club(client: ApiClient, name: str = "Circolo Rovereto") -> Club:
    made = client.post("/v1/clubs", json={"name": name, "key_label": "President"})
    assert made.status_code == 201, made.text
    body = made.json()
    return Club(body["id"], body["key"]["key"], body)


def add_entry(client: ApiClient, club: Club, name: str, **fields: Any) -> dict[str, Any]:
    made = client.post(
        f"/v1/clubs/{club.id}/players", json={"name": name, **fields}, headers=club.auth
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def club_tournament(
    client: ApiClient, club: Club, players: list[dict[str, Any]], **settings: Any
) -> dict[str, Any]:
    made = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={"name": "Friday", "players": players, "seed": 7, **settings},
        headers=club.auth,
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def search(client: ApiClient, club: Club, q: str | None = None, **params: Any) -> list[str]:
    query = {"q": q, **params} if q is not None else params
    found = client.get(f"/v1/clubs/{club.id}/players", params=query, headers=club.auth)
    assert found.status_code == 200, found.text
    return [e["name"] for e in found.json()["items"]]
