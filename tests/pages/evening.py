"""A tournament driven over HTTP against a running server, for the browser tests and the
screenshots: the organizer's calls, each checked."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx

HOSTILE = '<img src=x onerror="document.title=\'pwned\'">Bob & "Co"'
NAMES = [
    HOSTILE, "Alice Rossi", "Bruno Bianchi", "Carla Conti", "Dario Greco", "Elena Ferri",
    "Fabio Gallo", "Giulia Marino", "Hugo Brun", "Ines Keller", "Jonas Meier", "Katrin Weber",
    "Luca Moretti", "Marta Colombo", "Nico Fontana", "Olga Huber", "Paolo Ricci", "Quirin Sutter",
    "Rita Baumann", "Sandro Vogel",
]  # fmt: skip


@dataclass
class Evening:
    http: httpx.Client
    id: str
    token: str

    def __enter__(self) -> Evening:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.http.request(
            method, f"/v1/tournaments/{self.id}{path}", headers=self.auth, **kwargs
        )
        assert response.status_code in (200, 201), response.text
        return response.json()

    def generate(self) -> dict[str, Any]:
        round_: dict[str, Any] = self.call("POST", "/rounds")
        return round_

    def record(self, match_id: int, home: int, away: int, **more: Any) -> dict[str, Any]:
        body = {"home": home, "away": away, **more}
        result: dict[str, Any] = self.call("PUT", f"/matches/{match_id}/result", json=body)
        return result

    def play(self, round_: dict[str, Any], rng: random.Random, *, leave: int = 0) -> None:
        """Record a random score on every match but the last ``leave``."""
        matches = round_["matches"]
        for match in matches[: len(matches) - leave]:
            self.record(match["id"], rng.randint(0, 4), rng.randint(0, 3))

    def final_phase(self) -> dict[str, Any]:
        phase: dict[str, Any] = self.call("POST", "/final-phase")
        return phase

    def play_final_phase(self, rng: random.Random) -> None:
        """Semifinals (the first level, won on penalties), then the finals."""
        phase = self.call("GET", "/final-phase")
        for match in phase["matches"]:
            if match["board"] == 1:
                self.record(match["id"], 1, 1, winner="away", decided_by="penalties")
            else:
                self.record(match["id"], rng.randint(1, 4), 0)
        for match in self.call("GET", "/final-phase")["matches"]:
            if match["result"] is None:
                self.record(match["id"], rng.randint(1, 3), 0)


def start(
    base_url: str, *, players: int = 16, name: str = "Thursday Cup", **settings: Any
) -> Evening:
    http = httpx.Client(base_url=base_url, timeout=30)
    names = [*NAMES, *(f"Player {i}" for i in range(len(NAMES) + 1, players + 1))]
    players_ = [{"name": n} for n in names[:players]]
    body = {"name": name, "players": players_, "seed": 7, **settings}
    response = http.post("/v1/tournaments", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return Evening(http, data["id"], data["organizer_token"])
