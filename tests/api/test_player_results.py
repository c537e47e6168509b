"""Players report results with their board's code: a claim, the opponent's confirmation (the
result, as the organizer's PUT records it), a dispute the organizer settles; refusals change
nothing; quotas; the organizer's table cards."""

from __future__ import annotations

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.orm import Session

from app.api.event_schemas import validate
from app.services import events as stored_events
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create, generate, record
from tests.client import ApiClient
from tests.server import serve

CARD = re.compile(r'<article class="card" data-board="(\d+)">.*?data-code>([0-9A-Z-]+)<', re.S)


def codes(client: ApiClient, t: Organizer) -> dict[int, str]:
    """The codes of the latest round's boards, by board number, from the organizer's print."""
    page = client.get(f"/v1/tournaments/{t.id}/print", headers=t.auth)
    assert page.status_code == 200, page.text
    assert page.headers["cache-control"] == "no-store"
    return {int(board): code for board, code in CARD.findall(page.text)}


def events(app: FastAPI, t: Organizer) -> list[tuple[str, dict[str, Any]]]:
    with app.state.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT type, data FROM event WHERE tournament_id = :t ORDER BY seq"), {"t": t.id}
        ).all()
    return [(r[0], r[1] if isinstance(r[1], dict) else json.loads(r[1])) for r in rows]


def claim(client: ApiClient, t: Organizer, match_id: int, **body: Any) -> httpx.Response:
    return client.post(f"/v1/tournaments/{t.id}/matches/{match_id}/claims", json=body)


def started(client: ApiClient) -> tuple[Organizer, list[dict[str, Any]], dict[int, str]]:
    t = create(client, 8, player_results=True)
    matches = generate(client, t)["matches"]
    return t, matches, codes(client, t)


def test_a_claim_confirmed_by_the_opponent_is_the_result(client: ApiClient, app: FastAPI) -> None:
    t, matches, board_codes = started(client)
    assert t.body["player_results"] is True
    match = matches[0]
    code = board_codes[match["board"]]
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code)
    before = len(events(app, t))

    first = claim(client, t, match["id"], code=code, side="home", home=2, away=1)
    assert first.status_code == 200, first.text
    assert (first.json()["step"], first.json()["state"]) == ("claimed", "pending")
    assert first.json()["match"]["result"] is None
    listed = client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json()
    assert [(b["match"]["id"], b["state"]) for b in listed] == [(match["id"], "pending")]
    assert (listed[0]["home_claim"]["home"], listed[0]["home_claim"]["away"]) == (2, 1)
    assert listed[0]["away_claim"] is None

    # the same side again with the same claim changes nothing
    again = claim(
        client, t, match["id"], code=code.lower().replace("-", " "), side="home", home=2, away=1
    )
    assert (again.status_code, again.json()["step"], again.json()["state"]) == (
        200,
        None,
        "pending",
    )

    second = claim(client, t, match["id"], code=code, side="away", home=2, away=1)
    assert second.status_code == 200, second.text
    assert (second.json()["step"], second.json()["state"]) == ("confirmed", "open")
    assert second.json()["match"]["result"]["home"] == 2
    recorded = client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["matches"][0]
    assert recorded["result"]["home"] == 2 and recorded["result"]["away"] == 1
    assert client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json() == []
    standings = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    assert {r["player_id"]: r["points"] for r in standings}[match["home"]] == 3

    new = events(app, t)[before:]
    assert [kind for kind, _ in new] == ["report.claimed", "result.recorded", "report.confirmed"]
    with Session(app.state.engine) as session:  # each as its documented schema
        for envelope in stored_events.events_after(session, t.id, 0, 10_000):
            validate(stored_events.envelope(envelope))
    assert new[0][1]["side"] == "home" and new[2][1]["side"] == "away"
    assert all(d["match_id"] == match["id"] for k, d in new if k.startswith("report."))
    assert code not in json.dumps(new) and code.replace("-", "") not in json.dumps(new)
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    assert [(e["actor"], e["action"]) for e in audit[-2:]] == [
        ("player", "results-claimed"),
        ("player", "results-confirmed"),
    ]
    assert "code" not in json.dumps(audit[-2:])

    late = claim(client, t, match["id"], code=code, side="home", home=2, away=1)
    assert_problem(late, 409, "result_already_recorded")


