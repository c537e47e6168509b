"""Making test databases: migrations into SQLite files and PostgreSQL databases."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = os.environ.get("SVIZZERA_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]
"""The databases the DB tests run on: PostgreSQL only when a server is given."""


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logging"] = False
    return config


def migrate(url: str) -> None:
    """``alembic upgrade head``: the only way a schema is made, in tests too."""
    command.upgrade(alembic_config(url), "head")


class PostgresServer:
    """Creates and drops databases on the test server (``SVIZZERA_TEST_POSTGRES_URL``)."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.admin = create_engine(self.url, isolation_level="AUTOCOMMIT")

    def url_of(self, database: str) -> str:
        return self.url.set(database=database).render_as_string(hide_password=False)

    def create(self, name: str, *, template: str | None = None) -> str:
        clause = f" TEMPLATE {template}" if template else ""
        with self.admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}{clause}"))
        return self.url_of(name)

    def drop(self, name: str) -> None:
        with self.admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
