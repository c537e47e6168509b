"""clubs: the club, its keys, its audit trail and player register; a tournament's club and a
player's register entry (both null for what existed before: club-less tournaments keep working)

Revision ID: a6c2d8e4f190
Revises: b7d2e4f8a613
Create Date: 2026-12-02 09:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a6c2d8e4f190"
down_revision: str | None = "b7d2e4f8a613"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "club",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("updated_at", AT, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_club"),
    )
    op.create_table(
        "club_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("label", sa.String(length=80), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", AT, nullable=False),
        sa.Column("revoked_at", AT, nullable=True),
        sa.ForeignKeyConstraint(
            ["club_id"], ["club.id"], name="fk_club_key_club_id_club", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_club_key"),
        sa.UniqueConstraint("token_hash", name="uq_club_key_token_hash"),
    )
    op.create_index("ix_club_key_club_id", "club_key", ["club_id"])
    op.create_table(
        "club_audit_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("at", AT, nullable=False),
        sa.Column("actor", sa.String(length=24), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["club.id"], name="fk_club_audit_entry_club_id_club", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_club_audit_entry"),
    )
    op.create_index("ix_club_audit_entry_club_id_id", "club_audit_entry", ["club_id", "id"])
    op.create_table(
        "club_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("name_key", sa.String(length=320), nullable=False),
        sa.Column("search_key", sa.Text(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("title", sa.String(length=3), nullable=True),
        sa.Column("fide_id", sa.BigInteger(), nullable=True),
        sa.Column("team", sa.String(length=40), nullable=True),
        sa.Column("created_at", AT, nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["club.id"], name="fk_club_player_club_id_club", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_club_player"),
    )
    op.create_index(
        "ix_club_player_club_id_name_key_id", "club_player", ["club_id", "name_key", "id"]
    )
    _add_reference("tournament", "club_id", "VARCHAR(32)", "club", "fk_tournament_club_id_club")
    op.create_index(
        "ix_tournament_club_id_created_at_id", "tournament", ["club_id", "created_at", "id"]
    )
    _add_reference(
        "player", "club_player_id", "INTEGER", "club_player", "fk_player_club_player_id_club_player"
    )
    op.create_index("ix_player_club_player_id", "player", ["club_player_id"])


def _add_reference(table: str, column: str, kind: str, target: str, name: str) -> None:
    """A nullable column referring to ``target``'s id, added in place.

    Not with a batch on SQLite: adding a foreign key there copies the table, and dropping the
    old copy, with foreign keys on (``app.db``), runs its ``ON DELETE CASCADE``s: every
    player, round and result of the database would go. SQLite adds a column with its
    reference in place (``ALTER TABLE … ADD COLUMN … REFERENCES``), as PostgreSQL does."""
    op.execute(
        f"ALTER TABLE {table} ADD COLUMN {column} {kind} CONSTRAINT {name} REFERENCES {target} (id)"
    )


def downgrade() -> None:
    """On SQLite, dropping a column with a reference copies its table (``batch``); with
    foreign keys on, that empties the tables depending on it: back up before a downgrade."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.drop_index("ix_player_club_player_id", "player")
    op.drop_index("ix_tournament_club_id_created_at_id", "tournament")
    for table, column in (("player", "club_player_id"), ("tournament", "club_id")):
        with op.batch_alter_table(table) as batch:
            if not sqlite:  # SQLite keeps no name for it; the copy leaves it out with the column
                batch.drop_constraint(f"fk_{table}_{column}_{column[:-3]}", type_="foreignkey")
            batch.drop_column(column)
    op.drop_table("club_player")
    op.drop_table("club_audit_entry")
    op.drop_table("club_key")
    op.drop_table("club")
