"""The layers are written down as import-linter contracts (pyproject.toml) and checked here:
core < games < bots and svg < arena and server < cli, within a game ``board`` below the
rest, and no module importing another that imports it back."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = [
    sys.executable,
    "-c",
    "import sys; from importlinter.cli import lint_imports_command; "
    "sys.exit(lint_imports_command())",
    "--no-cache",
]


def lint(cwd: Path, src: Path) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}
    return subprocess.run(LINT, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_contracts_hold() -> None:
    done = lint(ROOT, ROOT / "src")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout


def test_the_contracts_catch_an_upward_import_a_low_board_and_a_cycle(tmp_path: Path) -> None:
    """A copy of the package with one violation of each contract fails all three."""
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "src" / "dicehall",
        src / "dicehall",
        ignore=shutil.ignore_patterns("*.npz", "__pycache__", "web"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    assert lint(tmp_path, src).returncode == 0

    def add(module: str, line: str) -> None:
        path = src / "dicehall" / module
        path.write_text(path.read_text() + f"\n{line}\n")

    add("core/errors.py", "import dicehall.cli.common  # upwards")
    add("games/coinrows/board.py", "import dicehall.games.coinrows.render  # board above")
    add("bots/whitedie/tables.py", "import dicehall.bots.whitedie.winprob  # a cycle")
    done = lint(tmp_path, src)
    assert done.returncode == 1
    assert "0 kept, 3 broken" in done.stdout, done.stdout
    assert "dicehall.core.errors -> dicehall.cli.common" in done.stdout
    assert "dicehall.games.coinrows.board -> dicehall.games.coinrows.render" in done.stdout
    assert ".tables -> .winprob" in done.stdout
