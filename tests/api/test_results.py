"""Results: record, forfeits, winner on a level knockout score, corrections, If-Match."""

from __future__ import annotations

from tests.api.helpers import Organizer, assert_problem, create, generate, play_round, record
from tests.client import ApiClient


def result_url(t: Organizer, match_id: int) -> str:
    return f"/v1/tournaments/{t.id}/matches/{match_id}/result"


def test_record_answers_the_match_with_its_result(client: ApiClient) -> None:
    t = create(client, 4)
    match = generate(client, t)["matches"][0]
    body = record(client, t, match["id"], home=3, away=1)
    assert body["id"] == match["id"]
    assert body["result"] == {
        "home": 3,
        "away": 1,
        "winner": "home",
        "decided_by": None,
        "forfeit": None,
    }
    draw = record(client, t, match["id"], home=2, away=2)
    assert draw["result"]["winner"] is None


def test_forfeit(client: ApiClient) -> None:
    t = create(client, 4)
    matches = generate(client, t)["matches"]
    body = record(client, t, matches[0]["id"], forfeit="away")
    assert body["result"] == {
        "home": 0,
        "away": 0,
        "winner": "home",
        "decided_by": None,
        "forfeit": "away",
    }
    record(client, t, matches[1]["id"], home=1, away=0)
    rows = {
        r["player_id"]: r for r in client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    }
    present, absent = rows[matches[0]["home"]], rows[matches[0]["away"]]
    assert (present["wins"], present["played"], present["goals_for"], present["points"]) == (
        1,
        1,
        0,
        3,
    )
    assert (absent["losses"], absent["played"], absent["points"]) == (1, 1, 0)


def test_clear_result(client: ApiClient) -> None:
    t = create(client, 4)
    match = generate(client, t)["matches"][0]
    record(client, t, match["id"], home=1, away=0)
    cleared = client.delete(result_url(t, match["id"]), headers=t.auth)
    assert cleared.status_code == 200
    assert cleared.json()["result"] is None
    assert client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["matches"][0]["result"] is None


def test_round_locked_after_the_next_round(client: ApiClient) -> None:
    t = create(client, 4)
    first = play_round(client, t)
    generate(client, t)
    match_id = first["matches"][0]["id"]
    assert_problem(
        client.put(result_url(t, match_id), json={"home": 0, "away": 5}, headers=t.auth),
        409,
        "round_locked",
    )
    assert_problem(client.delete(result_url(t, match_id), headers=t.auth), 409, "round_locked")
    stored = client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["matches"][0]["result"]
    assert (stored["home"], stored["away"]) == (2, 1)


def test_correction_in_the_latest_round_recomputes_standings(client: ApiClient) -> None:
    t = create(client, 4)
    swiss_round = play_round(client, t)
    match = swiss_round["matches"][0]
    record(client, t, match["id"], home=0, away=4)
    rows = {
        r["player_id"]: r for r in client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    }
    assert rows[match["away"]]["points"] == 3 and rows[match["away"]]["goals_for"] == 4
    assert rows[match["home"]]["points"] == 0 and rows[match["home"]]["goal_difference"] == -4


def finish_swiss(client: ApiClient, t: Organizer, rounds: int) -> None:
    for _ in range(rounds):
        play_round(client, t)


def test_winner_required_on_a_level_final_phase_score(client: ApiClient) -> None:
    t = create(client, 4, swiss_rounds=1)
    finish_swiss(client, t, 1)
    final = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth).json()
    assert final["kind"] == "final"
    match_id = final["matches"][0]["id"]
    assert_problem(
        client.put(result_url(t, match_id), json={"home": 1, "away": 1}, headers=t.auth),
        422,
        "winner_required",
    )
    body = record(client, t, match_id, home=1, away=1, winner="away", decided_by="penalties")
    assert body["result"]["winner"] == "away"
    assert body["result"]["decided_by"] == "penalties"
    phase = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    assert phase["final_ranking"][0]["player_id"] == final["matches"][0]["away"]
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"


