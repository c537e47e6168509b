"""A chess evening over HTTP: a 16-player ``dutch`` tournament played to the end, each round
checked against the engine run on the history the test wrote down; requested byes and their
refusals; the chess settings and defaults."""

from __future__ import annotations

import random
from typing import Any

from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.types import CHESS_POINTS, Board, Colour, Outcome
from app.domain.trf import read_trf
from app.domain.types import PlayerId
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round
from tests.client import ApiClient
from tests.domain.chess_ledger import Ledger
from tests.domain.dutch_reference import document_round_input, document_round_result

TITLES = {1: "GM", 2: "IM", 4: "FM", 7: "WIM"}


def chess_players(count: int) -> list[dict[str, Any]]:
    """Ratings in steps of 25, two pairs of equal ratings (title, then name decide)."""
    players: list[dict[str, Any]] = []
    for i in range(1, count + 1):
        player: dict[str, Any] = {"name": f"Player {i:02d}", "rating": 2500 - 25 * (i // 2)}
        if i in TITLES:
            player["title"] = TITLES[i]
            player["fide_id"] = 1_000_000 + i
        players.append(player)
    return players


def new_chess(client: ApiClient, count: int = 16, **settings: Any) -> Organizer:
    response = client.post(
        "/v1/tournaments",
        json={
            "name": "Club championship",
            "players": chess_players(count),
            "pairing": "dutch",
            "seed": 11,
            **settings,
        },
    )
    assert response.status_code == 201, response.text
    data = response.json()
    return Organizer(data["id"], data["organizer_token"], data)


def bye(client: ApiClient, t: Organizer, player: int, number: int, kind: str) -> Any:
    return client.put(
        f"/v1/tournaments/{t.id}/players/{player}/byes/{number}",
        json={"kind": kind},
        headers=t.auth,
    )


def test_a_sixteen_player_dutch_tournament_is_played_to_the_end(client: ApiClient) -> None:
    t = new_chess(client)
    body = t.body
    assert body["pairing"] == "dutch"
    assert body["points"] == {"win": 1, "draw": 0.5, "loss": 0, "bye": 1}
    assert body["format"] == {
        "preset": "standard",
        "swiss_rounds": 5,
        "final_phase": "none",
        "groups": None,
    }
    assert body["allowed_byes"] == ["half_point", "zero_point"]
    assert body["initial_colour"] in ("white", "black")
    assert body["settings"]["initial_colour"] is None
    # C.04.2 Art. 2: rating, then title, then name
    order = [p["name"] for p in sorted(body["players"], key=lambda p: p["start_number"])]
    assert order[:4] == ["Player 01", "Player 02", "Player 03", "Player 04"]
    assert order[5:7] == ["Player 07", "Player 06"]  # equal ratings: the WIM first
    assert order[-1] == "Player 16"
    numbers = {PlayerId(p["id"]): p["start_number"] for p in body["players"]}
    titled = {p["name"]: (p["title"], p["fide_id"]) for p in body["players"] if p["title"]}
    assert titled["Player 01"] == ("GM", 1_000_001)

    rng = random.Random(5)
    ledger = Ledger(CHESS_POINTS)
    initial = Colour(body["initial_colour"])
    asked_for = {2: {PlayerId(5): "half_point"}, 3: {PlayerId(9): "zero_point"}}
    withdrawn: set[PlayerId] = set()
    played: dict[int, tuple[frozenset[Board], PlayerId | None]] = {}
    for number in range(1, 6):
        asked = asked_for.get(number, {})
        for pid, kind in asked.items():
            answer = bye(client, t, pid, number, kind)
            assert answer.status_code == 200, answer.text
            assert {"round": number, "kind": kind} in answer.json()["requested_byes"]
        if number == 4:
            answer = client.patch(
                f"/v1/tournaments/{t.id}/players/12", json={"withdrawn": True}, headers=t.auth
            )
            assert answer.status_code == 200, answer.text
            withdrawn.add(PlayerId(12))
        present = set(numbers) - set(asked) - withdrawn
        expected = pair_dutch(
            ledger.round_input(number, numbers, present, total_rounds=5, initial=initial)
        )

        swiss_round = generate(client, t)
        matches = swiss_round["matches"]
        assert [Board(PlayerId(m["white"]), PlayerId(m["black"])) for m in matches] == list(
            expected.boards
        )
        assert all((m["white"], m["black"]) == (m["home"], m["away"]) for m in matches)
        assert all(m["colour_rule"] == "fide" for m in matches)
        assert swiss_round["byes"] == ([expected.bye] if expected.bye is not None else [])
        assert swiss_round["paths"] == [{"group": None, "path": ["dutch"]}]
        if number in (2, 3):
            assert expected.bye is not None  # 15 players present: somebody gets the PAB
        played[number] = (
            frozenset(
                Board(PlayerId(numbers[board.white]), PlayerId(numbers[board.black]))
                for board in expected.boards
            ),
            None if expected.bye is None else PlayerId(numbers[expected.bye]),
        )

        for pid in numbers:
            if pid == expected.bye:
                ledger.unpaired(pid, Outcome.PAIRING_BYE)
            elif pid in asked:
                kind = (
                    Outcome.HALF_POINT_BYE if asked[pid] == "half_point" else Outcome.ZERO_POINT_BYE
                )
                ledger.unpaired(pid, kind)
            elif pid in withdrawn:
                ledger.unpaired(pid, Outcome.ABSENT)
        entries = []
        for m in matches:
            what = rng.choice(["white", "black", "draw", "draw", "white", "black_forfeits"])
            ledger.game(PlayerId(m["white"]), PlayerId(m["black"]), what)
            entries.append({"match_id": m["id"], **_result(what)})
        answer = client.post(
            f"/v1/tournaments/{t.id}/results", json={"results": entries}, headers=t.auth
        )
        assert answer.status_code == 200, answer.text

    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert tournament["status"] == "finished"
    standings = client.get(f"/v1/tournaments/{t.id}/standings").json()
    assert {r["player_id"]: r["points"] for r in standings["rows"]} == {
        pid: ledger.score(pid) / 2 for pid in numbers
    }
    final = client.get(f"/v1/tournaments/{t.id}/final-phase").json()
    assert [p["player_id"] for p in final["final_ranking"]] == [
        r["player_id"] for r in standings["rows"]
    ]

    # The exported TRF tells the same story: each of its rounds, paired by the engine from the
    # rounds before it as the file writes them, is the round that was played (by start number).
    answer = client.get(f"/v1/tournaments/{t.id}/export.trf")
    assert answer.status_code == 200, answer.text
    document = read_trf(answer.text)
    assert document.total_rounds == 5
    for number in range(1, 6):
        again = pair_dutch(document_round_input(document, number))
        assert (frozenset(again.boards), again.bye) == played[number]
        assert document_round_result(document, number) == played[number]


def _result(what: str) -> dict[str, Any]:
    return {
        "white": {"home": 1, "away": 0},
        "black": {"home": 0, "away": 1},
        "draw": {"home": 0, "away": 0},
        "black_forfeits": {"forfeit": "away"},
    }[what]


def test_requested_byes_are_refused_with_a_problem_and_change_nothing(client: ApiClient) -> None:
    t = new_chess(client, 8, allowed_byes=["zero_point"], initial_colour="white")
    assert t.body["allowed_byes"] == ["zero_point"]
    assert t.body["settings"]["allowed_byes"] == ["zero_point"]
    assert t.body["initial_colour"] == "white"
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]

    refused = assert_problem(bye(client, t, 2, 1, "half_point"), 422, "bye_not_allowed")
    assert "allowed: zero_point" in refused["detail"] and "allowed_byes" in refused["detail"]
    assert_problem(bye(client, t, 2, 9, "zero_point"), 404, "round_not_found")
    assert_problem(bye(client, t, 99, 1, "zero_point"), 404, "player_not_found")
    assert_problem(bye(client, t, 2, 1, "full_point"), 422, "validation_error")
    anonymous = client.put(f"/v1/tournaments/{t.id}/players/2/byes/1", json={"kind": "zero_point"})
    assert_problem(anonymous, 401, "unauthorized")
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == version

    asked = bye(client, t, 2, 2, "zero_point")
    assert asked.status_code == 200
    assert asked.json()["requested_byes"] == [{"round": 2, "kind": "zero_point"}]
    generate(client, t)
    assert_problem(bye(client, t, 3, 1, "zero_point"), 409, "round_locked")
    cancelled = client.delete(f"/v1/tournaments/{t.id}/players/2/byes/2", headers=t.auth)
    assert cancelled.status_code == 200
    assert cancelled.json()["requested_byes"] == []
    withdrawn = client.patch(
        f"/v1/tournaments/{t.id}/players/3", json={"withdrawn": True}, headers=t.auth
    )
    assert withdrawn.status_code == 200
    refused = assert_problem(bye(client, t, 3, 3, "zero_point"), 409, "already_withdrawn")
    assert "no bye is needed" in refused["detail"]
    audit = client.get(f"/v1/tournaments/{t.id}/audit", headers=t.auth).json()["items"]
    actions = [entry["action"] for entry in audit]
    assert actions.count("players-bye-request") == 1
    assert actions.count("players-bye-cancel") == 1


def test_chess_settings_are_checked(client: ApiClient) -> None:
    nearest = client.post(
        "/v1/tournaments",
        json={"name": "Bar", "players": [{"name": "A"}, {"name": "B"}], "initial_colour": "white"},
    )
    assert_problem(nearest, 422, "invalid_settings")
    grouped = client.post(
        "/v1/tournaments",
        json={
            "name": "Club",
            "players": chess_players(8),
            "pairing": "dutch",
            "groups": {"assignment": "draw"},
        },
    )
    assert_problem(grouped, 422, "invalid_settings")
    title = client.post(
        "/v1/tournaments",
        json={"name": "Club", "players": [{"name": "A", "title": "XM"}, {"name": "B"}]},
    )
    assert_problem(title, 422, "validation_error")
    # a table given for dutch is kept; other systems keep 3/1/0 with no byes to ask for
    given = new_chess(client, 4, points={"win": 3, "draw": 1, "loss": 0, "bye": 3})
    assert given.body["points"] == {"win": 3, "draw": 1, "loss": 0, "bye": 3}
    bar = create(client, 4)
    assert bar.body["points"] == {"win": 3, "draw": 1, "loss": 0, "bye": 3}
    assert bar.body["allowed_byes"] == [] and bar.body["initial_colour"] is None
    assert all(p["requested_byes"] == [] for p in bar.body["players"])


def test_a_matches_read_names_white_and_black_only_for_dutch(client: ApiClient) -> None:
    bar = create(client, 4)
    for m in generate(client, bar)["matches"]:
        assert m["white"] is None and m["black"] is None
    t = new_chess(client, 4, initial_colour="black")
    first = generate(client, t)["matches"][0]
    assert first["black"] == 1  # the top seed has Black on board 1


def test_a_round_that_cannot_be_paired_names_the_players(client: ApiClient) -> None:
    """Round 1 pairs 1–3 and 2–4; 2 and 4 ask for round 2 off, leaving 1 and 3, who have
    met: 409 ``pairing_impossible`` naming both (ids and names), and nothing saved."""
    t = new_chess(client, 4)
    first = generate(client, t)
    assert sorted(sorted((m["home"], m["away"])) for m in first["matches"]) == [[1, 3], [2, 4]]
    results = [{"match_id": m["id"], "home": 0, "away": 0} for m in first["matches"]]
    answer = client.post(
        f"/v1/tournaments/{t.id}/results", json={"results": results}, headers=t.auth
    )
    assert answer.status_code == 200, answer.text
    for player in (2, 4):
        assert bye(client, t, player, 2, "zero_point").status_code == 200
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    refused = assert_problem(
        client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth), 409, "pairing_impossible"
    )
    assert refused["unpairable_players"] == [
        {"id": 1, "name": "Player 01"},
        {"id": 3, "name": "Player 03"},
    ]
    assert refused["detail"] == (
        "no pairing of the round meets the absolute criteria C1–C3: Player 01, Player 03 "
        "cannot all be given an opponent"
    )
    after = client.get(f"/v1/tournaments/{t.id}").json()
    assert (after["version"], after["current_round"]) == (version, 1)


