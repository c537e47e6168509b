"""A club's webhooks: registered with a club key, its events (``rating.updated``,
``season.updated``) delivered to a real receiver by the tournaments' worker, signed the same
way, filtered, retried, logged; audited in the club's trail."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any, get_args

import pytest
from fastapi import FastAPI

from app.api.event_schemas import validate
from app.api.webhook_schemas import ClubEventType
from app.services import club_events
from app.settings import Settings
from app.webhooks.signing import verify
from tests.api.clubs import Club, new_club
from tests.api.helpers import assert_problem, create
from tests.api.ratings import evening, win
from tests.apps import make_app
from tests.client import ApiClient
from tests.webhooks.conftest import worker_running
from tests.webhooks.receiver import Receiver

FOUR = [{"name": n} for n in ("Rossi", "Bianchi", "Verdi", "Neri")]


def hooks(club: Club) -> str:
    return f"/v1/clubs/{club.id}/webhooks"


def register(client: ApiClient, club: Club, url: str, **body: Any) -> dict[str, Any]:
    response = client.post(hooks(club), json={"url": url, **body}, headers=club.auth)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def log(client: ApiClient, club: Club, webhook_id: int, **params: Any) -> dict[str, Any]:
    response = client.get(
        f"{hooks(club)}/{webhook_id}/deliveries", params=params, headers=club.auth
    )
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def wait_for_status(
    client: ApiClient, club: Club, webhook_id: int, status: str, timeout: float = 60.0
) -> list[dict[str, Any]]:
    """The delivery log, once its newest delivery has ``status``."""
    deadline = time.monotonic() + timeout
    while True:
        items: list[dict[str, Any]] = log(client, club, webhook_id)["items"]
        if items and items[0]["status"] == status:
            return items
        assert time.monotonic() < deadline, f"no {status} delivery: {items}"
        time.sleep(0.05)


def at(envelope: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(envelope["created_at"])


def new_season(client: ApiClient, club: Club) -> int:
    made = client.post(
        f"/v1/clubs/{club.id}/seasons",
        json={"name": "Winter", "scoring": "points"},
        headers=club.auth,
    )
    assert made.status_code == 201, made.text
    season_id: int = made.json()["id"]
    return season_id


def test_a_finished_club_evening_is_delivered_signed_rating_and_season(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    club = new_club(client)
    season = new_season(client, club)
    hook = register(client, club, receiver.url)
    assert hook["events"] == [] and hook["secret"].startswith("whsec_")
    with worker_running(app.state.engine, settings):
        tid = evening(client, club, FOUR, lambda _h, _a: win(1, 0), season_id=season)
        arrivals = receiver.wait_for(2)
    envelopes = [a.envelope for a in arrivals]
    polled = client.get(f"/v1/clubs/{club.id}/events", headers=club.auth).json()["items"]
    # The polling read's envelopes, in seq order (its times written by pydantic: `Z`).
    assert [{**e, "created_at": at(e)} for e in envelopes] == [
        {**e, "created_at": at(e)} for e in polled
    ]
    assert [e["id"] for e in envelopes] == [1, 2]
    by_type = {e["type"]: e["data"] for e in envelopes}
    assert by_type == {
        "rating.updated": {"reason": "tournament", "tournament_id": tid, "players": 4},
        "season.updated": {"season_id": season, "tournament_id": tid, "reason": "tournament"},
    }
    for arrival in arrivals:
        validate(arrival.envelope)
        assert arrival.envelope["club_id"] == club.id
        assert verify(hook["secret"], arrival.headers["svizzera-signature"], arrival.body)
        assert not verify("whsec_wrong", arrival.headers["svizzera-signature"], arrival.body)
        assert arrival.event_id == f"club:{club.id}:{arrival.envelope['id']}"
        assert arrival.headers["svizzera-event-type"] == arrival.envelope["type"]
        assert arrival.headers["user-agent"] == "Svizzera-Webhooks/1"
    delivered = log(client, club, hook["id"])
    assert [(d["event_id"], d["event_type"]) for d in delivered["items"]] == [
        (e["id"], e["type"]) for e in reversed(envelopes)
    ]
    assert {(d["status"], d["attempts"], d["last_status_code"]) for d in delivered["items"]} == {
        ("delivered", 1, 200)
    }
    ids = {a.headers["svizzera-delivery-id"] for a in arrivals}
    assert ids == {str(d["id"]) for d in delivered["items"]}


def test_an_endpoint_gets_only_the_types_it_asked_for_and_events_after_it_was_made(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    club = new_club(client)
    season = new_season(client, club)
    evening(client, club, FOUR, lambda _h, _a: win(1, 0), season_id=season)  # seq 1 and 2
    hook = register(client, club, receiver.url, events=["season.updated"])
    assert hook["events"] == ["season.updated"]
    with worker_running(app.state.engine, settings):
        tid = evening(client, club, FOUR, lambda _h, _a: win(0, 1), season_id=season)
        arrivals = receiver.wait_for(1)
        # Every event of the club is enqueued (the cursor passes the rating one): nothing else
        # comes, and the log holds only the season's.
        items = wait_for_status(client, club, hook["id"], "delivered")
    polled = client.get(f"/v1/clubs/{club.id}/events?after=2", headers=club.auth).json()
    assert {e["type"] for e in polled["items"]} == {"rating.updated", "season.updated"}
    wanted = [e["id"] for e in polled["items"] if e["type"] == "season.updated"]
    assert [(a.envelope["id"], a.envelope["type"]) for a in arrivals] == [
        (wanted[0], "season.updated")
    ]
    assert arrivals[0].envelope["data"] == {
        "season_id": season,
        "tournament_id": tid,
        "reason": "tournament",
    }
    assert [d["event_type"] for d in items] == ["season.updated"]


def test_a_deleted_season_is_delivered(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    club = new_club(client)
    season = new_season(client, club)
    hook = register(client, club, receiver.url, events=["season.deleted"])
    with worker_running(app.state.engine, settings):
        evening(client, club, FOUR, lambda _h, _a: win(1, 0), season_id=season)  # not wanted
        gone = client.delete(f"/v1/clubs/{club.id}/seasons/{season}", headers=club.auth)
        assert gone.status_code == 204, gone.text
        (arrival,) = receiver.wait_for(1)
        wait_for_status(client, club, hook["id"], "delivered")
    assert arrival.envelope["type"] == "season.deleted"
    assert arrival.envelope["data"] == {"season_id": season, "tournaments": 1}
    assert arrival.envelope["id"] == 3  # after the evening's two
    validate(arrival.envelope)
    assert verify(hook["secret"], arrival.headers["svizzera-signature"], arrival.body)


def test_a_failing_receiver_is_retried_then_failed_then_redelivered(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    settings = settings.model_copy(update={"webhook_max_attempts": 2})
    club = new_club(client)
    hook = register(client, club, receiver.url, events=["rating.updated"])
    receiver.fail_next, receiver.fail_status = 2, 503
    with worker_running(app.state.engine, settings):
        evening(client, club, FOUR, lambda _h, _a: win(1, 0))
        receiver.wait_for(2)
        failed = wait_for_status(client, club, hook["id"], "failed")[0]
        assert (failed["attempts"], failed["last_status_code"]) == (2, 503)
        assert failed["last_error"] == "HTTP 503" and failed["next_attempt_at"] is None
        again = client.post(
            f"{hooks(club)}/{hook['id']}/deliveries/{failed['id']}/redeliver", headers=club.auth
        )
        assert again.status_code == 202, again.text
        assert again.json()["status"] == "pending"
        arrivals = receiver.wait_for(3)
        redelivered = wait_for_status(client, club, hook["id"], "delivered")[0]
    assert [a.envelope["type"] for a in arrivals] == ["rating.updated"] * 3
    assert len({a.event_id for a in arrivals}) == 1
    assert {a.headers["svizzera-delivery-id"] for a in arrivals} == {str(failed["id"])}
    assert all(verify(hook["secret"], a.headers["svizzera-signature"], a.body) for a in arrivals)
    assert (redelivered["attempts"], redelivered["last_status_code"]) == (1, 200)
    assert log(client, club, hook["id"], status="failed") == {"items": [], "next_cursor": None}


def test_a_tournament_and_a_club_hooked_to_one_receiver_each_get_their_own_events(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver
) -> None:
    """One worker, one queue: the club's endpoint and a tournament's are served side by side,
    each with its own events and event ids."""
    club = new_club(client)
    club_hook = register(client, club, receiver.url)
    other = create(client, 4)
    made = client.post(
        f"/v1/tournaments/{other.id}/webhooks",
        json={"url": receiver.url, "events": ["round.generated"]},
        headers=other.auth,
    )
    assert made.status_code == 201, made.text
    with worker_running(app.state.engine, settings):
        assert client.post(f"/v1/tournaments/{other.id}/rounds", headers=other.auth).is_success
        evening(client, club, FOUR, lambda _h, _a: win(1, 0))
        arrivals = receiver.wait_for(2)
    by_id = {a.event_id: a for a in arrivals}
    assert set(by_id) == {f"{other.id}:2", f"club:{club.id}:1"}
    assert verify(
        club_hook["secret"],
        by_id[f"club:{club.id}:1"].headers["svizzera-signature"],
        by_id[f"club:{club.id}:1"].body,
    )
    assert by_id[f"{other.id}:2"].envelope["tournament_id"] == other.id


def test_the_club_key_only(client: ApiClient) -> None:
    club, other = new_club(client), new_club(client, "Other")
    hook = register(client, club, "http://127.0.0.1:9/hook")
    t = create(client, 4)
    member = client.post(
        f"/v1/clubs/{club.id}/tournaments",
        json={"name": "Friday", "players": FOUR},
        headers=club.auth,
    ).json()
    paths = [
        ("POST", hooks(club), {"url": "http://127.0.0.1:9/x"}),
        ("GET", hooks(club), None),
        ("GET", f"{hooks(club)}/{hook['id']}", None),
        ("GET", f"{hooks(club)}/{hook['id']}/deliveries", None),
        ("POST", f"{hooks(club)}/{hook['id']}/deliveries/1/redeliver", None),
        ("DELETE", f"{hooks(club)}/{hook['id']}", None),
    ]
    foreign = [
        t.auth,  # a tournament's organizer token
        {"Authorization": f"Bearer {member['organizer_token']}"},  # one of the club's own
        other.auth,  # another club's key
    ]
    for method, path, body in paths:
        assert_problem(client.request(method, path, json=body), 401, "unauthorized")
        for headers in foreign:
            refused = client.request(method, path, json=body, headers=headers)
            assert_problem(refused, 403, "forbidden")
    # Another club's endpoint is not found through this club, with its key or this one's.
    theirs = register(client, other, "http://127.0.0.1:9/theirs")
    gone = client.get(f"{hooks(club)}/{theirs['id']}", headers=club.auth)
    assert_problem(gone, 404, "webhook_not_found")
    assert_problem(
        client.delete(f"{hooks(club)}/{theirs['id']}", headers=club.auth), 404, "webhook_not_found"
    )
    # Nor through a tournament of the club (a tournament's list is its own).
    listed = client.get(f"/v1/tournaments/{member['id']}/webhooks", headers=club.auth)
    assert listed.status_code == 200 and listed.json() == []
    assert_problem(client.get("/v1/clubs/nope/webhooks", headers=club.auth), 404, "club_not_found")


def test_the_secret_is_shown_once_and_writes_are_audited(client: ApiClient) -> None:
    club = new_club(client)
    version = client.get(f"/v1/clubs/{club.id}").json()["version"]
    hook = register(client, club, "http://127.0.0.1:9/hook", description="ratings board")
    listed = client.get(hooks(club), headers=club.auth)
    assert listed.status_code == 200
    assert listed.json() == [{k: v for k, v in hook.items() if k != "secret"}]
    read = client.get(f"{hooks(club)}/{hook['id']}", headers=club.auth)
    assert read.json() == listed.json()[0] and "secret" not in read.json()
    assert client.get(hooks(club), headers={**club.auth, "If-None-Match": listed.headers["ETag"]}
                      ).status_code == 304  # fmt: skip
    deleted = client.delete(f"{hooks(club)}/{hook['id']}", headers=club.auth)
    assert deleted.status_code == 204
    assert client.get(hooks(club), headers=club.auth).json() == []
    assert client.get(f"/v1/clubs/{club.id}").json()["version"] == version + 2
    trail = client.get(f"/v1/clubs/{club.id}/audit", headers=club.auth).json()["items"]
    made, gone = trail[-2:]
    key = f"club:{club.body['key']['id']}"
    assert (made["action"], made["actor"]) == ("club-webhooks-create", key)
    assert made["detail"] == {
        "webhook_id": hook["id"],
        "url": "http://127.0.0.1:9/hook",
        "events": [],
    }
    assert (gone["action"], gone["actor"]) == ("club-webhooks-delete", key)
    assert gone["detail"] == {"webhook_id": hook["id"], "url": "http://127.0.0.1:9/hook"}
    assert "secret" not in str(trail) and hook["secret"] not in str(trail)


def test_event_types_are_the_club_outbox_s_and_refused_otherwise(client: ApiClient) -> None:
    assert set(get_args(ClubEventType)) == set(club_events.TYPES)
    club = new_club(client)
    for events in (["result.recorded"], ["nope"]):
        refused = client.post(
            hooks(club), json={"url": "http://127.0.0.1:9/", "events": events}, headers=club.auth
        )
        assert_problem(refused, 422, "validation_error")
    assert_problem(
        client.post(hooks(club), json={"url": "ftp://example.org/"}, headers=club.auth),
        422,
        "webhook_url_invalid",
    )


def test_a_club_has_as_many_endpoints_as_a_tournament(db_url: str) -> None:
    settings = Settings(
        database_url=db_url,
        webhook_worker=False,
        webhook_allow_private=True,
        webhooks_per_tournament=2,
    )
    app = make_app(settings)
    try:
        with ApiClient(app) as client:
            club = new_club(client)
            for n in range(2):
                register(client, club, f"http://127.0.0.1:9/{n}")
            third = client.post(hooks(club), json={"url": "http://127.0.0.1:9/3"},
                                headers=club.auth)  # fmt: skip
            assert_problem(third, 429, "too_many_requests")
            assert "Retry-After" in third.headers
            # Another club's room is its own.
            register(client, new_club(client, "Other"), "http://127.0.0.1:9/x")
    finally:
        app.state.engine.dispose()


@pytest.mark.parametrize("limit", [1, 2])
def test_the_delivery_log_is_paged_newest_first(
    app: FastAPI, client: ApiClient, settings: Settings, receiver: Receiver, limit: int
) -> None:
    club = new_club(client)
    hook = register(client, club, receiver.url)
    with worker_running(app.state.engine, settings):
        for _ in range(3):
            evening(client, club, FOUR, lambda _h, _a: win(1, 0))
        receiver.wait_for(3)
    seen: list[int] = []
    cursor = None
    while True:
        page = log(client, club, hook["id"], limit=limit, **({"cursor": cursor} if cursor else {}))
        assert len(page["items"]) <= limit
        seen += [d["event_id"] for d in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [3, 2, 1]
