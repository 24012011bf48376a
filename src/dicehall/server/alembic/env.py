"""Alembic's entry point: run the migrations on the connection that ``Store`` hands over."""

from __future__ import annotations

from alembic import context


def run() -> None:
    """Migrate the connection in ``config.attributes`` (tables and version table prefixed)."""
    connection = context.config.attributes["connection"]
    prefix = context.config.attributes.get("prefix", "")
    context.configure(
        connection=connection,
        version_table=f"{prefix}alembic_version",
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic (a doctest collector only imports it)
    run()
