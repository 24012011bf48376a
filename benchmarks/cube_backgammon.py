"""The bot's cube against GNU Backgammon: decision agreement, cube error, 7-point matches.

    python benchmarks/cube_backgammon.py agreement [--positions 1000] [--level expert]
                                                   [--seed 1] [--out FILE] [--resume]
    python benchmarks/cube_backgammon.py matches [--matches 200] [--length 7]
                                                 [--level expert] [--seed 1]
                                                 [--out FILE] [--resume]

``agreement`` collects positions before the roll from games our 0-ply net plays
against itself (every position of a game, games seeded by ``--seed``), gives each a
cube state (half money play with a centred cube, a quarter 7-point match scores
with a centred cube, a quarter with the cube on 2 owned by the player on roll), and
asks both our bot (``--level``: the search depth of its cube evaluation) and gnubg
at 2-ply, cubeful, what the player on roll should do (double or not) and what the
opponent should answer (take or pass). Prints the agreement of each decision and
our cube error measured by gnubg's own equities, in millipoints per decision (the
normalised equity gnubg prints, times 1000), over all positions and over the
close ones (gnubg's no-double and double equities, or its take and pass equities,
within 0.2 of each other). A decision agrees when it is gnubg's, or when gnubg's
equities of the two choices are within ``TIE`` (0.001) of each other.

``matches`` plays 7-point matches (Crawford rule) of our bot, with its cube,
against gnubg 0-ply with its cubeful 0-ply cube and play. Prints our share of
matches won with a 95% Wilson interval, and the cube actions seen.

``--out`` writes one JSON line per position or match as they finish; ``--resume``
skips what that file already holds, so a long run survives being stopped. Without
``/usr/games/gnubg`` both print a message and stop.
"""

from __future__ import annotations

import argparse
import json
import math
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
#: gnubg equities closer than this are a tie: either decision agrees with it
TIE = 0.001

# One request per line, one answer line "OK ...": the board as 25 + 25 counts (on-roll
# side first, gnubg's point order: 1..24 then the bar), then the cube state.
_SERVER = """
import sys
for c in ("set player 0 human", "set player 1 human", "new session", "new game"):
    gnubg.command(c)
out = sys.__stdout__
for line in sys.stdin:
    v = line.split()
    if not v:
        break
    kind, plies = v[0], int(v[1])
    n = [int(t) for t in v[2:]]
    me, opp = tuple(n[0:25]), tuple(n[25:50])
    cube, owner, matchto, s0, s1, crawford, jacoby, beavers = n[50:58]
    ci = gnubg.cubeinfo(cube, owner, 0, matchto, (s0, s1), crawford, 0)
    ci["jacoby"] = jacoby
    ci["beavers"] = beavers
    ci = gnubg.calcgammonprice(ci)
    ec = gnubg.evalcontext(1, plies, 1, 1, 0.0)
    if kind == "cube":
        r = gnubg.cfevaluate((opp, me), ci, ec)
        out.write("OK %r %r %r %r %d\\n" % (r[0], r[1], r[2], r[3], r[4]))
    else:
        gnubg.command("set dice %d %d" % (n[58], n[59]))
        move = gnubg.findbestmove((opp, me), ci, ec)
        out.write("OK " + " ".join(map(str, move)) + "\\n")
    out.flush()
"""