def test_a_dispute_goes_to_the_organizer_whose_result_wins(client: ApiClient, app: FastAPI) -> None:
    t, matches, board_codes = started(client)
    match = matches[1]
    code = board_codes[match["board"]]
    assert claim(client, t, match["id"], code=code, side="home", home=3, away=0).status_code == 200
    disputed = claim(client, t, match["id"], code=code, side="away", home=0, away=3)
    assert (disputed.json()["step"], disputed.json()["state"]) == ("disputed", "disputed")
    listed = client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json()
    assert listed[0]["state"] == "disputed"
    assert (listed[0]["home_claim"]["home"], listed[0]["away_claim"]["away"]) == (3, 3)
    assert_problem(client.get(f"/v1/tournaments/{t.id}/claims"), 401, "unauthorized")
    live = client.get(f"/v1/tournaments/{t.id}/live").text
    assert f"Disputed boards, the organizer decides: {match['board']}" in live

    record(client, t, match["id"], home=1, away=1)
    assert client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json() == []
    kinds = [kind for kind, _ in events(app, t)]
    assert kinds[-3:] == ["report.claimed", "report.disputed", "result.recorded"]
    assert "Disputed boards" not in client.get(f"/v1/tournaments/{t.id}/live").text


def test_a_side_may_change_its_claim_to_the_others(client: ApiClient) -> None:
    t, matches, board_codes = started(client)
    match, code = matches[2], board_codes[matches[2]["board"]]
    claim(client, t, match["id"], code=code, side="home", home=1, away=0)
    assert (
        claim(client, t, match["id"], code=code, side="away", home=0, away=1).json()["state"]
        == "disputed"
    )
    agreed = claim(client, t, match["id"], code=code, side="home", home=0, away=1)
    assert agreed.json()["step"] == "confirmed"
    assert agreed.json()["match"]["result"]["away"] == 1


def test_refused_claims_change_nothing(client: ApiClient, app: FastAPI) -> None:
    t = create(client, 8)
    matches = generate(client, t)["matches"]
    off = claim(client, t, matches[0]["id"], code="AAAA-AAAA", side="home", home=1, away=0)
    assert_problem(off, 409, "player_results_off")
    assert codes(client, t) == {}  # no cards while players do not report

    turned = client.patch(f"/v1/tournaments/{t.id}", json={"player_results": True}, headers=t.auth)
    assert turned.status_code == 200 and turned.json()["player_results"] is True
    board_codes = codes(client, t)
    assert sorted(board_codes) == [1, 2, 3, 4]
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    seen = len(events(app, t))
    first, second = matches[0], matches[1]

    other_board = claim(
        client, t, first["id"], code=board_codes[second["board"]], side="home", home=1, away=0
    )
    assert_problem(other_board, 403, "wrong_board_code")
    assert_problem(
        claim(client, t, 999, code=board_codes[1], side="home", home=1, away=0),
        404,
        "match_not_found",
    )
    code = board_codes[first["board"]]
    assert_problem(
        claim(client, t, first["id"], code=code, side="left", home=1, away=0),
        422,
        "validation_error",
    )
    assert_problem(
        claim(client, t, first["id"], code=code, side="home", home=-1, away=0),
        422,
        "validation_error",
    )
    assert_problem(
        client.post(
            "/v1/tournaments/nope/matches/1/claims",
            json={"code": code, "side": "home", "home": 1, "away": 0},
        ),
        404,
        "tournament_not_found",
    )
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == version
    assert len(events(app, t)) == seen
    assert client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json() == []

    # a past round's board: the same rule as the organizer's (round_locked)
    claim(client, t, first["id"], code=code, side="home", home=1, away=0)
    for m in matches:
        record(client, t, m["id"], home=1, away=0)
    generate(client, t)
    assert_problem(
        client.put(
            f"/v1/tournaments/{t.id}/matches/{first['id']}/result",
            json={"home": 2, "away": 0},
            headers=t.auth,
        ),
        409,
        "round_locked",
    )
    assert_problem(
        claim(client, t, first["id"], code=code, side="home", home=1, away=0),
        409,
        "result_already_recorded",
    )


def test_the_print_page_shows_cards_to_the_organizer_only(client: ApiClient) -> None:
    t, matches, board_codes = started(client)
    public = client.get(f"/v1/tournaments/{t.id}/print")
    assert public.status_code == 200 and "table-cards" not in public.text
    assert (
        "cache-control" not in public.headers or "no-store" not in public.headers["cache-control"]
    )
    wrong = client.get(f"/v1/tournaments/{t.id}/print", headers={"Authorization": "Bearer nope"})
    assert_problem(wrong, 403, "forbidden")
    page = client.get(f"/v1/tournaments/{t.id}/print?lang=it", headers=t.auth).text
    assert page.count('<article class="card"') == len(matches) == 4
    assert page.count("<svg") >= 4
    assert f"/v1/tournaments/{t.id}/matches/{matches[0]['id']}/report?lang=it&amp;code=" in page
    again = codes(client, t)
    assert again == board_codes  # a reprint gives the same codes


