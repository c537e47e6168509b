"""A round's clock over HTTP: `GET|POST …/rounds/{n}/clock`, the setting, the refusals, what is
stored, audited and emitted (on SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.api.event_schemas import validate
from app.services import events
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round, record
from tests.api.test_tokens import bearer, new_scorekeeper
from tests.client import ApiClient


def clock_of(client: ApiClient, t: Organizer, number: int = 1, **headers: str) -> Any:
    return client.get(f"/v1/tournaments/{t.id}/rounds/{number}/clock", headers=headers)


def act(client: ApiClient, t: Organizer, action: str, number: int = 1, **more: Any) -> Any:
    return client.post(
        f"/v1/tournaments/{t.id}/rounds/{number}/clock",
        json={"action": action, **more},
        headers=t.auth,
    )


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def clock_events(app: FastAPI, t: Organizer) -> list[tuple[str, dict[str, Any]]]:
    with Session(app.state.engine) as session:
        found = events.events_after(session, t.id, 0, 10_000)
    for event in found:
        validate(events.envelope(event))  # as OpenAPI documents it
    return [(e.type, e.data) for e in found if e.type.startswith("clock.")]


def test_the_setting_is_read_changed_and_unset(client: ApiClient) -> None:
    t = create(client, 8, round_duration=1500)
    assert t.body["round_duration"] == 1500
    assert create(client, 4).body["round_duration"] is None
    play_round(client, t)  # settings are fixed now, but this one may change
    changed = client.patch(f"/v1/tournaments/{t.id}", json={"round_duration": 600}, headers=t.auth)
    assert changed.status_code == 200, changed.text
    assert changed.json()["round_duration"] == 600
    unset = client.patch(f"/v1/tournaments/{t.id}", json={"round_duration": None}, headers=t.auth)
    assert unset.json()["round_duration"] is None
    for wrong in (0, 86_401, 1.5, "60"):
        assert_problem(
            client.patch(f"/v1/tournaments/{t.id}", json={"round_duration": wrong}, headers=t.auth),
            422,
            "validation_error",
        )


def test_a_round_clock_from_start_to_end(client: ApiClient, app: FastAPI) -> None:
    t = create(client, 8, round_duration=1800)
    generate(client, t)
    before = clock_of(client, t)
    assert ok(before) | {"measured_at": None} == {
        "round": 1,
        "state": "not_started",
        "duration_ms": 1_800_000,
        "remaining_ms": 1_800_000,
        "measured_at": None,
        "ends_at": None,
        "time_up": False,
    }
    version = client.get(f"/v1/tournaments/{t.id}").json()["version"]
    assert before.headers["etag"] == f'W/"{version}"'

    started = act(client, t, "start")
    assert started.headers["etag"] == f'"{version + 1}"'
    running = ok(started)
    assert (running["state"], running["duration_ms"], running["remaining_ms"]) == (
        "running",
        1_800_000,
        1_800_000,
    )
    assert when(running["ends_at"]) == when(running["measured_at"]) + timedelta(minutes=30)
    read = ok(clock_of(client, t))
    assert read["state"] == "running" and read["ends_at"] == running["ends_at"]
    assert read["remaining_ms"] == running["remaining_ms"] - (
        (when(read["measured_at"]) - when(running["measured_at"])) // timedelta(milliseconds=1)
    )

    paused = ok(act(client, t, "pause"))
    assert (paused["state"], paused["ends_at"], paused["time_up"]) == ("paused", None, False)
    assert 0 < paused["remaining_ms"] <= 1_800_000
    still = ok(clock_of(client, t))
    assert (still["state"], still["remaining_ms"]) == ("paused", paused["remaining_ms"])

    resumed = ok(act(client, t, "resume"))
    assert resumed["remaining_ms"] == paused["remaining_ms"]
    assert when(resumed["ends_at"]) == when(resumed["measured_at"]) + timedelta(
        milliseconds=paused["remaining_ms"]
    )
    ended = ok(act(client, t, "end"))
    assert ended["state"] == "ended" and ended["ends_at"] is None
    assert ended["remaining_ms"] <= resumed["remaining_ms"]
    again = ok(act(client, t, "start", duration=60))  # a new count, its own time
    assert (again["state"], again["duration_ms"], again["remaining_ms"]) == (
        "running",
        60_000,
        60_000,
    )

    seen = clock_events(app, t)
    assert [kind for kind, _ in seen] == [
        "clock.started",
        "clock.paused",
        "clock.resumed",
        "clock.ended",
        "clock.started",
    ]
    answers = [running, paused, resumed, ended, again]
    assert [data["clock"] for _, data in seen] == answers
    assert [data["version"] for _, data in seen] == list(range(version + 1, version + 6))

    audit = client.get(f"/v1/tournaments/{t.id}/audit", params={"limit": 100}, headers=t.auth)
    clocked = [e for e in audit.json()["items"] if e["action"] == "rounds-clock-change"]
    assert [(e["actor"], e["detail"]["clock"], e["detail"]["round"]) for e in clocked] == [
        ("organizer", a, 1) for a in ("start", "pause", "resume", "end", "start")
    ]


def test_a_clock_runs_out_to_zero_and_says_time_is_up(client: ApiClient) -> None:
    t = create(client, 4)
    generate(client, t)
    ok(act(client, t, "start", duration=1))
    # Wait for the server's own clock: read (every 50 ms) until it says time is up.
    deadline = time.monotonic() + 30
    while not (read := ok(clock_of(client, t)))["time_up"]:
        assert time.monotonic() < deadline, read
        time.sleep(0.05)
    assert (read["state"], read["remaining_ms"]) == ("running", 0)
    assert when(read["measured_at"]) >= when(read["ends_at"])
    # the round goes on: a result still counts, and the clock is ended by hand
    assert client.get(f"/v1/tournaments/{t.id}").json()["status"] == "swiss"
    assert ok(act(client, t, "pause"))["remaining_ms"] == 0
    assert ok(act(client, t, "end"))["time_up"] is True


def test_the_refusals_each_with_its_code(client: ApiClient) -> None:
    t = create(client, 4)
    assert_problem(clock_of(client, t), 404, "round_not_found")
    assert_problem(act(client, t, "start", duration=60), 404, "round_not_found")
    round_1 = generate(client, t)
    assert_problem(act(client, t, "start"), 422, "clock_duration_required")
    assert_problem(act(client, t, "pause"), 409, "clock_not_started")
    assert_problem(act(client, t, "resume"), 409, "clock_not_started")
    assert_problem(act(client, t, "end"), 409, "clock_not_started")
    assert_problem(act(client, t, "pause", duration=60), 422, "validation_error")
    assert_problem(act(client, t, "stop"), 422, "validation_error")
    assert_problem(act(client, t, "start", duration=0), 422, "validation_error")
    ok(act(client, t, "start", duration=600))
    assert_problem(act(client, t, "start", duration=60), 409, "clock_already_started")
    assert_problem(act(client, t, "resume"), 409, "clock_not_paused")
    ok(act(client, t, "pause"))
    assert_problem(act(client, t, "pause"), 409, "clock_not_running")
    assert_problem(act(client, t, "start", duration=60), 409, "clock_already_started")
    ok(act(client, t, "end"))
    for action in ("pause", "resume", "end"):
        assert_problem(act(client, t, action), 409, "clock_ended")

    for match in round_1["matches"]:  # the round is complete now
        record(client, t, match["id"], home=1, away=0)
    assert_problem(act(client, t, "start", duration=60), 409, "round_complete")
    generate(client, t)
    assert_problem(act(client, t, "start", number=1, duration=60), 409, "round_locked")
    assert_problem(act(client, t, "start", number=3, duration=60), 404, "round_not_found")
    assert_problem(clock_of(client, t, 3), 404, "round_not_found")
    # round 1's clock stays as it was left, for the record
    assert ok(clock_of(client, t, 1))["state"] == "ended"


def test_a_complete_round_pauses_and_ends_but_does_not_resume(client: ApiClient) -> None:
    t = create(client, 4)
    round_1 = generate(client, t)
    ok(act(client, t, "start", duration=600))
    ok(act(client, t, "pause"))
    for match in round_1["matches"]:
        record(client, t, match["id"], home=1, away=0)
    assert_problem(act(client, t, "resume"), 409, "round_complete")
    assert ok(act(client, t, "end"))["state"] == "ended"


def test_only_the_organizer_changes_it_and_anyone_reads_it(client: ApiClient) -> None:
    t = create(client, 4, round_duration=300)
    generate(client, t)
    scorekeeper = new_scorekeeper(client, t)
    url = f"/v1/tournaments/{t.id}/rounds/1/clock"
    assert_problem(client.post(url, json={"action": "start"}), 401, "unauthorized")
    assert_problem(
        client.post(url, json={"action": "start"}, headers=bearer(str(scorekeeper["token"]))),
        403,
        "forbidden",
    )
    assert_problem(
        client.post(url, json={"action": "start"}, headers=bearer("nope")), 403, "forbidden"
    )
    assert ok(clock_of(client, t))["state"] == "not_started"


def test_if_match_and_if_none_match(client: ApiClient) -> None:
    t = create(client, 4, round_duration=300)
    generate(client, t)
    tag = clock_of(client, t).headers["etag"]
    assert clock_of(client, t, **{"If-None-Match": tag}).status_code == 304
    stale = client.post(
        f"/v1/tournaments/{t.id}/rounds/1/clock",
        json={"action": "start"},
        headers={**t.auth, "If-Match": '"1"'},
    )
    assert_problem(stale, 412, "precondition_failed")
    fresh = client.post(
        f"/v1/tournaments/{t.id}/rounds/1/clock",
        json={"action": "start"},
        headers={**t.auth, "If-Match": tag},
    )
    assert fresh.status_code == 200, fresh.text
    # the clock moved on: the old tag no longer matches
    assert clock_of(client, t, **{"If-None-Match": tag}).status_code == 200


def test_an_undone_round_takes_its_clock_along(client: ApiClient) -> None:
    t = create(client, 4, round_duration=300)
    generate(client, t)
    ok(act(client, t, "start"))
    undone = client.delete(f"/v1/tournaments/{t.id}/rounds/1", headers=t.auth)
    assert undone.status_code == 204, undone.text
    assert_problem(clock_of(client, t), 404, "round_not_found")
    generate(client, t)
    assert ok(clock_of(client, t))["state"] == "not_started"


def test_the_final_phase_closes_the_swiss_clocks(client: ApiClient) -> None:
    t = create(client, 8, swiss_rounds=1, final_phase="semifinals", round_duration=300)
    play_round(client, t)
    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert started.status_code == 201, started.text
    assert_problem(act(client, t, "start"), 409, "wrong_status")