class Gnubg:
    """GNU Backgammon's cubeful evaluator in a subprocess (its embedded Python)."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory()
        script = Path(self._dir.name) / "serve.py"
        script.write_text(_SERVER)
        self.proc = subprocess.Popen(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def _ask(self, kind: str, plies: int, board: Any, info: Any, dice: tuple[int, int]) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        me, opp = board[0].tolist(), board[1].tolist()
        owner = -1 if info.owner is None else (0 if info.owner == info.player else 1)
        s0, s1 = info.score[info.player], info.score[1 - info.player]
        fields = [
            *me[1:26],
            *opp[1:26],
            info.value,
            owner,
            info.match_length,
            s0,
            s1,
            int(info.crawford),
            int(info.jacoby),
            int(info.beavers),
            *dice,
        ]
        self.proc.stdin.write(f"{kind} {plies} " + " ".join(map(str, fields)) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("gnubg stopped")
            if line.startswith("OK"):
                return line[3:]

    def cube(self, board: Any, info: Any, plies: int) -> tuple[float, float, float, float]:
        """gnubg's ``(optimal, no double, double/take, double/pass)`` for row 0 on roll."""
        v = self._ask("cube", plies, board, info, (0, 0)).split()
        return float(v[0]), float(v[1]), float(v[2]), float(v[3])

    def play(self, board: Any, d1: int, d2: int, info: Any, plies: int) -> int:
        """Index of gnubg's cubeful play among ``fast.plays(board, d1, d2)``."""
        from dicehall.games.backgammon.fast import plays
        from dicehall.games.backgammon.rules import move_step

        move = [int(t) for t in self._ask("move", plies, board, info, (d1, d2)).split()]
        m, t = board[0].tolist(), board[1].tolist()
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


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _cube_plies(level: str) -> int:
    from dicehall.bots.backgammon import SETTINGS

    return min(2, SETTINGS[level].plies)


# -- agreement -----------------------------------------------------------------------


def collect_positions(count: int, seed: int) -> list[tuple[Any, Any]]:
    """``count`` positions before the roll from self-play games of our 0-ply net, each
    with a cube state; deterministic in ``seed``."""
    from dicehall.bots.backgammon import Bot
    from dicehall.bots.backgammon.cube import CubeInfo
    from dicehall.games.backgammon.fast import outcome, plays, swap

    rng = np.random.default_rng(seed)
    bot = Bot("medium")
    positions: list[tuple[Any, Any]] = []
    while len(positions) < count:
        board = np.zeros((2, 26), dtype=np.int8)
        board[:, 24], board[:, 13], board[:, 8], board[:, 6] = 2, 5, 3, 5
        first = True
        while True:
            if not first:
                positions.append((board.copy(), None))
            first = False
            d1, d2 = sorted(int(x) for x in rng.integers(1, 7, 2))[::-1]
            n, _, boards, _ = plays(board, d1, d2)
            after = boards[bot.choose(board, d1, d2, False) if n > 1 else 0]
            if outcome(after[0], after[1]):
                break
            board = swap(after)
    pick = rng.choice(len(positions), size=count, replace=False)
    out = []
    for k, i in enumerate(sorted(pick)):
        board = positions[i][0]
        kind = k % 4
        if kind in (0, 1):
            info = CubeInfo()
        else:
            while True:
                s = (int(rng.integers(0, 7)), int(rng.integers(0, 7)))
                if 1 not in (7 - s[0], 7 - s[1]):  # pre-Crawford scores only
                    break
            owner = 0 if kind == 3 else None
            info = CubeInfo(value=2 if owner == 0 else 1, owner=owner, match_length=7, score=s)
            if info.away[0] <= 2 and owner == 0:  # a 2-cube owned at 2-away is dead
                info = CubeInfo(match_length=7, score=s)
        out.append((board, info))
    return out