def _not_assured(rounds: int, players: int, sure: int) -> list[dict[str, str]]:
    return [
        {
            "code": "dutch_rounds_not_assured",
            "detail": f"{rounds} Swiss rounds for {players} players: the Dutch rules are sure to "
            f"pair {sure} of them; a later round may have no pairing that keeps C1–C3 (409 "
            f"pairing_impossible): choose at most {sure} rounds to be safe",
        }
    ]


def test_more_rounds_than_the_rules_are_sure_to_pair_are_a_warning(client: ApiClient) -> None:
    """8 players: C1 always leaves a pairing up to round 4; 7 rounds (a round robin) are allowed
    with a warning, in the creation's answer, every read, and after each settings change or
    new player; the other pairing systems get none."""
    t = new_chess(client, 8, swiss_rounds=7)
    assert t.body["warnings"] == _not_assured(7, 8, 4)
    assert client.get(f"/v1/tournaments/{t.id}").json()["warnings"] == _not_assured(7, 8, 4)
    url = f"/v1/tournaments/{t.id}"
    assert client.patch(url, json={"swiss_rounds": 4}, headers=t.auth).json()["warnings"] == []
    five = client.patch(url, json={"swiss_rounds": 5}, headers=t.auth).json()
    assert five["warnings"] == _not_assured(5, 8, 4)
    for name in ("Late 1", "Late 2"):
        added = client.post(f"{url}/players", json={"name": name}, headers=t.auth)
        assert added.status_code == 201, added.text
    assert client.get(url).json()["warnings"] == []  # 10 players: sure of 5
    assert new_chess(client, 4).body["warnings"] == _not_assured(3, 4, 2)  # the table's 3
    assert create(client, 8, swiss_rounds=7).body["warnings"] == []


def test_withdrawn_players_do_not_count_towards_the_sure_rounds(client: ApiClient) -> None:
    """The sure rounds are those of the players who will play: 10 entered, 5 rounds are sure;
    after round 1 two withdraw and the 8 left are sure of 4 only, so 5 rounds are a warning,
    naming 8 players; with a late entry 9 players are sure of 5."""
    t = new_chess(client, 10, swiss_rounds=5)
    assert t.body["warnings"] == []
    url = f"/v1/tournaments/{t.id}"
    play_round(client, t, home=1, away=0)
    for number in (9, 10):
        answer = client.patch(f"{url}/players/{number}", json={"withdrawn": True}, headers=t.auth)
        assert answer.status_code == 200, answer.text
    assert client.get(url).json()["warnings"] == _not_assured(5, 8, 4)
    late = client.post(f"{url}/players", json={"name": "Late"}, headers=t.auth)
    assert late.status_code == 201, late.text
    assert client.get(url).json()["warnings"] == []
