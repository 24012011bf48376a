"""Schema migrations of the server's database (Alembic), applied by ``Store`` on start-up.

Table names carry the store's prefix (tests share one database), so the scripts read it from
``context.config.attributes["prefix"]``; so does the version table (``{prefix}alembic_version``).
A new revision: copy the newest file in ``versions/``, bump ``revision``/``down_revision``.
"""
