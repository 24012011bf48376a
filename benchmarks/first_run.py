"""How long a newcomer waits for the first backgammon game (prints the figures).

    python benchmarks/first_run.py [--cold]

Measures, each in a fresh process:
  1. with ``--cold``: the warm-up of the backgammon engine with an empty numba cache
     (``NUMBA_CACHE_DIR`` in a temporary folder), i.e. what the background precompile
     or the first command of a new install pays once;
  2. the same warm-up with that cache filled (what every later run pays at most);
  3. ``dicehall play backgammon --vs bot:expert`` until its first prompt, with the
     cache filled and the engine stamped ready (the newcomer's first game once the
     background compile is done), the bot making the first move where it starts.

Wall-clock seconds on whatever machine runs it: say how loaded it was.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WARM = (
    "import time; t = time.perf_counter(); from dicehall.cli.engine import main; "
    "main(['--holding-lock']); print(time.perf_counter() - t)"
)


def child_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def warm_up(env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of the engine warm-up in a fresh process with ``env``."""
    start, cpu = time.perf_counter(), child_cpu()
    subprocess.run([sys.executable, "-c", WARM], env=env, check=True, capture_output=True)
    return time.perf_counter() - start, child_cpu() - cpu


def first_prompt(env: dict[str, str], seat: int) -> tuple[float, float]:
    """Wall seconds from starting ``dicehall play backgammon`` to its first prompt, and
    the CPU seconds of the whole run (to the prompt and a quit)."""
    args = ["play", "backgammon", "--vs", "bot:expert", "--seed", "1", "--seat", str(seat)]
    start, cpu = time.perf_counter(), child_cpu()
    proc = subprocess.Popen(
        [sys.executable, "-m", "dicehall.cli", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdin.write("quit\n")  # from a pipe the prompt is echoed once a line is read
    proc.stdin.close()
    seen = ""
    while "(you)> " not in seen:
        char = proc.stdout.read(1)
        if not char:
            raise RuntimeError(f"no prompt: {seen[-500:]}")
        seen += char
    elapsed = time.perf_counter() - start
    proc.stdout.read()
    proc.wait(timeout=120)
    return elapsed, child_cpu() - cpu


def show(what: str, seconds: tuple[float, float]) -> None:
    print(f"{what:42} {seconds[0]:6.1f} s wall, {seconds[1]:5.1f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="also compile from an empty cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dicehall-first-run-") as tmp:
        env = dict(os.environ, DICEHALL_CACHE_DIR=tmp, DICEHALL_NO_PRECOMPILE="1")
        if args.cold:
            env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba")
            show("engine warm-up, empty numba cache", warm_up(env))
        show("engine warm-up, filled cache", warm_up(env))
        for seat in (1, 2):
            show(f"first prompt of play (you at seat {seat})", first_prompt(env, seat))
        print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
