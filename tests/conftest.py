"""Database fixtures: every test gets its own database, made by the migrations.

``db_url`` is parametrized: SQLite always, PostgreSQL too when ``SVIZZERA_TEST_POSTGRES_URL``
is set. The schema is migrated once per session into a template (a SQLite file; a PostgreSQL
template database) and each test gets a fresh copy of it (on PostgreSQL, a copy another test
emptied back to the template's state: ``tests.databases.DatabasePool``).
"""

from __future__ import annotations

import inspect
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

import hypothesis
import pytest
from fastapi import FastAPI

from app.settings import Settings
from tests.apps import make_app
from tests.client import ApiClient
from tests.databases import BACKENDS, POSTGRES_URL, DatabasePool, PostgresServer, migrate
from tests.server import serve

PROCESS_MARKERS = {
    "server": ({"serve"}, "starts the real server in a process (tests.server.serve)"),
    "browser": ({"chromium", "run_chromium"}, "starts Chromium (tests.pages.browser, .chromium)"),
}
"""Markers given to every test whose code, or a fixture's, calls one of these functions: what
``make test-fast`` leaves out (``-m "not server and not browser"``)."""


def pytest_configure(config: pytest.Config) -> None:
    for marker, (_names, meaning) in PROCESS_MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {meaning} (set by tests/conftest.py)")


def _names(code: CodeType) -> set[str]:
    """The global and attribute names a function's code uses, nested functions' included."""
    found = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            found |= _names(constant)
    return found


MAX_EXAMPLES = os.environ.get("SVIZZERA_TEST_MAX_EXAMPLES")
"""At most this many examples for each property (``make test-fast`` sets it; ``make test`` runs
every property with the examples it asks for)."""


def _fewer_examples(function: object, at_most: int) -> None:
    function = getattr(function, "__func__", function)
    current = getattr(function, "_hypothesis_internal_use_settings", None)
    if isinstance(current, hypothesis.settings) and current.max_examples > at_most:
        fewer = hypothesis.settings(current, max_examples=at_most)
        function._hypothesis_internal_use_settings = fewer  # type: ignore[attr-defined]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        if MAX_EXAMPLES:
            _fewer_examples(item.obj, int(MAX_EXAMPLES))
        functions = [item.function]
        for definitions in item._fixtureinfo.name2fixturedefs.values():
            functions += [definition.func for definition in definitions]
        used: set[str] = set()
        for function in functions:
            code = getattr(inspect.unwrap(function), "__code__", None)
            if isinstance(code, CodeType):
                used |= _names(code)
        for marker, (names, _meaning) in PROCESS_MARKERS.items():
            if used & names:
                item.add_marker(marker)
    _long_ones_first(items)


LONG = {"browser", "server", "slow"}


def _long_ones_first(items: list[pytest.Item]) -> None:
    """The modules with a test that starts a process or Chromium, or is marked slow, run first
    (in their order; each module stays whole, for its module-scoped fixtures). pytest-xdist
    hands each worker a share of the list in order and lets an idle one take half of another's
    rest: with the long tests first, the short ones are what is left to share at the end,
    instead of one worker running a minute of browser tests while the other has finished."""
    long_files = {
        item.nodeid.split("::")[0]
        for item in items
        if any(item.get_closest_marker(marker) for marker in LONG)
    }
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in long_files)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "svizzera.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(sqlite_template: Path, tmp_path: Path) -> str:
    """A migrated SQLite file of this test's own, a copy of the template: for a test that
    serves it from a process (``tests.server.serve``). Only the tests of the README's steps
    migrate with ``alembic`` in a process (``tests.server.upgrade``), seconds each."""
    path = tmp_path / "svizzera.db"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def page_server(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of one real server (``tests.server.serve``, SQLite) for all of this
    process's tests that look at pages without settings of their own: each makes its own
    tournament, so they share it instead of starting one each (seconds every time). Without
    the creation quota, as the client tests' server."""
    path = tmp_path_factory.mktemp("page-server") / "svizzera.db"
    shutil.copyfile(sqlite_template, path)
    with serve(f"sqlite:///{path}", create_rate="0") as base:
        yield base


@pytest.fixture(scope="session")
def postgres() -> Iterator[tuple[PostgresServer, str]]:
    if POSTGRES_URL is None:
        pytest.skip("SVIZZERA_TEST_POSTGRES_URL is not set")
    server = PostgresServer(POSTGRES_URL)
    template = f"svz_tpl_{uuid.uuid4().hex[:10]}"
    url = server.create(template)
    migrate(url)
    yield server, template
    server.drop(template)  # dropped with the pool's databases if it had any: a no-op then
    server.admin.dispose()


@pytest.fixture(scope="session")
def postgres_pool(postgres: tuple[PostgresServer, str]) -> Iterator[DatabasePool]:
    server, template = postgres
    pool = DatabasePool(server, template)
    yield pool
    pool.close(drop=[template])  # at once: the drops share a checkpoint


def fresh_database(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "sqlite":
        path = tmp_path / "svizzera.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    pool: DatabasePool = request.getfixturevalue("postgres_pool")
    url = pool.take()
    yield url
    pool.give(url)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database of its own for this test."""
    yield from fresh_database(request, request.param, tmp_path)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url)


@pytest.fixture
def app(settings: Settings) -> Iterator[FastAPI]:
    application = make_app(settings)
    yield application
    application.state.engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> Iterator[ApiClient]:
    """httpx against the ASGI app, in process."""
    with ApiClient(app) as api_client:
        yield api_client
