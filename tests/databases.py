"""Making test databases: migrations into SQLite files and PostgreSQL databases.

PostgreSQL databases are copies of a migrated template, and they are reused: ``DROP DATABASE``
forces an immediate checkpoint on PostgreSQL 15 (the server's log shows one, two even, for each
drop; about a second each on a busy machine, and they slow every other database user too), so
a database a test is done with is emptied instead (``DatabasePool.give``) and handed to the next
test only if it is then the template again: the same schema, the same Alembic revision, no rows,
sequences restarted. One that differs is dropped and replaced by a fresh copy.
"""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

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

    def drop_all(self, names: Iterable[str]) -> None:
        """Drop databases at once, a connection each: each drop waits for a checkpoint it
        forces (seconds on a busy server), and drops waiting together share one."""
        with ThreadPoolExecutor(max_workers=8) as drops:
            for done in [drops.submit(self.drop, name) for name in names]:
                done.result()

    def disconnect(self, name: str) -> None:
        """End every other session on database ``name`` (a server a test left running), waiting
        up to 10 s for each to be gone."""
        with self.admin.connect() as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
                    " WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )


STATE = """
SELECT md5(string_agg(line, E'\\n' ORDER BY line)) FROM (
  SELECT concat_ws(' ', 'column', c.relname, c.relkind, a.attname,
                   format_type(a.atttypid, a.atttypmod), a.attnotnull,
                   pg_get_expr(d.adbin, d.adrelid)) AS line
    FROM pg_class c
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
   WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'constraint', conrelid::regclass, conname,
                             pg_get_constraintdef(oid))
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'function ' || oid::regprocedure FROM pg_proc
   WHERE pronamespace = 'public'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'type', t.typname, e.enumlabel, e.enumsortorder)
    FROM pg_type t LEFT JOIN pg_enum e ON e.enumtypid = t.oid
   WHERE t.typnamespace = 'public'::regnamespace
  UNION ALL SELECT 'schema ' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'
  UNION ALL SELECT 'extension ' || extname FROM pg_extension
  UNION ALL SELECT concat_ws(' ', 'sequence', schemaname, sequencename, last_value)
    FROM pg_sequences
  UNION ALL SELECT 'large objects ' || count(*) FROM pg_largeobject_metadata
  UNION ALL SELECT 'settings ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
   WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  UNION ALL SELECT 'revision ' || version_num FROM alembic_version
) AS lines
"""
"""A digest of everything of a database's state a test could change and emptying does not
undo (schema, types, functions, extensions, settings, the Alembic revision, sequence values)."""

KEEP = {"alembic_version"}
"""Tables whose rows are the template's and stay: only the migrations write them."""


def _state(connection: Connection) -> str:
    digest: str = connection.execute(text(STATE)).scalar_one()
    return digest


def _empty(connection: Connection) -> None:
    """Delete every row but the template's (truncating only the tables that have any), and
    restart every sequence that has been used."""
    connection.execute(text(EMPTY))


EMPTY = """
DO $$
DECLARE
  item record;
  full_tables text[] := '{}';
  has_rows boolean;
BEGIN
  FOR item IN SELECT quote_ident(tablename) AS name FROM pg_tables
               WHERE schemaname = 'public' AND tablename <> ALL (:keep) LOOP
    EXECUTE 'SELECT EXISTS (SELECT FROM ' || item.name || ')' INTO has_rows;
    IF has_rows THEN
      full_tables := full_tables || item.name;
    END IF;
  END LOOP;
  IF cardinality(full_tables) > 0 THEN
    EXECUTE 'TRUNCATE ' || array_to_string(full_tables, ', ') || ' CASCADE';
  END IF;
  FOR item IN SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name
                FROM pg_sequences WHERE last_value IS NOT NULL LOOP
    EXECUTE 'ALTER SEQUENCE ' || item.name || ' RESTART';
  END LOOP;
END $$
""".replace(":keep", "ARRAY[" + ", ".join(f"'{name}'" for name in sorted(KEEP)) + "]")


class DatabasePool:
    """Databases in the state of ``template``, one for each test that asks, reused.

    A database given back is emptied by a thread of its own while the next test runs (emptying
    takes PostgreSQL a few tenths of a second, mostly waiting for its disk); ``take`` hands out
    an emptied one, waits for one being emptied, or makes a new copy when all ``size`` are in
    use (a test holding more than one, or emptying slower than tests)."""

    def __init__(self, server: PostgresServer, template: str, *, size: int = 3) -> None:
        self.server = server
        self.template = template
        self.size = size
        self.expected: str | None = None
        self.ready: list[str] = []
        self.dirty: list[str] = []
        self.count = 0  # databases of this pool in existence
        self.made = 0
        self.reused = 0
        self.dropped = 0
        self.closing = False
        self.lock = threading.Condition()
        self.worker = threading.Thread(target=self._clean, name="database pool", daemon=True)
        self.worker.start()

    def _new(self) -> str:
        name = f"svz_t_{uuid.uuid4().hex[:12]}"
        url = self.server.create(name, template=self.template)
        if self.expected is None:  # a fresh copy: what every database handed out must be
            engine = create_engine(url, poolclass=NullPool)
            with engine.connect() as connection:
                self.expected = _state(connection)
            engine.dispose()
        return name

    def take(self) -> str:
        """The URL of a database in the template's state that no one else uses."""
        with self.lock:
            while not self.ready and self.dirty and self.count >= self.size:
                self.lock.wait()
            if self.ready:
                self.reused += 1
                return self.server.url_of(self.ready.pop())
            self.count += 1
            self.made += 1
        try:
            return self.server.url_of(self._new())
        except BaseException:
            with self.lock:
                self.count -= 1
            raise

    def give(self, url: str) -> None:
        """Take back a database a test is done with, to be emptied for another."""
        name = make_url(url).database
        assert name is not None
        with self.lock:
            self.dirty.append(name)
            self.lock.notify_all()

    def _clean(self) -> None:
        while True:
            with self.lock:
                while not self.dirty and not self.closing:
                    self.lock.wait()
                if not self.dirty:
                    return
                name = self.dirty[0]
            clean = self._empty(name)
            if not clean:
                with contextlib.suppress(Exception):  # not dropped: left on the server
                    self.server.drop(name)
            with self.lock:
                self.dirty.remove(name)
                if clean:
                    self.ready.append(name)
                else:
                    self.count -= 1
                    self.dropped += 1
                self.lock.notify_all()

    def _empty(self, name: str) -> bool:
        """Empty database ``name``; whether it is then in the template's state."""
        try:
            self.server.disconnect(name)
            engine = create_engine(self.server.url_of(name), poolclass=NullPool)
            try:
                with engine.begin() as connection:
                    connection.execute(text("SET LOCAL lock_timeout = '10s'"))
                    _empty(connection)
                    return _state(connection) == self.expected
            finally:
                engine.dispose()
        except Exception:  # whatever went wrong, this database is not reused
            return False

    def close(self, *, drop: Iterable[str] = ()) -> None:
        """Wait for the emptying to end, then drop every database of the pool, and those of
        ``drop`` (the template) with them (``PostgresServer.drop_all``)."""
        with self.lock:
            self.closing = True
            self.lock.notify_all()
        self.worker.join()
        self.server.drop_all([*self.ready, *drop])
        self.ready.clear()
