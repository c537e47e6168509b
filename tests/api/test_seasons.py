"""Seasons through the API: a season of 10 evenings and 30 register players coming and going,
its table by each rule checked against the table computed here, independently, from each
evening's published standings; a merge mid-season; who may touch a season; the CSV."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from fractions import Fraction
from fractions import Fraction as F
from typing import Any

import pytest

from app.pages.season import score_text
from app.printing.season_csv import csv_number
from app.services import seasons
from tests.api.clubs import Club, add_entry, club_tournament, new_club
from tests.api.helpers import Organizer, assert_problem, create
from tests.client import ApiClient

NAMES = [f"Giocatore {i:02d}" for i in range(1, 31)]
PLACES = [10, 7, 5, 3, 2, 1]


def new_season(client: ApiClient, club: Club, scoring: str, **fields: Any) -> dict[str, Any]:
    made = client.post(
        f"/v1/clubs/{club.id}/seasons",
        json={"name": f"Winter {scoring}", "scoring": scoring, **fields},
        headers=club.auth,
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def play_evening(client: ApiClient, club: Club, tournament: dict[str, Any]) -> None:
    """Three Swiss rounds, no final phase; the lower register id wins every game (by name:
    `Giocatore 01` beats everybody), so the evening finishes after round 3."""
    t = Organizer(tournament["id"], tournament["organizer_token"], tournament)
    for _ in range(3):
        made = client.post(f"/v1/tournaments/{t.id}/rounds", headers=club.auth)
        assert made.status_code == 201, made.text
        names = {p["id"]: p["name"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
        results = []
        for m in made.json()["matches"]:
            home_wins = names[m["home"]] < names[m["away"]]
            results.append(
                {"match_id": m["id"], "home": int(home_wins), "away": int(not home_wins)}
            )
        done = client.post(
            f"/v1/tournaments/{t.id}/results", json={"results": results}, headers=t.auth
        )
        assert done.status_code == 200, done.text
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"


def evening_of(client: ApiClient, tid: str, person: Callable[[str], str]) -> list[dict[str, Any]]:
    """The evening as its own standings publish it: place, person, points, rounds with a result
    or a bye, and the games (from the rounds), forfeits aside."""
    rows = client.get(f"/v1/tournaments/{tid}/standings").json()["rows"]
    names = {p["id"]: p["name"] for p in client.get(f"/v1/tournaments/{tid}/players").json()}
    placings = [
        {
            "place": place,
            "who": person(names[r["player_id"]]),
            "points": Fraction(r["points"]).limit_denominator(2),
            "matches": r["played"] + r["byes"],
        }
        for place, r in enumerate(rows, start=1)
    ]
    return placings


def expected_table(
    evenings: list[list[dict[str, Any]]], scoring: str, best: int | None = None
) -> list[tuple[str, Fraction, int, int, int]]:
    """The season table by hand: (person, score, evenings, counted, best place), ordered by
    score, evenings played, best place (head to head is checked apart)."""
    played: dict[str, list[dict[str, Any]]] = {}
    for evening in evenings:
        for p in evening:
            played.setdefault(p["who"], []).append(p)

    def evening_score(p: dict[str, Any]) -> Fraction:
        if scoring == "places":
            return Fraction(PLACES[p["place"] - 1] if p["place"] <= len(PLACES) else 0)
        if scoring == "points":
            return Fraction(p["points"])
        return Fraction(p["points"]) / p["matches"]

    lines = []
    for who, mine in played.items():
        counted = mine
        if best is not None and len(mine) > best:
            ranked = sorted(range(len(mine)), key=lambda i: (-evening_score(mine[i]), i))
            counted = [mine[i] for i in sorted(ranked[:best])]
        if scoring == "average":
            score = sum((p["points"] for p in counted), Fraction(0)) / sum(
                p["matches"] for p in counted
            )
        else:
            score = sum((evening_score(p) for p in counted), Fraction(0))
        lines.append((who, score, len(mine), len(counted), min(p["place"] for p in mine)))
    return sorted(lines, key=lambda line: (-line[1], -line[2], line[4]))


def table_of(client: ApiClient, club: Club, season: dict[str, Any]) -> dict[str, Any]:
    read = client.get(f"/v1/clubs/{club.id}/seasons/{season['id']}/standings")
    assert read.status_code == 200, read.text
    body: dict[str, Any] = read.json()
    return body


def check(table: dict[str, Any], expected: list[tuple[str, Fraction, int, int, int]]) -> None:
    rows = table["rows"]
    got = [
        (r["name"], Fraction(r["score"]).limit_denominator(1000), r["evenings"], r["counted"],
         r["best_place"])
        for r in rows
    ]  # fmt: skip
    assert sorted(got, key=lambda g: g[0]) == sorted(expected, key=lambda e: e[0])
    keys = [(-e[1], -e[2], e[4]) for e in expected]
    by_name = {e[0]: (-e[1], -e[2], e[4]) for e in expected}
    assert [by_name[g[0]] for g in got] == sorted(keys)  # the API's order is the rule's
    for i, r in enumerate(rows):
        tied = [o for o in rows if by_name[o["name"]] == by_name[r["name"]]]
        assert (r["head_to_head"] is None) == (len(tied) == 1)
        if i and by_name[rows[i - 1]["name"]] != by_name[r["name"]]:
            assert r["rank"] == i + 1
        if i and by_name[rows[i - 1]["name"]] == by_name[r["name"]]:
            before = rows[i - 1]
            assert before["head_to_head"] >= r["head_to_head"]
            assert r["rank"] == (before["rank"] if before["head_to_head"] == r["head_to_head"]
                                 else i + 1)  # fmt: skip


def test_a_season_of_ten_evenings_by_every_rule_and_a_merge_mid_season(
    client: ApiClient,
) -> None:
    club = new_club(client)
    entries = {name: add_entry(client, club, name)["id"] for name in NAMES}
    # The same person entered twice: "Giocatore 31" plays evenings 1-5, "Giocatore 31 bis" 6-10
    twin = add_entry(client, club, "Giocatore 31")["id"]
    twin_bis = add_entry(client, club, "Giocatore 31 bis")["id"]
    places = new_season(client, club, "places", place_points=PLACES)
    best = new_season(client, club, "places", place_points=PLACES, best=4)
    points = new_season(client, club, "points")
    average = new_season(client, club, "average")
    average_best = new_season(client, club, "average", best=3)
    seasons = [places, best, points, average, average_best]
    assert places["place_points"] == PLACES and best["best"] == 4 and points["place_points"] == []

    rng = random.Random(25)
    tids: list[str] = []
    for k in range(10):
        came = sorted(rng.sample(NAMES, 8 + k % 5))
        ids = [entries[n] for n in came] + [twin if k < 5 else twin_bis]
        made = club_tournament(
            client,
            club,
            [{"club_player_id": i} for i in ids],
            swiss_rounds=3,
            final_phase="none",
            season_id=places["id"],
        )
        assert made["season_id"] == places["id"]
        tids.append(made["id"])
        for other in seasons[1:]:
            joined = client.put(
                f"/v1/tournaments/{made['id']}/season",
                json={"season_id": other["id"]},
                headers=made_auth(made),
            )
            assert joined.status_code == 200, joined.text
        # it counts in the last one joined; put it back in `places` to read them all below
        if k == 4:
            live = table_of(client, club, average_best)
            assert [e["counted"] for e in live["evenings"]] == [True] * 4 + [False]
        play_evening(client, club, made)

    # A tournament is in one season at a time: play the season once per rule by moving all
    # ten evenings from season to season (finished evenings join and leave as any).
    def move_all(season: dict[str, Any]) -> None:
        for tid in tids:
            moved = client.put(
                f"/v1/tournaments/{tid}/season",
                json={"season_id": season["id"]},
                headers=club.auth,
            )
            assert moved.status_code == 200, moved.text

    def person(name: str) -> str:
        return "Giocatore 31" if name.startswith("Giocatore 31") else name

    def apart(name: str) -> str:
        return name

    listed = client.get(f"/v1/clubs/{club.id}/tournaments", params={"season": places["id"]})
    assert listed.json()["items"] == []  # every evening is in average_best now
    listed = client.get(f"/v1/clubs/{club.id}/tournaments", params={"season": average_best["id"]})
    assert len(listed.json()["items"]) == 10

    before_merge = [evening_of(client, tid, apart) for tid in tids]
    for season, (scoring, n) in zip(
        seasons,
        [("places", None), ("places", 4), ("points", None), ("average", None), ("average", 3)],
        strict=True,
    ):
        move_all(season)
        table = table_of(client, club, season)
        assert [e["tournament_id"] for e in table["evenings"]] == tids
        assert all(e["counted"] for e in table["evenings"])
        check(table, expected_table(before_merge, scoring, n))
        assert {"Giocatore 31", "Giocatore 31 bis"} <= {r["name"] for r in table["rows"]}

    seen = last_club_event(client, club)
    merged = client.post(
        f"/v1/clubs/{club.id}/players/{twin}/merge", json={"merged_id": twin_bis}, headers=club.auth
    )
    assert merged.status_code == 200, merged.text
    told = client.get(
        f"/v1/clubs/{club.id}/events", params={"after": seen}, headers=club.auth
    ).json()["items"]
    assert [e["data"] for e in told if e["type"] == "season.updated"] == [
        {
            "season_id": average_best["id"],
            "tournament_id": None,
            "reason": "merge",
            "club_player_id": twin,
        }
    ]  # every evening is in average_best now: the one table the merge changed
    after_merge = [evening_of(client, tid, person) for tid in tids]
    for season, (scoring, n) in [(average_best, ("average", 3))]:
        table = table_of(client, club, season)
        check(table, expected_table(after_merge, scoring, n))
        line = next(r for r in table["rows"] if r["club_player_id"] == twin)
        assert (line["name"], line["evenings"], line["counted"]) == ("Giocatore 31", 10, 3)
        assert twin_bis not in {r["club_player_id"] for r in table["rows"]}
    move_all(places)
    check(table_of(client, club, places), expected_table(after_merge, "places"))


def last_club_event(client: ApiClient, club: Club) -> int:
    """The id of the club's last event (0: none yet), read page after page."""
    after = 0
    while True:
        page = client.get(
            f"/v1/clubs/{club.id}/events", params={"after": after, "limit": 500}, headers=club.auth
        ).json()
        after = page["items"][-1]["id"] if page["items"] else after
        if page["next_after"] is None:
            return after


