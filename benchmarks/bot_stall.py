"""Bot-stall probe: does a thinking bot delay the acknowledgements of other games?

Starts ``dicehall serve`` on a free loopback port (SQLite in a temporary file), then measures the
acknowledgement latency of a probe client that plays a local backgammon game as fast as it is
answered (a short pause between moves), twice: alone, and while ``--bots`` backgammon games
against ``--level`` keep their bots thinking (their human side answers at once). Prints both
latency distributions and the difference at p99 (goal: at most 20 ms); with ``--rounds N`` the
two phases alternate N times and each round's difference is printed with their median.

    python benchmarks/bot_stall.py [--bots 4] [--level expert] [--seconds 30] [--rounds 1]

Like ``load_server.py`` it speaks the old and the new protocol, so ``PYTHONPATH=<checkout>/src``
measures another checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load_server import free_port, percentiles, wait_for_server
from websockets.asyncio.client import ClientConnection, connect


async def new_game(http: httpx.AsyncClient, opponent: str) -> tuple[str, list[str]]:
    res = await http.post("/api/games", json={"game": "backgammon", "opponent": opponent})
    res.raise_for_status()
    game_id, tokens = res.json()["id"], list(res.json()["tokens"].values())
    seeded = await http.post(
        f"/api/games/{game_id}/seed", json={"seed": "p"}, headers={"X-Seat-Token": ",".join(tokens)}
    )
    if seeded.status_code not in (200, 404, 405):
        seeded.raise_for_status()
    return game_id, tokens


async def player(
    ws: ClientConnection,
    game_id: str,
    tokens: list[str],
    stop: asyncio.Event,
    latencies: list[float] | None,
    pause: float,
    rng: random.Random,
    decisions: list[int] | None = None,
) -> None:
    """Join and play random legal moves whenever one of ``tokens`` is to move;
    ``decisions[0]`` counts the decisions of every seat seen in updates."""
    await ws.send(json.dumps({"type": "join", "v": 1, "game": game_id, "tokens": tokens}))
    seq, waiting, sent = -1, False, 0.0
    ref = 0
    legal: list[str] | None = None
    while not stop.is_set():
        try:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
        except TimeoutError:
            continue
        kind = msg.get("type")
        # the answer to an act: ``ok``, or (since 5 December 2026) the update carrying its ref
        if waiting and (kind == "ok" or (kind == "update" and msg.get("ref") == ref)):
            if latencies is not None:
                latencies.append(time.perf_counter() - sent)
            waiting = False
        elif kind == "error":
            waiting = False
        if kind == "update" and decisions is not None:
            decisions[0] += sum(1 for e in msg.get("entries", ()) if e["actor"] >= 0)
        if kind in ("snapshot", "update") and msg["seq"] >= seq:
            seq = msg["seq"]
            legal = msg.get("legal")
            if msg.get("status") == "finished":
                return
        if legal and not waiting:
            await asyncio.sleep(pause)
            ref += 1
            waiting, sent = True, time.perf_counter()
            text = rng.choice(legal)
            legal = None
            await ws.send(json.dumps({"type": "act", "v": 1, "ref": ref, "text": text, "seq": seq}))


async def probe(
    base: str, seconds: float, bots: int, level: str, decisions: list[int] | None = None
) -> list[float]:
    stop = asyncio.Event()
    latencies: list[float] = []
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def bot_table() -> None:
            while not stop.is_set():
                game_id, tokens = await new_game(http, f"bot:{level}")
                async with connect(f"ws{base[4:]}/ws") as ws:
                    await player(ws, game_id, tokens, stop, None, 0.0, rng, decisions)

        async def probe_table() -> None:
            while not stop.is_set():
                game_id, tokens = await new_game(http, "local")
                async with connect(f"ws{base[4:]}/ws") as ws:
                    await player(ws, game_id, tokens, stop, latencies, 0.05, rng)

        tasks = [asyncio.create_task(bot_table()) for _ in range(bots)]
        await asyncio.sleep(3 if bots else 0)  # the bots are busy before measuring
        tasks.append(asyncio.create_task(probe_table()))
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return latencies


def p99(xs: list[float]) -> float:
    return sorted(xs)[int(0.99 * len(xs))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seconds", type=float, default=30.0, help="per phase and round")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="alone / with bots this many times, alternating (on a shared machine the load "
        "of the others changes from minute to minute: the median round says more)",
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="dicehall-stall-"))
    port = free_port()
    cmd = [
        sys.executable, "-c", "from dicehall.cli.main import main; main()", "serve",
        "--port", str(port), "--db", f"sqlite:///{tmp / 'stall.sqlite3'}", "--bot-delay", "0",
        "--log-level", "warning",
    ]  # fmt: skip
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(base, server)
        asyncio.run(probe(base, 5, 0, args.level))  # warm up (compiles, caches)
        alone: list[float] = []
        busy: list[float] = []
        added: list[float] = []
        decisions = [0]
        for _ in range(args.rounds):
            a = asyncio.run(probe(base, args.seconds, 0, args.level))
            b = asyncio.run(probe(base, args.seconds, args.bots, args.level, decisions))
            alone += a
            busy += b
            if a and b:
                added.append(p99(b) - p99(a))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
    print(f"bot-stall probe: backgammon, {args.bots} bots at {args.level} thinking")
    print(f"  alone      {percentiles(alone)}")
    print(f"  with bots  {percentiles(busy)}")
    if alone and busy:
        total = p99(busy) - p99(alone)
        print(f"  p99 delay added by the bots: {total * 1000:.1f} ms (goal: at most 20 ms)")
    if len(added) > 1:
        rounds = ", ".join(f"{x * 1000:.1f}" for x in added)
        median = sorted(added)[len(added) // 2]
        print(f"  added p99 per round: {rounds} ms; median {median * 1000:.1f} ms")
    # about half are the bots' (their opponents answer at once): the bots did think
    seconds = args.seconds * args.rounds
    print(f"  decisions in the bot games: {decisions[0]} ({decisions[0] / seconds:.1f}/s)")
    print(f"  machine load {os.getloadavg()[0]:.2f} (1-minute average at the end)")


if __name__ == "__main__":
    main()
