"""The web server: HTTP + WebSocket API, lobby, storage, fair dice and bots (``dicehall serve``).

``create_app(db_url)`` builds the FastAPI application; see ``docs/protocol.md``.
"""

from dicehall.server.app import create_app

__all__ = ["create_app"]
