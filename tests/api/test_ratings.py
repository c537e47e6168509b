"""Club ratings through the API: Elo computed by hand, Glickman's Glicko-2 example, a season of
evenings, a merge as if the two entries had always been one, the settings, who may read and
change them, and seeding a new tournament by the club rating."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from app.domain.ratings.elo import elo_period
from app.domain.ratings.games import DRAW, LOSS, WIN, Game
from app.models import ClubRatingRow, PlayerRow
from tests.api.clubs import Club, add_entry, new_club
from tests.api.helpers import assert_problem
from tests.api.ratings import by_name, evening, rating_list, win
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


STRENGTH = [f"P{i:02d}" for i in range(12)]
"""Twelve register players, strongest first: the stronger wins, except every third game of
players next in strength, a draw."""


def by_strength(home: str, away: str) -> dict[str, Any]:
    h, a = STRENGTH.index(home), STRENGTH.index(away)
    if abs(h - a) == 1 and (h + a) % 3 == 0:
        return win(1, 1)
    return win(1, 0) if h < a else win(0, 1)


def recording(games: list[Game[str]]) -> Callable[[str, str], dict[str, Any]]:
    """``by_strength``, noting each game played (as the domain rates games) in ``games``."""

    def outcome(home: str, away: str) -> dict[str, Any]:
        body = by_strength(home, away)
        score = DRAW if body["home"] == body["away"] else WIN if body["home"] else LOSS
        games.extend([Game(home, away, score), Game(away, home, 1 - score)])
        return body

    return outcome


def test_a_season_of_evenings_is_rated_as_the_domain_rates_each_in_turn(
    client: ApiClient,
) -> None:
    """Six evenings of eight of twelve players (coming and going), three rounds each, paired
    by the system: the club's list is Elo replayed evening by evening from the games played,
    Elo is zero-sum, and each entry's history has one step per evening played."""
    club = elo_club(client, k=24)
    ids = {name: add_entry(client, club, name)["id"] for name in STRENGTH}
    expected: dict[str, float] = {}
    played: dict[str, int] = {}
    for night in range(6):
        present = [STRENGTH[(night * 5 + i) % 12] for i in range(8)]
        games: list[Game[str]] = []
        outcome = recording(games)
        evening(client, club, [{"club_player_id": ids[n]} for n in present], outcome, rounds=3)
        expected.update(elo_period(expected, games, k=24, initial=1500.0))
        for game in games:
            played[game.player] = played.get(game.player, 0) + 1
    lines = by_name(client, club)
    assert set(lines) == set(expected)
    for name, rating in expected.items():
        assert lines[name]["rating"] == pytest.approx(rating, abs=1e-9), name
        assert lines[name]["games"] == played[name]
    assert sum(line["rating"] for line in lines.values()) == pytest.approx(1500 * len(lines))
    ranked = [line["name"] for line in rating_list(client, club, limit=100)["items"]]
    assert ranked == sorted(expected, key=lambda n: (-expected[n], -ids[n]))
    assert ranked[0] == "P00"
    assert len(history(client, club, ids["P00"])) == sum(
        "P00" in [STRENGTH[(n * 5 + i) % 12] for i in range(8)] for n in range(6)
    )
    assert len(club_events(client, club)) == 6
    # the history in pages of 2 is the history
    whole = history(client, club, ids["P00"])
    paged: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        path = f"/v1/clubs/{club.id}/players/{ids['P00']}/history"
        page = client.get(path, params=params, headers=club.auth).json()
        paged += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert paged == whole
    assert [s["rating_before"] for s in whole[1:]] == [s["rating"] for s in whole[:-1]]
    events = client.get(
        f"/v1/clubs/{club.id}/events", params={"after": 2, "limit": 3}, headers=club.auth
    ).json()
    assert ([e["id"] for e in events["items"]], events["next_after"]) == ([3, 4, 5], 5)


