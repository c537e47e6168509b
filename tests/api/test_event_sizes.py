"""No event grows with the field: every type the service writes has, at 1,024 players, the size
it has at 16 (within the bytes of longer ids, names and counts). What grows with the field (a
round's boards, the players, the standings, the whole final ranking) is a read, cached and
conditional; an event carries ids, numbers, counts, the version and what changed."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI

from app.api.event_schemas import ENVELOPES, validate
from tests.api.helpers import Organizer, create, generate, record
from tests.api.test_chess import bye
from tests.api.test_events import stored
from tests.api.test_player_results import claim, codes
from tests.client import ApiClient

SLACK = 64
"""Bytes an event of 1,024 players may exceed its size at 16: longer ids, names and counts."""
LARGEST = 4096
"""No event is larger (the created tournament's settings, a final phase's four qualifiers)."""


def size(envelope: dict[str, Any]) -> int:
    """The envelope's bytes as the stream and webhooks send it."""
    return len(json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode())


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def results(client: ApiClient, t: Organizer, matches: list[dict[str, Any]]) -> None:
    body = {"results": [{"match_id": m["id"], "home": 2, "away": 1} for m in matches]}
    if matches:
        ok(client.post(f"/v1/tournaments/{t.id}/results", json=body, headers=t.auth))


def evening(client: ApiClient, players: int) -> list[str]:
    """A tournament of ``players`` through every kind of change; the ids of the tournaments."""
    t = create(client, players, swiss_rounds=2, final_phase="semifinals", player_results=True)
    base = f"/v1/tournaments/{t.id}"
    late = ok(client.post(f"{base}/players", json={"name": "Late"}, headers=t.auth), 201)
    patch = {"name": "Renamed", "team": "Ovest", "checked_in": True}
    ok(client.patch(f"{base}/players/1", json=patch, headers=t.auth))
    forbid = {"players": [1, 2], "kind": "hard"}
    pair = ok(client.post(f"{base}/forbidden-pairs", json=forbid, headers=t.auth), 201)
    gone = client.delete(f"{base}/forbidden-pairs/{pair['id']}", headers=t.auth)
    assert gone.status_code == 204, gone.text
    generate(client, t)
    assert client.delete(f"{base}/rounds/1", headers=t.auth).status_code == 204
    first = generate(client, t)
    # two boards' away players swapped by hand: two matches replaced, the others kept
    boards = [{"home": m["home"], "away": m["away"]} for m in first["matches"]]
    boards[0]["away"], boards[1]["away"] = boards[1]["away"], boards[0]["away"]
    body = {"boards": boards, "byes": first["byes"], "accept": ["rematch"]}
    first = ok(client.put(f"{base}/rounds/1/pairing", json=body, headers=t.auth))
    for action in ({"action": "start", "duration": 900}, {"action": "pause"}):
        ok(client.post(f"{base}/rounds/1/clock", json=action, headers=t.auth))
    for action in ({"action": "resume"}, {"action": "end"}):
        ok(client.post(f"{base}/rounds/1/clock", json=action, headers=t.auth))
    board_codes = codes(client, t)
    confirmed, disputed, *rest = first["matches"]
    for side, score in (("home", (2, 1)), ("away", (2, 1))):
        code = board_codes[confirmed["board"]]
        ok(claim(client, t, confirmed["id"], code=code, side=side, home=score[0], away=score[1]))
    for side, score in (("home", (2, 1)), ("away", (1, 2))):
        code = board_codes[disputed["board"]]
        ok(claim(client, t, disputed["id"], code=code, side=side, home=score[0], away=score[1]))
    record(client, t, disputed["id"], home=1, away=1)
    record(client, t, disputed["id"], home=0, away=1)  # corrected
    ok(client.delete(f"{base}/matches/{disputed['id']}/result", headers=t.auth))
    record(client, t, disputed["id"], home=1, away=0)
    results(client, t, rest)
    ok(client.patch(f"{base}/players/{late['id']}", json={"withdrawn": True}, headers=t.auth))
    results(client, t, generate(client, t)["matches"])
    semifinals = ok(client.post(f"{base}/final-phase", headers=t.auth), 201)["matches"]
    results(client, t, semifinals)
    results(client, t, ok(client.get(f"{base}/final-phase"))["matches"][2:])
    assert ok(client.get(base))["status"] == "finished"

    chess = create(client, players, pairing="dutch")
    ok(bye(client, chess, 2, 3, "half_point"))
    ok(client.delete(f"/v1/tournaments/{chess.id}/players/2/byes/3", headers=chess.auth))

    names = [f"Player {i:02d}" for i in range(1, players + 1)]
    halves = [names[: players // 2], names[players // 2 :]]
    groups = create(client, names, groups={"assignment": "manual", "manual": halves})
    return [t.id, chess.id, groups.id]


def largest(app: FastAPI, client: ApiClient, players: int) -> dict[str, int]:
    """The largest envelope of each type written by ``evening(players)``."""
    sizes: dict[str, int] = {}
    for tournament_id in evening(client, players):
        for envelope in stored(app, tournament_id):
            validate(envelope)
            sizes[envelope["type"]] = max(sizes.get(envelope["type"], 0), size(envelope))
    return sizes


def test_no_event_grows_with_the_field(app: FastAPI, client: ApiClient) -> None:
    small = largest(app, client, 16)
    large = largest(app, client, 1024)
    assert set(small) == set(large) == set(ENVELOPES)  # every type written, at both sizes
    grown = {
        kind: (small[kind], large[kind]) for kind in small if large[kind] > small[kind] + SLACK
    }
    assert grown == {}
    too_large = {kind: n for kind, n in large.items() if n > LARGEST}
    assert too_large == {}


def test_the_creation_event_leaves_the_names_of_manual_groups_to_the_read(
    app: FastAPI, client: ApiClient
) -> None:
    halves = [["Anna", "Bruno"], ["Carla", "Dario"]]
    t = create(client, [*halves[0], *halves[1]], groups={"assignment": "manual", "manual": halves})
    created = stored(app, t.id)[0]["data"]["tournament"]
    assert created["settings"]["groups"] == {"count": 2, "assignment": "manual", "manual": None}
    assert created["player_count"] == 4
    read = client.get(f"/v1/tournaments/{t.id}").json()
    assert read["settings"]["groups"]["manual"] == halves
