"""benchmarks/search_backgammon.py: settings by name, the report, and its cache."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "search_backgammon.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600
    )


def test_an_unknown_setting_is_refused() -> None:
    done = run("medium:keep9=2", "--positions", "2")
    assert done.returncode != 0 and "no setting 'keep9'" in done.stderr


@pytest.mark.skipif(not shutil.which("/usr/games/gnubg"), reason="gnubg is not installed")
def test_variants_are_compared_and_cached(tmp_path: Path) -> None:
    cache, out = tmp_path / "cache.json", tmp_path / "out.json"
    common = ["medium", "hard:keep1=2", "--positions", "8", "--gnubg-plies", "0"]
    first = run(*common, "--cache", str(cache), "--out", str(out))
    assert first.returncode == 0, first.stderr
    report = json.loads(out.read_text())
    assert report["positions"] == 8 and list(report["variants"]) == ["medium", "hard:keep1=2"]
    line = report["variants"]["hard:keep1=2"]
    assert 0 <= line["differ"] <= 8 and line["better"] + line["worse"] <= line["differ"]
    stored = json.loads(cache.read_text())
    assert {len(v["picks"]) for v in stored["choices"].values()} == {8}
    second = run(*common, "--cache", str(cache), "--out", str(out))
    assert second.returncode == 0, second.stderr
    assert json.loads(out.read_text())["variants"]["hard:keep1=2"]["differ"] == line["differ"]