def agreement(args: argparse.Namespace) -> None:
    from dicehall.bots.backgammon import default_network
    from dicehall.bots.backgammon.cube import decide

    plies = _cube_plies(args.level)
    positions = collect_positions(args.positions, args.seed)
    done: dict[int, dict[str, Any]] = {}
    header = {"kind": "agreement", "level": args.level, "seed": args.seed}
    out = _open_out(args, header, done, "position")
    gnubg = Gnubg()
    net = default_network()
    stop = _stopper()
    started = time.perf_counter()
    try:
        for k, (board, info) in enumerate(positions):
            if k in done:
                continue
            if stop:
                print(f"  stopped after {len(done)} positions")
                break
            t = time.perf_counter()
            ours = decide(board, info, net, plies)
            ours_s = time.perf_counter() - t
            _opt, nd, dt, dp = gnubg.cube(board, info, 2)
            row = {
                "position": k,
                "money": info.money,
                "score": list(info.score),
                "cube": info.value,
                "double": bool(ours.should_double),
                "take": bool(ours.should_take),
                "ours": [ours.no_double, ours.double_take, ours.double_pass],
                "gnubg": [nd, dt, dp],
                "seconds": ours_s,
            }
            done[k] = row
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if args.every and len(done) % args.every == 0:
                print(f"  {len(done)} positions", flush=True)
    finally:
        gnubg.close()
        if out:
            out.close()
    report_agreement(list(done.values()), args.level, time.perf_counter() - started)


def report_agreement(rows: list[dict[str, Any]], level: str, elapsed: float) -> None:
    """Agreement and cube error by gnubg's equities, over all and over close positions."""
    if not rows:
        print("no positions evaluated")
        return

    def judge(row: dict[str, Any]) -> tuple[bool, bool, float, float, bool]:
        nd, dt, dp = row["gnubg"]
        g_double = min(dt, dp) > nd
        g_take = dt <= dp
        best = max(nd, min(dt, dp))
        d_err = best - (min(dt, dp) if row["double"] else nd)
        t_err = (dt if row["take"] else dp) - min(dt, dp)
        close = abs(min(dt, dp) - nd) < 0.2 or abs(dt - dp) < 0.2
        tie_d = abs(min(dt, dp) - nd) < TIE
        tie_t = abs(dt - dp) < TIE
        return (
            g_double == row["double"] or tie_d,
            g_take == row["take"] or tie_t,
            max(0.0, d_err),
            max(0.0, t_err),
            close,
        )

    judged = [judge(r) for r in rows]
    for name, subset in (
        ("all", judged),
        ("close", [j for j in judged if j[4]]),
        ("money", [j for j, r in zip(judged, rows, strict=True) if r["money"]]),
        ("7-point match", [j for j, r in zip(judged, rows, strict=True) if not r["money"]]),
    ):
        n = len(subset)
        if not n:
            continue
        d_agree = sum(j[0] for j in subset)
        t_agree = sum(j[1] for j in subset)
        d_err = 1000 * sum(j[2] for j in subset) / n
        t_err = 1000 * sum(j[3] for j in subset) / n
        lo, hi = wilson(d_agree, n)
        lo2, hi2 = wilson(t_agree, n)
        print(f"{name}: {n} positions")
        print(
            f"  double/no double agrees with gnubg 2-ply: {100 * d_agree / n:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}]; error {d_err:.1f} mp per decision"
        )
        print(
            f"  take/pass agrees: {100 * t_agree / n:.1f}% [{100 * lo2:.1f}, {100 * hi2:.1f}]; "
            f"error {t_err:.1f} mp per decision"
        )
    secs = [r["seconds"] for r in rows]
    print(
        f"our cube evaluation ({level}): {np.mean(secs) * 1000:.1f} ms mean, "
        f"{max(secs) * 1000:.0f} ms at most; wall time {elapsed:.0f} s"
    )


# -- matches -------------------------------------------------------------------------


class OurSide:
    """Our bot with its cube."""

    def __init__(self, level: str, seed: int) -> None:
        from dicehall.bots.backgammon import Bot

        self.bot = Bot(level, seed=seed)
        self.plies = _cube_plies(level)
        self.name = f"bot:{level}"
        self.decision: Any = None

    def doubles(self, board: Any, info: Any) -> bool:
        from dicehall.bots.backgammon.cube import decide

        self.decision = decide(board, info, self.bot.network, self.plies)
        return bool(self.decision.should_double)

    def takes(self, board: Any, info: Any) -> bool:
        """``board`` and ``info`` are the doubler's (he is on roll)."""
        from dicehall.bots.backgammon.cube import decide

        return bool(decide(board, info, self.bot.network, self.plies).should_take)

    def play(self, board: Any, d1: int, d2: int, info: Any) -> int:
        from dicehall.bots.backgammon.cube import choose_play

        return choose_play(self.bot, board, d1, d2, info)


