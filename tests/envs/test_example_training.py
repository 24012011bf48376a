"""examples/train_coinrows_reinforce.py learns and writes its learning curve."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_coinrows_reinforce.py"


def test_the_example_agent_learns_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    args = ["--episodes", "100", "--every", "100", "--eval", "40", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    scores = [float(s) for s in re.findall(r"greedy score vs random ([0-9.]+)", done.stdout)]
    assert len(scores) == 2
    assert scores[0] < 0.2 < 0.6 < scores[1]  # the untrained policy never captures
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
