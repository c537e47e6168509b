"""chess: FIDE title and id on players, requested byes, initial colour and allowed byes

Revision ID: c4e8a1f07d21
Revises: 7b3e9d41c2aa
Create Date: 2026-12-01 04:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c4e8a1f07d21"
down_revision: str | None = "7b3e9d41c2aa"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("initial_colour", sa.String(length=8), nullable=True))
        batch.add_column(sa.Column("allowed_byes", sa.JSON(), nullable=True))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("title", sa.String(length=3), nullable=True))
        batch.add_column(sa.Column("fide_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("requested_byes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("requested_byes")
        batch.drop_column("fide_id")
        batch.drop_column("title")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("allowed_byes")
        batch.drop_column("initial_colour")
