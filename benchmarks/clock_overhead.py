"""What the clocks and presence cost the game server: local backgammon games played through the
service, with and without ``Clocks`` and ``Presence`` hooked in (a 5+12d clock on every game).

Prints, side by side, actions committed per second and the time to build a snapshot (which
the clock's and the presence's decorators extend), on SQLite.

    python benchmarks/clock_overhead.py [--games 10]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from dicehall.server.clocks import Clocks, TimeControl
from dicehall.server.presence import Presence
from dicehall.server.service import GameService
from dicehall.server.storage import Store


def run(folder: Path, games: int, timed: bool) -> tuple[int, float, float]:
    folder.mkdir(exist_ok=True)
    store = Store(f"sqlite:///{folder / ('timed' if timed else 'plain')}.sqlite3")
    service = GameService(store, bot_delay=0)
    clocks = Clocks(store, service) if timed else None
    if timed:
        Presence(store, service)
    actions, snapshots, snapshot_time = 0, 0, 0.0
    start = time.perf_counter()
    for _ in range(games):
        game_id, _tokens = service.create("backgammon", opponent="local", seed="bench")
        if clocks is not None:
            clocks.attach(game_id, TimeControl.parse("5+12d"))
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
    store.close()
    return actions, actions / elapsed, snapshot_time / max(1, snapshots) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"{args.games} local backgammon games on SQLite")
        print(f"{'':24}{'actions':>10}{'actions/s':>12}{'snapshot µs':>14}")
        # two rounds in alternating order, so warming up favours neither
        for round_ in range(2):
            for label, timed in (("untimed, no hooks", False), ("5+12d clock + presence", True)):
                n, rate, snap = run(folder / str(round_), args.games, timed)
                print(f"{label:24}{n:>10}{rate:>12.0f}{snap:>14.0f}")


if __name__ == "__main__":
    main()
