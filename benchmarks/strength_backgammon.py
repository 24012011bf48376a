"""Backgammon strength: N games between two bots, colours swapped with common dice.

    python benchmarks/strength_backgammon.py A B [--games 10000] [--seed 1] [--workers 2]
                                               [--scoring single|standard] [--out FILE]

A and B are any of: ``random``, ``pubeval``, ``0ply``, ``1ply``, ``2ply``, a level
(``beginner`` ... ``expert``, also written ``bot:expert``), or ``gnubg[:PLIES[:dmp]]``
(GNU Backgammon's own evaluator through ``/usr/games/gnubg``, cubeless, default
0-ply; skipped with a message when gnubg is not installed). Plain ``gnubg`` plays for
cubeless money equity, gammons counting, even where ``--scoring single`` scores only
wins; ``gnubg:PLIES:dmp`` plays as at double match point (a 1-point match), for wins
alone, which is the fair opponent in single-scored games (at 0-ply the two choose
differently in about a fifth of positions from random play). Optional ``--weights
FILE`` makes the net bots use other weights (e.g. a training checkpoint), and
``--race-weights FILE`` another race net (``race_training.py --export``).

Games come in pairs: both games of a pair use the same dice sequence, with A
playing first seat in one and second in the other, which cancels much of the luck.
Prints A's share of wins with a 95% confidence interval, points per game with its
95% interval, gammon rates and the decisions per second of each side.

Decision times are per decision, wall-clock and CPU time of the worker process (the
CPU figure is the search's own cost, which the machine's load does not inflate; a
gnubg player's CPU figure adds its gnubg process's CPU, read from ``/proc`` in clock
ticks of 10 ms),
after one untimed warm-up decision in each worker process (the first call of a
process loads numba's compiled kernels and the bear-off databases: about a second
on a quiet machine, several under load; a server pays it once at start-up,
``warm.py``).

Every pair's dice and every bot's random choices are seeded by ``(seed, pair)``, so
the result is the same for any ``--workers``. ``--out`` writes each game's points as
JSON lines while the run goes, and ``--resume`` skips the pairs already in that file:
a long run survives being stopped (Ctrl-C or SIGTERM stop it cleanly).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

GNUBG = "/usr/games/gnubg"
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

_GNUBG_SCRIPT = """
import sys
for c in ("set player 0 human", "set player 1 human", "new session", "new game"):
    gnubg.command(c)
ctx = {"cubeful": 0, "plies": PLIES, "deterministic": 1, "prune": 1, "noise": 0.0}
# money (gammons count), or a 1-point match: (cube, owner, move, match to, score, crawford)
ci = gnubg.cubeinfo(1, -1, 0, 1, (0, 0), 0) if DMP else gnubg.cubeinfo()
out = sys.__stdout__
for line in sys.stdin:
    v = [int(t) for t in line.split()]
    if not v:
        break
    gnubg.command("set dice %d %d" % (v[0], v[1]))
    move = gnubg.findbestmove((tuple(v[27:52]), tuple(v[2:27])), ci, ctx)
    out.write("MOVE " + " ".join(map(str, move)) + "\\n")
    out.flush()
"""


class Player:
    """Chooses an index among ``fast.plays(board, d1, d2)``; times itself."""

    name = "?"

    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0
        self.slowest = 0.0
        self.cpu = 0.0  # CPU seconds of this process over the timed decisions
        self.cpu_slowest = 0.0

    def choose(self, board: Any, d1: int, d2: int, single: bool) -> int:
        raise NotImplementedError

    def timed_choose(self, board: Any, d1: int, d2: int, single: bool) -> int:
        start = time.perf_counter()
        cpu_start = time.process_time()
        i = self.choose(board, d1, d2, single)
        cpu = time.process_time() - cpu_start
        took = time.perf_counter() - start
        self.seconds += took
        self.slowest = max(self.slowest, took)
        self.cpu += cpu
        self.cpu_slowest = max(self.cpu_slowest, cpu)
        self.decisions += 1
        return i

    def reseed(self, seed: int, pair: int) -> None:
        """Make the player's own random choices (if any) depend on the pair only."""

    def warm_up(self) -> None:
        """One untimed decision, so the first timed one does not load code and tables."""
        board = np.zeros((2, 26), dtype=np.int8)
        board[:, 24], board[:, 13], board[:, 8], board[:, 6] = 2, 5, 3, 5
        self.choose(board, 3, 1, True)

    def close(self) -> None:
        pass


class RandomPlayer(Player):
    def __init__(self, seed: int) -> None:
        super().__init__()
        self.name = "random"
        self.rng = np.random.default_rng(seed)

    def reseed(self, seed: int, pair: int) -> None:
        self.rng = np.random.default_rng([seed, pair])

    def choose(self, board: Any, d1: int, d2: int, single: bool) -> int:
        from dicehall.games.backgammon.fast import plays

        return int(self.rng.integers(plays(board, d1, d2)[0]))