def made_auth(made: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {made['organizer_token']}"}


def test_only_finished_evenings_count_and_the_table_is_conditional(client: ApiClient) -> None:
    club = new_club(client)
    season = new_season(client, club, "points")
    players = [{"name": n} for n in NAMES[:4]]
    first = club_tournament(client, club, players, swiss_rounds=3, final_phase="none")
    second = club_tournament(
        client, club, players, swiss_rounds=3, final_phase="none", season_id=season["id"]
    )
    empty = table_of(client, club, season)
    assert empty["rows"] == []
    assert [(e["tournament_id"], e["status"], e["counted"]) for e in empty["evenings"]] == [
        (second["id"], "registration", False)
    ]
    play_evening(client, club, second)
    url = f"/v1/clubs/{club.id}/seasons/{season['id']}/standings"
    read = client.get(url)
    assert [(r["name"], r["score"], r["evenings"]) for r in read.json()["rows"]] == [
        ("Giocatore 01", 9, 1),  # 3-1-0: three wins
        ("Giocatore 02", 6, 1),
        ("Giocatore 03", 3, 1),
        ("Giocatore 04", 0, 1),
    ]
    assert read.json()["tiebreaks"] == ["evenings", "best_place", "head_to_head"]
    assert client.get(url, headers={"If-None-Match": read.headers["etag"]}).status_code == 304
    # the first evening joins, finished: the table changes, and so does its ETag
    play_evening(client, club, first)
    joined = client.put(
        f"/v1/tournaments/{first['id']}/season", json={"season_id": season["id"]}, headers=club.auth
    )
    assert (joined.status_code, joined.json()["season_id"]) == (200, season["id"])
    again = client.get(url, headers={"If-None-Match": read.headers["etag"]})
    assert again.status_code == 200
    assert [(r["name"], r["score"], r["evenings"]) for r in again.json()["rows"]][:2] == [
        ("Giocatore 01", 18, 2),
        ("Giocatore 02", 12, 2),
    ]
    left = client.put(
        f"/v1/tournaments/{first['id']}/season", json={"season_id": None}, headers=club.auth
    )
    assert left.json()["season_id"] is None
    assert client.get(url).json()["rows"] == read.json()["rows"]
    trail = client.get(f"/v1/tournaments/{first['id']}/audit", headers=club.auth).json()["items"]
    assert [e["action"] for e in trail][-2:] == ["tournaments-season", "tournaments-season"]

    csv = client.get(f"/v1/clubs/{club.id}/seasons/{season['id']}/export.csv")
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines() == [
        "\ufeffrank,club_player_id,name,score,evenings,counted,best_place,points,matches,"
        "head_to_head",
        *(
            f"{i},{r['club_player_id']},Giocatore 0{i},{12 - 3 * i},1,1,{i},{12 - 3 * i},3,"
            for i, r in enumerate(read.json()["rows"], start=1)
        ),
    ]
    semicolon = client.get(f"/v1/clubs/{club.id}/seasons/{season['id']}/export.csv?lang=it")
    assert semicolon.text.splitlines()[1].count(";") == 9


def test_average_scores_are_exact_in_order_and_decimal_in_csv(client: ApiClient) -> None:
    club = new_club(client)
    season = new_season(client, club, "average")
    players = [{"name": n} for n in NAMES[:3]]  # three players: a bye each evening
    made = club_tournament(
        client, club, players, swiss_rounds=3, final_phase="none", season_id=season["id"]
    )
    play_evening(client, club, made)
    rows = table_of(client, club, season)["rows"]
    assert all(r["matches"] == 3 for r in rows)
    csv = client.get(f"/v1/clubs/{club.id}/seasons/{season['id']}/export.csv?sep=semicolon")
    assert csv.status_code == 200
    assert len(csv.text.splitlines()) == 4


def test_who_may_touch_a_season(client: ApiClient) -> None:
    club = new_club(client)
    other = new_club(client, "Circolo Trento")
    season = new_season(client, club, "places")
    url = f"/v1/clubs/{club.id}/seasons"
    body = {"name": "Spring", "scoring": "points"}
    assert_problem(client.post(url, json=body), 401, "unauthorized")
    assert_problem(client.post(url, json=body, headers=other.auth), 403, "forbidden")
    mine = club_tournament(client, club, [{"name": n} for n in NAMES[:4]])
    assert_problem(client.post(url, json=body, headers=made_auth(mine)), 403, "forbidden")
    theirs = club_tournament(client, other, [{"name": n} for n in NAMES[:4]])
    # another club's key cannot put this club's tournament in a season, nor its own tournament
    # in this club's season
    put = {"season_id": season["id"]}
    assert_problem(
        client.put(f"/v1/tournaments/{mine['id']}/season", json=put, headers=other.auth),
        403,
        "forbidden",
    )
    assert_problem(
        client.put(f"/v1/tournaments/{theirs['id']}/season", json=put, headers=other.auth),
        404,
        "season_not_found",
    )
    made = client.post(
        f"/v1/clubs/{other.id}/tournaments",
        json={"name": "x", "players": [{"name": "A"}, {"name": "B"}], "season_id": season["id"]},
        headers=other.auth,
    )
    assert_problem(made, 404, "season_not_found")
    # the tournament's own organizer token may; a club-less tournament has no season
    assert (
        client.put(f"/v1/tournaments/{mine['id']}/season", json=put, headers=made_auth(mine))
    ).status_code == 200
    alone = create(client, 4)
    assert_problem(
        client.put(f"/v1/tournaments/{alone.id}/season", json=put, headers=alone.auth),
        422,
        "not_a_club_tournament",
    )
    # reads are public; a season of another club is not found under this one
    assert client.get(f"{url}/{season['id']}").json()["name"] == "Winter places"
    assert_problem(client.get(f"/v1/clubs/{other.id}/seasons/{season['id']}"), 404,
                   "season_not_found")  # fmt: skip
    assert [s["id"] for s in client.get(url).json()["items"]] == [season["id"]]
    refused = client.post(
        url, json={"name": "x", "scoring": "points", "place_points": [3, 1]}, headers=club.auth
    )
    assert refused.status_code == 422


def test_seasons_are_listed_in_pages(client: ApiClient) -> None:
    club = new_club(client)
    made = [new_season(client, club, "points")["id"] for _ in range(3)]
    first = client.get(f"/v1/clubs/{club.id}/seasons", params={"limit": 2}).json()
    rest = client.get(
        f"/v1/clubs/{club.id}/seasons", params={"limit": 2, "cursor": first["next_cursor"]}
    ).json()
    assert [s["id"] for s in first["items"] + rest["items"]] == made
    assert rest["next_cursor"] is None


def test_a_correction_after_the_end_counts_at_once_and_an_unfinished_evening_stops(
    client: ApiClient,
) -> None:
    club = new_club(client)
    season = new_season(client, club, "points")
    players = [{"name": n} for n in NAMES[:4]]
    made = club_tournament(
        client, club, players, swiss_rounds=3, final_phase="none", season_id=season["id"]
    )
    play_evening(client, club, made)
    url = f"/v1/clubs/{club.id}/seasons/{season['id']}/standings"
    before = {r["name"]: r["score"] for r in client.get(url).json()["rows"]}
    last = client.get(f"/v1/tournaments/{made['id']}/rounds/3").json()["matches"][0]
    names = {p["id"]: p["name"] for p in made["players"]}
    corrected = client.put(
        f"/v1/tournaments/{made['id']}/matches/{last['id']}/result",
        json={"home": 1, "away": 1},
        headers=club.auth,
    )
    assert corrected.status_code == 200, corrected.text
    after = {r["name"]: r["score"] for r in client.get(url).json()["rows"]}
    home, away = names[last["home"]], names[last["away"]]
    winner, loser = (home, away) if home < away else (away, home)
    assert (after[winner], after[loser]) == (before[winner] - 2, before[loser] + 1)  # 3-1-0
    cleared = client.delete(
        f"/v1/tournaments/{made['id']}/matches/{last['id']}/result", headers=club.auth
    )
    assert cleared.status_code in (200, 204), cleared.text
    table = client.get(url).json()
    assert table["rows"] == []
    assert [(e["status"], e["counted"]) for e in table["evenings"]] == [("swiss", False)]


def test_the_season_pages_in_each_language_are_conditional_and_safe(client: ApiClient) -> None:
    club = new_club(client)
    season = new_season(client, club, "average", best=2)
    names = ["=SUM(A1)", "Müller", "Šťastný", "<b>Neri</b>"]
    made = club_tournament(
        client,
        club,
        [{"name": n} for n in names],
        swiss_rounds=3,
        final_phase="none",
        season_id=season["id"],
    )
    play_evening(client, club, made)
    base = f"/v1/clubs/{club.id}/seasons/{season['id']}"
    words = {
        "en": "Points per round played",
        "it": "Punti per turno giocato",
        "sk": "Body na odohrané kolo",
        "cs": "Body na odehrané kolo",
    }
    for lang, phrase in words.items():
        for page in ("print", "live"):
            shown = client.get(f"{base}/{page}", params={"lang": lang})
            assert shown.status_code == 200, shown.text
            assert phrase in shown.text
            assert "&lt;b&gt;Neri&lt;/b&gt;" in shown.text and "<b>Neri" not in shown.text
            assert "script-src 'self'" in shown.headers["content-security-policy"]
            again = client.get(
                f"{base}/{page}",
                params={"lang": lang},
                headers={"If-None-Match": shown.headers["etag"]},
            )
            assert again.status_code == 304
    csv = client.get(f"{base}/export.csv").text
    assert "'=SUM(A1)" in csv


def test_scores_are_written_as_the_pages_and_the_csv_write_numbers() -> None:
    assert [score_text(F(n, d), "en") for n, d in ((9, 1), (9, 2), (1, 2), (2, 3))] == [
        "9",
        "4½",
        "½",
        "0.667",
    ]
    assert score_text(F(2, 3), "cs") == "0,667"
    assert [str(csv_number(F(n, d))) for n, d in ((9, 1), (9, 2), (2, 3), (5, 8))] == [
        "9",
        "4.5",
        "0.6667",
        "0.625",
    ]


def season_events(client: ApiClient, club: Club) -> list[tuple[int, str]]:
    read = client.get(f"/v1/clubs/{club.id}/events", params={"limit": 100}, headers=club.auth)
    assert read.status_code == 200, read.text
    told = [e["data"] for e in read.json()["items"] if e["type"] == "season.updated"]
    assert all(d["reason"] == "tournament" for d in told)
    return [(d["season_id"], d["tournament_id"]) for d in told]


def test_season_updated_when_an_evening_finishes_joins_or_leaves(client: ApiClient) -> None:
    club = new_club(client)
    winter = new_season(client, club, "points")
    spring = new_season(client, club, "places")
    players = [{"name": n} for n in NAMES[:4]]
    made = club_tournament(
        client, club, players, swiss_rounds=3, final_phase="none", season_id=winter["id"]
    )
    alone = club_tournament(client, club, players, swiss_rounds=3, final_phase="none")
    play_evening(client, club, alone)  # in no season: no season event
    assert season_events(client, club) == []
    play_evening(client, club, made)
    assert season_events(client, club) == [(winter["id"], made["id"])]  # it finished
    moved = client.put(
        f"/v1/tournaments/{made['id']}/season", json={"season_id": spring["id"]}, headers=club.auth
    )
    assert moved.status_code == 200, moved.text
    assert season_events(client, club)[1:] == [
        (spring["id"], made["id"]),
        (winter["id"], made["id"]),
    ]
    left = client.put(
        f"/v1/tournaments/{made['id']}/season", json={"season_id": None}, headers=club.auth
    )
    assert left.status_code == 200, left.text
    assert season_events(client, club)[3:] == [(spring["id"], made["id"])]


def test_head_to_head_reads_the_same_whether_the_tied_are_listed_or_not(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the winner scores (`place_points: [1]`): the second, third and fourth of one evening
    are level with those of the other (score 0, one evening, the same best place), so head to
    head is read for six players. The games query names the tied entries up to
    ``MAX_LISTED``; past it, it reads every game of the season, and the table is the same. The
    table is made with the cyclic collector paused."""
    club = new_club(client)
    season = new_season(client, club, "places", place_points=[1])
    for came in (NAMES[0:4], [NAMES[0], *NAMES[4:7]]):
        made = club_tournament(
            client, club, [{"name": n} for n in came], swiss_rounds=3, final_phase="none",
            season_id=season["id"],
        )  # fmt: skip
        play_evening(client, club, made)
    listed = table_of(client, club, season)["rows"]
    assert [(r["rank"], r["name"], r["head_to_head"]) for r in listed] == [
        (1, "Giocatore 01", None),
        (2, "Giocatore 02", 0), (2, "Giocatore 05", 0),
        (4, "Giocatore 03", 0), (4, "Giocatore 06", 0),
        (6, "Giocatore 04", 0), (6, "Giocatore 07", 0),
    ]  # fmt: skip
    enabled: list[bool] = []
    standings = seasons.season_standings

    def watched(*args: Any, **kwargs: Any) -> Any:
        enabled.append(gc.isenabled())
        return standings(*args, **kwargs)

    monkeypatch.setattr(seasons, "MAX_LISTED", 0)
    monkeypatch.setattr(seasons, "season_standings", watched)
    unlisted = client.get(f"/v1/clubs/{club.id}/seasons/{season['id']}/export.csv")
    assert unlisted.status_code == 200
    lines = [line.split(",") for line in unlisted.text.splitlines()[1:]]
    assert [(c[0], c[1], c[-1]) for c in lines] == [
        (str(r["rank"]), str(r["club_player_id"]), "" if r["head_to_head"] is None else "0")
        for r in listed
    ]
    assert enabled == [False] and gc.isenabled()
