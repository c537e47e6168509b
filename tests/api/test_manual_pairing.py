"""Pairing by hand: `POST …/rounds` with boards, `PUT …/rounds/{n}/pairing`; the checks, the
refusals, what is stored, audited and emitted, and the tournament going on after it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.api.event_schemas import validate
from app.domain.trf import TrfColour, TrfResult, read_trf
from app.services import events
from tests.api.helpers import Organizer, assert_problem, create, generate, record
from tests.api.test_chess import new_chess
from tests.api.test_preview import traces
from tests.api.test_tokens import bearer, new_scorekeeper
from tests.client import ApiClient

SYSTEMS = ["nearest", "lim", "dutch"]


def new(client: ApiClient, system: str, players: int, **settings: Any) -> Organizer:
    if system == "dutch":
        return new_chess(client, players, **settings)
    return create(client, players, pairing=system, seed=11, **settings)


def boards_of(swiss_round: dict[str, Any]) -> list[dict[str, int]]:
    return [{"home": m["home"], "away": m["away"]} for m in swiss_round["matches"]]


def put_pairing(client: ApiClient, t: Organizer, number: int, body: dict[str, Any]) -> Any:
    return client.put(f"/v1/tournaments/{t.id}/rounds/{number}/pairing", json=body, headers=t.auth)


def pair_by_hand(client: ApiClient, t: Organizer, body: dict[str, Any]) -> Any:
    return client.post(f"/v1/tournaments/{t.id}/rounds", json=body, headers=t.auth)


def finish(client: ApiClient, t: Organizer, swiss_round: dict[str, Any]) -> None:
    """Home wins every board: scores move apart, so the next round depends on them."""
    for match in swiss_round["matches"]:
        record(client, t, match["id"], home=2, away=0)


def emitted(app: FastAPI, t: Organizer) -> list[tuple[str, dict[str, Any]]]:
    with Session(app.state.engine) as session:
        found = events.events_after(session, t.id, 0, 10_000)
    for event in found:
        validate(events.envelope(event))
    return [(e.type, e.data) for e in found]


def rematch_of(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Round 2's boards with board 1 of round 1 played again: its two players meet again and
    their round-2 opponents meet each other."""
    a, b = first["matches"][0]["home"], first["matches"][0]["away"]
    boards = boards_of(second)
    partner = {}
    for board in boards:
        partner[board["home"]], partner[board["away"]] = board["away"], board["home"]
    c, d = partner[a], partner[b]
    kept = [x for x in boards if not {x["home"], x["away"]} & {a, b}]
    return {"boards": [{"home": a, "away": b}, {"home": c, "away": d}, *kept]}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_rematch_is_refused_unless_accepted_then_stored_emitted_and_played_on(
    app: FastAPI, client: ApiClient, system: str
) -> None:
    t = new(client, system, 8, swiss_rounds=4)
    first = generate(client, t)
    finish(client, t, first)
    second = generate(client, t)
    body = rematch_of(first, second)
    a, b = body["boards"][0]["home"], body["boards"][0]["away"]

    before = traces(app, client, t)
    refused = assert_problem(put_pairing(client, t, 2, body), 409, "pairing_rules_broken")
    assert refused["refused"] == ["rematch"]
    met = {frozenset((m["home"], m["away"])) for m in first["matches"]}
    again = [[x["home"], x["away"]] for x in body["boards"] if frozenset(x.values()) in met]
    rematches = [c for c in refused["checks"] if c["rule"] == "rematch"]
    assert [c["players"] for c in rematches] == again and again[0] == [a, b]
    assert all(c["severity"] == "error" for c in rematches)
    assert all(
        c["sentence"].endswith(
            "have already met" + (" (C1: no two players meet twice)" if system == "dutch" else "")
        )
        for c in rematches
    )
    assert 'Send it again with "accept": ["rematch"] to store it anyway' in refused["detail"]
    assert traces(app, client, t) == before  # nothing saved, audited or emitted

    answer = put_pairing(client, t, 2, {**body, "accept": ["rematch"]})
    assert answer.status_code == 200, answer.text
    stored = answer.json()
    assert stored["manual"] is True and stored["number"] == 2
    assert {c["rule"] for c in stored["checks"] if c["severity"] == "error"} == {"rematch"}
    assert stored["rematches"] is True
    assert {frozenset((p["higher"], p["lower"])) for p in stored["rematch_pairs"]} == {
        frozenset(pair) for pair in again
    }
    assert boards_of(stored) == body["boards"]
    assert [m["board"] for m in stored["matches"]] == [1, 2, 3, 4]
    old = {(m["home"], m["away"]): m for m in second["matches"]}
    for match in stored["matches"]:
        kept = old.get((match["home"], match["away"]))
        if kept is not None:  # a board as it was keeps its match
            assert match["id"] == kept["id"] and match["manual"] is False
        else:
            assert match["id"] > max(m["id"] for m in second["matches"]) and match["manual"]
    assert client.get(f"/v1/tournaments/{t.id}/rounds/2").json() == stored

    kind, data = emitted(app, t)[-1]
    assert kind == "round.paired_manually"
    assert data["round"] == {
        "number": 2,
        "manual": True,
        "rematches": True,
        "match_count": 4,
        "bye_count": len(stored["byes"]),
        "check_count": len(stored["checks"]),
    }
    removed = [
        m["id"]
        for m in second["matches"]
        if (m["home"], m["away"]) not in {(x["home"], x["away"]) for x in body["boards"]}
    ]
    assert data["removed_match_count"] == len(removed) == 2
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"][-1]
    assert audit["action"] == "rounds-pairing-replace"
    assert audit["detail"]["accepted"] == ["rematch"] and audit["detail"]["round"] == 2

    # The tournament goes on from what was really played.
    finish(client, t, stored)
    third = generate(client, t)
    assert third["manual"] is False and third["checks"] == []
    played = met | {frozenset((m["home"], m["away"])) for m in stored["matches"]}
    assert not any(frozenset((m["home"], m["away"])) in played for m in third["matches"])
    standings = client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    assert sum(r["played"] for r in standings) == 2 * 4 * 2


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_generated_round_sent_back_by_hand_needs_no_accept(
    client: ApiClient, system: str
) -> None:
    t = new(client, system, 7, swiss_rounds=4)
    first = generate(client, t)
    finish(client, t, first)
    second = generate(client, t)
    body = {"boards": boards_of(second), "byes": second["byes"]}
    answer = put_pairing(client, t, 2, body)
    assert answer.status_code == 200, answer.text
    stored = answer.json()
    assert [c for c in stored["checks"] if c["severity"] == "error"] == []
    assert [m["id"] for m in stored["matches"]] == [m["id"] for m in second["matches"]]
    assert all(m["manual"] is False for m in stored["matches"]) and stored["manual"] is True


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_next_round_made_by_hand(app: FastAPI, client: ApiClient, system: str) -> None:
    t = new(client, system, 6, swiss_rounds=3)
    first = generate(client, t)
    finish(client, t, first)
    players = sorted(p["id"] for p in t.body["players"])
    met = {frozenset((m["home"], m["away"])) for m in first["matches"]}
    # A rematch-free round written by hand: a perfect matching avoiding round 1's pairs.
    boards = _unplayed_boards(players, met)
    answer = pair_by_hand(client, t, {"boards": boards})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    assert made["manual"] is True and all(m["manual"] for m in made["matches"])
    assert made["paths"] == [{"group": None, "path": ["manual"]}]
    assert boards_of(made) == boards  # home as given
    if system == "dutch":
        assert all(m["white"] == m["home"] and m["colour_rule"] == "fide" for m in made["matches"])
    assert all(c["severity"] == "warning" for c in made["checks"])
    kind, data = emitted(app, t)[-1]
    assert kind == "round.generated" and data["round"]["manual"] is True
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"][-1]
    assert audit["action"] == "rounds-generate" and audit["detail"]["manual"] is True
    finish(client, t, made)
    assert generate(client, t)["number"] == 3


