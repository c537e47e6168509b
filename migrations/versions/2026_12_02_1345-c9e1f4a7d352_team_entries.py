"""team entries (doubles): a tournament's kind of entry, and a team's two players

Revision ID: c9e1f4a7d352
Revises: c5e81f3a2d47
Create Date: 2026-12-02 13:45:00

Existing tournaments keep single-player entries (the server default), their players no members.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c9e1f4a7d352"
down_revision: str | None = "c5e81f3a2d47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(
            sa.Column("entry", sa.String(length=8), nullable=False, server_default="player")
        )
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("members", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("members")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("entry")
