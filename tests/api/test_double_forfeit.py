"""A double forfeit over HTTP (``{"forfeit": "both"}``): recorded, stored, read back in the match,
the standings, the CSV, the print page and the events; imported from a TRF and exported back."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

from fastapi import FastAPI

from app.api.event_schemas import validate
from app.domain.trf import TrfColour, TrfGame, TrfResult, read_trf
from tests.api.helpers import assert_problem, create, generate, play_round, record
from tests.api.test_events import stored
from tests.api.test_trf_import import exported, imported
from tests.client import ApiClient
from tests.data import DUTCH, read_text

BOTH = {"home": 0, "away": 0, "winner": None, "decided_by": None, "forfeit": "both"}


def test_a_double_forfeit_is_a_loss_for_both_everywhere(app: FastAPI, client: ApiClient) -> None:
    t = create(client, 4, swiss_rounds=3)
    forfeited, other = generate(client, t)["matches"]
    body = record(client, t, forfeited["id"], forfeit="both")
    assert body["result"] == BOTH
    event = stored(app, t.id)[-1]
    assert event["type"] == "result.recorded"
    assert event["data"]["match"]["result"] == BOTH
    validate(event)
    record(client, t, other["id"], home=2, away=1)

    matches = client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["matches"]
    assert [m["result"] for m in matches if m["id"] == forfeited["id"]] == [BOTH]
    rows = {
        r["player_id"]: r for r in client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    }
    both = [forfeited["home"], forfeited["away"]]
    for pid in both:
        row = rows[pid]
        assert (row["played"], row["wins"], row["draws"], row["losses"], row["byes"]) == (
            1,
            0,
            0,
            1,
            0,
        )
        assert (row["points"], row["goals_for"], row["goals_against"], row["buchholz"]) == (
            0,
            0,
            0,
            0,  # the virtual opponent: the player's own 0 points
        )
        assert row["direct_encounter"] is None
    winner = rows[other["home"]]
    assert (winner["points"], winner["played"]) == (3, 1)

    answer = client.get(f"/v1/tournaments/{t.id}/export.csv")
    table = {
        int(r["player_id"]): r
        for r in csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"), newline=""))
    }
    assert [(table[pid]["played"], table[pid]["losses"], table[pid]["points"]) for pid in both] == [
        ("1", "1", "0")
    ] * 2

    page = client.get(f"/v1/tournaments/{t.id}/print").text
    names = {p["id"]: p["name"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    board = page[page.index('id="round-1"') :]
    board = board[: board.index("</tr>", board.index(names[forfeited["home"]]))]
    assert '<td class="score">forfeit</td>' in board
    assert board.count('<span class="tag">absent</span>') == 2


def test_a_double_forfeit_has_no_winner_and_no_place_in_the_final_phase(
    client: ApiClient,
) -> None:
    t = create(client, 4, swiss_rounds=1, final_phase="final")
    match = play_round(client, t)["matches"][0]
    refused = client.put(
        f"/v1/tournaments/{t.id}/matches/{match['id']}/result",
        json={"forfeit": "both", "winner": "home"},
        headers=t.auth,
    )
    assert "leave out `winner`" in assert_problem(refused, 422, "invalid_result")["detail"]
    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert started.status_code == 201, started.text
    (final,) = started.json()["matches"]
    refused = client.put(
        f"/v1/tournaments/{t.id}/matches/{final['id']}/result",
        json={"forfeit": "both"},
        headers=t.auth,
    )
    problem = assert_problem(refused, 422, "winner_required")
    assert "double forfeit belongs to Swiss rounds" in problem["detail"]
    with_goals = client.put(
        f"/v1/tournaments/{t.id}/matches/{match['id']}/result",
        json={"forfeit": "both", "home": 1, "away": 0},
        headers=t.auth,
    )
    assert (
        "a forfeit carries no goals"
        in assert_problem(with_goals, 422, "validation_error")["detail"]
    )


BENCHMARK = "dutch_p1000_r09_s1.trf"


def test_the_thousand_player_file_imports_with_its_double_forfeit(client: ApiClient) -> None:
    """Round 2 of the 1,000-player reference file has 321 (White) against 73, neither present."""
    text = read_text(DUTCH / BENCHMARK)
    original = read_trf(text)
    t = imported(client, text)
    assert (t.body["status"], t.body["current_round"]) == ("finished", 9)
    ids = {p["start_number"]: p["id"] for p in t.body["players"]}
    matches = client.get(f"/v1/tournaments/{t.id}/rounds/2").json()["matches"]
    (forfeited,) = [m for m in matches if {m["home"], m["away"]} == {ids[73], ids[321]}]
    assert (forfeited["home"], forfeited["result"]) == (ids[321], BOTH)
    back = exported(client, t)
    by_number = {p.start_number: p for p in back.players}
    assert by_number[321].games[1] == TrfGame(73, TrfColour.WHITE, TrfResult.FORFEIT_LOSS)
    assert by_number[73].games[1] == TrfGame(321, TrfColour.BLACK, TrfResult.FORFEIT_LOSS)
    for mine, theirs in zip(back.players, original.players, strict=True):
        assert replace(mine, rank=None) == replace(theirs, rank=None)
