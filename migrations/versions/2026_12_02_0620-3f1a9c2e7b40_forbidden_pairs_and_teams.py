"""forbidden pairs: a player's team, the tournament's avoid_same_team, the forbidden_pair table

Revision ID: 3f1a9c2e7b40
Revises: e5a7c3d91b04
Create Date: 2026-12-02 06:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3f1a9c2e7b40"
down_revision: str | None = "e5a7c3d91b04"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(
            sa.Column("avoid_same_team", sa.String(length=8), nullable=False, server_default="off")
        )
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("team", sa.String(length=40), nullable=True))
    op.create_table(
        "forbidden_pair",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("first", sa.Integer(), nullable=False),
        sa.Column("second", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name="fk_forbidden_pair_tournament_id_tournament",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "first"],
            ["player.tournament_id", "player.number"],
            name="fk_forbidden_pair_tournament_id_first_player",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "second"],
            ["player.tournament_id", "player.number"],
            name="fk_forbidden_pair_tournament_id_second_player",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_forbidden_pair"),
        sa.UniqueConstraint(
            "tournament_id", "first", "second", name="uq_forbidden_pair_tournament_id_first_second"
        ),
    )


def downgrade() -> None:
    op.drop_table("forbidden_pair")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("team")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("avoid_same_team")