def test_the_form_page(client: ApiClient) -> None:
    t, matches, board_codes = started(client)
    match = matches[0]
    url = f"/v1/tournaments/{t.id}/matches/{match['id']}/report"
    page = client.get(url, params={"lang": "it", "code": board_codes[match["board"]]})
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    assert "form-action 'self'" in page.headers["content-security-policy"]
    assert 'lang="it"' in page.text and board_codes[match["board"]] in page.text
    assert 'id="claim"' in page.text
    assert_problem(client.get(f"/v1/tournaments/{t.id}/matches/999/report"), 404, "match_not_found")
    record(client, t, match["id"], home=4, away=2)
    done = client.get(url).text
    assert 'id="claim"' not in done and "4–2" in done


def test_claims_are_rate_limited_per_board_and_per_address(db_url: str) -> None:
    from app.main import create_app

    application = create_app(Settings(database_url=db_url, report_board_rate=3, report_rate=4))
    try:
        with ApiClient(application) as client:
            t, matches, board_codes = started(client)
            first = matches[0]["id"]
            for _ in range(3):  # wrong codes count too
                assert_problem(
                    claim(client, t, first, code="2222-2222", side="home", home=1, away=0),
                    403,
                    "wrong_board_code",
                )
            limited = claim(
                client, t, first, code=board_codes[matches[0]["board"]], side="home", home=1, away=0
            )
            assert_problem(limited, 429, "too_many_requests")
            assert 1 <= int(limited.headers["retry-after"]) <= 60
            assert "one board" in limited.json()["detail"]
            second = matches[1]["id"]
            code = board_codes[matches[1]["board"]]
            assert (
                claim(client, t, second, code=code, side="home", home=1, away=0).status_code == 200
            )
            per_address = claim(client, t, second, code=code, side="home", home=1, away=0)
            assert_problem(per_address, 429, "too_many_requests")
            assert "one address" in per_address.json()["detail"]
            assert (
                client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json()[0]["match"][
                    "id"
                ]
                == second
            )
    finally:
        application.state.engine.dispose()


def test_simultaneous_confirmations_make_one_result(db_url: str) -> None:
    calls = 8
    with serve(db_url, workers=2) as base:
        players = [{"name": f"P{i}"} for i in range(4)]
        created = httpx.post(
            f"{base}/v1/tournaments",
            json={"name": "Race", "players": players, "player_results": True},
            timeout=10,
        ).json()
        tid, auth = created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}
        match = httpx.post(f"{base}/v1/tournaments/{tid}/rounds", headers=auth, timeout=30).json()[
            "matches"
        ][0]
        page = httpx.get(f"{base}/v1/tournaments/{tid}/print", headers=auth, timeout=10).text
        code = dict(CARD.findall(page))[str(match["board"])]
        url = f"{base}/v1/tournaments/{tid}/matches/{match['id']}/claims"
        home = httpx.post(
            url, json={"code": code, "side": "home", "home": 2, "away": 0}, timeout=10
        )
        assert home.status_code == 200, home.text
        barrier = threading.Barrier(calls)

        def confirm(_: int) -> httpx.Response:
            with httpx.Client(timeout=30) as http:
                barrier.wait()
                return http.post(url, json={"code": code, "side": "away", "home": 2, "away": 0})

        with ThreadPoolExecutor(calls) as pool:
            answers = list(pool.map(confirm, range(calls)))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200] + [409] * (calls - 1), [a.text for a in answers]
        assert {a.json()["code"] for a in answers if a.status_code == 409} == {
            "result_already_recorded"
        }
        stream = httpx.get(f"{base}/v1/tournaments/{tid}/events?timeout=0.5", timeout=10).text
        assert stream.count("event: result.recorded") == 1
        assert stream.count("event: report.confirmed") == 1
        assert "event: result.corrected" not in stream


def test_a_tournament_made_before_board_codes_gets_its_key_when_players_report(
    client: ApiClient, app: FastAPI
) -> None:
    t = create(client, 4)
    with app.state.engine.begin() as connection:  # as the migration leaves an older tournament
        connection.execute(
            text("UPDATE tournament SET report_key = NULL WHERE id = :t"), {"t": t.id}
        )
    generate(client, t)
    client.patch(f"/v1/tournaments/{t.id}", json={"player_results": True}, headers=t.auth)
    board_codes = codes(client, t)
    assert len(board_codes) == 2
    client.patch(f"/v1/tournaments/{t.id}", json={"player_results": False}, headers=t.auth)
    client.patch(f"/v1/tournaments/{t.id}", json={"player_results": True}, headers=t.auth)
    assert codes(client, t) == board_codes  # turning it off and on keeps the key


def test_a_round_taken_back_ends_its_claims(client: ApiClient) -> None:
    t, matches, board_codes = started(client)
    match = matches[0]
    claim(client, t, match["id"], code=board_codes[match["board"]], side="home", home=1, away=0)
    assert len(client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json()) == 1
    assert client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth).status_code == 204
    assert client.get(f"/v1/tournaments/{t.id}/claims", headers=t.auth).json() == []
