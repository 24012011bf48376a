"""``dicehall arena``: its workers never outlive it; drawn Coin Rows games explained."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from terminal_spawn import shell_like

from dicehall.cli.arena import draw_note

ARENA = [sys.executable, "-m", "dicehall.cli", "arena"]


def children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_killing_the_arena_stops_its_workers(how: signal.Signals) -> None:
    proc = subprocess.Popen(
        [*ARENA, "coinrows", "random", "random", "-n", "100000", "-w", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=shell_like,  # the signals reach the command, as from a shell
    )
    try:
        # the spawn start method also runs a resource tracker: wait for it and two workers
        assert wait_for(lambda: len(children(proc.pid)) >= 3, 120), proc.stderr
        time.sleep(1.0)  # the workers are playing
        workers = children(proc.pid)
        os.kill(proc.pid, how)
        proc.wait(timeout=60)
        assert wait_for(lambda: not any(alive(w) for w in workers), 15), [
            Path(f"/proc/{w}/cmdline").read_bytes() for w in workers if alive(w)
        ]
        if how is not signal.SIGKILL:
            assert proc.returncode != 0
            assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_drawn_coinrows_games_are_explained() -> None:
    note = draw_note("coinrows", {"leaving": True}, 19, 20)
    assert note is not None and "leaving=false" in note and "19 of 20" in note
    assert draw_note("coinrows", {"leaving": False}, 19, 20) == (
        "19 of 20 games were drawn: the score counts a draw as half a win."
    )
    assert draw_note("coinrows", {"leaving": True}, 2, 20) is None


def test_the_arena_table_shows_a_wilson_win_share_and_the_note() -> None:
    proc = subprocess.run(
        [*ARENA, "coinrows", "random", "random", "-n", "12", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, COLUMNS="200"),
    )
    assert proc.returncode == 0, proc.stderr
    assert "wins, 95% interval" in proc.stdout
    assert "95% interval (Wilson)" in proc.stdout
    assert "In Coin Rows a tied player may leave for a draw" in proc.stdout
