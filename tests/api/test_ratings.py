"""Club ratings through the API: Elo computed by hand, Glickman's Glicko-2 example, a season of
evenings, a merge as if the two entries had always been one, the settings, who may read and
change them, and seeding a new tournament by the club rating."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from app.models import ClubRatingRow, PlayerRow
from tests.api.clubs import Club, add_entry, new_club
from tests.api.helpers import assert_problem
from tests.api.ratings import by_name, evening, play_round, rating_list, win
from tests.client import ApiClient

CR = ClubRatingRow.__table__  # type: ignore[attr-defined]
P = PlayerRow.__table__  # type: ignore[attr-defined]


def elo_club(client: ApiClient, k: int = 32) -> Club:
    made = client.post("/v1/clubs", json={"name": "Circolo", "elo_k": k})
    assert made.status_code == 201, made.text
    body = made.json()
    assert (body["rating_system"], body["elo_k"]) == ("elo", k)
    return Club(body["id"], body["key"]["key"], body)


def history(client: ApiClient, club: Club, entry_id: int) -> list[dict[str, Any]]:
    found = client.get(f"/v1/clubs/{club.id}/players/{entry_id}/history", headers=club.auth)
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["items"]
    return items


def club_events(client: ApiClient, club: Club, after: int = 0) -> list[dict[str, Any]]:
    found = client.get(f"/v1/clubs/{club.id}/events", params={"after": after}, headers=club.auth)
    assert found.status_code == 200, found.text
    items: list[dict[str, Any]] = found.json()["items"]
    return items


def test_elo_of_two_evenings_as_computed_by_hand(client: ApiClient) -> None:
    """K 32. Evening 1: Bianchi (1400) beats Rossi (1600); Verdi and Neri (no rating: 1500)
    draw. Rossi expected 1 / (1 + 10^(−200/400)) = 0.759747, so Rossi 1600 − 32 × 0.759747 =
    1575.688 and Bianchi 1400 + 32 × 0.759747 = 1424.312; the draw of equals moves nothing.
    Evening 2: Rossi (1575.688) beats Verdi (1500): expected 1 / (1 + 10^(−75.688/400)) =
    0.607233, Rossi + 32 × 0.392767 = 1588.257, Verdi − 32 × 0.392767 = 1487.431; Neri does not
    come and Bianchi's game is a forfeit: neither moves."""
    club = elo_club(client)
    rossi = add_entry(client, club, "Rossi", rating=1600)["id"]
    bianchi = add_entry(client, club, "Bianchi", rating=1400)["id"]
    verdi = add_entry(client, club, "Verdi")["id"]
    neri = add_entry(client, club, "Neri")["id"]
    players = [{"club_player_id": i} for i in (rossi, bianchi, verdi, neri)]
    results = {"Rossi": win(0, 1), "Verdi": win(1, 1)}
    first = evening(
        client,
        club,
        players,
        lambda home, _away: results[home],
        boards=[[("Rossi", "Bianchi"), ("Verdi", "Neri")]],
    )
    lines = by_name(client, club)
    assert lines["Rossi"]["rating"] == pytest.approx(1575.688, abs=1e-3)
    assert lines["Bianchi"]["rating"] == pytest.approx(1424.312, abs=1e-3)
    assert (lines["Verdi"]["rating"], lines["Neri"]["rating"]) == (1500, 1500)
    assert lines["Rossi"]["last_change"] == pytest.approx(-24.312, abs=1e-3)

    ferrari = add_entry(client, club, "Ferrari")["id"]
    second_players = [{"club_player_id": i} for i in (rossi, verdi, bianchi, ferrari)]
    second = {"Rossi": win(2, 0), "Bianchi": {"forfeit": "away"}}
    second_id = evening(
        client,
        club,
        second_players,
        lambda home, _away: second[home],
        boards=[[("Rossi", "Verdi"), ("Bianchi", "Ferrari")]],
    )
    page = rating_list(client, club)
    assert page["rating_system"] == "elo"
    assert [(x["name"], round(x["rating"], 3), x["games"]) for x in page["items"]] == [
        ("Rossi", 1588.257, 2),
        ("Neri", 1500.0, 1),
        ("Verdi", 1487.431, 2),
        ("Bianchi", 1424.312, 1),
    ]
    assert page["items"][0]["last_tournament_id"] == second_id
    assert page["items"][0]["deviation"] is None
    assert page["next_cursor"] is None

    steps = history(client, club, rossi)
    assert [s["tournament_id"] for s in steps] == [first, second_id]
    assert [(round(s["rating_before"], 3), round(s["rating"], 3)) for s in steps] == [
        (1600.0, 1575.688),
        (1575.688, 1588.257),
    ]
    assert [(s["games"], s["score"]) for s in steps] == [(1, 0.0), (1, 1.0)]
    # the performance: the opponent's rating before the evening ± 400
    assert [round(s["performance"], 3) for s in steps] == [1000.0, 1900.0]
    assert history(client, club, ferrari) == []  # a forfeit is no game

    updates = club_events(client, club)
    assert [(e["id"], e["type"], e["data"]) for e in updates] == [
        (1, "rating.updated", {"reason": "tournament", "tournament_id": first, "players": 4}),
        (2, "rating.updated", {"reason": "tournament", "tournament_id": second_id, "players": 2}),
    ]
    assert club_events(client, club, after=2) == []


def test_glickmans_example_through_a_club_tournament(app: FastAPI, client: ApiClient) -> None:
    """The paper's player (1500, RD 200) beats 1400 (RD 30) and loses to 1550 (RD 100) and 1700
    (RD 300) in one tournament (τ 0.5): r' = 1464.06, RD' = 151.52."""
    made = client.post("/v1/clubs", json={"name": "Glicko", "rating_system": "glicko2"})
    assert made.status_code == 201, made.text
    club = Club(made.json()["id"], made.json()["key"]["key"], made.json())
    start = {"Player": (1500, 200), "A": (1400, 30), "B": (1550, 100), "C": (1700, 300)}
    ids = {name: add_entry(client, club, name)["id"] for name in start}
    with Session(app.state.engine) as session, session.begin():
        session.execute(
            insert(CR),
            [
                {
                    "club_player_id": ids[name],
                    "club_id": club.id,
                    "rating": rating,
                    "deviation": rd,
                    "volatility": 0.06,
                    "games": 0,
                    "last_change": 0.0,
                    "last_tournament_id": "before",
                }
                for name, (rating, rd) in start.items()
            ],
        )
    wins = {"Player": {"A": win(1, 0), "B": win(0, 1), "C": win(0, 1)}}
    evening(
        client,
        club,
        [{"club_player_id": ids[n]} for n in start],
        lambda home, away: wins.get(home, {}).get(away, win(1, 1)),
        rounds=3,
        boards=[
            [("Player", "A"), ("B", "C")],
            [("Player", "B"), ("A", "C")],
            [("Player", "C"), ("A", "B")],
        ],
    )
    player = by_name(client, club)["Player"]
    assert player["rating"] == pytest.approx(1464.06, abs=0.01)
    assert player["deviation"] == pytest.approx(151.52, abs=0.01)
    assert player["games"] == 3
    assert rating_list(client, club)["rating_system"] == "glicko2"
