"""Refusals a person reads say what to do next, through HTTP; their codes stay as they were."""

from __future__ import annotations

from tests.api.helpers import assert_problem, create, generate, play_round, record
from tests.client import ApiClient


def test_a_round_too_early_names_the_open_matches_and_what_comes_first(
    client: ApiClient,
) -> None:
    t = create(client, 8, swiss_rounds=3, final_phase="none")
    base = f"/v1/tournaments/{t.id}"
    none = assert_problem(client.post(f"{base}/final-phase", headers=t.auth), 409, "wrong_status")
    assert none["detail"] == (
        "this tournament has no final phase: its standings after the last Swiss round are the "
        "final result"
    )
    first = generate(client, t)
    record(client, t, first["matches"][0]["id"], home=1, away=0)
    open_ids = ", ".join(str(m["id"]) for m in first["matches"][1:])

    body = assert_problem(client.post(f"{base}/rounds", headers=t.auth), 409, "round_incomplete")

    assert body["detail"] == (
        f"round 1 still has matches without result ({open_ids}): "
        "record every result of round 1 before generating round 2"
    )


def test_the_final_phase_before_any_round_says_generate_round_1_first(client: ApiClient) -> None:
    t = create(client, 8)
    body = assert_problem(
        client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth), 409, "wrong_status"
    )
    assert body["detail"] == (
        "the final phase follows at least one Swiss round: generate round 1 first"
    )


def test_player_refusals_say_what_to_do_instead(client: ApiClient) -> None:
    t = create(client, 8)
    base = f"/v1/tournaments/{t.id}"
    duplicate = client.post(f"{base}/players", json={"name": "player 01"}, headers=t.auth)
    assert "tell the two apart" in assert_problem(duplicate, 409, "duplicate_name")["detail"]
    early = client.patch(f"{base}/players/3", json={"withdrawn": True}, headers=t.auth)
    assert "DELETE the player instead" in assert_problem(early, 409, "wrong_status")["detail"]
    play_round(client, t)

    deleted = client.delete(f"{base}/players/3", headers=t.auth)
    assert assert_problem(deleted, 409, "registration_closed")["detail"] == (
        "round 1 has been generated: withdraw the player instead of deleting them"
    )
    withdrawn = client.patch(f"{base}/players/3", json={"withdrawn": True}, headers=t.auth)
    assert withdrawn.status_code == 200, withdrawn.text
    again = client.patch(f"{base}/players/3", json={"withdrawn": True}, headers=t.auth)
    assert assert_problem(again, 409, "already_withdrawn")["detail"] == (
        "Player 03 has already withdrawn; a withdrawal cannot be undone"
    )
    missing = client.patch(f"{base}/players/99", json={"name": "X"}, headers=t.auth)
    assert assert_problem(missing, 404, "player_not_found")["detail"] == (
        "no player 99 in this tournament: use an id from its player list"
    )


def test_round_refusals_point_at_the_round_to_act_on(client: ApiClient) -> None:
    t = create(client, 8, swiss_rounds=2)
    base = f"/v1/tournaments/{t.id}"
    play_round(client, t)
    second = play_round(client, t)

    locked = client.delete(f"{base}/rounds/1", headers=t.auth)
    assert assert_problem(locked, 409, "round_locked")["detail"] == (
        "only the latest round can be undone: undo round 2 first"
    )
    recorded = client.delete(f"{base}/rounds/2", headers=t.auth)
    assert "clear them first" in assert_problem(recorded, 409, "round_has_results")["detail"]
    unknown = assert_problem(client.get(f"{base}/rounds/7"), 404, "round_not_found")
    assert (
        unknown["detail"] == "round 7 has not been generated: GET …/rounds lists the rounds so far"
    )
    done = assert_problem(client.post(f"{base}/rounds", headers=t.auth), 409, "no_more_rounds")
    assert done["detail"] == (
        "all 2 Swiss rounds have been generated: start the final phase once their results are in"
    )
    old = second["matches"][0]["id"] - 1  # a match of round 1
    changed = client.put(
        f"{base}/matches/{old}/result", json={"home": 0, "away": 0}, headers=t.auth
    )
    assert "this result stands" in assert_problem(changed, 409, "round_locked")["detail"]


