"""POST /v1/check: a TRF body checked by ``dutch``, a stored tournament by its own system; a
tournament played through the API finds nothing; an edited file names its round; bounded,
refusals as problems, nothing stored."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from app.domain.trf import TrfPlayer, read_trf, write_trf
from app.main import create_app
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create, generate
from tests.client import ApiClient
from tests.conftest import fresh_database
from tests.data import DUTCH, read_text

TRF = {"Content-Type": "text/plain"}
SMALL = "dutch_p0012_r07_s101.trf"
WITH_BYES = "dutch_p0100_r09_s101.trf"
"""Half-point byes and forfeits, 100 players."""


def check_trf(client: ApiClient, text: str) -> Any:
    return client.post("/v1/check", content=text.encode(), headers=TRF)


def check_id(client: ApiClient, tournament_id: str) -> Any:
    return client.post("/v1/check", json={"tournament": tournament_id})


@pytest.mark.parametrize("name", [SMALL, WITH_BYES])
def test_a_reference_file_has_no_round_that_differs(client: ApiClient, name: str) -> None:
    answer = check_trf(client, read_text(DUTCH / name))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    rounds = read_trf(read_text(DUTCH / name)).rounds_played
    assert body == {
        "name": read_trf(read_text(DUTCH / name)).name,
        "tournament": None,
        "pairing": "dutch",
        "rounds": rounds,
        "rounds_checked": rounds,
        "rounds_differing": 0,
        "unchecked_from": None,
        "differences": [],
        "players": [],
    }
    assert client.get("/v1/tournaments").json()["items"] == []  # nothing stored


def test_a_file_with_two_swapped_boards_names_the_round_with_both_pairings(
    client: ApiClient,
) -> None:
    """Round 7 (the last) of a 12-player file: boards a–b and c–d written as a–d and c–b."""
    doc = read_trf(read_text(DUTCH / SMALL))
    last = doc.rounds_played
    white = {
        p.start_number: g.opponent
        for p in doc.players
        if (g := p.games[last - 1]) is not None and g.opponent is not None and g.colour == "w"
    }
    (a, b), (c, d) = sorted(white.items())[:2]
    opponent = {a: d, d: a, c: b, b: c}
    records = []
    for record in doc.records:
        if isinstance(record, TrfPlayer) and record.start_number in opponent:
            games = list(record.games)
            game = games[last - 1]
            assert game is not None
            games[last - 1] = replace(game, opponent=opponent[record.start_number])
            record = replace(record, games=tuple(games))
        records.append(record)
    answer = check_trf(client, write_trf(replace(doc, records=tuple(records))))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["rounds_checked"], body["rounds_differing"]) == (last, 1)
    [difference] = body["differences"]
    assert difference["round"] == last
    recorded = {(x["home"], x["away"]) for x in difference["recorded"]["boards"]}
    system = {(x["home"], x["away"]) for x in difference["system"]["boards"]}
    # in a file numbered 1..N, a player's id is their starting rank
    assert recorded - system == {(a, d), (c, b)}
    assert system - recorded == {(a, b), (c, d)}
    assert difference["other_opponents"] == sorted([a, b, c, d])
    assert difference["swapped_colours"] == []
    assert difference["refusal"] is None
    named = {p["id"]: p["start_number"] for p in body["players"]}
    assert len(named) == 12 and all(i == n for i, n in named.items())


def play(client: ApiClient, t: Organizer, *, rounds: int, chess: bool, seed: int) -> None:
    """Every round generated and given random results; a forbidden pair from the start, a
    late entry before round 2, a bye asked for round 2 and a withdrawal after round 2."""
    rng = random.Random(seed)
    apart = client.post(
        f"/v1/tournaments/{t.id}/forbidden-pairs", json={"players": [1, 2]}, headers=t.auth
    )
    assert apart.status_code == 201, apart.text
    for number in range(1, rounds + 1):
        if number == 2:
            late = client.post(
                f"/v1/tournaments/{t.id}/players", json={"name": "Late"}, headers=t.auth
            )
            assert late.status_code == 201, late.text
            asked = client.put(
                f"/v1/tournaments/{t.id}/players/3/byes/2",
                json={"kind": "half_point"},
                headers=t.auth,
            )
            assert asked.status_code == 200, asked.text
        if number == 3:
            gone = client.patch(
                f"/v1/tournaments/{t.id}/players/5", json={"withdrawn": True}, headers=t.auth
            )
            assert gone.status_code == 200, gone.text
        swiss_round = generate(client, t)
        entries = []
        for m in swiss_round["matches"]:
            if chess:
                home, away = rng.choice([(1, 0), (0, 1), (0, 0)])
            else:
                home, away = rng.randrange(4), rng.randrange(4)
            entries.append({"match_id": m["id"], "home": home, "away": away})
        answer = client.post(
            f"/v1/tournaments/{t.id}/results", json={"results": entries}, headers=t.auth
        )
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("system", ["nearest", "lim", "dutch"])
def test_a_tournament_played_through_the_api_has_no_round_that_differs(
    client: ApiClient, system: str
) -> None:
    t = create(
        client,
        11,
        pairing=system,
        swiss_rounds=5,
        final_phase="none",
        allowed_byes=["half_point", "zero_point"],
    )
    play(client, t, rounds=5, chess=system == "dutch", seed=len(system))
    answer = check_id(client, t.id)  # no token: a check is a read
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["tournament"] == t.id and body["name"] == "Friday evening"
    assert body["pairing"] == system
    assert (body["rounds"], body["rounds_checked"], body["rounds_differing"]) == (5, 5, 0)
    assert body["differences"] == [] and body["unchecked_from"] is None
    # the check stored nothing: the tournament is at the version it was
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    assert check_id(client, t.id).status_code == 200
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == version


def test_a_round_in_progress_is_checked_and_the_next_is_not_there(client: ApiClient) -> None:
    t = create(client, 8, pairing="lim")
    generate(client, t)
    body = check_id(client, t.id).json()
    assert (body["rounds"], body["rounds_checked"], body["rounds_differing"]) == (1, 1, 0)
    before = create(client, 8)
    body = check_id(client, before.id).json()
    assert (body["rounds"], body["rounds_checked"]) == (0, 0)


def test_refusals_are_problems(client: ApiClient) -> None:
    assert_problem(check_id(client, "nope"), 404, "tournament_not_found")
    bad = assert_problem(check_trf(client, "012 Club\r001    1      Ada\r"), 422, "invalid_trf")
    assert "line" in bad["detail"]
    assert_problem(
        client.post("/v1/check", content=b"<x/>", headers={"Content-Type": "application/xml"}),
        415,
        "unsupported_media_type",
    )
    assert_problem(client.post("/v1/check", json={"tournament": "a b"}), 422, "validation_error")
    assert_problem(client.post("/v1/check", json={"id": "abc"}), 422, "validation_error")


@pytest.fixture
def tight(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ApiClient]:
    """A millisecond of CPU time for a whole check (SQLite: the budget is the same on both)."""
    for url in fresh_database(request, "sqlite", tmp_path):
        application: FastAPI = create_app(Settings(database_url=url, check_timeout=0.001))
        with ApiClient(application) as api_client:
            yield api_client
        application.state.engine.dispose()


def test_a_check_past_its_budget_is_a_503_and_names_the_setting(tight: ApiClient) -> None:
    body = assert_problem(check_trf(tight, read_text(DUTCH / WITH_BYES)), 503, "pairing_timeout")
    assert "SVIZZERA_CHECK_TIMEOUT" in body["detail"]


def test_a_round_paired_by_hand_is_reported(client: ApiClient) -> None:
    """Round 1 of 8 players paired by hand with two boards' opponents swapped (a–d, c–b for
    a–b, c–d): the check names round 1, the hand pairing as recorded, the system's beside it."""
    t = create(client, 8, pairing="nearest")
    generated = generate(client, t)
    (a, b), (c, d) = [(m["home"], m["away"]) for m in generated["matches"][:2]]
    boards = [{"home": a, "away": d}, {"home": c, "away": b}] + [
        {"home": m["home"], "away": m["away"]} for m in generated["matches"][2:]
    ]
    answer = client.put(
        f"/v1/tournaments/{t.id}/rounds/1/pairing",
        json={"boards": boards, "byes": [], "accept": ["colour"]},
        headers=t.auth,
    )
    assert answer.status_code == 200, answer.text
    body = check_id(client, t.id).json()
    assert (body["rounds_checked"], body["rounds_differing"]) == (1, 1)
    [difference] = body["differences"]
    recorded = {(x["home"], x["away"]) for x in difference["recorded"]["boards"]}
    system = {(x["home"], x["away"]) for x in difference["system"]["boards"]}
    assert recorded - system == {(a, d), (c, b)} and system - recorded == {(a, b), (c, d)}
    assert difference["other_opponents"] == sorted([a, b, c, d])