def merge_season(client: ApiClient, *, split: bool) -> dict[str, dict[str, Any]]:
    """Four evenings of Rossi (1700 in the register), Bianchi, Verdi and Neri; with ``split``
    Rossi plays the last two as "Rossino", a new entry, merged into Rossi after the third."""
    club = elo_club(client)
    rossi = add_entry(client, club, "Rossi", rating=1700)["id"]
    for name in ("Bianchi", "Verdi", "Neri"):
        add_entry(client, club, name)
    tables = [
        [("Rossi", "Bianchi"), ("Verdi", "Neri")],
        [("Rossi", "Verdi"), ("Bianchi", "Neri")],
        [("Rossi", "Neri"), ("Bianchi", "Verdi")],
        [("Bianchi", "Rossi"), ("Neri", "Verdi")],
    ]
    results = {"Rossi": win(0, 1), "Verdi": win(1, 1), "Bianchi": win(2, 0), "Neri": win(0, 3)}
    for night, boards in enumerate(tables):
        alias = "Rossino" if split and night >= 2 else "Rossi"
        named = [(alias if h == "Rossi" else h, alias if a == "Rossi" else a) for h, a in boards]
        names = [n for board in named for n in board]
        evening(
            client,
            club,
            [{"name": n} for n in names],
            lambda home, _away: results["Rossi" if home == "Rossino" else home],
            boards=[named],
        )
        if split and night == 2:
            rossino = by_name(client, club)["Rossino"]["club_player_id"]
            merged = client.post(
                f"/v1/clubs/{club.id}/players/{rossi}/merge",
                json={"merged_id": rossino},
                headers=club.auth,
            )
            assert merged.status_code == 200, merged.text
            assert "Rossino" not in by_name(client, club)
            assert [e["data"]["reason"] for e in club_events(client, club)][-1] == "recomputed"
    lines = by_name(client, club)
    return {
        name: {**line, "history": history(client, club, line["club_player_id"])}
        for name, line in lines.items()
    }


def test_a_merge_mid_season_rates_as_if_the_two_had_always_been_one(client: ApiClient) -> None:
    split = merge_season(client, split=True)
    one = merge_season(client, split=False)
    assert set(split) == set(one) == {"Rossi", "Bianchi", "Verdi", "Neri"}
    for name in one:
        a, b = split[name], one[name]
        assert a["rating"] == pytest.approx(b["rating"], abs=1e-9), name
        assert (a["games"], a["last_change"]) == (b["games"], pytest.approx(b["last_change"]))
        assert [round(s["rating"], 9) for s in a["history"]] == [
            round(s["rating"], 9) for s in b["history"]
        ]
    assert len(split["Rossi"]["history"]) == 4
    assert split["Rossi"]["history"][0]["rating_before"] == 1700


def test_rating_settings_are_set_at_creation_and_changed_by_patch_which_rates_again(
    client: ApiClient,
) -> None:
    club = elo_club(client, k=32)
    a = add_entry(client, club, "Rossi")["id"]
    b = add_entry(client, club, "Bianchi")["id"]
    evening(
        client,
        club,
        [{"club_player_id": a}, {"club_player_id": b}],
        lambda _h, _a: win(1, 0),
        boards=[[("Rossi", "Bianchi")]],
    )
    assert by_name(client, club)["Rossi"]["rating"] == 1516  # 1500 + 32 × ½
    changed = client.patch(f"/v1/clubs/{club.id}", json={"elo_k": 10}, headers=club.auth)
    assert changed.status_code == 200, changed.text
    assert (changed.json()["rating_system"], changed.json()["elo_k"], changed.json()["name"]) == (
        "elo",
        10,
        "Circolo",
    )
    assert by_name(client, club)["Rossi"]["rating"] == 1505
    glicko = client.patch(
        f"/v1/clubs/{club.id}", json={"rating_system": "glicko2"}, headers=club.auth
    )
    assert glicko.json()["rating_system"] == "glicko2"
    line = by_name(client, club)["Rossi"]
    # Glicko-2 from 1500 / RD 350 after one win over an equal: the paper's steps give 1662.3
    assert line["rating"] == pytest.approx(1662.31, abs=0.01)
    assert line["deviation"] == pytest.approx(290.32, abs=0.01)
    again = client.patch(
        f"/v1/clubs/{club.id}", json={"rating_system": "glicko2"}, headers=club.auth
    )
    assert again.status_code == 200
    assert [e["data"]["reason"] for e in club_events(client, club)] == [
        "tournament",
        "recomputed",
        "recomputed",
    ]  # the same settings again compute nothing
    trail = client.get(f"/v1/clubs/{club.id}/audit", headers=club.auth).json()["items"]
    updates = [e["detail"] for e in trail if e["action"] == "clubs-update"]
    assert updates == [{"elo_k": 10}, {"rating_system": "glicko2"}, {"rating_system": "glicko2"}]
    assert trail[0]["detail"] == {"name": "Circolo", "rating_system": "elo", "elo_k": 32}
    for wrong in ({"rating_system": "trueskill"}, {"elo_k": 0}, {"elo_k": 101}):
        refused = client.patch(f"/v1/clubs/{club.id}", json=wrong, headers=club.auth)
        assert_problem(refused, 422, "validation_error")


