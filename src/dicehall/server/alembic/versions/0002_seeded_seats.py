"""Seats say whether their player seed has arrived; games are found by age for expiry.

A player seed is accepted only after the game's commitment was published, so a seat can be
taken before its seed arrives (``seeded`` false) and the game waits for it. Seats of existing
games got their seed with the old protocol: they are marked seeded. The index on ``updated``
serves the expiry of abandoned games.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    with op.batch_alter_table(f"{prefix}seats") as batch:
        batch.add_column(sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.true()))
    op.create_index(f"ix_{prefix}games_updated", f"{prefix}games", ["updated"])


def downgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.drop_index(f"ix_{prefix}games_updated", f"{prefix}games")
    with op.batch_alter_table(f"{prefix}seats") as batch:
        batch.drop_column("seeded")
