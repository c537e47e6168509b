"""rounds paired by hand: `manual` on rounds and matches, the checks a manual round accepted

Revision ID: d81f3c6a2b47
Revises: e3a9c51d7f04
Create Date: 2026-12-02 06:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d81f3c6a2b47"
down_revision: str | None = "e3a9c51d7f04"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Rows written before this revision were all paired by their system.
    with op.batch_alter_table("round") as batch:
        batch.add_column(
            sa.Column("manual", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("checks", sa.JSON(), nullable=True))
    with op.batch_alter_table("match") as batch:
        batch.add_column(
            sa.Column("manual", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_column("manual")
    with op.batch_alter_table("round") as batch:
        batch.drop_column("checks")
        batch.drop_column("manual")
