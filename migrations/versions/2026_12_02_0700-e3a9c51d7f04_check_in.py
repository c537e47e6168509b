"""check-in: players on round 1's check-in list, tournaments that pair only them in round 1

Revision ID: e3a9c51d7f04
Revises: 3f1a9c2e7b40
Create Date: 2026-12-02 07:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e3a9c51d7f04"
down_revision: str | None = "3f1a9c2e7b40"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(
            sa.Column(
                "pair_checked_in_only", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )
    with op.batch_alter_table("player") as batch:
        batch.add_column(
            sa.Column("checked_in", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("checked_in")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("pair_checked_in_only")
