"""round clock: a round's clock as of its last action, and the tournaments' round duration

Revision ID: a41c7e2d9b36
Revises: d81f3c6a2b47
Create Date: 2026-12-02 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a41c7e2d9b36"
down_revision: str | None = "d81f3c6a2b47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("round_duration", sa.Integer(), nullable=True))
    op.create_table(
        "round_clock",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("remaining_ms", sa.Integer(), nullable=False),
        sa.Column("measured_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["round.tournament_id", "round.number"],
            name="fk_round_clock_tournament_id_round_round",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", name="pk_round_clock"),
    )


def downgrade() -> None:
    op.drop_table("round_clock")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("round_duration")
