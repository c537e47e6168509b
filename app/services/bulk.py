"""Many rows into one table, with the driver's own bulk path.

A TRF file of 30,000–50,000 matches writes as many matches and results. Through SQLAlchemy's
``insert(table)`` with a list of dicts, each row's parameters went through the compiled
statement's per-row processing (``construct_params``, a bind processor per value), which cost
more than the insert itself. Here rows are plain tuples in the order of ``columns``, handed to
the driver as they are: SQLite's ``executemany``, PostgreSQL's ``COPY … FROM STDIN``. Values
must already be what the driver takes: ``str``, ``int``, ``bool``, ``None``, and datetimes and
JSON through ``driver_value``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Table
from sqlalchemy.orm import Session


def insert_rows(
    session: Session, table: Table, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    """Insert ``rows`` (one tuple a row, in the order of ``columns``) into ``table``, in the
    session's transaction."""
    if not rows:
        return
    connection = session.connection()
    dialect = connection.dialect
    quote = dialect.identifier_preparer.quote
    target = dialect.identifier_preparer.format_table(table)
    names = ", ".join(map(quote, columns))
    if dialect.name == "postgresql":
        driver: Any = connection.connection.driver_connection
        copying = f"COPY {target} ({names}) FROM STDIN"
        with driver.cursor() as cursor, cursor.copy(copying) as copy:
            for row in rows:
                copy.write_row(row)
        return
    marks = ", ".join(["?" if dialect.paramstyle == "qmark" else "%s"] * len(columns))
    connection.exec_driver_sql(f"INSERT INTO {target} ({names}) VALUES ({marks})", list(rows))


def datetime_value(session: Session, table: Table, column: str, at: datetime) -> Any:
    """``at`` as the driver takes it for ``table.column``: SQLite stores SQLAlchemy's own text
    form (the column type's bind processor), PostgreSQL the datetime itself."""
    return driver_value(session, table, column)(at)


def driver_value(session: Session, table: Table, column: str) -> Callable[[Any], Any]:
    """What turns a value into the one the driver takes for ``table.column`` (the column type's
    bind processor): a JSON column's text, SQLite's text of a datetime; others as they are."""
    dialect = session.connection().dialect
    processor = table.c[column].type.dialect_impl(dialect).bind_processor(dialect)
    return _as_is if processor is None else processor


def _as_is(value: Any) -> Any:
    return value