def _unplayed_boards(players: list[int], met: set[frozenset[int]]) -> list[dict[str, int]]:
    def search(left: list[int]) -> list[tuple[int, int]] | None:
        if not left:
            return []
        first, rest = left[0], left[1:]
        for other in rest:
            if frozenset((first, other)) in met:
                continue
            found = search([p for p in rest if p != other])
            if found is not None:
                return [(first, other), *found]
        return None

    pairs = search(players)
    assert pairs is not None
    return [{"home": a, "away": b} for a, b in pairs]


def test_every_player_exactly_once_or_a_422_that_says_who(client: ApiClient) -> None:
    t = create(client, 8, swiss_rounds=4)
    first = generate(client, t)
    finish(client, t, first)
    withdrawn = first["matches"][0]["home"]
    gone = client.patch(
        f"/v1/tournaments/{t.id}/players/{withdrawn}", json={"withdrawn": True}, headers=t.auth
    )
    assert gone.status_code == 200, gone.text
    others = [p["id"] for p in t.body["players"] if p["id"] != withdrawn]
    body = {
        "boards": [
            {"home": others[0], "away": others[1]},
            {"home": others[1], "away": withdrawn},
            {"home": others[2], "away": 99},
        ],
        "byes": [others[3]],
    }
    problem = assert_problem(pair_by_hand(client, t, body), 422, "pairing_players_invalid")
    assert problem["missing"] == sorted(others[4:])
    assert problem["twice"] == [others[1]]
    assert problem["unknown"] == [99]
    assert problem["withdrawn"] == [withdrawn]
    assert "missing: " in problem["detail"] and "placed twice: " in problem["detail"]
    assert client.get(f"/v1/tournaments/{t.id}").json()["current_round"] == 1


