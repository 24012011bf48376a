"""Load on the game server: N concurrent friend games played by scripted WebSocket clients.

Starts ``dicehall serve`` on a free loopback port (SQLite in a temporary file, or the PostgreSQL
database given with ``--db``, with ``--workers`` processes), creates N friend games, connects
two clients per game (one per seat) and lets them play random legal moves, each thinking
0.5-1.5 s, for ``--duration`` seconds; finished games are replaced by new ones. Then it stops
the server and prints:

- acknowledgement latency (act sent -> its answer: ``ok``, or the update carrying the
  act's ref), p50/p95/p99/max;
- broadcast latency (act sent -> the opponent's connection sees the new position);
- errors (error replies, lost connections, acts never answered);
- server CPU per accepted action (user + system time of the server processes over the
  measured window, divided by the actions acknowledged in it) and the server's memory (RSS).

    python benchmarks/load_server.py --games 50 [--duration 60] [--db postgresql://...]
        [--workers 2] [--game backgammon] [--seed 1]

It speaks both the old protocol (a full ``snapshot`` after every action) and the new one
(``update`` messages), so the same script measures a server before and after a change: run it
with ``PYTHONPATH=<other checkout>/src`` to measure another checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

loads: Any = json.loads  # orjson's unless --old-client (main)

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_and_rss(root: int) -> tuple[float, int]:
    """CPU seconds (user + system) and resident memory (bytes) of the tree under ``root``."""
    cpu, rss = 0.0, 0
    for pid in process_tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / TICKS
        rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    broadcast: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)  # (game, seq) -> time
    measuring: bool = False
    lag: list[float] = field(default_factory=list)  # the client's own event-loop lateness
    acts: int = 0
    games_done: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Player:
    """One seat of one game on its own WebSocket."""

    def __init__(self, bench: Bench, game_id: str, seat: int, token: str) -> None:
        self.bench, self.game_id, self.seat, self.token = bench, game_id, seat, token
        self.seq = -1
        self.to_move: int | None = None
        self.legal: list[str] | None = None
        self.status = "waiting"
        self.acting = False
        self.ref = 0
        self.pending: dict[int, float] = {}
        self.rng = random.Random(hash((game_id, seat, bench.args.seed)))

    async def run(self, ws: ClientConnection) -> None:
        await ws.send(
            json.dumps(
                {"type": "join", "v": 1, "ref": 0, "game": self.game_id, "tokens": [self.token]}
            )
        )
        async for raw in ws:
            msg = loads(raw)
            kind = msg.get("type")
            now = time.perf_counter()
            if kind == "update" and msg.get("ref") in self.pending:
                # the update answering this seat's act (servers since 5 December 2026 send
                # it with the act's ref, in place of an ``ok``): the acknowledgement
                self.acknowledged(msg, now)
                self.observe(msg, now)
                if self.status == "finished":
                    return
                self.maybe_act(ws)
            elif kind in ("snapshot", "update"):
                self.observe(msg, now)
                if self.status == "finished":
                    return
                self.maybe_act(ws)
            elif kind == "ok":
                sent = self.pending.pop(msg.get("ref"), None)
                if sent is not None and self.bench.stats.measuring:
                    self.bench.stats.ack.append(now - sent)
                    self.bench.stats.acts += 1
                self.acting = False
                self.maybe_act(ws)
            elif kind == "error":
                self.pending.pop(msg.get("ref"), None)
                self.bench.stats.error(str(msg.get("code")))
                self.acting = False
                if msg.get("code") in ("stale", "out_of_turn"):
                    await ws.send(
                        json.dumps(
                            {
                                "type": "join",
                                "v": 1,
                                "ref": 0,
                                "game": self.game_id,
                                "tokens": [self.token],
                            }
                        )
                    )

    def acknowledged(self, msg: dict[str, Any], now: float) -> None:
        sent = self.pending.pop(msg["ref"])
        if self.bench.stats.measuring:
            self.bench.stats.ack.append(now - sent)
            self.bench.stats.acts += 1
        self.acting = False

    def observe(self, msg: dict[str, Any], now: float) -> None:
        seq = msg.get("seq")
        if not isinstance(seq, int) or seq < self.seq:
            return
        stats = self.bench.stats
        if seq > self.seq and stats.measuring:
            # the opponent's connection sees a position the other seat made
            for s in range(self.seq + 1, seq + 1):
                key = (self.game_id, s)
                if key in stats.sent and self.bench.owner.get(key) != self.seat:
                    stats.broadcast.append(now - stats.sent.pop(key))
                    self.bench.owner.pop(key, None)
        self.seq = seq
        self.to_move = msg.get("to_move")
        self.legal = msg.get("legal")
        self.status = msg.get("status", self.status)

    def maybe_act(self, ws: ClientConnection) -> None:
        if self.acting or self.status != "playing" or self.to_move != self.seat or not self.legal:
            return
        self.acting = True
        asyncio.get_running_loop().create_task(self.act_later(ws, self.seq, list(self.legal)))

    async def act_later(self, ws: ClientConnection, seq: int, legal: list[str]) -> None:
        lo, hi = self.bench.args.think
        await asyncio.sleep(self.rng.uniform(lo, hi))
        if self.bench.stopping:
            return
        self.ref += 1
        text = self.rng.choice(legal)
        now = time.perf_counter()
        self.pending[self.ref] = now
        # the move makes at least seq + 1; the dice after it make more, the first counts
        self.bench.stats.sent[(self.game_id, seq + 1)] = now
        self.bench.owner[(self.game_id, seq + 1)] = self.seat
        try:
            await ws.send(
                json.dumps({"type": "act", "v": 1, "ref": self.ref, "text": text, "seq": seq})
            )
        except Exception:
            self.bench.stats.error("send_failed")


class Bench:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.base = base
        self.stats = Stats()
        self.stopping = False
        self.owner: dict[tuple[str, int], int] = {}
        self.http = httpx.AsyncClient(
            base_url=base,
            timeout=60,
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=64),
        )
        self.ready = 0  # tables that have started their first game

    async def new_game(self) -> tuple[str, str, str]:
        body = {"game": self.args.game, "opponent": "friend", "seat": 0, "name": "a", "seed": ""}
        res = await self.http.post("/api/games", json=body)
        res.raise_for_status()
        game_id, t0 = res.json()["id"], res.json()["tokens"]["0"]
        # servers that take the player seed after publishing the commitment
        seeded = await self.http.post(
            f"/api/games/{game_id}/seed", json={"seed": "a"}, headers={"X-Seat-Token": t0}
        )
        if seeded.status_code not in (200, 404, 405):
            seeded.raise_for_status()
        joined = await self.http.post(f"/api/games/{game_id}/join", json={"name": "b", "seed": "b"})
        joined.raise_for_status()
        return game_id, t0, joined.json()["token"]

    async def table(self, index: int) -> None:
        """One table: play games one after another until the benchmark stops. Tables start
        spread over the ramp, so the set-up is not one storm of creations."""
        await asyncio.sleep(index * self.args.ramp / max(self.args.games, 1))
        first = True
        while not self.stopping:
            try:
                game_id, t0, t1 = await self.new_game()
            except httpx.HTTPStatusError as exc:
                self.stats.error(f"create_failed ({exc.response.status_code})")
                await asyncio.sleep(1)
                continue
            except Exception as exc:  # which kind says where it failed (a timeout, a reset)
                self.stats.error(f"create_failed ({type(exc).__name__})")
                await asyncio.sleep(1)
                continue
            players = [Player(self, game_id, 0, t0), Player(self, game_id, 1, t1)]
            # the game in the URL: `serve --workers N` puts both seats in one process
            url = f"ws{self.base[4:]}/ws?game={game_id}"
            try:
                async with (
                    connect(url, max_size=2**24, open_timeout=60) as a,
                    connect(url, max_size=2**24, open_timeout=60) as b,
                ):
                    tasks = [
                        asyncio.create_task(p.run(w)) for p, w in zip(players, (a, b), strict=True)
                    ]
                    if first:
                        self.ready += 1
                        first = False
                    try:
                        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                    finally:  # also when the benchmark stops: no player task is left behind
                        for t in tasks:
                            t.cancel()
                        await asyncio.gather(*tasks, return_exceptions=True)
                    for t in done:
                        if t.exception() is not None and not self.stopping:
                            self.stats.error("connection_lost")
            except Exception as exc:
                if not self.stopping:
                    self.stats.error(f"connection_lost ({type(exc).__name__})")
                continue
            if self.stats.measuring:
                self.stats.games_done += 1


def set_autogroup_nice(nice: int, server_pid: int) -> None:
    """Give the client's and the server's scheduler groups the niceness ``nice``.

    With Linux's autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``), each
    session is a group, and the groups share the cores as equals whatever the niceness of the
    processes inside them: another session's ``nice 19`` training takes as much of the
    machine as this benchmark (measured on 5 December 2026: the client's event loop then
    lagged 38 ms at p50, 199 ms at p99, with 0.2 of a core). This is the niceness of the whole
    group (the server's session and the client's); the server's worker processes inherit it."""
    for pid in (os.getpid(), server_pid):
        try:
            Path(f"/proc/{pid}/autogroup").write_text(str(nice))
        except OSError as exc:
            print(f"could not set the autogroup niceness of {pid}: {exc}")
    groups = {
        pid: Path(f"/proc/{pid}/autogroup").read_text().strip() for pid in (os.getpid(), server_pid)
    }
    print(f"autogroups: {groups}")


