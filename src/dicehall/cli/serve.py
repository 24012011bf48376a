"""``dicehall serve``: the web app (lobby, boards, API) on uvicorn."""

from __future__ import annotations

import os
from typing import Annotated, Any

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
        workers: Annotated[
            int,
            typer.Option(min=1, max=64, help="server processes (more than one needs PostgreSQL)"),
        ] = 1,
        address_rate: Annotated[
            float,
            typer.Option(help="HTTP requests and connections per second per address (0: off)"),
        ] = 20.0,
        grace: Annotated[
            float,
            typer.Option(
                min=0, help="seconds a player may be gone before the others may claim or abort"
            ),
        ] = 60.0,
        bot_processes: Annotated[
            int,
            typer.Option(
                min=0,
                max=64,
                help="processes the bots think in, per server process (0: threads of the "
                "server's own, which a thinking bot slows down)",
            ),
        ] = 2,
        redis: Annotated[
            str | None,
            typer.Option(
                help="redis://HOST:PORT/DB: keep the per-address rate limits there, shared by "
                "every process and host (default: each process counts alone)"
            ),
        ] = None,
        db_connections: Annotated[
            int,
            typer.Option(
                min=4,
                max=1000,
                help="PostgreSQL connections each process opens at most (every process of "
                "every host counts against the database's max_connections)",
            ),
        ] = 29,
    ) -> None:
        """Serve the lobby and the boards at http://HOST:PORT/ (API docs at /docs)."""
        try:
            import uvicorn

            from dicehall.server.app import (
                ENV_ADDRESS_RATE,
                ENV_BOT_DELAY,
                ENV_BOT_PROCESSES,
                ENV_DB,
                ENV_DB_CONNECTIONS,
                ENV_GRACE,
                ENV_REDIS,
                create_app,
            )
            from dicehall.server.limits import Limits
            from dicehall.server.storage import connection_warning, default_url, normalise_url
        except ImportError as exc:  # pragma: no cover - depends on the install
            console.print(f"[red]the web server needs: pip install 'dicehall[web]' ({exc})[/]")
            raise typer.Exit(2) from None
        url = normalise_url(db) if db else default_url()
        if workers > 1 and url.startswith("sqlite"):
            console.print(
                "[red]--workers needs PostgreSQL (--db postgresql://...): SQLite is for one "
                "process[/]"
            )
            raise typer.Exit(2)
        shown = url.split("@")[-1] if "@" in url else url
        console.print(
            f"dicehall: http://{host}:{port}/  (database {shown}, {workers} process"
            f"{'es' if workers > 1 else ''})",
            soft_wrap=True,
        )
        if not url.startswith("sqlite"):
            # every process of every host counts against the database's max_connections
            try:
                warning = connection_warning(url, workers, db_connections)
            except Exception as exc:  # the app itself says clearly why it cannot connect
                warning = None
                console.print(f"[yellow]could not ask the database about connections: {exc}[/]")
            if warning:
                console.print(f"[yellow]warning: {warning}[/]", soft_wrap=True)
        limits = Limits(address_rate=address_rate)
        common: dict[str, Any] = {
            "host": host,
            "port": port,
            "log_level": log_level,
            # websockets' Sans-I/O implementation: the classic one (deprecated in uvicorn
            # 0.54) ran three tasks per connection and its frame sending was a sixth of a
            # worker's time under load
            "ws": "websockets-sansio",
            "ws_max_size": limits.max_frame,
            # compression cost ~6% of the server's CPU under load; updates are small now
            "ws_per_message_deflate": False,
            # uvicorn closes an idle keep-alive connection after 5 s, the very expiry of
            # httpx's (and close to browsers' reuse): a request sent as the server closes
            # fails with a reset (40 of 500 creations failed so in the load benchmark). The
            # server keeps them longer than clients do, as nginx (75 s) does.
            "timeout_keep_alive": 30,
        }
        if workers == 1:
            app = create_app(
                url,
                bot_delay=bot_delay,
                limits=limits,
                bot_processes=bot_processes,
                redis_url=redis,
                grace=grace,
                freeze_gc=True,
                db_connections=db_connections,
            )
            uvicorn.run(app, **common)
            return
        # several processes: each builds its own app from these (uvicorn imports the factory)
        os.environ[ENV_DB] = url
        os.environ[ENV_BOT_DELAY] = str(bot_delay)
        os.environ[ENV_ADDRESS_RATE] = str(address_rate)
        os.environ[ENV_GRACE] = str(grace)
        os.environ[ENV_BOT_PROCESSES] = str(bot_processes)
        os.environ[ENV_REDIS] = redis or ""
        os.environ[ENV_DB_CONNECTIONS] = str(db_connections)
        # one dispatcher process owns the socket and passes each connection to the worker of
        # the game its URL names (/ws?game=ID), so a game's seats share a process
        from dicehall.server import dispatch

        if not dispatch.supported():  # uvicorn's workers: the kernel spreads connections
            uvicorn.run("dicehall.server.app:app_from_env", factory=True, workers=workers, **common)
            return
        status = dispatch.serve_dispatched(common, workers)
        if status:
            raise typer.Exit(status)