def load_nets(weights: str | None, race: str | None = None) -> Any:
    """The contact net in ``weights`` (None: the shipped one) with the race net in
    ``race`` (None: the shipped one)."""
    from dicehall.bots.backgammon import default_network
    from dicehall.bots.backgammon.network import Network

    if weights is None and race is None:
        return default_network()
    net = Network.load(weights)
    if race is not None:
        from dicehall.bots.backgammon.race import load

        net.race = load(race)[0]
    return net


class BotPlayer(Player):
    def __init__(self, level: str, seed: int, weights: str | None, race: str | None) -> None:
        super().__init__()
        from dicehall.bots.backgammon import Bot

        self.bot = Bot(level=level, seed=seed, network=load_nets(weights, race))
        self.name = level

    def reseed(self, seed: int, pair: int) -> None:
        self.bot._rng = np.random.default_rng([seed, pair])

    def choose(self, board: Any, d1: int, d2: int, single: bool) -> int:
        return self.bot.choose(board, d1, d2, single)


class GnubgPlayer(Player):
    """GNU Backgammon's evaluator, driven through its embedded Python, cubeless; for
    money equity, or for wins alone (``dmp``: as at double match point)."""

    def __init__(self, plies: int, dmp: bool = False) -> None:
        super().__init__()
        self.name = f"gnubg:{plies}ply" + (":dmp" if dmp else "")  # as gnubg_name
        self._dir = tempfile.TemporaryDirectory()
        script = Path(self._dir.name) / "serve.py"
        code = _GNUBG_SCRIPT.replace("PLIES", str(plies)).replace("DMP", str(int(dmp)))
        script.write_text(code)
        self.proc = subprocess.Popen(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def process_cpu(self) -> float:
        """CPU seconds of the gnubg process so far (Linux ``/proc``; 0.0 elsewhere)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            return 0.0
        # utime and stime are fields 14 and 15 of stat, 12 and 13 after the ")"
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS

    def timed_choose(self, board: Any, d1: int, d2: int, single: bool) -> int:
        """As ``Player.timed_choose``, but the CPU time is the gnubg process's own."""
        cpu_start = self.process_cpu()
        i = super().timed_choose(board, d1, d2, single)
        cpu = self.process_cpu() - cpu_start
        self.cpu += cpu  # the piping's own CPU (in this process) is negligible beside it
        self.cpu_slowest = max(self.cpu_slowest, cpu)
        return i

    def choose(self, board: Any, d1: int, d2: int, single: bool) -> int:
        from dicehall.games.backgammon.fast import plays
        from dicehall.games.backgammon.rules import move_step

        assert self.proc.stdin is not None and self.proc.stdout is not None
        mine, theirs = board[0].tolist(), board[1].tolist()
        self.proc.stdin.write(" ".join(map(str, [d1, d2, *mine[1:26], *theirs[1:26]])) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("gnubg stopped")
            if line.startswith("MOVE"):
                break
        move = [int(t) for t in line.split()[1:]]
        m, t = list(mine), list(theirs)
        for k in range(0, len(move), 2):
            if move[k] > 0:
                move_step(m, t, move[k], max(move[k + 1], 0))
        n, _, boards, _ = plays(board, d1, d2)
        for i in range(n):
            if boards[i, 0].tolist() == m and boards[i, 1].tolist() == t:
                return i
        raise RuntimeError(f"gnubg's move {move} is not among our legal plays")

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self._dir.cleanup()


def parse_gnubg(spec: str) -> tuple[int, bool]:
    """``gnubg[:PLIES[:dmp]]`` as (plies, dmp); raises ``ValueError`` saying what is allowed."""
    parts = spec.lower().split(":")
    if parts[0] != "gnubg" or len(parts) > 3 or (len(parts) == 3 and parts[2] != "dmp"):
        raise ValueError(f"{spec!r}: write gnubg, gnubg:PLIES or gnubg:PLIES:dmp")
    plies = parts[1].removesuffix("ply") if len(parts) > 1 else ""
    if plies and not (plies.isdigit() and int(plies) <= 4):
        raise ValueError(f"{spec!r}: PLIES is 0 to 4")
    return int(plies or 0), len(parts) == 3


def gnubg_name(spec: str) -> str:
    """The name a gnubg player reports: ``gnubg:2ply``, ``gnubg:0ply:dmp``."""
    plies, dmp = parse_gnubg(spec)
    return f"gnubg:{plies}ply" + (":dmp" if dmp else "")


def make_player(
    spec: str, seed: int, weights: str | None, race: str | None = None
) -> Player | None:
    spec = spec.lower().removeprefix("bot:")
    if spec == "random":
        return RandomPlayer(seed)
    if spec.startswith("gnubg"):
        if not shutil.which(GNUBG):
            return None
        return GnubgPlayer(*parse_gnubg(spec))
    return BotPlayer(spec, seed, weights, race)


def play_game(a: Player, b: Player, a_first: bool, rolls: Any, single: bool) -> int:
    """One game from the start; returns A's points (negative when A loses)."""
    from dicehall.games.backgammon.fast import outcome, plays, swap

    board = np.zeros((2, 26), dtype=np.int8)
    board[:, 24], board[:, 13], board[:, 8], board[:, 6] = 2, 5, 3, 5
    players = (a, b) if a_first else (b, a)
    turn = 0
    k = 0
    while True:
        d1, d2 = int(rolls[k, 0]), int(rolls[k, 1])
        k += 1
        n, _, boards, _ = plays(board, d1, d2)
        i = players[turn].timed_choose(board, d1, d2, single) if n > 1 else 0
        after = boards[i]
        points = int(outcome(after[0], after[1]))
        if points:
            points = 1 if single else points
            return points if (players[turn] is a) else -points
        board = swap(after)
        turn = 1 - turn


def dice_for_pair(seed: int, pair: int, length: int = 2000) -> Any:
    """The pair's rolls: a non-double opening (who starts is the seat order), then any."""
    rng = np.random.default_rng([seed, pair])
    rolls = rng.integers(1, 7, size=(length, 2))
    while rolls[0, 0] == rolls[0, 1]:
        rolls[0] = rng.integers(1, 7, size=2)
    rolls.sort(axis=1)
    return rolls[:, ::-1].copy()


_WORKER: dict[str, Any] = {}


def _init_worker(a: str, b: str, seed: int, weights: str | None, race: str | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER["players"] = (
        make_player(a, seed, weights, race),
        make_player(b, seed + 1, weights, race),
    )
    for player in _WORKER["players"]:
        player.warm_up()  # every pair reseeds the players: this changes no game
    _WORKER["seed"] = seed


def _play_pair(
    job: tuple[int, bool],
) -> tuple[int, list[int], list[tuple[int, float, float, float, float]]]:
    """Both games of one pair; returns A's points and each side's timing so far."""
    pair, single = job
    a, b = _WORKER["players"]
    seed = _WORKER["seed"]
    before = [(p.decisions, p.seconds, p.cpu) for p in (a, b)]
    a.reseed(seed, pair)
    b.reseed(seed + 1, pair)
    rolls = dice_for_pair(seed, pair)
    points = [play_game(a, b, True, rolls, single), play_game(a, b, False, rolls, single)]
    stats = [
        (p.decisions - d, p.seconds - t, p.slowest, p.cpu - c, p.cpu_slowest)
        for p, (d, t, c) in zip((a, b), before, strict=True)
    ]
    return pair, points, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=10_000, help="total games (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes playing pairs")
    parser.add_argument("--scoring", choices=("single", "standard"), default="single")
    parser.add_argument("--weights", default=None, help="weights for the net bots")
    parser.add_argument("--race-weights", default=None, help="race net for the net bots")
    parser.add_argument("--every", type=int, default=0, help="print a line every N games")
    parser.add_argument("--out", default=None, help="append each pair's points (JSON lines)")
    parser.add_argument("--resume", action="store_true", help="skip the pairs already in --out")
    parser.add_argument(
        "--python", action="store_true", help="no compiled loop even for 0ply vs pubeval"
    )
    args = parser.parse_args()
    if args.resume and not args.out:
        parser.error("--resume needs --out FILE (the file of a previous run)")
    single = args.scoring == "single"
    specs = [s.lower().removeprefix("bot:") for s in (args.a, args.b)]
    if specs == ["0ply", "pubeval"] and not args.python and not args.out:
        compiled_0ply_vs_pubeval(args.games, args.seed, single, args.weights, args.race_weights)
        return
    if any(s.startswith("gnubg") for s in specs) and not shutil.which(GNUBG):
        print(f"skipped: {GNUBG} is not installed")
        return
    for spec in specs:  # a bad name fails here, not in a worker
        if spec.startswith("gnubg"):
            try:
                parse_gnubg(spec)
            except ValueError as e:
                parser.error(str(e))
        else:
            make_player(spec, args.seed, args.weights, args.race_weights)

    done: dict[int, list[int]] = {}
    header = {"a": args.a, "b": args.b, "seed": args.seed, "scoring": args.scoring}
    if args.resume and Path(args.out).exists():
        for line in Path(args.out).read_text().splitlines():
            row = json.loads(line)
            if "pair" in row:
                done[row["pair"]] = row["points"]
            elif {k: row.get(k) for k in header} != header:
                sys.exit(f"{args.out} holds another run ({row}); not resuming it")
        print(f"resuming: {len(done)} pairs already played")
    elif args.out:
        Path(args.out).write_text(json.dumps(header) + "\n")
    out = open(args.out, "a") if args.out else None  # noqa: SIM115

    todo = [(pair, single) for pair in range(args.games // 2) if pair not in done]
    names = [s.removeprefix("bot:") for s in specs]
    names = [gnubg_name(n) if n.startswith("gnubg") else n for n in names]
    # decisions, seconds, slowest, CPU seconds, slowest in CPU
    timing: list[list[float]] = [[0, 0.0, 0.0, 0.0, 0.0], [0, 0.0, 0.0, 0.0, 0.0]]
    stop: list[int] = []

    def request_stop(*_: Any) -> None:
        stop.append(1)  # finish the pairs being played, then report

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    started = time.perf_counter()
    pool = multiprocessing.get_context("fork").Pool(
        args.workers,
        _init_worker,
        (args.a, args.b, args.seed, args.weights, args.race_weights),
    )
    try:
        for pair, points, stats in pool.imap_unordered(_play_pair, todo, chunksize=1):
            done[pair] = points
            if out:
                out.write(json.dumps({"pair": pair, "points": points}) + "\n")
                out.flush()
            for side, (d, t, slow, cpu, cpu_slow) in enumerate(stats):
                timing[side][0] += d
                timing[side][1] += t
                timing[side][2] = max(timing[side][2], slow)
                timing[side][3] += cpu
                timing[side][4] = max(timing[side][4], cpu_slow)
            n = 2 * len(done)
            if args.every and n % args.every == 0:
                w = sum(p > 0 for pts in done.values() for p in pts) / n
                print(f"  {n} games: {names[0]} wins {100 * w:.2f}%", flush=True)
            if stop:
                print(f"  stopped early after {n} games")
                break
    finally:
        pool.terminate()
        pool.join()
        if out:
            out.close()
    elapsed = time.perf_counter() - started
    results = [p for pair in sorted(done) for p in done[pair]]
    report(names[0], names[1], results, args.scoring)
    for name, (decisions, seconds, slowest, cpu, cpu_slowest) in zip(names, timing, strict=True):
        rate = decisions / seconds if seconds else float("inf")
        mean = seconds / decisions if decisions else 0.0
        cpu_mean = cpu / decisions if decisions else 0.0
        print(
            f"  {name}: {int(decisions)} decisions, {rate:,.1f} moves/s, wall-clock mean "
            f"{mean:.3f} s, slowest {slowest:.2f} s; CPU mean {cpu_mean:.3f} s, "
            f"slowest {cpu_slowest:.2f} s"
        )
    print(f"  wall time {elapsed:.0f} s with {args.workers} worker(s)")


def report(a: str, b: str, results: Any, scoring: str) -> None:
    """A's wins and points per game with 95% intervals."""
    single = scoring == "single"
    n = len(results)
    if n == 0:
        print(f"{a} vs {b}: no games played")
        return
    pts = np.array(results, dtype=float)
    wins = float(np.mean(pts > 0))
    ci = 1.96 * math.sqrt(wins * (1 - wins) / n)
    ppg = float(pts.mean())
    ppg_ci = 1.96 * float(pts.std(ddof=1)) / math.sqrt(n)
    gammons = float(np.mean(np.abs(pts) >= 2))
    print(f"{a} vs {b}: {n} games ({n // 2} pairs, common dice), {scoring} scoring")
    from dicehall.arena.summary import wilson

    low, high = wilson(int(np.sum(pts > 0)), n)
    print(f"  {a} wins {100 * wins:.2f}% +- {100 * ci:.2f}% (95% CI)")
    print(f"  Wilson 95% interval: [{100 * low:.2f}%, {100 * high:.2f}%]")
    print(f"  points per game for {a}: {ppg:+.3f} +- {ppg_ci:.3f}")
    if not single:
        print(f"  gammons or backgammons: {100 * gammons:.1f}% of games")


def compiled_0ply_vs_pubeval(
    games: int, seed: int, single: bool, weights: str | None, race: str | None = None
) -> None:
    """The same pairs, played entirely in compiled code (numba's own dice stream)."""
    from dicehall.bots.backgammon.search import duel_0ply_vs_pubeval

    net = load_nets(weights, race)
    duel_0ply_vs_pubeval(*net.params(), 1, seed, single)  # compile outside the timing
    started = time.perf_counter()
    points = duel_0ply_vs_pubeval(*net.params(), games // 2, seed, single)
    elapsed = time.perf_counter() - started
    report("0ply", "pubeval", points, "single" if single else "standard")
    print(f"  compiled loop: {len(points) / elapsed:,.0f} games/s, wall time {elapsed:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
