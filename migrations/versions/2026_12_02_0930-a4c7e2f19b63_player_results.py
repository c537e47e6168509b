"""player results: the setting, the key of the board codes, claims, the report quota

Revision ID: a4c7e2f19b63
Revises: a41c7e2d9b36
Create Date: 2026-12-02 09:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a4c7e2f19b63"
down_revision: str | None = "a41c7e2d9b36"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(
            sa.Column("player_results", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("report_key", sa.String(length=64), nullable=True))
    op.create_table(
        "result_claim",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("home_goals", sa.Integer(), nullable=False),
        sa.Column("away_goals", sa.Integer(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "match_number"],
            ["match.tournament_id", "match.number"],
            name=op.f("fk_result_claim_tournament_id_match_number_match"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "match_number", "side", name=op.f("pk_result_claim")
        ),
    )
    op.create_table(
        "report_count",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("minute", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "minute", name=op.f("pk_report_count")),
    )
    op.create_index("ix_report_count_minute", "report_count", ["minute"])


def downgrade() -> None:
    op.drop_index("ix_report_count_minute", table_name="report_count")
    op.drop_table("report_count")
    op.drop_table("result_claim")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("report_key")
        batch.drop_column("player_results")
