"""Accounts and their sessions; a seat may be bound to an account.

``accounts`` holds a username (unique without regard to case, through ``username_key``) and
an argon2 hash of the password; bots have accounts too (kind ``bot``, no password).
``sessions`` holds the sha256 of each session cookie, never the cookie itself.
``seats.account_id`` binds a seat taken by a logged-in player to the account.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.create_table(
        f"{prefix}accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(200)),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        f"{prefix}sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False, index=True),
    )
    with op.batch_alter_table(f"{prefix}seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index(f"ix_{prefix}seats_account_id", f"{prefix}seats", ["account_id"])


def downgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    op.drop_index(f"ix_{prefix}seats_account_id", f"{prefix}seats")
    with op.batch_alter_table(f"{prefix}seats") as batch:
        batch.drop_column("account_id")
    op.drop_table(f"{prefix}sessions")
    op.drop_table(f"{prefix}accounts")
