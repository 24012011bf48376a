"""How fast the game server commits actions: local backgammon games played through the service.

Prints actions committed per second (each decision plus its dice, one transaction) and the time
to build a snapshot, on SQLite and, when reachable, on the PostgreSQL test server.

    python benchmarks/server_throughput.py [--games 20] [--no-postgres]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from pathlib import Path

from dicehall.server.service import GameService
from dicehall.server.storage import Store

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def run(store: Store, games: int) -> tuple[int, float, float]:
    service = GameService(store, bot_delay=0)
    actions = 0
    snapshot_time = 0.0
    snapshots = 0
    start = time.perf_counter()
    for _ in range(games):
        game_id, _tokens = service.create("backgammon", opponent="local")
        live = service.get(game_id)
        while not live.state.is_terminal():
            service.act(game_id, [0, 1], live.state.legal_texts()[0], live.seq)
            t = time.perf_counter()
            service.snapshot(live, [0, 1])
            snapshot_time += time.perf_counter() - t
            snapshots += 1
        actions += live.seq
    elapsed = time.perf_counter() - start
    service.close()
    return actions, elapsed, snapshot_time / max(snapshots, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    stores = [("sqlite", lambda: Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'b.sqlite3'}"))]
    if not args.no_postgres:
        stores.append(("postgres", lambda: Store(POSTGRES, prefix=f"b{uuid.uuid4().hex[:8]}_")))
    for name, make in stores:
        try:
            store = make()
        except Exception as exc:  # no server: say so and go on
            print(f"{name:9} skipped ({exc.__class__.__name__})")
            continue
        try:
            actions, elapsed, snap = run(store, args.games)
        finally:
            store.drop_all()
        print(
            f"{name:9} {args.games} games, {actions} actions in {elapsed:.2f} s: "
            f"{actions / elapsed:,.0f} actions/s; snapshot {snap * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
