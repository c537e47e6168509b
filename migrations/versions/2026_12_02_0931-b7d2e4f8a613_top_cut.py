"""top cut: the final phase's size and third-place match, and its seeds once started

Revision ID: b7d2e4f8a613
Revises: a4c7e2f19b63
Create Date: 2026-12-02 09:31:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b7d2e4f8a613"
down_revision: str | None = "a4c7e2f19b63"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("top_cut_size", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("third_place", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("final_seeds", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("final_seeds")
        batch.drop_column("third_place")
        batch.drop_column("top_cut_size")