def test_byes_one_per_odd_group_and_boards_within_a_group(client: ApiClient) -> None:
    t = create(client, 8, groups={"assignment": "seeded"}, swiss_rounds=3)
    first = generate(client, t)
    finish(client, t, first)
    group = {p["id"]: p["group"] for p in t.body["players"]}
    a = [p for p in group if group[p] == "A"]
    b = [p for p in group if group[p] == "B"]
    across = {"boards": [{"home": a[0], "away": b[0]}, {"home": a[1], "away": b[1]}], "byes": []}
    across["boards"] += [{"home": a[2], "away": a[3]}, {"home": b[2], "away": b[3]}]
    problem = assert_problem(pair_by_hand(client, t, across), 422, "pairing_players_invalid")
    assert problem["across_groups"] == [[a[0], b[0]], [a[1], b[1]]]
    extra = {
        "boards": [
            {"home": a[0], "away": a[1]},
            {"home": b[0], "away": b[1]},
            {"home": b[2], "away": b[3]},
        ],
        "byes": [a[2], a[3]],
    }
    problem = assert_problem(pair_by_hand(client, t, extra), 422, "pairing_players_invalid")
    assert problem["extra_byes"] == [a[2], a[3]]


def test_a_round_with_a_result_or_an_earlier_round_is_not_paired_again(client: ApiClient) -> None:
    t = create(client, 8, swiss_rounds=4)
    first = generate(client, t)
    body = {"boards": boards_of(first)}
    record(client, t, first["matches"][0]["id"], home=1, away=0)
    problem = assert_problem(put_pairing(client, t, 1, body), 409, "round_has_results")
    assert "pair the round again by hand" in problem["detail"]
    finish(client, t, first)
    generate(client, t)
    assert_problem(put_pairing(client, t, 1, body), 409, "round_locked")
    assert_problem(put_pairing(client, t, 3, body), 404, "round_not_found")
    # The next round by hand waits for the results, as generating does.
    t2 = create(client, 8, swiss_rounds=4)
    generate(client, t2)
    assert_problem(pair_by_hand(client, t2, body), 409, "round_incomplete")


