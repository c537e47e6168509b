"""GET /v1/tournaments/{id}/export.trf: the TRF as served, with its ETag."""

from __future__ import annotations

from app.domain.trf import TrfColour, TrfResult, read_trf
from tests.api.helpers import assert_problem, create, generate, play_round, record
from tests.client import ApiClient


def test_the_trf_holds_every_finished_round(client: ApiClient) -> None:
    t = create(client, 5, final_phase="none", swiss_rounds=2)
    play_round(client, t, home=2, away=1)
    second = generate(client, t)
    answer = client.get(f"/v1/tournaments/{t.id}/export.trf")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.headers["content-disposition"] == f'attachment; filename="tournament-{t.id}.trf"'
    assert answer.text.endswith("\r") and "\n" not in answer.text
    document = read_trf(answer.text)
    assert document.name == "Friday evening"
    assert document.total_rounds == 2
    assert document.rounds_played == 1  # round 2 is still being played
    codes = sorted(p.games[0].result for p in document.players if p.games[0] is not None)
    assert codes == sorted(
        [TrfResult.WIN] * 2 + [TrfResult.LOSS] * 2 + [TrfResult.PAIRING_ALLOCATED_BYE]
    )

    for match in second["matches"]:
        record(client, t, match["id"], home=0, away=0)
    finished = read_trf(client.get(f"/v1/tournaments/{t.id}/export.trf").text)
    assert finished.rounds_played == 2
    whites = [
        p.start_number
        for p in finished.players
        if p.games[1] is not None and p.games[1].colour is TrfColour.WHITE
    ]
    players = {p["id"]: p["start_number"] for p in t.body["players"]}
    assert sorted(whites) == sorted(players[m["home"]] for m in second["matches"])
    assert all(p.rank is not None and p.points is not None for p in finished.players)


def test_the_etag_is_the_version(client: ApiClient) -> None:
    t = create(client, 4)
    answer = client.get(f"/v1/tournaments/{t.id}/export.trf")
    assert answer.headers["etag"] == f'"{t.body["version"]}"'
    again = client.get(
        f"/v1/tournaments/{t.id}/export.trf", headers={"If-None-Match": answer.headers["etag"]}
    )
    assert again.status_code == 304
    generate(client, t)
    assert (
        client.get(f"/v1/tournaments/{t.id}/export.trf").headers["etag"] != answer.headers["etag"]
    )


def test_an_unknown_tournament_is_a_404(client: ApiClient) -> None:
    assert_problem(
        client.get("/v1/tournaments/nosuchtournament/export.trf"), 404, "tournament_not_found"
    )
