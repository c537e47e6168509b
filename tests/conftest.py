"""Database fixtures: every test gets its own database, made by the migrations.

``db_url`` is parametrized: SQLite always, PostgreSQL too when ``SVIZZERA_TEST_POSTGRES_URL``
is set. The schema is migrated once per session into a template (a SQLite file; a PostgreSQL
template database) and each test gets a fresh copy of it.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings
from tests.client import ApiClient
from tests.databases import BACKENDS, POSTGRES_URL, PostgresServer, migrate


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "svizzera.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres() -> Iterator[tuple[PostgresServer, str]]:
    if POSTGRES_URL is None:
        pytest.skip("SVIZZERA_TEST_POSTGRES_URL is not set")
    server = PostgresServer(POSTGRES_URL)
    template = f"svz_tpl_{uuid.uuid4().hex[:10]}"
    url = server.create(template)
    migrate(url)
    yield server, template
    server.drop(template)
    server.admin.dispose()


def fresh_database(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "sqlite":
        path = tmp_path / "svizzera.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    server, template = request.getfixturevalue("postgres")
    name = f"svz_t_{uuid.uuid4().hex[:12]}"
    url = server.create(name, template=template)
    yield url
    server.drop(name)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database of its own for this test."""
    yield from fresh_database(request, request.param, tmp_path)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url)


@pytest.fixture
def app(settings: Settings) -> Iterator[FastAPI]:
    application = create_app(settings)
    yield application
    application.state.engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> Iterator[ApiClient]:
    """httpx against the ASGI app, in process."""
    with ApiClient(app) as api_client:
        yield api_client