class GnubgSide:
    """gnubg at ``plies`` with its cubeful decisions and play."""

    def __init__(self, gnubg: Gnubg, plies: int) -> None:
        self.gnubg = gnubg
        self.plies = plies
        self.name = f"gnubg:{plies}ply"

    def doubles(self, board: Any, info: Any) -> bool:
        _opt, nd, dt, dp = self.gnubg.cube(board, info, self.plies)
        return min(dt, dp) > nd

    def takes(self, board: Any, info: Any) -> bool:
        _opt, _nd, dt, dp = self.gnubg.cube(board, info, self.plies)
        return dt <= dp

    def play(self, board: Any, d1: int, d2: int, info: Any) -> int:
        return self.gnubg.play(board, d1, d2, info, self.plies)


def play_match(sides: tuple[Any, Any], length: int, rng: Any) -> dict[str, Any]:
    """One match to ``length`` with the Crawford rule; seat 0 and 1 are ``sides``."""
    from dicehall.bots.backgammon.cube import CubeInfo
    from dicehall.games.backgammon.fast import outcome, plays, swap

    score = [0, 0]
    post = False
    games = []
    counts = {"doubles": [0, 0], "takes": [0, 0], "passes": [0, 0]}
    while max(score) < length:
        crawford = not post and (length - 1 in score)
        board = np.zeros((2, 26), dtype=np.int8)
        board[:, 24], board[:, 13], board[:, 8], board[:, 6] = 2, 5, 3, 5
        a, b = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        while a == b:
            a, b = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        turn = 0 if a > b else 1
        dice: tuple[int, int] | None = (max(a, b), min(a, b))
        cube, owner = 1, None
        while True:
            info = CubeInfo(
                value=cube,
                owner=owner,
                player=turn,
                match_length=length,
                score=(score[0], score[1]),
                crawford=crawford,
                post_crawford=post,
            )
            if dice is None and info.may_double() and sides[turn].doubles(board, info):
                counts["doubles"][turn] += 1
                if sides[1 - turn].takes(board, info):
                    counts["takes"][1 - turn] += 1
                    cube, owner = 2 * cube, 1 - turn
                    info = CubeInfo(cube, owner, turn, length, info.score, crawford, post)
                else:
                    counts["passes"][1 - turn] += 1
                    winner, points = turn, cube
                    break
            if dice is None:
                x, y = int(rng.integers(1, 7)), int(rng.integers(1, 7))
                dice = (max(x, y), min(x, y))
            n, _, boards, _ = plays(board, *dice)
            after = boards[sides[turn].play(board, dice[0], dice[1], info) if n > 1 else 0]
            dice = None
            kind = int(outcome(after[0], after[1]))
            if kind:
                winner, points = turn, kind * cube
                break
            board = swap(after)
            turn = 1 - turn
        score[winner] += points
        games.append([winner, points])
        if crawford:
            post = True
    return {"winner": 0 if score[0] >= length else 1, "score": score, "games": games, **counts}


def matches(args: argparse.Namespace) -> None:
    done: dict[int, dict[str, Any]] = {}
    header = {"kind": "matches", "level": args.level, "seed": args.seed, "length": args.length}
    out = _open_out(args, header, done, "match")
    gnubg = Gnubg()
    ours = OurSide(args.level, args.seed)
    theirs = GnubgSide(gnubg, 0)
    stop = _stopper()
    started = time.perf_counter()
    try:
        for m in range(args.matches):
            if m in done:
                continue
            if stop:
                print(f"  stopped after {len(done)} matches")
                break
            rng = np.random.default_rng([args.seed, m])
            ours.bot._rng = np.random.default_rng([args.seed, m, 1])
            we = m % 2  # our seat alternates
            sides = (ours, theirs) if we == 0 else (theirs, ours)
            t = time.perf_counter()
            result = play_match(sides, args.length, rng)
            row = {
                "match": m,
                "won": result["winner"] == we,
                "our_seat": we,
                "seconds": time.perf_counter() - t,
                **result,
            }
            done[m] = row
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if args.every and len(done) % args.every == 0:
                w = sum(r["won"] for r in done.values())
                print(f"  {len(done)} matches: we won {w}", flush=True)
    finally:
        gnubg.close()
        if out:
            out.close()
    report_matches(list(done.values()), args, time.perf_counter() - started)


