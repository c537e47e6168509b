"""A 16-player Swiss with a top-8 cut played over HTTP: the bracket read follows every result,
the events carry each match the bracket forms, the live page draws the bracket."""

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


def labels(body: dict[str, Any], round_number: int) -> list[list[str]]:
    matches = body["rounds"][round_number - 1]["matches"]
    return [[s["label"] for s in m["slots"]] for m in matches]


def test_a_16_player_swiss_with_a_top_8_cut(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 16, final_phase="top_cut", top_cut_size=8, third_place=True)
    assert t.body["settings"]["top_cut_size"] == 8
    assert t.body["settings"]["third_place"] is True
    before = bracket(client, t)
    assert (before["kind"], before["size"], before["third_place"], before["started"]) == (
        "top_cut",
        8,
        True,
        False,
    )
    assert [r["stage"] for r in before["rounds"]] == ["quarterfinal", "semifinal", "final"]
    assert labels(before, 1) == [
        ["Seed 1", "Seed 8"],
        ["Seed 4", "Seed 5"],
        ["Seed 2", "Seed 7"],
        ["Seed 3", "Seed 6"],
    ]
    assert labels(before, 2) == [
        ["Winner of match 1", "Winner of match 2"],
        ["Winner of match 3", "Winner of match 4"],
    ]
    assert labels(before, 3) == [
        ["Winner of match 5", "Winner of match 6"],
        ["Loser of match 5", "Loser of match 6"],
    ]
    assert before["seeds"] == []  # nothing played: no provisional qualifiers yet
    for _ in range(t.body["format"]["swiss_rounds"]):
        play_round(client, t)
    standings = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    top8 = [r["player_id"] for r in standings[:8]]
    assert [r["qualified"] for r in standings] == [True] * 8 + [False] * 8

    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert started.status_code == 201, started.text
    quarterfinals = started.json()["matches"]
    assert [(m["stage"], m["board"], m["home"], m["away"]) for m in quarterfinals] == [
        ("quarterfinal", 1, top8[0], top8[7]),
        ("quarterfinal", 2, top8[3], top8[4]),
        ("quarterfinal", 3, top8[1], top8[6]),
        ("quarterfinal", 4, top8[2], top8[5]),
    ]
    response = client.get(f"/v1/tournaments/{t.id}/bracket")
    etag = response.headers["ETag"]
    assert (
        client.get(f"/v1/tournaments/{t.id}/bracket", headers={"If-None-Match": etag}).status_code
        == 304
    )
    body = response.json()
    assert [s["player_id"] for s in body["seeds"]] == top8
    assert body["rounds"][0]["matches"][0]["match"]["id"] == quarterfinals[0]["id"]
    assert body["rounds"][1]["matches"][0]["match"] is None

    # the away side wins every quarterfinal: seeds 8, 5, 7, 6 go through
    for m in quarterfinals:
        record(client, t, m["id"], home=0, away=1)
    body = bracket(client, t)
    assert (
        client.get(f"/v1/tournaments/{t.id}/bracket", headers={"If-None-Match": etag}).status_code
        == 200
    )
    semifinals = [m["match"] for m in body["rounds"][1]["matches"]]
    assert [(m["home"], m["away"]) for m in semifinals] == [
        (top8[4], top8[7]),  # seed 5 is home against seed 8
        (top8[5], top8[6]),
    ]
    first = body["rounds"][0]["matches"][0]
    assert [(s["player_id"], s["goals"], s["won"]) for s in first["slots"]] == [
        (top8[0], 0, False),
        (top8[7], 1, True),
    ]
    # the events carried each semifinal as it was formed
    written = [
        m["id"]
        for e in stored(app, t.id)
        if e["type"] == "result.recorded"
        for m in e["data"].get("finals_written", [])
    ]
    assert written == [m["id"] for m in semifinals]

    record(client, t, semifinals[0]["id"], home=2, away=1)  # seed 5 beats seed 8
    # a semifinal played: its quarterfinals' winners cannot change any more
    assert_problem(
        client.put(
            f"/v1/tournaments/{t.id}/matches/{quarterfinals[0]['id']}/result",
            json={"home": 1, "away": 0},
            headers=t.auth,
        ),
        409,
        "final_played",
    )
    record(client, t, semifinals[1]["id"], home=1, away=1, winner="away", decided_by="penalties")
    body = bracket(client, t)
    final, third = (m["match"] for m in body["rounds"][2]["matches"])
    assert (final["stage"], final["home"], final["away"]) == ("final", top8[4], top8[6])
    assert (third["stage"], third["board"], third["home"], third["away"]) == (
        "third_place",
        2,
        top8[5],
        top8[7],
    )
    record(client, t, third["id"], home=3, away=0)
    assert client.get(f"/v1/tournaments/{t.id}/final-phase").json()["final_ranking"] is None
    record(client, t, final["id"], home=0, away=2)
    result = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    ranking = [p["player_id"] for p in result["final_ranking"]]
    # 1–4 from the final and the third-place match, 5–8 the quarterfinal losers by seed
    assert ranking[:8] == [top8[6], top8[4], top8[5], top8[7], *top8[:4]]
    assert ranking[8:] == [r["player_id"] for r in standings[8:]]
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"
    assert [e["type"] for e in stored(app, t.id)][-1] == "tournament.finished"

    live = client.get(f"/v1/tournaments/{t.id}/live").text
    assert live.count('class="match bracket-match') == 8
    printed = client.get(f"/v1/tournaments/{t.id}/print").text
    assert printed.count('class="match bracket-match') == 8


