"""round explanations: why each board and bye was paired, kept with the round

Revision ID: e5a7c3d91b04
Revises: c4e8a1f07d21
Create Date: 2026-12-02 06:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e5a7c3d91b04"
down_revision: str | None = "c4e8a1f07d21"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Null for the rounds generated before: they read as not explained.
    with op.batch_alter_table("round") as batch:
        batch.add_column(sa.Column("explanation", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("round") as batch:
        batch.drop_column("explanation")
