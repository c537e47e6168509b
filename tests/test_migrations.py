"""The migrations make exactly the schema of the models, on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel

import app.models  # noqa: F401 - the tables
from app.main import create_app
from app.settings import Settings
from tests.api.helpers import create, generate
from tests.client import ApiClient
from tests.databases import BACKENDS, alembic_config


@pytest.fixture(params=BACKENDS)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: nothing migrated yet."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    server, _template = request.getfixturevalue("postgres")
    name = f"svz_m_{uuid.uuid4().hex[:12]}"
    yield server.create(name)
    server.drop(name)


def schema_difference(url: str) -> list[object]:
    engine = create_engine(url)
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={"compare_type": True, "render_as_batch": connection.dialect.name == "sqlite"},
        )
        difference = list(compare_metadata(context, SQLModel.metadata))
    engine.dispose()
    return difference


def table_names(url: str) -> set[str]:
    engine = create_engine(url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    return names


def test_upgrade_head_matches_the_models(empty_url: str) -> None:
    command.upgrade(alembic_config(empty_url), "head")
    assert schema_difference(empty_url) == []
    assert {"tournament", "player", "round", "match", "result", "audit_entry"} <= table_names(
        empty_url
    )


def test_downgrade_and_upgrade_again(empty_url: str) -> None:
    config = alembic_config(empty_url)
    command.upgrade(config, "head")
    command.downgrade(config, "base")
    assert table_names(empty_url) == {"alembic_version"}
    command.upgrade(config, "head")
    assert schema_difference(empty_url) == []


def test_constraints_are_named_by_the_convention(empty_url: str) -> None:
    command.upgrade(alembic_config(empty_url), "head")
    engine = create_engine(empty_url)
    inspector = inspect(engine)
    foreign_keys = {fk["name"] for fk in inspector.get_foreign_keys("result")}
    primary = inspector.get_pk_constraint("match")
    engine.dispose()
    assert foreign_keys == {"fk_result_tournament_id_match_number_match"}
    if not empty_url.startswith("sqlite"):
        assert primary["name"] == "pk_match"
    assert primary["constrained_columns"] == ["tournament_id", "number"]


def test_an_early_final_phase_gets_its_rounds_played(empty_url: str) -> None:
    config = alembic_config(empty_url)
    command.upgrade(config, "a0c136d2e3e4")
    engine = create_engine(empty_url)
    columns = (
        "id, name, token_hash, version, created_at, updated_at, status, seed, pairing, "
        "points_win, points_draw, points_loss, points_bye, format_preset, resolved_swiss_rounds, "
        "resolved_final_phase, resolved_groups, final_phase_started, current_round"
    )
    rows = [("early", True, 2), ("planned", False, 2), ("played", True, 4)]
    with engine.begin() as connection:
        for tid, started, played in rows:
            connection.execute(
                text(
                    f"INSERT INTO tournament ({columns}) VALUES (:id, 'x', 'h', 1, :at, :at, "
                    "'swiss', 1, 'nearest', 6, 2, 0, 6, 'standard', 4, 'semifinals', 0, "
                    ":started, :played)"
                ),
                {"id": tid, "at": datetime.now(UTC), "started": started, "played": played},
            )
    command.upgrade(config, "head")
    with engine.connect() as connection:
        resolved = dict(
            connection.execute(text("SELECT id, resolved_swiss_rounds FROM tournament")).all()
        )
    engine.dispose()
    assert resolved == {"early": 2, "planned": 4, "played": 4}


def test_a_database_of_club_less_tournaments_upgrades_and_they_keep_working(
    empty_url: str,
) -> None:
    """The clubs migration on a database in use: its tournaments stay club-less and are run by
    their organizer token as before; a club made afterwards lives beside them."""
    config = alembic_config(empty_url)
    command.upgrade(config, "b7d2e4f8a613")  # the head before clubs
    engine = create_engine(empty_url)
    columns = (
        "id, name, token_hash, version, created_at, updated_at, status, seed, pairing, "
        "points_win, points_draw, points_loss, points_bye, format_preset, resolved_swiss_rounds, "
        "resolved_final_phase, resolved_groups, final_phase_started, current_round"
    )
    token = "the-organizer-token"
    with engine.begin() as connection:
        connection.execute(
            text(
                f"INSERT INTO tournament ({columns}) VALUES ('old', 'Before clubs', :hash, 1, "
                ":at, :at, 'registration', 1, 'nearest', 6, 2, 0, 6, 'standard', 2, 'final', 0, "
                ":no, 0)"
            ),
            {
                "hash": hashlib.sha256(token.encode()).hexdigest(),
                "at": datetime.now(UTC),
                "no": False,
            },
        )
        for number, name in enumerate(["Rossi", "Bianchi", "Verdi", "Neri"], start=1):
            connection.execute(
                text(
                    "INSERT INTO player (tournament_id, number, name, start_number, "
                    "entered_round) VALUES ('old', :n, :name, :n, 1)"
                ),
                {"n": number, "name": name},
            )
    command.upgrade(config, "head")
    with engine.connect() as connection:
        club = connection.execute(text("SELECT club_id FROM tournament")).scalar_one()
        linked = connection.execute(text("SELECT club_player_id FROM player")).scalars().all()
    engine.dispose()
    assert (club, linked) == (None, [None, None, None, None])
    assert schema_difference(empty_url) == []

    app = create_app(Settings(database_url=empty_url, webhook_worker=False))
    try:
        with ApiClient(app) as client:
            auth = {"Authorization": f"Bearer {token}"}
            read = client.get("/v1/tournaments/old")
            assert (read.status_code, read.json()["club_id"]) == (200, None)
            assert client.post("/v1/tournaments/old/rounds", headers=auth).status_code == 201
            made = client.post("/v1/clubs", json={"name": "Later"}).json()
            key = {"Authorization": f"Bearer {made['key']['key']}"}
            assert client.delete("/v1/tournaments/old/rounds/1", headers=key).status_code == 403
            listed = client.get(f"/v1/clubs/{made['id']}/tournaments").json()["items"]
            assert listed == []
    finally:
        app.state.engine.dispose()


def test_clubs_made_before_ratings_upgrade_to_elo_and_keep_working(empty_url: str) -> None:
    """The ratings migration on a database with a club, its register and a club-less
    tournament: the club rates by Elo (K 20) with nobody rated yet, its key still opens it,
    and the tournament stays club-less."""
    config = alembic_config(empty_url)
    command.upgrade(config, "d3e5f7a9b1c2")  # the head before ratings
    engine = create_engine(empty_url)
    key = "the-club-key"
    at = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO club (id, name, version, created_at, updated_at) "
                "VALUES ('club1', 'Circolo', 1, :at, :at)"
            ),
            {"at": at},
        )
        connection.execute(
            text(
                "INSERT INTO club_key (club_id, label, token_hash, created_at) "
                "VALUES ('club1', 'President', :hash, :at)"
            ),
            {"hash": hashlib.sha256(key.encode()).hexdigest(), "at": at},
        )
        connection.execute(
            text(
                "INSERT INTO club_player (club_id, name, aliases, name_key, search_key, rating, "
                "created_at) VALUES ('club1', 'Rossi', '[]', 'rossi', 'rossi', 1700, :at)"
            ),
            {"at": at},
        )
    command.upgrade(config, "head")
    with engine.connect() as connection:
        settings = connection.execute(text("SELECT rating_system, elo_k FROM club")).one()
    engine.dispose()
    assert tuple(settings) == ("elo", 20)
    assert schema_difference(empty_url) == []

    app = create_app(Settings(database_url=empty_url, webhook_worker=False))
    try:
        with ApiClient(app) as client:
            auth = {"Authorization": f"Bearer {key}"}
            club = client.get("/v1/clubs/club1").json()
            assert (club["rating_system"], club["elo_k"]) == ("elo", 20)
            listed = client.get("/v1/clubs/club1/ratings", headers=auth).json()
            assert listed == {"rating_system": "elo", "items": [], "next_cursor": None}
            players = [{"club_player_id": 1}, {"name": "Bianchi"}]
            made = client.post(
                "/v1/clubs/club1/tournaments",
                json={"name": "After", "players": players, "seed_by": "club_rating"},
                headers=auth,
            )
            assert made.status_code == 201, made.text
            field = client.get(f"/v1/tournaments/{made.json()['id']}/players").json()
            assert [p["rating"] for p in field] == [1700, None]
    finally:
        app.state.engine.dispose()


def test_a_database_with_club_tournaments_upgrades_to_seasons(empty_url: str) -> None:
    """The seasons migration on a database in use: a club's tournament made before it has no
    season and works as before; played and joined to a season afterwards, it counts in it."""
    config = alembic_config(empty_url)
    command.upgrade(config, "c5e1a7d3f920")  # the head before seasons
    engine = create_engine(empty_url)
    columns = (
        "id, name, token_hash, version, created_at, updated_at, status, seed, pairing, "
        "points_win, points_draw, points_loss, points_bye, format_preset, swiss_rounds, "
        "final_phase, resolved_swiss_rounds, resolved_final_phase, resolved_groups, "
        "final_phase_started, current_round, club_id"
    )
    key = "the-club-key"
    at = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO club (id, name, version, created_at, updated_at) "
                 "VALUES ('club', 'Circolo', 1, :at, :at)"),
            {"at": at},
        )  # fmt: skip
        connection.execute(
            text("INSERT INTO club_key (club_id, label, token_hash, created_at) "
                 "VALUES ('club', 'President', :hash, :at)"),
            {"hash": hashlib.sha256(key.encode()).hexdigest(), "at": at},
        )  # fmt: skip
        connection.execute(
            text(
                f"INSERT INTO tournament ({columns}) VALUES ('old', 'Before seasons', :hash, 1, "
                ":at, :at, 'registration', 1, 'nearest', 6, 2, 0, 6, 'standard', 3, 'none', 3, "
                "'none', 0, :no, 0, 'club')"
            ),
            {"hash": hashlib.sha256(b"organizer").hexdigest(), "at": at, "no": False},
        )
        for number, name in enumerate(["Rossi", "Bianchi", "Verdi", "Neri"], start=1):
            entry = connection.execute(
                text(
                    "INSERT INTO club_player (club_id, name, aliases, name_key, search_key, "
                    "created_at) VALUES ('club', :name, '[]', :key, :search, :at) RETURNING id"
                ),
                {"name": name, "key": name.lower(), "search": name.lower(), "at": at},
            ).scalar_one()
            connection.execute(
                text(
                    "INSERT INTO player (tournament_id, number, name, start_number, "
                    "entered_round, club_player_id) VALUES ('old', :n, :name, :n, 1, :entry)"
                ),
                {"n": number, "name": name, "entry": entry},
            )
    command.upgrade(config, "head")
    with engine.connect() as connection:
        season = connection.execute(text("SELECT season_id FROM tournament")).scalar_one()
    engine.dispose()
    assert season is None
    assert schema_difference(empty_url) == []

    app = create_app(Settings(database_url=empty_url, webhook_worker=False))
    try:
        with ApiClient(app) as client:
            auth = {"Authorization": f"Bearer {key}"}
            assert client.get("/v1/tournaments/old").json()["season_id"] is None
            for _ in range(3):
                made = client.post("/v1/tournaments/old/rounds", headers=auth)
                assert made.status_code == 201, made.text
                results = [
                    {"match_id": m["id"], "home": 1, "away": 0} for m in made.json()["matches"]
                ]
                done = client.post("/v1/tournaments/old/results", json={"results": results},
                                   headers=auth)  # fmt: skip
                assert done.status_code == 200, done.text
            made = client.post(
                "/v1/clubs/club/seasons", json={"name": "Winter", "scoring": "points"},
                headers=auth,
            )  # fmt: skip
            sid = made.json()["id"]
            put = client.put("/v1/tournaments/old/season", json={"season_id": sid}, headers=auth)
            assert put.status_code == 200, put.text
            rows = client.get(f"/v1/clubs/club/seasons/{sid}/standings").json()["rows"]
            assert len(rows) == 4 and all(r["evenings"] == 1 for r in rows)
            assert sum(r["points"] for r in rows) == 18  # six games of 3 points
    finally:
        app.state.engine.dispose()


def test_a_downgrade_that_rebuilds_the_tournament_table_keeps_its_players(
    empty_url: str,
) -> None:
    """On SQLite a downgrade that drops a column of ``tournament`` rebuilds the table (copy,
    drop, rename); with foreign keys enforced, dropping the old table cascaded to every
    player, round and result. The migrations run with them off and checked at the end."""
    config = alembic_config(empty_url)
    command.upgrade(config, "head")
    app = create_app(Settings(database_url=empty_url, webhook_worker=False))
    try:
        with ApiClient(app) as client:
            made = create(client, players=4)
            assert generate(client, made)["number"] == 1
    finally:
        app.state.engine.dispose()
    command.downgrade(config, "c5e1a7d3f920")  # before seasons: drops tournament.season_id
    engine = create_engine(empty_url)
    with engine.connect() as connection:
        counts = [
            connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("tournament", "player", "match")
        ]
    engine.dispose()
    assert counts == [1, 4, 2]
    command.upgrade(config, "head")
    assert schema_difference(empty_url) == []


def test_a_database_with_tournament_webhooks_upgrades_to_club_webhooks(empty_url: str) -> None:
    """The club-webhooks migration on a database in use: a tournament's endpoint and its
    delivery log stay as they were and keep working; a club registers its own beside them; a
    downgrade drops the club's and keeps the tournament's."""
    config = alembic_config(empty_url)
    command.upgrade(config, "a7c3e9f1b524")  # the head before club webhooks
    engine = create_engine(empty_url)
    columns = (
        "id, name, token_hash, version, created_at, updated_at, status, seed, pairing, "
        "points_win, points_draw, points_loss, points_bye, format_preset, swiss_rounds, "
        "final_phase, resolved_swiss_rounds, resolved_final_phase, resolved_groups, "
        "final_phase_started, current_round"
    )
    token = "the-organizer-token"
    at = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(
            text(
                f"INSERT INTO tournament ({columns}) VALUES ('old', 'Hooked', :hash, 1, :at, :at, "
                "'registration', 1, 'nearest', 6, 2, 0, 6, 'standard', 3, 'none', 3, 'none', 0, "
                ":no, 0)"
            ),
            {"hash": hashlib.sha256(token.encode()).hexdigest(), "at": at, "no": False},
        )
        for number, name in enumerate(["Rossi", "Bianchi", "Verdi", "Neri"], start=1):
            connection.execute(
                text(
                    "INSERT INTO player (tournament_id, number, name, start_number, "
                    "entered_round) VALUES ('old', :n, :name, :n, 1)"
                ),
                {"n": number, "name": name},
            )
        event = connection.execute(
            text(
                "INSERT INTO event (tournament_id, seq, type, data, created_at) VALUES "
                "('old', 1, 'tournament.created', '{\"version\": 1}', :at) RETURNING id"
            ),
            {"at": at},
        ).scalar_one()
        endpoint = connection.execute(
            text(
                "INSERT INTO webhook_endpoint (tournament_id, url, event_types, description, "
                "secret, created_at, cursor) VALUES ('old', 'http://127.0.0.1:9/hook', '[]', "
                "'scores', 'whsec_old', :at, 1) RETURNING id"
            ),
            {"at": at},
        ).scalar_one()
        connection.execute(
            text(
                "INSERT INTO webhook_delivery (endpoint_id, event_id, status, attempts, "
                "next_attempt_at, last_status_code, delivered_at, created_at) VALUES "
                "(:endpoint, :event, 'delivered', 1, :at, 200, :at, :at)"
            ),
            {"endpoint": endpoint, "event": event, "at": at},
        )
    command.upgrade(config, "head")
    assert schema_difference(empty_url) == []
    with engine.connect() as connection:
        owners = connection.execute(
            text("SELECT tournament_id, club_id, cursor FROM webhook_endpoint")
        ).all()
        carried = connection.execute(
            text("SELECT event_id, club_event_id FROM webhook_delivery")
        ).all()
    assert [tuple(o) for o in owners] == [("old", None, 1)]
    assert [tuple(c) for c in carried] == [(event, None)]
    # An endpoint has one owner, a delivery one event: the database checks it.
    for statement in (
        "INSERT INTO webhook_endpoint (url, event_types, secret, created_at, cursor) "
        "VALUES ('http://x/', '[]', 's', :at, 0)",
        "INSERT INTO webhook_delivery (endpoint_id, status, attempts, next_attempt_at, "
        f"created_at) VALUES ({endpoint}, 'pending', 0, :at, :at)",
    ):
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(text(statement), {"at": at})

    settings = Settings(database_url=empty_url, webhook_worker=False, webhook_allow_private=True)
    app = create_app(settings)
    try:
        with ApiClient(app) as client:
            auth = {"Authorization": f"Bearer {token}"}
            hooks = client.get("/v1/tournaments/old/webhooks", headers=auth)
            assert [(h["id"], h["description"]) for h in hooks.json()] == [(endpoint, "scores")]
            log = client.get(f"/v1/tournaments/old/webhooks/{endpoint}/deliveries", headers=auth)
            assert [(d["event_id"], d["event_type"], d["status"]) for d in log.json()["items"]] == [
                (1, "tournament.created", "delivered")
            ]
            made = client.post("/v1/clubs", json={"name": "Later"}).json()
            key = {"Authorization": f"Bearer {made['key']['key']}"}
            hook = client.post(
                f"/v1/clubs/{made['id']}/webhooks", json={"url": "http://127.0.0.1:9/c"},
                headers=key,
            )  # fmt: skip
            assert hook.status_code == 201, hook.text
    finally:
        app.state.engine.dispose()
    command.downgrade(config, "a7c3e9f1b524")
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT tournament_id FROM webhook_endpoint")).all()
        logged = connection.execute(text("SELECT count(*) FROM webhook_delivery")).scalar_one()
    engine.dispose()
    assert ([tuple(k) for k in kept], logged) == ([("old",)], 1)
    command.upgrade(config, "head")
    assert schema_difference(empty_url) == []
