"""club ratings: the club's rating system (Elo, its K, or Glicko-2), its rated tournaments,
each register entry's rating and its history, and the club's event outbox

Revision ID: c5e81f3a2d47
Revises: d3e5f7a9b1c2
Create Date: 2026-12-02 13:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c5e81f3a2d47"
down_revision: str | None = "d3e5f7a9b1c2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AT = sa.DateTime(timezone=True)


def _club(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["club_id"], ["club.id"], name=f"fk_{table}_club_id_club", ondelete="CASCADE"
    )


def _entry(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["club_player_id"],
        ["club_player.id"],
        name=f"fk_{table}_club_player_id_club_player",
        ondelete="CASCADE",
    )


def upgrade() -> None:
    # in place on both databases (ALTER TABLE … ADD COLUMN): existing clubs rate by Elo, K 20
    op.add_column(
        "club",
        sa.Column("rating_system", sa.String(length=8), server_default="elo", nullable=False),
    )
    op.add_column("club", sa.Column("elo_k", sa.Integer(), server_default="20", nullable=False))
    op.create_table(
        "club_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        _club("club_event"),
        sa.PrimaryKeyConstraint("id", name="pk_club_event"),
        sa.UniqueConstraint("club_id", "seq", name="uq_club_event_club_id_seq"),
    )
    op.create_table(
        "club_rating_period",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("rated_at", AT, nullable=False),
        sa.Column("games_digest", sa.String(length=64), nullable=False),
        _club("club_rating_period"),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name="fk_club_rating_period_tournament_id_tournament",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_club_rating_period"),
        sa.UniqueConstraint("tournament_id", name="uq_club_rating_period_tournament_id"),
        sa.UniqueConstraint("club_id", "seq", name="uq_club_rating_period_club_id_seq"),
    )
    op.create_table(
        "club_rating",
        sa.Column("club_player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("volatility", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_change", sa.Float(), nullable=False),
        sa.Column("last_tournament_id", sa.String(length=32), nullable=False),
        _club("club_rating"),
        _entry("club_rating"),
        sa.PrimaryKeyConstraint("club_player_id", name="pk_club_rating"),
    )
    op.create_index(
        "ix_club_rating_club_id_rating_id", "club_rating", ["club_id", "rating", "club_player_id"]
    )
    op.create_table(
        "club_rating_history",
        sa.Column("period_id", sa.Integer(), nullable=False),
        sa.Column("club_player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("score_halves", sa.Integer(), nullable=False),
        sa.Column("performance", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["period_id"],
            ["club_rating_period.id"],
            name="fk_club_rating_history_period_id_club_rating_period",
            ondelete="CASCADE",
        ),
        _club("club_rating_history"),
        _entry("club_rating_history"),
        sa.PrimaryKeyConstraint("period_id", "club_player_id", name="pk_club_rating_history"),
    )
    op.create_index(
        "ix_club_rating_history_club_player_id_period_id",
        "club_rating_history",
        ["club_player_id", "period_id"],
    )


def downgrade() -> None:
    op.drop_table("club_rating_history")
    op.drop_table("club_rating")
    op.drop_table("club_rating_period")
    op.drop_table("club_event")
    # no reference on these columns: SQLite drops them in place (3.35+)
    op.drop_column("club", "elo_k")
    op.drop_column("club", "rating_system")
