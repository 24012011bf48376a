"""The first schema: games, seats and the append-only action log.

This is exactly what the first server created with ``MetaData.create_all``; a database made by
it is stamped with this revision (``Store`` does that) and upgraded from here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.create_table(
        f"{prefix}games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("result", sa.Text),
        sa.Column("rematch_of", sa.String(32)),
        sa.Column("rematch", sa.String(32)),
    )
    op.create_index(f"ix_{prefix}games_status", f"{prefix}games", ["status"])
    op.create_table(
        f"{prefix}seats",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("spec", sa.String(40), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("player_seed", sa.String(64), nullable=False),
    )
    op.create_table(
        f"{prefix}actions",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("actor", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    for table in ("actions", "seats", "games"):
        op.drop_table(f"{prefix}{table}")