def wait_for_server(base: str, server: subprocess.Popen[bytes], seconds: float = 180) -> None:
    """Return once the server at ``base`` answers ``/api/protocol``; SystemExit if its
    process ends first or ``seconds`` pass (the first start compiles for a while)."""
    deadline = time.time() + seconds
    while True:
        try:
            if httpx.get(f"{base}/api/protocol", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if server.poll() is not None or time.time() > deadline:
            raise SystemExit("the server did not start")
        time.sleep(0.5)


def percentiles(xs: list[float]) -> str:
    if not xs:
        return "none"
    xs = sorted(xs)

    def q(p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000

    return (
        f"p50 {q(0.50):7.1f} ms  p95 {q(0.95):7.1f} ms  p99 {q(0.99):7.1f} ms  "
        f"max {xs[-1] * 1000:7.1f} ms  (n={len(xs)})"
    )


async def lag_probe(stats: Stats) -> None:
    """How late the client's own event loop wakes a 10 ms sleep: a late loop adds its delay
    to every latency measured, so this says how much of them is the client's queueing."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(0.01)
        if stats.measuring:
            stats.lag.append(max(0.0, loop.time() - t - 0.01))


GC_PAUSES: list[float] = []
_gc_start = [0.0]


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _gc_start[0] = time.perf_counter()
    elif info.get("generation") == 2:
        GC_PAUSES.append(time.perf_counter() - _gc_start[0])


async def measure(args: argparse.Namespace, base: str, server_pid: int) -> None:
    import gc

    gc.callbacks.append(_gc_timer)
    if not args.old_client:
        # The client's full collections walked its whole heap (every connection, every
        # pending time) and took 190 ms each, 47 of them in a 500-game run: the client's
        # loop stood still and every latency it measured meanwhile grew by that much. Its
        # garbage is freed by reference counting; the cycles wait until the end.
        gc.freeze()
        gc.disable()
    bench = Bench(args, base)
    probe = asyncio.create_task(lag_probe(bench.stats))
    tables = [asyncio.create_task(bench.table(i)) for i in range(args.games)]
    begun = time.perf_counter()
    await asyncio.sleep(args.ramp)
    while bench.ready < args.games and time.perf_counter() - begun < args.ramp + args.setup:
        await asyncio.sleep(0.5)
    ready_after = time.perf_counter() - begun
    await asyncio.sleep(args.warmup)
    cpu0, _ = cpu_and_rss(server_pid)
    client0 = time.process_time()
    t0 = time.perf_counter()
    bench.stats.measuring = True
    peak = 0
    while time.perf_counter() - t0 < args.duration:
        await asyncio.sleep(1)
        peak = max(peak, cpu_and_rss(server_pid)[1])
    bench.stats.measuring = False
    cpu1, rss = cpu_and_rss(server_pid)
    elapsed = time.perf_counter() - t0
    client_cpu = time.process_time() - client0
    bench.stopping = True
    probe.cancel()
    for t in tables:
        t.cancel()
    await asyncio.gather(*tables, return_exceptions=True)
    await bench.http.aclose()
    s = bench.stats
    print(f"games {args.games}  db {args.label}  workers {args.workers}  game {args.game}")
    print(f"  set-up: {bench.ready} of {args.games} tables playing after {ready_after:.0f} s")
    print(f"  measured {elapsed:.0f} s: {s.acts} acknowledged actions ({s.acts / elapsed:.1f}/s)")
    print(f"  acknowledgement  {percentiles(s.ack)}")
    print(f"  broadcast        {percentiles(s.broadcast)}")
    print(f"  client loop lag  {percentiles(s.lag)}")
    print(f"  client full GCs  {percentiles(GC_PAUSES)}")
    client_rss = int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    errors = ", ".join(f"{k} {v}" for k, v in sorted(s.errors.items())) or "none"
    print(f"  errors           {errors}")
    per = (cpu1 - cpu0) / max(s.acts, 1) * 1000
    print(
        f"  server CPU       {cpu1 - cpu0:.1f} s = {per:.2f} ms per action "
        f"({(cpu1 - cpu0) / elapsed:.2f} cores); client CPU {client_cpu / elapsed:.2f} cores"
    )
    print(
        f"  server memory    {rss / 2**20:.0f} MiB at the end, {peak / 2**20:.0f} MiB at most; "
        f"client {client_rss / 2**20:.0f} MiB"
    )
    print(f"  machine load     {os.getloadavg()[0]:.2f} (1-minute average at the end)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument(
        "--ramp", type=float, default=None, help="seconds over which tables start (N/25)"
    )
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds after set-up before measuring"
    )
    parser.add_argument(
        "--setup",
        type=float,
        default=120.0,
        help="seconds after the ramp to wait for every table to play before measuring anyway",
    )
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game", default="backgammon")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--url",
        default=None,
        help="load a server that is already running (for profiling it) instead of starting one",
    )
    parser.add_argument(
        "--pid", type=int, default=None, help="with --url: the server's process, for its CPU"
    )
    parser.add_argument(
        "--autogroup-nice",
        type=int,
        default=None,
        help="the niceness of the client's and the server's scheduler groups (Linux "
        "autogroups: other sessions' niced jobs otherwise share the cores as equals)",
    )
    parser.add_argument(
        "--old-client",
        action="store_true",
        help="the client as it was before 5 December 2026 (the standard json and event loop, "
        "and the collector on: its pauses stalled the client), to compare figures",
    )
    args = parser.parse_args()
    global loads
    if not args.old_client:
        # a cheaper client leaves more of the machine to the server it measures
        import orjson
        import uvloop

        loads = orjson.loads
        uvloop.install()
    kind = "old (json, asyncio, collector on)" if args.old_client else "orjson, uvloop, no GC"
    print(f"client: {kind}")
    if args.ramp is None:
        args.ramp = args.games / 25
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.url:
        args.label = "external"
        asyncio.run(measure(args, args.url.rstrip("/"), args.pid or os.getpid()))
        return
    tmp = Path(tempfile.mkdtemp(prefix="dicehall-load-"))
    db = args.db or f"sqlite:///{tmp / 'load.sqlite3'}"
    if db.startswith("postgres"):
        # a fresh database of its own, dropped at the end
        import psycopg

        name = f"dicehall_load_{uuid.uuid4().hex[:8]}"
        admin = db.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        db_url = db.rsplit("/", 1)[0] + "/" + name
        args.label = "postgresql"
    else:
        name, admin, db_url = "", "", db
        args.label = "sqlite"
    port = free_port()
    help_text = subprocess.run(
        [sys.executable, "-c", "from dicehall.cli.main import main; main()", "serve", "--help"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    cmd = [
        sys.executable,
        "-c",
        "from dicehall.cli.main import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db_url,
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
    ]
    if args.workers != 1:
        cmd += ["--workers", str(args.workers)]
    if "--address-rate" in help_text:  # one loopback address plays every game here
        cmd += ["--address-rate", "0"]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
    if args.autogroup_nice is not None:
        set_autogroup_nice(args.autogroup_nice, server.pid)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(base, server)
        asyncio.run(measure(args, base, server.pid))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        if name:
            import psycopg

            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
