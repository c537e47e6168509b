"""Rating a club again from the first tournament a change touches gives exactly what rating it
from nothing gives: random club histories (evenings played, results corrected after the end,
evenings deleted, entries merged, register ratings and rating settings changed, in any order),
each step through the API, compared after each step with ``ratings.recompute`` (rolled back)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.services import ratings
from app.services.ratings import CR, CRH, CRP
from app.settings import Settings
from tests.api.clubs import Club, add_entry
from tests.api.ratings import play_round
from tests.client import ApiClient

OUTCOMES: list[dict[str, Any]] = [
    {"home": 1, "away": 0},
    {"home": 0, "away": 2},
    {"home": 1, "away": 1},
    {"forfeit": "away"},
]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(0, 10**6), st.integers(2, 6), st.integers(1, 2)),
        st.tuples(st.just("correct"), st.integers(0, 50), st.integers(0, 3)),
        st.tuples(st.just("delete"), st.integers(0, 50)),
        st.tuples(st.just("merge"), st.integers(0, 50), st.integers(0, 50)),
        st.tuples(st.just("rating"), st.integers(0, 50), st.sampled_from([None, 1200, 1800])),
        st.tuples(
            st.just("system"), st.sampled_from(["elo", "glicko2"]), st.sampled_from([16, 40])
        ),
    ),
    min_size=4,
    max_size=12,
)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, create_rate=0)  # hundreds of evenings a minute


def state(session: Session, club_id: str) -> tuple[list[Any], list[Any], list[Any]]:
    """The club's ratings, history and periods' digests, in a fixed order."""
    rows = session.execute(select(CR).where(CR.c.club_id == club_id)).all()
    history = session.execute(select(CRH).where(CRH.c.club_id == club_id)).all()
    periods = session.execute(
        select(CRP.c.id, CRP.c.seq, CRP.c.games_digest).where(CRP.c.club_id == club_id)
    ).all()
    return sorted(map(tuple, rows)), sorted(map(tuple, history)), sorted(map(tuple, periods))


def assert_as_from_nothing(app: FastAPI, club_id: str) -> None:
    with Session(app.state.engine) as session:
        kept = state(session, club_id)
        ratings.recompute(session, club_id)
        session.flush()
        again = state(session, club_id)
        session.rollback()
    assert kept == again


class History:
    """One random club: its register and evenings, changed step by step through the API."""

    def __init__(self, client: ApiClient, club: Club) -> None:
        self.client = client
        self.club = club
        self.entries = [
            add_entry(client, club, f"P{i}", **({"rating": 1300 + 100 * i} if i % 2 else {}))["id"]
            for i in range(7)
        ]
        self.evenings: list[str] = []

    def play(self, seed: int, size: int, rounds: int) -> None:
        rng = random.Random(seed)
        size = min(size, len(self.entries))
        players = [{"club_player_id": i} for i in rng.sample(self.entries, size)]
        made = self.client.post(
            f"/v1/clubs/{self.club.id}/tournaments",
            json={
                "name": "Evening",
                "players": players,
                "seed": seed,
                "swiss_rounds": min(rounds, size - 1),
                "final_phase": "none",
            },
            headers=self.club.auth,
        )
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for _ in range(min(rounds, size - 1)):
            play_round(self.client, self.club, tid, lambda _h, _a: rng.choice(OUTCOMES))
        self.evenings.append(tid)

    def correct(self, which: int, outcome: int) -> None:
        if not self.evenings:
            return
        tid = self.evenings[which % len(self.evenings)]
        last = self.client.get(f"/v1/tournaments/{tid}/rounds").json()[-1]["matches"][0]
        path = f"/v1/tournaments/{tid}/matches/{last['id']}/result"
        done = self.client.put(path, json=OUTCOMES[outcome], headers=self.club.auth)
        assert done.status_code == 200, done.text

    def delete(self, which: int) -> None:
        if not self.evenings:
            return
        tid = self.evenings.pop(which % len(self.evenings))
        done = self.client.delete(f"/v1/tournaments/{tid}", headers=self.club.auth)
        assert done.status_code == 204, done.text

    def merge(self, a: int, b: int) -> None:
        kept, merged = self.entries[a % len(self.entries)], self.entries[b % len(self.entries)]
        if kept == merged or len(self.entries) <= 2:
            return
        path = f"/v1/clubs/{self.club.id}/players/{kept}/merge"
        done = self.client.post(path, json={"merged_id": merged}, headers=self.club.auth)
        if done.status_code == 409:  # they played one evening together
            assert done.json()["code"] == "merge_played_together", done.text
            return
        assert done.status_code == 200, done.text
        self.entries.remove(merged)

    def rating(self, which: int, value: int | None) -> None:
        entry = self.entries[which % len(self.entries)]
        path = f"/v1/clubs/{self.club.id}/players/{entry}"
        done = self.client.patch(path, json={"rating": value}, headers=self.club.auth)
        assert done.status_code == 200, done.text

    def system(self, kind: str, k: int) -> None:
        body = {"rating_system": kind, "elo_k": k}
        done = self.client.patch(f"/v1/clubs/{self.club.id}", json=body, headers=self.club.auth)
        assert done.status_code == 200, done.text


def test_rating_again_from_a_change_gives_what_rating_from_nothing_gives(
    app: FastAPI, client: ApiClient
) -> None:
    @examples(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(kind=st.sampled_from(["elo", "glicko2"]), plan=steps)
    def check(kind: str, plan: list[tuple[Any, ...]]) -> None:
        made = client.post("/v1/clubs", json={"name": "Circolo", "rating_system": kind})
        assert made.status_code == 201, made.text
        body = made.json()
        history = History(client, Club(body["id"], body["key"]["key"], body))
        history.play(1, 4, 2)
        for step, *args in plan:
            getattr(history, step)(*args)
            assert_as_from_nothing(app, history.club.id)

    check()


def glicko_club(client: ApiClient) -> Club:
    made = client.post("/v1/clubs", json={"name": "Circolo", "rating_system": "glicko2"})
    assert made.status_code == 201, made.text
    body = made.json()
    return Club(body["id"], body["key"]["key"], body)


def test_a_correction_of_the_last_evening_rates_that_evening_again_only(
    app: FastAPI, client: ApiClient
) -> None:
    history = History(client, glicko_club(client))
    for seed in range(4):
        history.play(seed, 4, 2)
    events_before = client.get(
        f"/v1/clubs/{history.club.id}/events", headers=history.club.auth
    ).json()["items"]
    history.correct(3, 1)  # one of the two changes the result, or both do
    history.correct(3, 0)
    events = client.get(
        f"/v1/clubs/{history.club.id}/events",
        params={"after": events_before[-1]["id"]},
        headers=history.club.auth,
    ).json()["items"]
    replayed = [e["data"] for e in events if e["type"] == "rating.updated"]
    assert replayed and all(d["tournaments"] == 1 for d in replayed), replayed
    assert_as_from_nothing(app, history.club.id)


def test_a_glicko2_history_without_volatilities_is_rated_again_from_the_first(
    app: FastAPI, client: ApiClient
) -> None:
    """Rows written before the history kept volatilities: the state before a period cannot be
    read from them, so the club is rated from its first tournament once, which fills them."""
    history = History(client, glicko_club(client))
    for seed in range(3):
        history.play(seed, 4, 2)
    with app.state.engine.begin() as connection:
        connection.execute(
            CRH.update().where(CRH.c.club_id == history.club.id).values(volatility=None)
        )
    history.correct(2, 1)  # one of the two changes the result, or both do
    history.correct(2, 0)
    with Session(app.state.engine) as session:
        volatilities = session.execute(
            select(CRH.c.volatility).where(CRH.c.club_id == history.club.id)
        ).scalars()
        assert None not in set(volatilities)
    assert_as_from_nothing(app, history.club.id)


def test_a_register_rating_change_is_where_the_club_rating_starts(
    app: FastAPI, client: ApiClient
) -> None:
    history = History(client, glicko_club(client))
    for seed in range(3):
        history.play(seed, 5, 1)
    entry = history.entries[0]
    history.rating(0, 2222)
    items = client.get(
        f"/v1/clubs/{history.club.id}/players/{entry}/history", headers=history.club.auth
    ).json()["items"]
    assert items and items[0]["rating_before"] == 2222
    assert_as_from_nothing(app, history.club.id)
