"""event outbox

Revision ID: 86cf41668552
Revises: 9c9a950c9db0
Create Date: 2026-11-29 15:18:07.732359
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "86cf41668552"
down_revision: str | None = "9c9a950c9db0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_event_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
        # Also the index of "events of a tournament after seq n".
        sa.UniqueConstraint("tournament_id", "seq", name=op.f("uq_event_tournament_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("event")
