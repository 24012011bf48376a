"""Every browser module parses as an ES module (``node --check``), so a syntax error —
a merge that imports a name twice, say — fails here, not only in a slow browser test."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "src" / "dicehall" / "web" / "static" / "js"
MODULES = sorted(JS.rglob("*.js"))
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(JS)))
def test_browser_module_parses(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / (path.stem + ".mjs")  # .mjs: parsed as a module, imports included
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    proc = subprocess.run([NODE, "--check", str(copy)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_the_modules_are_found() -> None:
    assert {"client.js", "lobby.js", "i18n.js"} <= {p.name for p in MODULES}


def test_a_duplicate_import_is_caught(tmp_path: Path) -> None:
    if NODE is None:
        pytest.skip("node is not installed")
    bad = tmp_path / "bad.mjs"
    bad.write_text('import { t } from "./i18n.js";\nimport { t } from "./i18n.js";\n')
    proc = subprocess.run([NODE, "--check", str(bad)], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "already been declared" in proc.stderr
