"""double elimination: the grand final's reset setting; room for its kind and stages

Revision ID: d3e5f7a9b1c2
Revises: a6c2d8e4f190
Create Date: 2026-12-02 13:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d3e5f7a9b1c2"
down_revision: str | None = "a6c2d8e4f190"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# `double_elimination` (18) and `grand_final_reset` (17) are longer than the 16 characters these
# columns kept. PostgreSQL's lose the length (the values are enum members, never free text);
# SQLite does not enforce lengths, and changing a declared type there means rebuilding the table,
# whose DROP would cascade to every player and match: its columns stay as they are.
WIDENED = (("tournament", "final_phase", True), ("tournament", "resolved_final_phase", False))
STAGE = ("match", "stage", False)


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("grand_final_reset", sa.Boolean(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column, nullable in (*WIDENED, STAGE):
        op.alter_column(
            table,
            column,
            existing_type=sa.String(length=16),
            type_=sa.String(),
            existing_nullable=nullable,
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        for table, column, nullable in (*WIDENED, STAGE):
            op.alter_column(
                table,
                column,
                existing_type=sa.String(),
                type_=sa.String(length=16),
                existing_nullable=nullable,
            )
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("grand_final_reset")
