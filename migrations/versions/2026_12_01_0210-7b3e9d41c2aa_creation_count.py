"""creation count: tournaments created per client address and minute (the create quota)

Revision ID: 7b3e9d41c2aa
Revises: b7e4c2a91d3f
Create Date: 2026-12-01 02:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7b3e9d41c2aa"
down_revision: str | None = "b7e4c2a91d3f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "creation_count",
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("minute", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("client", "minute", name=op.f("pk_creation_count")),
    )
    op.create_index("ix_creation_count_minute", "creation_count", ["minute"])


def downgrade() -> None:
    op.drop_index("ix_creation_count_minute", table_name="creation_count")
    op.drop_table("creation_count")