def test_final_played_blocks_a_semifinal_correction(client: ApiClient) -> None:
    t = create(client, 8)
    finish_swiss(client, t, 4)
    semis = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth).json()["matches"]
    assert [m["stage"] for m in semis] == ["semifinal", "semifinal"]
    for m in semis:
        record(client, t, m["id"], home=2, away=0)
    phase = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    finals = [m for m in phase["matches"] if m["stage"] != "semifinal"]
    assert [m["stage"] for m in finals] == ["final", "third_place"]
    assert {finals[0]["home"], finals[0]["away"]} == {semis[0]["home"], semis[1]["home"]}
    record(client, t, finals[0]["id"], home=1, away=0)
    assert_problem(
        client.put(result_url(t, semis[0]["id"]), json={"home": 0, "away": 2}, headers=t.auth),
        409,
        "final_played",
    )
    # once the final's result is cleared the semifinal can change and the finals re-form
    client.delete(result_url(t, finals[0]["id"]), headers=t.auth)
    record(client, t, semis[0]["id"], home=0, away=2)
    phase = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    final = next(m for m in phase["matches"] if m["stage"] == "final")
    assert {final["home"], final["away"]} == {semis[0]["away"], semis[1]["home"]}


def test_swiss_results_lock_when_the_final_phase_starts(client: ApiClient) -> None:
    t = create(client, 8)
    last = None
    for _ in range(2):
        last = play_round(client, t)
    assert last is not None
    phase = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert phase.status_code == 201  # early final phase after round 2 of 4
    read = client.get(f"/v1/tournaments/{t.id}").json()
    assert read["status"] == "final_phase"
    assert read["format"]["swiss_rounds"] == 2  # the rounds played, not the 4 planned
    assert read["current_round"] == 2
    listed = client.get("/v1/tournaments").json()["items"]
    assert next(i for i in listed if i["id"] == t.id)["format"]["swiss_rounds"] == 2
    assert_problem(
        client.put(
            result_url(t, last["matches"][0]["id"]), json={"home": 0, "away": 0}, headers=t.auth
        ),
        409,
        "round_locked",
    )
    assert_problem(
        client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth), 409, "wrong_status"
    )


def test_if_match_refuses_a_stale_write(client: ApiClient) -> None:
    t = create(client, 4)
    matches = generate(client, t)["matches"]
    etag = client.get(f"/v1/tournaments/{t.id}/rounds/1").headers["etag"]
    first = client.put(
        result_url(t, matches[0]["id"]),
        json={"home": 1, "away": 0},
        headers={**t.auth, "If-Match": etag},
    )
    assert first.status_code == 200
    assert first.headers["etag"] == '"3"'
    stale = client.put(
        result_url(t, matches[1]["id"]),
        json={"home": 1, "away": 0},
        headers={**t.auth, "If-Match": etag},
    )
    assert_problem(stale, 412, "precondition_failed")
    assert_problem(
        client.delete(result_url(t, matches[0]["id"]), headers={**t.auth, "If-Match": etag}),
        412,
        "precondition_failed",
    )
    assert client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["matches"][1]["result"] is None
    fresh = client.put(
        result_url(t, matches[1]["id"]),
        json={"home": 1, "away": 0},
        headers={**t.auth, "If-Match": first.headers["etag"]},
    )
    assert fresh.status_code == 200


def test_a_forfeit_carries_no_goals_and_no_decided_by(client: ApiClient) -> None:
    t = create(client, 4)
    match = generate(client, t)["matches"][0]
    url = f"/v1/tournaments/{t.id}/matches/{match['id']}/result"
    for body in ({"forfeit": "away", "home": 3, "away": 0}, {"forfeit": "home", "away": 0}):
        answer = client.put(url, json=body, headers=t.auth)
        problem = assert_problem(answer, 422, "validation_error")
        assert "a forfeit carries no goals" in problem["detail"]
    problem = assert_problem(
        client.put(url, json={"forfeit": "away", "decided_by": "penalties"}, headers=t.auth),
        422,
        "invalid_result",
    )
    assert "leave out `decided_by`" in problem["detail"]
    assert client.get(url.rsplit("/", 3)[0] + "/rounds/1").json()["matches"][0]["result"] is None


def test_401_says_which_token_for_reads_and_writes(client: ApiClient) -> None:
    t = create(client, 4)
    for method, path in (("GET", "/webhooks"), ("GET", "/audit"), ("POST", "/rounds")):
        problem = assert_problem(
            client.request(method, f"/v1/tournaments/{t.id}{path}"), 401, "unauthorized"
        )
        assert "Authorization: Bearer <organizer_token>" in problem["detail"], path
        expected = "write" if method == "POST" else "read"
        assert "write" not in problem["detail"] or expected == "write", path
