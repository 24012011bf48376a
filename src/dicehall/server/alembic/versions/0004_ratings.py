"""Rated games and Glicko-2 ratings.

``games.rated`` marks a rated game (chosen at creation; casual by default); ``games.ended``
says how a game ended other than by its rules (``resign:SEAT``). ``ratings`` holds
one Glicko-2 rating per account and game. ``rating_changes`` holds, per rated game and seat,
the rating before and after the game: its primary key ``(game_id, seat)`` is what makes a
game's rating update happen exactly once (see ``dicehall.server.ratings``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    with op.batch_alter_table(f"{prefix}games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("ended", sa.String(40), nullable=True))
    op.create_table(
        f"{prefix}ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{prefix}ratings_board", f"{prefix}ratings", ["game", "rating"])
    op.create_table(
        f"{prefix}rating_changes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("deviation_before", sa.Float, nullable=False),
        sa.Column("deviation_after", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.drop_table(f"{prefix}rating_changes")
    op.drop_index(f"ix_{prefix}ratings_board", f"{prefix}ratings")
    op.drop_table(f"{prefix}ratings")
    with op.batch_alter_table(f"{prefix}games") as batch:
        batch.drop_column("ended")
        batch.drop_column("rated")
