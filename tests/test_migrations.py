"""The migrations make exactly the schema of the models, on SQLite and on PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlmodel import SQLModel

import app.models  # noqa: F401 - the tables
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