def report_matches(rows: list[dict[str, Any]], args: argparse.Namespace, elapsed: float) -> None:
    n = len(rows)
    if not n:
        print("no matches played")
        return
    wins = sum(r["won"] for r in rows)
    lo, hi = wilson(wins, n)
    print(f"bot:{args.level} vs gnubg:0ply, {args.length}-point matches with the cube: {n} played")
    print(
        f"  we win {wins}/{n} = {100 * wins / n:.1f}% (95% Wilson [{100 * lo:.1f}, {100 * hi:.1f}])"
    )
    games = sum(len(r["games"]) for r in rows)
    print(f"  {games} games, {games / n:.1f} per match")
    for who, label in ((0, "us"), (1, "gnubg")):

        def seat(r: dict[str, Any], key: str, who: int = who) -> int:
            s = r["our_seat"] if who == 0 else 1 - r["our_seat"]
            return int(r[key][s])

        d = sum(seat(r, "doubles") for r in rows)
        t = sum(seat(r, "takes") for r in rows)
        p = sum(seat(r, "passes") for r in rows)
        print(f"  {label}: {d} doubles, {t} takes, {p} passes")
    secs = [r["seconds"] for r in rows]
    print(f"  {np.mean(secs):.1f} s per match; wall time {elapsed:.0f} s")


# -- shared --------------------------------------------------------------------------


def _open_out(
    args: argparse.Namespace, header: dict[str, Any], done: dict[int, Any], key: str
) -> Any:
    if args.resume and not args.out:
        sys.exit("--resume needs --out FILE (the file of a previous run)")
    if not args.out:
        return None
    path = Path(args.out)
    if args.resume and path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if key in row:
                done[row[key]] = row
            elif {k: row.get(k) for k in header} != header:
                sys.exit(f"{path} holds another run ({row}); not resuming it")
        print(f"resuming: {len(done)} already done")
    else:
        path.write_text(json.dumps(header) + "\n")
    return open(path, "a")


def _stopper() -> list[int]:
    stop: list[int] = []

    def request(*_: Any) -> None:
        stop.append(1)  # finish the position or match in hand, then report

    signal.signal(signal.SIGTERM, request)
    signal.signal(signal.SIGINT, request)
    return stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("agreement", help="cube decisions against gnubg 2-ply")
    a.add_argument("--positions", type=int, default=1000)
    m = sub.add_parser("matches", help="matches against gnubg 0-ply with the cube")
    m.add_argument("--matches", type=int, default=200)
    m.add_argument("--length", type=int, default=7)
    for p in (a, m):
        p.add_argument("--level", default="expert")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--out", default=None, help="append one JSON line per result")
        p.add_argument("--resume", action="store_true", help="skip what --out holds")
        p.add_argument("--every", type=int, default=0, help="print progress every N")
    args = parser.parse_args()
    from dicehall.bots.backgammon import SETTINGS

    if args.level not in SETTINGS:
        parser.error(f"unknown level {args.level!r}; choose one of {', '.join(SETTINGS)}")
    if not shutil.which(GNUBG):
        print(f"skipped: {GNUBG} is not installed")
        return
    if args.command == "agreement":
        agreement(args)
    else:
        matches(args)


if __name__ == "__main__":
    sys.exit(main())
