"""Alembic environment: the URL from ``sqlalchemy.url`` (the tests set it) or from settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection
from sqlmodel import SQLModel

import app.models  # noqa: F401 - registers the tables on SQLModel.metadata
from app.db import make_engine
from app.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


@contextmanager
def _sqlite_foreign_keys_off(connection: Connection) -> Iterator[None]:
    """SQLite changes a column by rebuilding the table (copy, drop, rename): with foreign keys
    enforced, dropping the old ``tournament`` would delete every player, round and result by
    cascade. So the migrations run with them off (set outside the transaction: inside one
    SQLite ignores it), and the keys are checked before they are on again."""
    if connection.dialect.name != "sqlite":
        yield
        return
    raw = connection.connection.driver_connection
    assert raw is not None
    raw.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
        broken = raw.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(
                f"the migration left rows whose foreign keys point nowhere: {broken}"
            )
    finally:
        raw.execute("PRAGMA foreign_keys=ON")


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or get_settings().database_url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url") or get_settings().database_url
    # A migration may run long; it still gives up on a lock it cannot get (5 s).
    engine = make_engine(url, statement_timeout=None)
    with engine.connect() as connection, _sqlite_foreign_keys_off(connection):
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
