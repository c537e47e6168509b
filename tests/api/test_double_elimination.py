"""A 12-player double elimination played over HTTP: the bracket read describes both brackets
and the grand final, follows every result, the events carry each match the bracket forms, the
reset is played when the losers' bracket winner wins the grand final, and the live and printed
pages draw it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from tests.api.helpers import Organizer, assert_problem, create, play_round, record
from tests.api.test_events import stored
from tests.client import ApiClient


def bracket(client: ApiClient, t: Organizer) -> dict[str, Any]:
    response = client.get(f"/v1/tournaments/{t.id}/bracket")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def labels(body: dict[str, Any], side: str, number: int) -> list[list[str]]:
    (column,) = [r for r in body["rounds"] if (r["side"], r["number"]) == (side, number)]
    return [[s["label"] for s in m["slots"]] for m in column["matches"]]


def open_matches(client: ApiClient, t: Organizer) -> list[dict[str, Any]]:
    body = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    return [m for m in body["matches"] if m["result"] is None]


def test_a_12_player_double_elimination(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 14, final_phase="double_elimination", top_cut_size=12, swiss_rounds=3)
    settings = t.body["settings"]
    assert (settings["final_phase"], settings["top_cut_size"]) == ("double_elimination", 12)
    assert settings["grand_final_reset"] is None  # the default: played if needed
    before = bracket(client, t)
    assert (before["kind"], before["size"], before["grand_final_reset"], before["started"]) == (
        "double_elimination",
        12,
        True,
        False,
    )
    assert [(r["side"], r["number"], r["stage"]) for r in before["rounds"]] == [
        ("winners", 1, "winners_round_1"),
        ("winners", 2, "winners_round_2"),
        ("winners", 3, "winners_round_3"),
        ("winners", 4, "winners_round_4"),
        ("losers", 1, "losers_round_1"),
        ("losers", 2, "losers_round_2"),
        ("losers", 3, "losers_round_3"),
        ("losers", 4, "losers_round_4"),
        ("losers", 5, "losers_round_5"),
        ("grand_final", 1, "grand_final"),
        ("grand_final", 2, "grand_final_reset"),
    ]
    # seeds 1–4 have a bye: they wait in winners' round 2
    assert labels(before, "winners", 1) == [
        ["Seed 8", "Seed 9"],
        ["Seed 5", "Seed 12"],
        ["Seed 7", "Seed 10"],
        ["Seed 6", "Seed 11"],
    ]
    assert labels(before, "winners", 2)[0] == ["Seed 1", "Winner of match 1"]
    # the losers of winners' round 2 drop in reversed
    assert labels(before, "losers", 1) == [
        ["Loser of match 1", "Loser of match 8"],
        ["Loser of match 2", "Loser of match 7"],
        ["Loser of match 3", "Loser of match 6"],
        ["Loser of match 4", "Loser of match 5"],
    ]
    assert labels(before, "grand_final", 1) == [["Winner of match 19", "Winner of match 21"]]
    (reset,) = [m for r in before["rounds"] for m in r["matches"] if m["if_needed"]]
    assert (reset["number"], reset["stage"], reset["skipped"]) == (23, "grand_final_reset", False)
    assert [s["label"] for s in reset["slots"]] == ["Winner of match 22", "Loser of match 22"]

    for _ in range(3):
        play_round(client, t)
    standings = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    top12 = [r["player_id"] for r in standings[:12]]
    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert started.status_code == 201, started.text
    first = started.json()["matches"]
    seed = {pid: i for i, pid in enumerate(top12, start=1)}
    assert [(m["stage"], m["board"], seed[m["home"]], seed[m["away"]]) for m in first] == [
        ("winners_round_1", 1, 8, 9),
        ("winners_round_1", 2, 5, 12),
        ("winners_round_1", 3, 7, 10),
        ("winners_round_1", 4, 6, 11),
    ]
    response = client.get(f"/v1/tournaments/{t.id}/bracket")
    etag = response.headers["ETag"]
    headers = {"If-None-Match": etag}
    assert client.get(f"/v1/tournaments/{t.id}/bracket", headers=headers).status_code == 304

    # the better seed wins every match, until the grand final
    losses: dict[int, int] = {}
    while True:
        pending = [m for m in open_matches(client, t) if m["stage"] != "grand_final"]
        if not pending:
            break
        for m in pending:
            record(client, t, m["id"], home=2, away=0)
            losses[m["away"]] = losses.get(m["away"], 0) + 1
    assert client.get(f"/v1/tournaments/{t.id}/bracket", headers=headers).status_code == 200
    body = bracket(client, t)
    (final,) = [m["match"] for m in body["rounds"][9]["matches"]]
    # seed 1 won the winners' bracket, seed 2 (beaten by 1 in the winners' final) the losers'
    assert (final["stage"], seed[final["home"]], seed[final["away"]]) == ("grand_final", 1, 2)
    assert losses[top12[1]] == 1 and top12[0] not in losses
    # nobody is out before two losses: every other qualifier has lost twice
    assert sorted(seed[p] for p, n in losses.items() if n == 2) == list(range(3, 13))
    # the events carried every match the bracket formed, each once
    written = [
        m["id"]
        for e in stored(app, t.id)
        if e["type"] == "result.recorded"
        for m in e["data"].get("finals_written", [])
        if m["id"] not in {f["id"] for f in first}
    ]
    assert len(written) == len(set(written)) == 22 - 4 - 1 + 1  # up to the grand final

    # seed 2 wins the grand final: the reset is formed, the same two players
    recorded = client.put(
        f"/v1/tournaments/{t.id}/matches/{final['id']}/result",
        json={"home": 1, "away": 1, "winner": "away", "decided_by": "penalties"},
        headers=t.auth,
    )
    assert recorded.status_code == 200, recorded.text
    body = bracket(client, t)
    (reset,) = body["rounds"][10]["matches"]
    assert reset["skipped"] is False and reset["match"] is not None
    assert (seed[reset["match"]["home"]], seed[reset["match"]["away"]]) == (1, 2)
    assert [s["player_id"] for s in reset["slots"]] == [top12[1], top12[0]]
    assert client.get(f"/v1/tournaments/{t.id}/final-phase").json()["final_ranking"] is None
    event = stored(app, t.id)[-1]
    assert event["type"] == "result.recorded"
    assert [m["stage"] for m in event["data"]["finals_written"]] == ["grand_final_reset"]
    # the grand final's winner cannot change once the reset has a result
    record(client, t, reset["match"]["id"], home=3, away=1)  # seed 1 takes the title
    assert_problem(
        client.put(
            f"/v1/tournaments/{t.id}/matches/{final['id']}/result",
            json={"home": 2, "away": 0},
            headers=t.auth,
        ),
        409,
        "final_played",
    )
    result = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    ranking = [p["player_id"] for p in result["final_ranking"]]
    # 1st and 2nd from the reset, 3rd the losers' final's loser, then by the losers' round
    # each went out in (later first), a round's losers by seed
    assert [seed.get(p) for p in ranking[:12]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert ranking[12:] == [r["player_id"] for r in standings[12:]]
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"
    assert [e["type"] for e in stored(app, t.id)][-1] == "tournament.finished"

    live = client.get(f"/v1/tournaments/{t.id}/live").text
    assert live.count('class="match bracket-match') == 23
    assert "Winners' bracket" in live and "Losers' bracket" in live
    assert 'data-stage="grand_final_reset"' in live
    printed = client.get(f"/v1/tournaments/{t.id}/print").text
    assert printed.count('class="match bracket-match') == 23


def test_without_the_reset_the_grand_final_decides(client: ApiClient) -> None:
    t = create(
        client,
        4,
        final_phase="double_elimination",
        top_cut_size=4,
        grand_final_reset=False,
        swiss_rounds=1,
    )
    assert t.body["settings"]["grand_final_reset"] is False
    play_round(client, t)
    client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert [r["stage"] for r in bracket(client, t)["rounds"]][-1] == "grand_final"
    while pending := open_matches(client, t):
        for m in pending:
            # the away side wins the grand final: the losers' bracket winner, champion at once
            away_wins = m["stage"] == "grand_final"
            record(client, t, m["id"], home=0 if away_wins else 1, away=1 if away_wins else 0)
    result = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    final = next(m for m in result["matches"] if m["stage"] == "grand_final")
    assert [p["player_id"] for p in result["final_ranking"][:2]] == [final["away"], final["home"]]
    assert len(result["matches"]) == 6


def test_a_reset_not_needed_is_skipped(client: ApiClient) -> None:
    t = create(client, 4, final_phase="double_elimination", top_cut_size=4, swiss_rounds=1)
    play_round(client, t)
    client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    while pending := open_matches(client, t):
        for m in pending:
            record(client, t, m["id"], home=1, away=0)
    reset = bracket(client, t)["rounds"][-1]["matches"][0]
    assert (reset["if_needed"], reset["skipped"], reset["match"]) == (True, True, None)
    assert [s["player_id"] for s in reset["slots"]] == [None, None]
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"


def test_double_elimination_settings_are_checked(client: ApiClient) -> None:
    body = {"name": "x", "players": [{"name": f"P{i}"} for i in range(8)]}
    for settings, code in [
        ({"final_phase": "double_elimination"}, "invalid_settings"),
        ({"final_phase": "double_elimination", "top_cut_size": 3}, "invalid_settings"),
        ({"final_phase": "double_elimination", "top_cut_size": 12}, "invalid_settings"),
        (
            {"final_phase": "double_elimination", "top_cut_size": 8, "third_place": True},
            "invalid_settings",
        ),
        ({"final_phase": "semifinals", "grand_final_reset": False}, "invalid_settings"),
        (
            {"final_phase": "double_elimination", "top_cut_size": 8, "grand_final_reset": 1},
            "validation_error",
        ),
    ]:
        assert_problem(client.post("/v1/tournaments", json={**body, **settings}), 422, code)
