"""tournaments players rounds matches results audit

Revision ID: 9c9a950c9db0
Revises:
Create Date: 2026-11-29 14:49:40.584929
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9c9a950c9db0"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "tournament",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("pairing", sa.String(length=16), nullable=False),
        sa.Column("tiebreak", sa.String(length=16), nullable=True),
        sa.Column("points_win", sa.Integer(), nullable=False),
        sa.Column("points_draw", sa.Integer(), nullable=False),
        sa.Column("points_loss", sa.Integer(), nullable=False),
        sa.Column("points_bye", sa.Integer(), nullable=False),
        sa.Column("format_preset", sa.String(length=16), nullable=False),
        sa.Column("swiss_rounds", sa.Integer(), nullable=True),
        sa.Column("final_phase", sa.String(length=16), nullable=True),
        sa.Column("groups", sa.JSON(), nullable=True),
        sa.Column("resolved_swiss_rounds", sa.Integer(), nullable=False),
        sa.Column("resolved_final_phase", sa.String(length=16), nullable=False),
        sa.Column("resolved_groups", sa.Integer(), nullable=False),
        sa.Column("final_phase_started", sa.Boolean(), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
    )
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.create_index("ix_tournament_created_at_id", ["created_at", "id"], unique=False)

    op.create_table(
        "audit_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=16), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_audit_entry_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_entry")),
    )
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.create_index(
            "ix_audit_entry_tournament_id_id", ["tournament_id", "id"], unique=False
        )

    op.create_table(
        "match",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("group", sa.String(length=1), nullable=True),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("home", sa.Integer(), nullable=False),
        sa.Column("away", sa.Integer(), nullable=False),
        sa.Column("colour_rule", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_match_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_match")),
    )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.create_index(
            "ix_match_tournament_id_stage_round", ["tournament_id", "stage", "round"], unique=False
        )

    op.create_table(
        "player",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("start_number", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("group", sa.String(length=1), nullable=True),
        sa.Column("entered_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_player_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_player")),
    )
    op.create_table(
        "round",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("rematch_pairs", sa.JSON(), nullable=False),
        sa.Column("paths", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_round_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_round")),
    )
    op.create_table(
        "result",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("home_goals", sa.Integer(), nullable=False),
        sa.Column("away_goals", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=8), nullable=True),
        sa.Column("decided_by", sa.String(length=16), nullable=True),
        sa.Column("forfeit", sa.String(length=8), nullable=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "match_number"],
            ["match.tournament_id", "match.number"],
            name=op.f("fk_result_tournament_id_match_number_match"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "match_number", name=op.f("pk_result")),
    )


def downgrade() -> None:

    op.drop_table("result")
    op.drop_table("round")
    op.drop_table("player")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index("ix_match_tournament_id_stage_round")

    op.drop_table("match")
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_entry_tournament_id_id")

    op.drop_table("audit_entry")
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_index("ix_tournament_created_at_id")

    op.drop_table("tournament")