def test_who_may_read_the_ratings_and_change_the_settings(client: ApiClient) -> None:
    club = elo_club(client)
    other = new_club(client, "Another club")
    entry = add_entry(client, club, "Rossi")["id"]
    made = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={"name": "Friday", "players": [{"name": "Rossi"}, {"name": "Verdi"}]},
        headers=club.auth,
    ).json()
    organizer = {"Authorization": f"Bearer {made['organizer_token']}"}
    for path in (f"/v1/clubs/{club.id}/ratings", f"/v1/clubs/{club.id}/players/{entry}/history"):
        assert_problem(client.get(path), 401, "unauthorized")
        assert_problem(client.get(path, headers=other.auth), 403, "forbidden")
        assert_problem(client.get(path, headers=organizer), 403, "forbidden")
    assert_problem(client.get(f"/v1/clubs/{club.id}/events", headers=other.auth), 403, "forbidden")
    for body in ({"elo_k": 40}, {"rating_system": "glicko2"}):
        assert_problem(
            client.patch(f"/v1/clubs/{club.id}", json=body, headers=organizer), 403, "forbidden"
        )
        assert_problem(
            client.patch(f"/v1/clubs/{club.id}", json=body, headers=other.auth), 403, "forbidden"
        )
    assert client.get(f"/v1/clubs/{club.id}").json()["elo_k"] == 32  # nothing changed
    # another club's entry is no entry of this club
    stranger = add_entry(client, other, "Bianchi")["id"]
    assert_problem(
        client.get(f"/v1/clubs/{club.id}/players/{stranger}/history", headers=club.auth),
        404,
        "club_player_not_found",
    )
    assert_problem(
        client.get("/v1/clubs/nosuchclub/ratings", headers=club.auth), 404, "club_not_found"
    )


def test_a_tournament_is_rated_once_and_again_only_when_its_games_change(
    app: FastAPI, client: ApiClient
) -> None:
    club = elo_club(client)
    ids = [add_entry(client, club, n)["id"] for n in ("Rossi", "Bianchi")]
    tid = evening(
        client,
        club,
        [{"club_player_id": i} for i in ids],
        lambda _h, _a: win(1, 0),
        boards=[[("Rossi", "Bianchi")]],
    )
    assert by_name(client, club)["Rossi"]["rating"] == 1516
    match = client.get(f"/v1/tournaments/{tid}/rounds/1").json()["matches"][0]["id"]
    result = f"/v1/tournaments/{tid}/matches/{match}/result"
    same = client.put(result, json={"home": 1, "away": 0}, headers=club.auth)
    assert same.status_code == 200, same.text
    assert len(club_events(client, club)) == 1  # the same game: nothing to rate again
    turned = client.put(result, json={"home": 0, "away": 1}, headers=club.auth)
    assert turned.status_code == 200, turned.text
    lines = by_name(client, club)
    assert (lines["Rossi"]["rating"], lines["Bianchi"]["rating"]) == (1484, 1516)
    assert [e["data"]["reason"] for e in club_events(client, club)] == ["tournament", "recomputed"]
    assert len(history(client, club, ids[0])) == 1
    # deleting it rates the club without it
    assert client.delete(f"/v1/tournaments/{tid}", headers=club.auth).status_code == 204
    assert rating_list(client, club)["items"] == []
    assert history(client, club, ids[0]) == []


def test_a_new_tournament_seeds_by_the_club_rating(app: FastAPI, client: ApiClient) -> None:
    club = elo_club(client)
    rossi = add_entry(client, club, "Rossi", rating=1400)["id"]
    bianchi = add_entry(client, club, "Bianchi", rating=1450)["id"]
    evening(
        client,
        club,
        [{"club_player_id": rossi}, {"club_player_id": bianchi}],
        lambda _h, _a: win(1, 0),
        boards=[[("Rossi", "Bianchi")]],
    )
    lines = by_name(client, club)
    assert round(lines["Rossi"]["rating"]) == 1418 and round(lines["Bianchi"]["rating"]) == 1432
    players = [{"club_player_id": bianchi}, {"club_player_id": rossi}, {"name": "Verdi"}]
    players.append({"name": "Neri", "rating": 1425})
    for seed_by, ratings in (
        ("club_rating", {"Rossi": 1418, "Bianchi": 1432, "Verdi": None, "Neri": 1425}),
        ("given", {"Rossi": 1400, "Bianchi": 1450, "Verdi": None, "Neri": 1425}),
    ):
        made = client.post(
            f"/v1/clubs/{club.id}/tournaments",
            json={"name": "Seeded", "players": players, "seed_by": seed_by},
            headers=club.auth,
        )
        assert made.status_code == 201, made.text
        field = client.get(f"/v1/tournaments/{made.json()['id']}/players").json()
        assert {p["name"]: p["rating"] for p in field} == ratings
    refused = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={"name": "Seeded", "players": players, "seed_by": "fide"},
        headers=club.auth,
    )
    assert_problem(refused, 422, "validation_error")
    with Session(app.state.engine) as session:
        linked = session.execute(select(P.c.club_player_id).where(P.c.name == "Verdi")).all()
    assert len(linked) == 2
