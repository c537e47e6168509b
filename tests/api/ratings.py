"""Helpers of the rating tests: club tournaments played through the API, round by round."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.api.clubs import Club
from tests.client import ApiClient

Outcome = Callable[[str, str], dict[str, Any]]
"""The result body of a board, from the names of its home and away players."""


def win(home: int, away: int) -> dict[str, Any]:
    return {"home": home, "away": away}


def play_round(
    client: ApiClient,
    club: Club,
    tid: str,
    outcome: Outcome,
    boards: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Generate the next round (paired by hand when ``boards`` names it) and record every
    board's result in one request; the tournament after it."""
    names = {p["name"]: p["id"] for p in client.get(f"/v1/tournaments/{tid}/players").json()}
    body = None
    if boards is not None:
        body = {
            "boards": [{"home": names[h], "away": names[a]} for h, a in boards],
            "byes": [],
            "accept": ["rematch", "colour"],
        }
    made = client.post(f"/v1/tournaments/{tid}/rounds", json=body, headers=club.auth)
    assert made.status_code == 201, made.text
    by_id = {v: k for k, v in names.items()}
    results = [
        {"match_id": m["id"], **outcome(by_id[m["home"]], by_id[m["away"]])}
        for m in made.json()["matches"]
    ]
    done = client.post(
        f"/v1/tournaments/{tid}/results", json={"results": results}, headers=club.auth
    )
    assert done.status_code == 200, done.text
    read = client.get(f"/v1/tournaments/{tid}").json()
    assert isinstance(read, dict)
    return read


def evening(
    client: ApiClient,
    club: Club,
    players: list[dict[str, Any]],
    outcome: Outcome,
    *,
    rounds: int = 1,
    boards: list[list[tuple[str, str]]] | None = None,
    **settings: Any,
) -> str:
    """A club tournament of ``rounds`` Swiss rounds and no final phase, played to the end."""
    made = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={
            "name": "Evening",
            "players": players,
            "seed": 7,
            "swiss_rounds": rounds,
            "final_phase": "none",
            **settings,
        },
        headers=club.auth,
    )
    assert made.status_code == 201, made.text
    tid: str = made.json()["id"]
    for number in range(rounds):
        after = play_round(client, club, tid, outcome, boards[number] if boards else None)
    assert after["status"] == "finished", after
    return tid


def rating_list(client: ApiClient, club: Club, **params: Any) -> dict[str, Any]:
    found = client.get(f"/v1/clubs/{club.id}/ratings", params=params, headers=club.auth)
    assert found.status_code == 200, found.text
    body: dict[str, Any] = found.json()
    return body


def by_name(client: ApiClient, club: Club) -> dict[str, dict[str, Any]]:
    """Every rated entry's line, by name (every page)."""
    lines: dict[str, dict[str, Any]] = {}
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 100}
        if cursor:
            params["cursor"] = cursor
        page = rating_list(client, club, **params)
        lines.update({line["name"]: line for line in page["items"]})
        cursor = page["next_cursor"]
        if cursor is None:
            return lines
