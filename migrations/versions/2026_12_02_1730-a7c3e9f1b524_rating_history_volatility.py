"""rating history volatility: each entry's Glicko-2 volatility after each rated tournament,
so a club can be rated again from one of its tournaments on (the state before it is the
history's last row per entry); null under Elo, and in rows written before it (such a club is
rated once more from its first tournament, which fills them)

Revision ID: a7c3e9f1b524
Revises: e8b4d2f6a913
Create Date: 2026-12-02 17:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a7c3e9f1b524"
down_revision: str | None = "e8b4d2f6a913"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("club_rating_history", sa.Column("volatility", sa.Float(), nullable=True))


def downgrade() -> None:
    # no reference on this column: SQLite drops it in place (3.35+)
    op.drop_column("club_rating_history", "volatility")