def test_a_top_12_gives_the_top_4_seeds_a_bye(client: ApiClient) -> None:
    t = create(client, 14, final_phase="top_cut", top_cut_size=12, swiss_rounds=2)
    for _ in range(2):
        play_round(client, t)
    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth).json()
    assert len(started["matches"]) == 4  # seeds 5–12; 1–4 wait in the quarterfinals
    body = bracket(client, t)
    assert [r["stage"] for r in body["rounds"]] == [
        "round_of_16",
        "quarterfinal",
        "semifinal",
        "final",
    ]
    assert labels(body, 1) == [
        ["Seed 8", "Seed 9"],
        ["Seed 5", "Seed 12"],
        ["Seed 7", "Seed 10"],
        ["Seed 6", "Seed 11"],
    ]
    assert labels(body, 2) == [
        ["Seed 1", "Winner of match 1"],
        ["Seed 4", "Winner of match 2"],
        ["Seed 2", "Winner of match 3"],
        ["Seed 3", "Winner of match 4"],
    ]
    waiting = body["rounds"][1]["matches"][0]["slots"][0]
    assert waiting["player_id"] == body["seeds"][0]["player_id"] is not None


def test_top_cut_settings_are_checked(client: ApiClient) -> None:
    body = {"name": "x", "players": [{"name": f"P{i}"} for i in range(6)]}
    for settings, code in [
        ({"final_phase": "top_cut"}, "invalid_settings"),
        ({"final_phase": "top_cut", "top_cut_size": 8}, "invalid_settings"),
        ({"final_phase": "semifinals", "top_cut_size": 4}, "invalid_settings"),
        ({"final_phase": "top_cut", "top_cut_size": 3, "third_place": True}, "invalid_settings"),
        ({"final_phase": "top_cut", "top_cut_size": 65}, "validation_error"),
    ]:
        assert_problem(client.post("/v1/tournaments", json={**body, **settings}), 422, code)


def test_the_semifinals_read_as_the_bracket_of_4(client: ApiClient) -> None:
    t = create(client, 8)
    for _ in range(t.body["format"]["swiss_rounds"]):
        play_round(client, t)
    semis = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth).json()["matches"]
    body = bracket(client, t)
    assert (body["kind"], body["size"], body["third_place"]) == ("semifinals", 4, True)
    assert [m["match"]["id"] for m in body["rounds"][0]["matches"]] == [m["id"] for m in semis]
    assert labels(body, 2) == [
        ["Winner of match 1", "Winner of match 2"],
        ["Loser of match 1", "Loser of match 2"],
    ]


def test_a_top_4_after_groups_is_crossed(client: ApiClient) -> None:
    t = create(client, 8, groups={"count": 2, "assignment": "seeded"})
    changed = client.patch(
        f"/v1/tournaments/{t.id}",
        json={"final_phase": "top_cut", "top_cut_size": 4},
        headers=t.auth,
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["settings"]["top_cut_size"] == 4
    for _ in range(t.body["format"]["swiss_rounds"]):
        play_round(client, t)
    semis = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth).json()["matches"]
    body = bracket(client, t)
    assert [s["label"] for s in body["seeds"]][:2] in (["A1", "B1"], ["B1", "A1"])
    groups = {p["id"]: p["group"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    assert [m["stage"] for m in semis] == ["semifinal", "semifinal"]
    assert all(groups[m["home"]] != groups[m["away"]] for m in semis)
    assert [s["label"] for s in body["rounds"][0]["matches"][0]["slots"]] in (
        ["A1", "B2"],
        ["B1", "A2"],
    )
