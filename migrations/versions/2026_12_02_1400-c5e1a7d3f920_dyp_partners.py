"""dyp partners: the second player of each side of a DYP match

Revision ID: c5e1a7d3f920
Revises: c9e1f4a7d352
Create Date: 2026-12-02 14:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c5e1a7d3f920"
down_revision: str | None = "c9e1f4a7d352"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain nullable columns: SQLite adds them in place (no batch copy of the match table).
    op.add_column("match", sa.Column("home_partner", sa.Integer(), nullable=True))
    op.add_column("match", sa.Column("away_partner", sa.Integer(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE … DROP COLUMN in place on both (SQLite 3.35+): a batch copy of the match
    # table would cascade-delete every result on SQLite with foreign keys on.
    op.execute('ALTER TABLE "match" DROP COLUMN away_partner')
    op.execute('ALTER TABLE "match" DROP COLUMN home_partner')
