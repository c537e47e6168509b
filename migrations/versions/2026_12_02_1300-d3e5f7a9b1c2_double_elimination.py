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


def upgrade() -> None:
    # `double_elimination` and `grand_final_reset` are longer than the 16 characters kept so far
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("grand_final_reset", sa.Boolean(), nullable=True))
        for column, nullable in (("final_phase", True), ("resolved_final_phase", False)):
            batch.alter_column(
                column,
                existing_type=sa.String(length=16),
                type_=sa.String(length=24),
                existing_nullable=nullable,
            )
    with op.batch_alter_table("match") as batch:
        batch.alter_column(
            "stage",
            existing_type=sa.String(length=16),
            type_=sa.String(length=24),
            existing_nullable=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.alter_column(
            "stage",
            existing_type=sa.String(length=24),
            type_=sa.String(length=16),
            existing_nullable=False,
        )
    with op.batch_alter_table("tournament") as batch:
        for column, nullable in (("final_phase", True), ("resolved_final_phase", False)):
            batch.alter_column(
                column,
                existing_type=sa.String(length=24),
                type_=sa.String(length=16),
                existing_nullable=nullable,
            )
        batch.drop_column("grand_final_reset")
