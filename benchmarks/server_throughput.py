"""How fast the game server commits actions: local backgammon games played through the service.

Prints actions committed per second (each decision plus its dice, one transaction), the CPU time
per action (all threads of this process: the service, the SQLite writer) with the ``update``
messages a connected game gets after every action built as the server's hub builds them (the
seat to move with its legal texts and click graph), and the time to build a snapshot, on SQLite
and, when reachable, on the PostgreSQL test server. Random legal plays, seeded (``--seed``); the
dice come from the server's seeds, so two runs play different games.

    python benchmarks/server_throughput.py [--games 20] [--no-postgres] [--seed 1]

Without the event loop, WebSocket framing and thread hand-overs of a real server, this is the
service's share of the cost per action (``load_server.py`` measures the whole server).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
import uuid
from pathlib import Path

from dicehall.server.service import GameService
from dicehall.server.storage import Store

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def run(store: Store, games: int, seed: int) -> tuple[int, float, float, float]:
    """``(actions, seconds, CPU seconds, seconds per snapshot)`` of ``games`` local games."""
    service = GameService(store, bot_delay=0)
    # what the hub does after every commit: the update for watchers and for the seat to move
    service.listeners.append(lambda live, entries: service.update_messages(live, entries))
    rng = random.Random(seed)
    actions = 0
    snapshot_time = 0.0
    snapshots = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for _ in range(games):
        game_id, _tokens = service.create("backgammon", opponent="local")
        live = service.get(game_id)
        first = live.seq
        while not live.state.is_terminal():
            texts = service._legal(live)[0]  # the texts the mover's client was sent
            service.act(game_id, [0, 1], rng.choice(texts), live.seq)
            t = time.perf_counter()
            service.snapshot(live, [0, 1])
            snapshot_time += time.perf_counter() - t
            snapshots += 1
        actions += sum(1 for e in live.log[first:] if e.actor >= 0)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    service.close()
    return actions, elapsed, cpu, snapshot_time / max(snapshots, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
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
            actions, elapsed, cpu, snap = run(store, args.games, args.seed)
        finally:
            store.drop_all()
        print(
            f"{name:9} {args.games} games, {actions} actions in {elapsed:.2f} s: "
            f"{actions / elapsed:,.0f} actions/s, {cpu / actions * 1000:.2f} ms CPU per action "
            f"with its updates; snapshot {snap * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
