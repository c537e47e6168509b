"""POST /v1/tournaments with a TRF body: the tournament with its whole history, then exported back
(``docs/trf.md``); a bad file is a 422 naming its line and column, and creates nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.domain.trf import TrfDocument, TrfPlayer, TrfResult, TrfTag, read_trf, write_trf
from app.main import create_app
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem
from tests.client import ApiClient
from tests.data import DUTCH, read_text

TRF = {"Content-Type": "text/plain"}
SMALL = "dutch_p0009_r05_s101.trf"
WITH_BYES = "dutch_p0100_r09_s101.trf"
"""Half-point byes and forfeits, 100 players."""


def post_trf(client: ApiClient, text: str | bytes, **headers: str) -> Any:
    body = text.encode() if isinstance(text, str) else text
    return client.post("/v1/tournaments", content=body, headers={**TRF, **headers})


def imported(client: ApiClient, text: str) -> Organizer:
    answer = post_trf(client, text)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return Organizer(data["id"], data["organizer_token"], data)


def exported(client: ApiClient, t: Organizer) -> TrfDocument:
    answer = client.get(f"/v1/tournaments/{t.id}/export.trf")
    assert answer.status_code == 200
    return read_trf(answer.text)


@pytest.mark.parametrize("name", [SMALL, WITH_BYES])
def test_import_then_export_gives_the_same_players_and_rounds(client: ApiClient, name: str) -> None:
    original = read_trf(read_text(DUTCH / name))
    t = imported(client, read_text(DUTCH / name))
    assert t.body["pairing"] == "dutch"
    assert t.body["status"] == "finished"
    assert t.body["current_round"] == original.rounds_played
    assert len(t.body["players"]) == len(original.players)
    back = exported(client, t)
    assert back.name == original.name
    assert back.total_rounds == original.rounds_played
    for mine, theirs in zip(back.players, original.players, strict=True):
        # the rank is Svizzera's (points, then the tiebreak), the file's points then number
        assert replace(mine, rank=None) == replace(theirs, rank=None)


def test_the_next_round_over_http_is_the_engines(client: ApiClient) -> None:
    """Rounds 1–4 of a file imported, round 5 generated: the file's round 5, as bbpPairings
    paired it (byes asked for round 5 are written as its blocks, as pairing programs read)."""
    original = read_trf(read_text(DUTCH / WITH_BYES))
    number = 5
    records = []
    for record in original.records:
        if isinstance(record, TrfPlayer):
            games = list(record.games[: number - 1])
            upcoming = record.games[number - 1]
            if (
                upcoming is not None
                and upcoming.opponent is None
                and upcoming.result is not TrfResult.PAIRING_ALLOCATED_BYE
            ):
                games.append(upcoming)
            record = replace(record, games=tuple(games), points=None, rank=None)
        records.append(record)
    records.append(TrfTag("142", str(original.rounds_played)))
    t = imported(client, write_trf(TrfDocument(tuple(records))))
    assert t.body["current_round"] == number - 1 and t.body["status"] == "swiss"
    answer = client.post(f"/v1/tournaments/{t.id}/rounds", headers=t.auth)
    assert answer.status_code == 201, answer.text
    start = {p["id"]: p["start_number"] for p in t.body["players"]}
    boards = {(start[m["home"]], start[m["away"]]) for m in answer.json()["matches"]}
    expected = {
        (p.start_number, game.opponent)
        for p in original.players
        if (game := p.games[number - 1]) is not None
        and game.opponent is not None
        and game.colour.value == "w"
    }
    assert boards == expected
    byes = [start[pid] for pid in answer.json()["byes"]]
    pab = [
        p.start_number
        for p in original.players
        if (game := p.games[number - 1]) is not None
        and game.result is TrfResult.PAIRING_ALLOCATED_BYE
    ]
    assert byes == pab


def player(number: int, name: str, *blocks: str) -> str:
    """A 001 record: starting rank, name, then round blocks from column 92."""
    return f"001 {number:>4}      {name}".ljust(91) + "".join(b.ljust(10) for b in blocks)


BAD = [
    # the reader: a repeated starting rank, a rating that is not a number, both players White
    ("\r".join(["012 Club", player(1, "Ada"), player(1, "Bo")]), 3, 5),
    ("012 Club\r001    1      Ada                               20x0\r", 2, 49),
    ("\r".join(["012 Club", player(1, "Ada", "   2 w 1"), player(2, "Bo", "   1 w 0")]), 2, 97),
    # the import: a repeated name, a full-point bye, no rounds and no number of rounds
    ("\r".join(["012 Club", "142 3", player(1, "Ada"), player(2, "ada")]), 4, 15),
    ("\r".join(["012 Club", player(1, "Ada"), player(2, "Bo"), "142 3", "240 F 002    1"]), 5, 5),
    ("\r".join(["012 Club", player(1, "Ada"), player(2, "Bo")]), 1, 1),
    ("\r".join(["012 Club", player(1, "Ada", "0000 - F"), player(2, "Bo", "0000 - U")]), 2, 99),
    (
        "\r".join(["012 Club", "142 1", player(1, "Ada", "   2 w 1"), player(2, "Bo", "   1 b 0")])
        + "\r"
        + player(3, "Cy", "", "0000 - H"),
        5,
        102,
    ),
]


@pytest.mark.parametrize(("text", "line", "column"), BAD)
def test_a_bad_file_names_its_line_and_column_and_creates_nothing(
    client: ApiClient, text: str, line: int, column: int
) -> None:
    problem = assert_problem(post_trf(client, text), 422, "invalid_trf")
    assert problem["detail"].startswith(f"line {line}, column {column}: "), problem["detail"]
    assert client.get("/v1/tournaments").json()["items"] == []


def test_bytes_that_are_not_utf8_are_placed_too(client: ApiClient) -> None:
    body = b"012 Club\r001    1      Ad\xe9\r"
    problem = assert_problem(post_trf(client, body), 422, "invalid_trf")
    assert problem["detail"] == "line 2, column 17: the file is not UTF-8 text"


def test_json_creation_is_unchanged_and_other_bodies_are_415(client: ApiClient) -> None:
    json_body = {"name": "Club", "players": [{"name": "Ada"}, {"name": "Bo"}]}
    assert client.post("/v1/tournaments", json=json_body).status_code == 201
    both = "send the body as JSON with `Content-Type: application/json`, or a TRF file with "
    both += "`Content-Type: text/plain`, not "
    file = read_text(DUTCH / SMALL).encode()
    for content_type, named in (
        ("application/octet-stream", "application/octet-stream"),
        ("text/csv; charset=utf-8", "text/csv; charset=utf-8"),
        (None, "without a content type"),
    ):
        headers = {"Content-Type": content_type} if content_type else {}
        answer = client.post("/v1/tournaments", content=file, headers=headers)
        assert assert_problem(answer, 415, "unsupported_media_type")["detail"] == both + named
    assert client.get("/v1/tournaments").json()["items"][0]["name"] == "Club"  # nothing more
    # Elsewhere a body that is not JSON is refused naming JSON only.
    elsewhere = client.post("/v1/tournaments/nope/players", content=file, headers=TRF)
    assert assert_problem(elsewhere, 415, "unsupported_media_type")["detail"] == (
        "send the body as JSON with `Content-Type: application/json`, not text/plain"
    )


def test_a_body_of_another_type_is_refused_before_the_create_key(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url, create_key="club-secret"))
    with ApiClient(app) as client:
        for headers in ({}, {"Authorization": "Bearer guess"}):
            answer = client.post(
                "/v1/tournaments",
                content=b"012 Club\r",
                headers={"Content-Type": "text/csv", **headers},
            )
            assert_problem(answer, 415, "unsupported_media_type")
        assert_problem(post_trf(client, "012 Club\r"), 401, "unauthorized")
    app.state.engine.dispose()


def test_the_body_cap_applies(client: ApiClient, settings: Settings) -> None:
    answer = post_trf(client, "### " + "x" * settings.max_body_bytes + "\r")
    assert_problem(answer, 413, "payload_too_large")
