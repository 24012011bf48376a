"""``dicehall serve``: the web app (lobby, boards, API) on uvicorn."""

from __future__ import annotations

import warnings
from typing import Annotated

import typer

from dicehall.cli.common import console


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the command line."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port")] = 8000,
        db: Annotated[
            str | None,
            typer.Option(
                help="database URL: sqlite:///FILE or postgresql://user@host/db "
                "(default: SQLite in the user data directory)"
            ),
        ] = None,
        bot_delay: Annotated[
            float, typer.Option(help="seconds a bot waits before moving (for the eye)")
        ] = 0.4,
        log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    ) -> None:
        """Serve the lobby and the boards at http://HOST:PORT/ (API docs at /docs)."""
        try:
            import uvicorn

            from dicehall.server.app import create_app
            from dicehall.server.storage import default_url, normalise_url
        except ImportError as exc:  # pragma: no cover - depends on the install
            console.print(f"[red]the web server needs: pip install 'dicehall[web]' ({exc})[/]")
            raise typer.Exit(2) from None
        url = normalise_url(db) if db else default_url()
        shown = url.split("@")[-1] if "@" in url else url
        console.print(f"dicehall: http://{host}:{port}/  (database {shown})", soft_wrap=True)
        application = create_app(url, bot_delay=bot_delay)
        # The classic "websockets" implementation: deprecated in uvicorn 0.54, but it is what the
        # browser tests run against (one run with "websockets-sansio" got no answer to a join;
        # not reproduced since, so not yet trusted).
        warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")
        uvicorn.run(application, host=host, port=port, log_level=log_level, ws="websockets")
