"""GET …/rounds/{n}/explanation: the steps that placed each board and bye, with sentences."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from sqlalchemy import update
from sqlalchemy.orm import Session

from app.models import MatchRow, RoundRow
from tests.api.helpers import assert_problem, create, generate, play_round
from tests.api.test_chess import new_chess
from tests.client import ApiClient


def explanation(client: ApiClient, tid: str, number: int, **params: str) -> dict[str, Any]:
    response = client.get(f"/v1/tournaments/{tid}/rounds/{number}/explanation", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_every_board_and_bye_of_a_nearest_round_is_explained(client: ApiClient) -> None:
    t = create(client, 7, pairing="nearest")
    play_round(client, t)
    second = generate(client, t)
    body = explanation(client, t.id, 2)

    assert body["round"] == 2 and body["system"] == "nearest" and body["language"] == "en"
    boards = [p for p in body["placements"] if p["board"] is not None]
    assert [p["board"] for p in boards] == [m["board"] for m in second["matches"]]
    for placement, match in zip(boards, second["matches"], strict=True):
        assert {p["id"] for p in placement["players"]} == {match["home"], match["away"]}
        rules = [s["rule"] for s in placement["steps"]]
        assert rules[-2] == "nearest.paired"
        assert rules[-1] == "round.colour"
        assert all(s["text"] and "Rule " not in s["text"] for s in placement["steps"])
    (bye,) = [p for p in body["placements"] if p["board"] is None]
    assert [p["id"] for p in bye["players"]] == second["byes"]
    assert bye["steps"][-1]["rule"] == "nearest.bye"
    name = bye["players"][0]["name"]
    assert bye["steps"][-1]["text"].startswith(f"{name} (place 7) has the bye")
    assert bye["steps"][-1]["facts"] == {"rank": 7, "byes": 0}


def test_round_1_of_nearest_names_the_draw(client: ApiClient) -> None:
    t = create(client, 6, pairing="nearest")
    generate(client, t)
    body = explanation(client, t.id, 1)

    assert [s["rule"] for s in body["steps"]] == ["nearest.draw"]
    assert body["steps"][0]["facts"]["stream"] == "7/round/1/-"
    assert all(p["steps"][0]["rule"] == "nearest.drawn" for p in body["placements"])


def test_the_sentences_come_in_the_language_asked(client: ApiClient) -> None:
    t = create(client, 6, pairing="nearest")
    play_round(client, t)
    generate(client, t)
    url = f"/v1/tournaments/{t.id}/rounds/2/explanation"

    english = explanation(client, t.id, 2)
    italian = explanation(client, t.id, 2, lang="it")
    czech = client.get(url, headers={"Accept-Language": "cs-CZ, en;q=0.5"}).json()

    assert italian["language"] == "it" and czech["language"] == "cs"
    first = [s["text"] for s in english["placements"][0]["steps"]]
    assert [s["text"] for s in italian["placements"][0]["steps"]] != first
    assert [s["text"] for s in czech["placements"][0]["steps"]] != first
    assert [s["rule"] for s in italian["placements"][0]["steps"]] == [
        s["rule"] for s in english["placements"][0]["steps"]
    ]
    assert client.get(url, params={"lang": "de"}).status_code == 422


def test_etag_names_the_version_and_the_language(client: ApiClient) -> None:
    t = create(client, 6, pairing="lim")
    generate(client, t)
    url = f"/v1/tournaments/{t.id}/rounds/1/explanation"
    first = client.get(url, params={"lang": "sk"})
    tag = first.headers["ETag"]

    assert first.headers["Vary"] == "Accept-Language"
    assert client.get(url, params={"lang": "sk"}, headers={"If-None-Match": tag}).status_code == 304
    assert client.get(url, params={"lang": "it"}, headers={"If-None-Match": tag}).status_code == 200


def test_a_lim_round_names_its_score_groups(client: ApiClient) -> None:
    t = create(client, 8, pairing="lim")
    play_round(client, t)
    generate(client, t)
    body = explanation(client, t.id, 2)

    assert body["system"] == "lim"
    assert [s["rule"] for s in body["steps"]][:2] == ["lim.score_group", "lim.score_group"]
    assert body["steps"][0]["facts"]["score"] == 3  # a win is 3 points
    for placement in body["placements"]:
        assert placement["steps"][0]["rule"] == "lim.group"


def test_a_round_generated_before_explanations_reads_not_explained(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 4, pairing="nearest")
    generate(client, t)
    with Session(app.state.engine) as session:
        session.execute(update(RoundRow).values(explanation=None))
        session.commit()
    body = explanation(client, t.id, 1, lang="it")

    assert body["placements"] == []
    assert [s["rule"] for s in body["steps"]] == ["round.not_explained"]
    assert body["steps"][0]["text"]


def test_unknown_rounds_and_tournaments_are_404(client: ApiClient) -> None:
    t = create(client, 4, pairing="nearest")
    generate(client, t)

    response = client.get(f"/v1/tournaments/{t.id}/rounds/2/explanation")
    assert_problem(response, 404, "round_not_found")
    response = client.get("/v1/tournaments/nosuchtournament0/rounds/1/explanation")
    assert_problem(response, 404, "tournament_not_found")


def test_every_board_and_bye_of_a_dutch_round_is_explained(client: ApiClient) -> None:
    t = new_chess(client, 5)
    first = generate(client, t)
    body = explanation(client, t.id, 1)

    assert body["system"] == "dutch"
    assert [s["rule"] for s in body["steps"]] == ["dutch.bye_score", "dutch.bracket"]
    boards = [p for p in body["placements"] if p["board"] is not None]
    assert [p["board"] for p in boards] == [m["board"] for m in first["matches"]]
    for placement, match in zip(boards, first["matches"], strict=True):
        rules = [s["rule"] for s in placement["steps"]]
        assert rules == ["dutch.bracket", "dutch.pair", "dutch.colour"]
        assert placement["steps"][1]["facts"]["criterion"] == "first"
        colour = placement["steps"][2]
        assert [p["id"] for p in colour["players"]] == [match["home"]]
        assert all(s["text"] and "Rule " not in s["text"] for s in placement["steps"])
    (bye,) = [p for p in body["placements"] if p["board"] is None]
    assert [p["id"] for p in bye["players"]] == first["byes"]
    assert bye["steps"][-1]["rule"] == "dutch.bye"
    name = bye["players"][0]["name"]
    assert bye["steps"][-1]["text"].startswith(f"{name} (score 0, 0 games played) has the")


def test_groups_number_their_boards_on_and_open_with_their_group(client: ApiClient) -> None:
    t = create(client, 10, pairing="nearest", groups={"count": 2, "assignment": "seeded"})
    play_round(client, t)
    second = generate(client, t)
    body = explanation(client, t.id, 2)

    groups = [s["facts"]["group"] for s in body["steps"] if s["rule"] == "round.group"]
    assert groups == ["A", "B"]
    boards = [p for p in body["placements"] if p["board"] is not None]
    assert [p["board"] for p in boards] == [m["board"] for m in second["matches"]]
    for placement, match in zip(boards, second["matches"], strict=True):
        assert {p["id"] for p in placement["players"]} == {match["home"], match["away"]}
        colour = placement["steps"][-1]
        assert colour["rule"] == "round.colour"
        assert [p["id"] for p in colour["players"]] == [match["home"], match["away"]]
    assert sorted(
        p["players"][0]["id"] for p in body["placements"] if p["board"] is None
    ) == sorted(second["byes"])


def test_a_round_paired_by_hand_reads_manual(app: FastAPI, client: ApiClient) -> None:
    """Marked manual in its path, or with boards other than the ones explained (a pairing
    replaced by hand after it was generated): the stored steps no longer describe it."""
    t = create(client, 4, pairing="nearest")
    first = generate(client, t)
    one, two = first["matches"]
    with Session(app.state.engine) as session:
        session.execute(
            update(MatchRow)
            .where(MatchRow.tournament_id == t.id, MatchRow.number == one["id"])
            .values(away=two["away"])
        )
        session.execute(
            update(MatchRow)
            .where(MatchRow.tournament_id == t.id, MatchRow.number == two["id"])
            .values(away=one["away"])
        )
        session.commit()
    swapped = explanation(client, t.id, 1)
    assert [s["rule"] for s in swapped["steps"]] == ["round.manual"]
    assert swapped["placements"] == []

    t = create(client, 4, pairing="lim")
    generate(client, t)
    with Session(app.state.engine) as session:
        manual = update(RoundRow).where(RoundRow.tournament_id == t.id)
        session.execute(manual.values(paths=[[None, ["manual"]]]))
        session.commit()
    body = explanation(client, t.id, 1, lang="sk")
    assert [s["rule"] for s in body["steps"]] == ["round.manual"]
    assert body["steps"][0]["text"] == "Toto kolo spároval ručne organizátor, nie systém."
