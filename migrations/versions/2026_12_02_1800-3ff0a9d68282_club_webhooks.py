"""club webhooks: an endpoint belongs to a tournament or to a club, and a delivery carries a
tournament's event or a club's (existing endpoints and deliveries keep theirs)

Revision ID: 3ff0a9d68282
Revises: a7c3e9f1b524
Create Date: 2026-12-02 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3ff0a9d68282"
down_revision: str | None = "a7c3e9f1b524"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # SQLite changes a column's nullability by copying the table (batch); the migrations run
    # with foreign keys off (migrations/env.py), so the copy of `webhook_endpoint` does not
    # cascade to its deliveries.
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.alter_column("tournament_id", existing_type=sa.String(length=32), nullable=True)
        batch.add_column(sa.Column("club_id", sa.String(length=32), nullable=True))
        batch.create_foreign_key(
            "fk_webhook_endpoint_club_id_club", "club", ["club_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_index("ix_webhook_endpoint_club_id", ["club_id"])
        batch.create_check_constraint(
            "ck_webhook_endpoint_one_owner", "(tournament_id IS NULL) <> (club_id IS NULL)"
        )
    with op.batch_alter_table("webhook_delivery") as batch:
        batch.alter_column("event_id", existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("club_event_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_webhook_delivery_club_event_id_club_event",
            "club_event",
            ["club_event_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_unique_constraint(
            "uq_webhook_delivery_endpoint_id_club_event_id", ["endpoint_id", "club_event_id"]
        )
        batch.create_check_constraint(
            "ck_webhook_delivery_one_event", "(event_id IS NULL) <> (club_event_id IS NULL)"
        )


def downgrade() -> None:
    """Club endpoints and their deliveries are deleted: the schema before had no place for
    them."""
    op.execute("DELETE FROM webhook_delivery WHERE club_event_id IS NOT NULL")
    op.execute("DELETE FROM webhook_endpoint WHERE club_id IS NOT NULL")
    with op.batch_alter_table("webhook_delivery") as batch:
        batch.drop_constraint("ck_webhook_delivery_one_event", type_="check")
        batch.drop_constraint("uq_webhook_delivery_endpoint_id_club_event_id", type_="unique")
        batch.drop_constraint("fk_webhook_delivery_club_event_id_club_event", type_="foreignkey")
        batch.drop_column("club_event_id")
        batch.alter_column("event_id", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("webhook_endpoint") as batch:
        batch.drop_constraint("ck_webhook_endpoint_one_owner", type_="check")
        batch.drop_index("ix_webhook_endpoint_club_id")
        batch.drop_constraint("fk_webhook_endpoint_club_id_club", type_="foreignkey")
        batch.drop_column("club_id")
        batch.alter_column("tournament_id", existing_type=sa.String(length=32), nullable=False)