def test_result_refusals_name_the_field_to_fix(client: ApiClient) -> None:
    t = create(client, 4, swiss_rounds=1)
    base = f"/v1/tournaments/{t.id}"
    play_round(client, t)
    final = client.post(f"{base}/final-phase", headers=t.auth).json()["matches"][0]
    url = f"{base}/matches/{final['id']}/result"

    level = assert_problem(
        client.put(url, json={"home": 1, "away": 1}, headers=t.auth), 422, "winner_required"
    )
    assert level["detail"] == (
        "a level final-phase score must name its winner: add `winner` (`home` or `away`) and "
        "how it was decided (`decided_by`, e.g. `penalties`)"
    )
    wrong = client.put(url, json={"home": 2, "away": 1, "winner": "away"}, headers=t.auth)
    assert (
        "correct the score, or leave out `winner`"
        in (assert_problem(wrong, 422, "invalid_result")["detail"])
    )
    batch = client.post(
        f"{base}/results",
        json={"results": [{"match_id": final["id"], "home": 1, "away": 1}]},
        headers=t.auth,
    )
    assert assert_problem(batch, 422, "winner_required")["detail"].endswith(
        "(nothing of this batch was recorded: correct it and send the whole batch again)"
    )


def test_token_refusals_say_which_token_to_send_for_reads_and_writes(client: ApiClient) -> None:
    t = create(client, 4)
    base = f"/v1/tournaments/{t.id}"
    read = assert_problem(client.get(f"{base}/audit"), 401, "unauthorized")
    write = assert_problem(client.post(f"{base}/rounds"), 401, "unauthorized")
    either = assert_problem(client.get(f"{base}/webhooks"), 401, "unauthorized")

    assert read["detail"].startswith("only the organizer may read this: send `Authorization:")
    assert write["detail"].startswith("this write is the organizer's: send `Authorization:")
    assert either["detail"].startswith("only the organizer may do this: send `Authorization:")
    wrong = {"Authorization": "Bearer not-the-token"}
    for method, path in (("GET", "/audit"), ("POST", "/rounds")):
        refused = assert_problem(
            client.request(method, base + path, headers=wrong), 403, "forbidden"
        )
        assert (
            "send the one given when it was created, or the newest if it was rotated"
            in (refused["detail"])
        )
    stale = client.patch(base, json={"name": "New"}, headers={**t.auth, "If-Match": '"999"'})
    assert assert_problem(stale, 412, "precondition_failed")["detail"].endswith(
        "read it again, check the change, then send the new ETag in `If-Match`"
    )


def test_http_level_refusals_say_what_to_send(client: ApiClient) -> None:
    t = create(client, 4)
    base = f"/v1/tournaments/{t.id}"

    put = client.put(f"{base}/standings", json={})
    assert assert_problem(put, 405, "method_not_allowed")["detail"] == (
        "this path does not answer PUT: use GET or HEAD (as `Allow` lists: GET, HEAD)"
    )
    get = client.get(f"{base}/organizer-token", headers=t.auth)
    assert assert_problem(get, 405, "method_not_allowed")["detail"] == (
        "this path does not answer GET: use POST (as `Allow` lists: POST)"
    )
    head = client.request("HEAD", f"{base}/organizer-token", headers=t.auth)
    assert (head.status_code, head.headers["allow"], head.content) == (405, "POST", b"")
    nowhere = assert_problem(client.get("/v1/nowhere"), 404, "not_found")
    assert (
        nowhere["detail"] == "no such path: the API's paths are listed at /docs and /openapi.json"
    )
    missing = assert_problem(client.get("/v1/tournaments/nope"), 404, "tournament_not_found")
    assert missing["detail"].startswith("no tournament 'nope': check the id")
    undecodable = client.post(
        "/v1/tournaments", content=b'{"name": "\xff"}', headers={"Content-Type": "application/json"}
    )
    assert assert_problem(undecodable, 400, "malformed_body")["detail"] == (
        "the body could not be read: send JSON encoded in UTF-8"
    )
    broken = client.post(
        "/v1/tournaments", content=b'{"name": ', headers={"Content-Type": "application/json"}
    )
    assert assert_problem(broken, 422, "validation_error")["detail"] == (
        "the body is not valid JSON: check its quotes, commas and brackets"
    )
    cursor = assert_problem(client.get("/v1/tournaments?cursor=zzz"), 422, "validation_error")
    assert cursor["detail"].endswith("or leave it out to start from the first page")
    group = assert_problem(client.get(f"{base}/standings?group=A"), 404, "group_not_found")
    assert group["detail"].endswith("(it plays without groups): leave out `group`")
