"""rounds played after an early final phase

The format in force after an early final phase has the rounds played, not the rounds planned
(the remaining ones are dropped): fix the derived column of tournaments that started theirs
early before the domain said so. Data only; the schema does not change.

Revision ID: 5e0d7c1f9a2b
Revises: a0c136d2e3e4
Create Date: 2026-12-01 01:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "5e0d7c1f9a2b"
down_revision: str | None = "a0c136d2e3e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE tournament SET resolved_swiss_rounds = current_round "
        "WHERE final_phase_started AND current_round < resolved_swiss_rounds"
    )


def downgrade() -> None:
    """The planned number is derived again by the next write; nothing to restore."""
