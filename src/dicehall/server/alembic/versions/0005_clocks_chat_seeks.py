"""Clocks, chat and seeks.

``clocks`` holds the time control of a timed game (``dicehall.server.clocks``; the clock
itself is derived from the action log's timestamps, so nothing else needs storing).
``chat`` holds the messages of the lobby and of each game's player and spectator rooms
(``dicehall.server.chat``). ``seeks`` holds open challenges and direct challenges
(``dicehall.server.seeks``). ``presence`` holds when each seat was last seen connected and
when it left (``dicehall.server.presence``), for every server process.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.create_table(
        f"{prefix}clocks",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("initial", sa.Float, nullable=False),
        sa.Column("increment", sa.Float, nullable=False),
        sa.Column("delay", sa.Float, nullable=False),
    )
    op.create_table(
        f"{prefix}chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("author", sa.String(40), nullable=False),
        sa.Column("account_id", sa.String(32)),
        sa.Column("seat", sa.Integer),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{prefix}chat_room", f"{prefix}chat", ["room", "channel", "id"])
    op.create_table(
        f"{prefix}presence",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("left_at", sa.Float),
    )
    op.create_table(
        f"{prefix}seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rating_min", sa.Float),
        sa.Column("rating_max", sa.Float),
        sa.Column("target_id", sa.String(32), index=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("game_id", sa.String(32)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )


def downgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.drop_table(f"{prefix}seeks")
    op.drop_table(f"{prefix}presence")
    op.drop_index(f"ix_{prefix}chat_room", f"{prefix}chat")
    op.drop_table(f"{prefix}chat")
    op.drop_table(f"{prefix}clocks")
