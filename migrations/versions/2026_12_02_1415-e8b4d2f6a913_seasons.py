"""seasons: a club's season tables, a tournament's season, and the finished club evenings'
placings and games the tables read (a tournament with no season stays as it was)

Revision ID: e8b4d2f6a913
Revises: c5e1a7d3f920
Create Date: 2026-12-02 14:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e8b4d2f6a913"
down_revision: str | None = "c5e1a7d3f920"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AT = sa.DateTime(timezone=True)


def _player_reference(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tournament_id", column],
        ["player.tournament_id", "player.number"],
        name=f"fk_{table}_tournament_id_{column}_player",
        ondelete="CASCADE",
    )


def _tournament_reference(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tournament_id"],
        ["tournament.id"],
        name=f"fk_{table}_tournament_id_tournament",
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("scoring", sa.String(length=16), nullable=False),
        sa.Column("place_points", sa.JSON(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["club.id"], name="fk_season_club_id_club", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_season"),
    )
    op.create_index("ix_season_club_id_id", "season", ["club_id", "id"])
    # In place, not by a batch copy (see a6c2d8e4f190: a copy of `tournament` on SQLite would
    # run its ON DELETE CASCADEs and empty every table hanging from it).
    op.execute(
        "ALTER TABLE tournament ADD COLUMN season_id INTEGER "
        "CONSTRAINT fk_tournament_season_id_season REFERENCES season (id)"
    )
    op.create_index(
        "ix_tournament_season_id_created_at_id", "tournament", ["season_id", "created_at", "id"]
    )
    op.create_table(
        "evening_placing",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("player_number", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        _tournament_reference("evening_placing"),
        _player_reference("evening_placing", "player_number"),
        sa.PrimaryKeyConstraint("tournament_id", "player_number", name="pk_evening_placing"),
    )
    op.create_table(
        "evening_game",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("player_number", sa.Integer(), nullable=False),
        sa.Column("opponent_number", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        _tournament_reference("evening_game"),
        _player_reference("evening_game", "player_number"),
        _player_reference("evening_game", "opponent_number"),
        sa.PrimaryKeyConstraint(
            "tournament_id", "player_number", "opponent_number", name="pk_evening_game"
        ),
    )


def downgrade() -> None:
    """On SQLite, dropping the column copies `tournament` (``batch``); with foreign keys on,
    that empties the tables depending on it: back up before a downgrade."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.drop_table("evening_game")
    op.drop_table("evening_placing")
    op.drop_index("ix_tournament_season_id_created_at_id", "tournament")
    with op.batch_alter_table("tournament") as batch:
        if not sqlite:
            batch.drop_constraint("fk_tournament_season_id_season", type_="foreignkey")
        batch.drop_column("season_id")
    op.drop_index("ix_season_club_id_id", "season")
    op.drop_table("season")
