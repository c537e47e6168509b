"""One result on a Swiss match reads and writes only that match and the tournament's status
(``app/services/results.py``): the same few statements whatever the tournament's size, the
state it checks read again under the lock when another write came first, and a lock wait
that runs out while other writes get through waits again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from app.services import access, events, results
from tests.api.helpers import Organizer, assert_problem, create, generate, record
from tests.client import ApiClient


def result_url(t: Organizer, match_id: int) -> str:
    return f"/v1/tournaments/{t.id}/matches/{match_id}/result"


@contextmanager
def statements(app: FastAPI) -> Iterator[list[str]]:
    """The SQL the app sends meanwhile."""
    sent: list[str] = []

    def note(*args: Any) -> None:
        sent.append(args[2])

    event.listen(app.state.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(app.state.engine, "before_cursor_execute", note)


def stored_events(app: FastAPI, tournament_id: str) -> list[events.Event]:
    with Session(app.state.engine) as session:
        return events.events_after(session, tournament_id, 0)


def test_a_result_reads_the_same_few_rows_whatever_the_size_of_the_tournament(
    app: FastAPI, client: ApiClient
) -> None:
    sent: dict[int, list[str]] = {}
    for size in (8, 200):
        t = create(client, size)
        matches = generate(client, t)["matches"]
        record(client, t, matches[0]["id"], home=1, away=0)
        with statements(app) as sql:
            record(client, t, matches[1]["id"], home=2, away=2)
        sent[size] = sql
    assert sent[8] == sent[200]
    assert not [s for s in sent[200] if "FROM player" in s or "FROM round" in s]
    assert len(sent[200]) <= 12, sent[200]


def test_clearing_a_result_of_a_finished_tournament_reopens_it_and_recording_it_finishes_it(
    app: FastAPI, client: ApiClient
) -> None:
    t = create(client, 4, swiss_rounds=1, final_phase="none")
    first, second = generate(client, t)["matches"]
    record(client, t, first["id"], home=1, away=0)
    record(client, t, second["id"], home=0, away=3)
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"

    cleared = client.delete(result_url(t, second["id"]), headers=t.auth)

    assert cleared.status_code == 200, cleared.text
    assert cleared.json()["result"] is None
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "swiss"
    last = stored_events(app, t.id)[-1]
    assert (last.type, last.data["status"], last.data["match"]["id"]) == (
        "result.cleared",
        "swiss",
        second["id"],
    )
    record(client, t, second["id"], home=2, away=1)
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "finished"
    assert [e.type for e in stored_events(app, t.id)[-2:]] == [
        "result.recorded",
        "tournament.finished",
    ]


def test_the_state_a_result_checked_is_read_again_under_the_lock_if_it_moved(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The other match's result, the round's last but one, is saved while this one computes:
    # under the lock this one finds itself the last and finishes the tournament.
    t = create(client, 4, swiss_rounds=1, final_phase="none")
    first, second = generate(client, t)["matches"]
    real = access.lock_header_in_queue
    calls: list[int] = []

    def after_another_write(session: Session, tournament_id: str, *, seen: int) -> Any:
        calls.append(seen)
        if len(calls) > 1:  # the other write's own lock
            return real(session, tournament_id, seen=seen)
        with Session(app.state.engine) as other:
            results.record(
                other,
                access.Write(t.id),
                second["id"],
                home=1,
                away=1,
                winner=None,
                decided_by=None,
                forfeit=None,
            )
            other.commit()
        return real(session, tournament_id, seen=seen)

    monkeypatch.setattr(access, "lock_header_in_queue", after_another_write)
    answer = client.put(result_url(t, first["id"]), json={"home": 3, "away": 0}, headers=t.auth)

    assert answer.status_code == 200, answer.text
    assert answer.headers["etag"] == '"4"'
    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert (tournament["status"], tournament["version"]) == ("finished", 4)
    assert [(e.type, e.data.get("status")) for e in stored_events(app, t.id)[-3:]] == [
        ("result.recorded", "swiss"),
        ("result.recorded", "finished"),
        ("tournament.finished", None),
    ]


def timed_out() -> OperationalError:
    return OperationalError("UPDATE tournament …", {}, Exception("database is locked"))


def test_a_lock_wait_that_ran_out_while_other_writes_got_through_waits_again(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 8)
    matches = generate(client, t)["matches"]
    real = access.lock_header
    waits: list[int] = []

    def queue_moved_meanwhile(session: Session, tournament_id: str) -> access.Header:
        waits.append(1)
        if len(waits) == 1:  # another scorekeeper's result got through while this one waited
            record(client, t, matches[1]["id"], home=1, away=0)
            raise timed_out()
        return real(session, tournament_id)

    monkeypatch.setattr(access, "lock_header", queue_moved_meanwhile)
    answer = client.put(
        result_url(t, matches[0]["id"]), json={"home": 2, "away": 0}, headers=t.auth
    )

    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["home"] == 2
    assert len(waits) == 3  # the other result's own lock, then this one's two waits
    assert client.get(f"/v1/tournaments/{t.id}").json()["version"] == 4


def test_a_lock_wait_that_ran_out_while_nothing_moved_is_busy_and_changes_nothing(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 8)
    matches = generate(client, t)["matches"]

    def stuck(session: Session, tournament_id: str) -> access.Header:
        raise timed_out()

    monkeypatch.setattr(access, "lock_header", stuck)
    answer = client.put(
        result_url(t, matches[0]["id"]), json={"home": 2, "away": 0}, headers=t.auth
    )

    assert_problem(answer, 503, "busy")
    monkeypatch.undo()
    tournament = client.get(f"/v1/tournaments/{t.id}").json()
    assert tournament["version"] == 2
    assert client.get(f"/v1/tournaments/{t.id}/rounds/1").json()["matches"][0]["result"] is None