def test_pairing_by_hand_is_the_organizers(client: ApiClient) -> None:
    t = create(client, 8)
    first = generate(client, t)
    keeper = new_scorekeeper(client, t)
    url = f"/v1/tournaments/{t.id}/rounds/1/pairing"
    body = {"boards": boards_of(first)}
    assert_problem(
        client.put(url, json=body, headers=bearer(str(keeper["token"]))), 403, "forbidden"
    )
    assert_problem(client.put(url, json=body), 401, "unauthorized")
    assert_problem(
        client.put(url, json={**body, "accept": ["nonsense"]}, headers=t.auth),
        422,
        "validation_error",
    )


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_late_arrival_takes_the_bye_players_board(
    app: FastAPI, client: ApiClient, system: str
) -> None:
    t = new(client, system, 7, swiss_rounds=4)
    first = generate(client, t)
    [had_bye] = first["byes"]
    added = client.post(
        f"/v1/tournaments/{t.id}/players",
        json={"name": "Late Comer", "rating": 1500},
        headers=t.auth,
    )
    assert added.status_code == 201, added.text
    late = added.json()
    assert late["entered_round"] == 2
    body = {"boards": [*boards_of(first), {"home": had_bye, "away": late["id"]}], "byes": []}
    answer = put_pairing(client, t, 1, body)
    assert answer.status_code == 200, answer.text
    placed = answer.json()
    assert placed["byes"] == [] and placed["matches"][-1]["away"] == late["id"]
    assert [c for c in placed["checks"] if c["severity"] == "error"] == []
    players = {p["id"]: p for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    assert players[late["id"]]["entered_round"] == 1  # they play round 1 now
    finish(client, t, placed)
    second = generate(client, t)
    assert second["byes"] == [] and len(second["matches"]) == 4
    rows = {
        r["player_id"]: r for r in client.get(f"/v1/tournaments/{t.id}/standings").json()["rows"]
    }
    assert rows[late["id"]]["played"] == 1 and rows[had_bye]["byes"] == 0


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_late_arrival_not_placed_keeps_their_entry_round(client: ApiClient, system: str) -> None:
    t = new(client, system, 8, swiss_rounds=4)
    first = generate(client, t)
    late = client.post(
        f"/v1/tournaments/{t.id}/players", json={"name": "Late Comer"}, headers=t.auth
    ).json()
    answer = put_pairing(client, t, 1, {"boards": boards_of(first)})
    assert answer.status_code == 200, answer.text
    players = {p["id"]: p for p in client.get(f"/v1/tournaments/{t.id}/players").json()}
    assert players[late["id"]]["entered_round"] == 2


def test_the_trf_writes_a_manual_round_as_played(client: ApiClient) -> None:
    t = new_chess(client, 6, swiss_rounds=3)
    first = generate(client, t)
    finish(client, t, first)
    second = generate(client, t)
    body = rematch_of(first, second)
    answer = put_pairing(
        client, t, 2, {**body, "accept": ["rematch", "colour", "absolute_criteria"]}
    )
    assert answer.status_code == 200, answer.text
    stored = answer.json()
    for match in stored["matches"]:
        record(client, t, match["id"], home=1, away=1)
    document = read_trf(client.get(f"/v1/tournaments/{t.id}/export.trf").text)
    number = {
        p["id"]: p["start_number"] for p in client.get(f"/v1/tournaments/{t.id}/players").json()
    }
    by_number = {p.start_number: p for p in document.players}
    for match in stored["matches"]:
        white, black = by_number[number[match["home"]]], by_number[number[match["away"]]]
        assert white.games[1] is not None and black.games[1] is not None
        assert (white.games[1].opponent, white.games[1].colour) == (
            black.start_number,
            TrfColour.WHITE,
        )
        assert (black.games[1].opponent, black.games[1].colour) == (
            white.start_number,
            TrfColour.BLACK,
        )
        assert white.games[1].result is TrfResult.DRAW


def test_the_pages_say_a_round_was_paired_by_hand_not_a_fallback(client: ApiClient) -> None:
    t = create(client, 4, swiss_rounds=3)
    first = generate(client, t)
    finish(client, t, first)
    body = {"boards": boards_of(first), "accept": ["rematch"]}
    assert pair_by_hand(client, t, body).status_code == 201
    printed = client.get(f"/v1/tournaments/{t.id}/print").text
    assert "Paired by hand by the arbiter. Repeated: " in printed
    assert printed.count("Fallback round") == 0 and 'title="paired by hand"' in printed
    live = client.get(f"/v1/tournaments/{t.id}/live?lang=it").text
    assert 'title="abbinato a mano">a mano</span>' in live


def test_a_round_paired_by_hand_explains_itself_so(client: ApiClient) -> None:
    t = create(client, 6, swiss_rounds=3)
    first = generate(client, t)
    generated = client.get(f"/v1/tournaments/{t.id}/rounds/1/explanation").json()
    assert generated["placements"] and generated["steps"][0]["rule"] != "round.manual"
    assert put_pairing(client, t, 1, {"boards": boards_of(first)}).status_code == 200
    body = client.get(f"/v1/tournaments/{t.id}/rounds/1/explanation").json()
    assert [s["rule"] for s in body["steps"]] == ["round.manual"]
    assert body["steps"][0]["ref"] == "docs/rules.md#pairing-by-hand"
    assert body["placements"] == []  # the generated round's steps are gone with it


def test_a_forbidden_pair_paired_by_hand_is_refused_unless_accepted(client: ApiClient) -> None:
    t = create(client, 4, swiss_rounds=3)
    ids = sorted(p["id"] for p in t.body["players"])
    for pair, kind in (([ids[0], ids[1]], "hard"), ([ids[2], ids[3]], "soft")):
        listed = client.post(
            f"/v1/tournaments/{t.id}/forbidden-pairs",
            json={"players": pair, "kind": kind},
            headers=t.auth,
        )
        assert listed.status_code == 201, listed.text
    body = {"boards": [{"home": ids[0], "away": ids[1]}, {"home": ids[2], "away": ids[3]}]}
    refused = assert_problem(pair_by_hand(client, t, body), 409, "pairing_rules_broken")
    assert refused["refused"] == ["forbidden_pair"]
    kept_apart = [c for c in refused["checks"] if c["rule"] == "forbidden_pair"]
    assert [(c["players"], c["severity"]) for c in kept_apart] == [
        ([ids[0], ids[1]], "error"),
        ([ids[2], ids[3]], "warning"),
    ]
    made = pair_by_hand(client, t, {**body, "accept": ["forbidden_pair"]})
    assert made.status_code == 201, made.text
    assert len([c for c in made.json()["checks"] if c["rule"] == "forbidden_pair"]) == 2
