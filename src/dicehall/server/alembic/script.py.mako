"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    prefix = context.config.attributes.get("prefix", "")
    ${downgrades if downgrades else "pass"}
