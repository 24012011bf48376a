"""The compile notice and the ahead-of-time compile of the backgammon engine."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dicehall.bots.backgammon.warm import sources_key
from dicehall.cli import engine


@pytest.fixture
def stamps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DICEHALL_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("DICEHALL_NO_PRECOMPILE", raising=False)
    return tmp_path


calls: list[str] = []


def slow_warm_up() -> None:
    calls.append("warm")
    time.sleep(0.6)


def test_a_slow_first_warm_up_says_so_and_is_not_repeated(
    stamps: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engine, "COMPILED", {"backgammon": f"{__name__}:slow_warm_up"})
    monkeypatch.setattr(engine, "NOTICE_AFTER", 0.2)
    calls.clear()
    assert not engine.is_warm()
    engine.ready("backgammon")
    err = capsys.readouterr().err
    assert "compiling the backgammon engine, once" in err
    assert "engine ready" in err
    assert calls == ["warm"]
    assert engine.is_warm()
    assert engine.stamp_path().name == f"dicehall-engine-{sources_key()}.stamp"
    engine.ready("backgammon")
    engine.ready("coinrows")  # nothing compiled there
    assert calls == ["warm"]
    assert capsys.readouterr().err == ""


def test_a_quick_warm_up_prints_nothing(
    stamps: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with engine.notice_if_slow("slow!", after=5.0):
        pass
    assert capsys.readouterr().err == ""


def test_the_background_precompile_starts_once(
    stamps: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[str]] = []

    def fake_popen(args: list[str], **kwargs: Any) -> None:
        assert kwargs["start_new_session"] is True
        started.append(args)

    monkeypatch.setattr(engine.subprocess, "Popen", fake_popen)
    assert engine.precompile_in_background()
    assert started == [[sys.executable, "-m", "dicehall.cli.engine", "--holding-lock"]]
    assert engine.lock_path().exists()
    assert not engine.precompile_in_background()  # the lock is held
    # a lock left by a dead process is taken over
    old = time.time() - engine.STALE_LOCK - 5
    os.utime(engine.lock_path(), (old, old))
    assert engine.precompile_in_background()
    assert len(started) == 2
    monkeypatch.setenv("DICEHALL_NO_PRECOMPILE", "1")
    engine.lock_path().unlink()
    assert not engine.precompile_in_background()


def test_the_background_process_compiles_and_releases_the_lock(stamps: Path) -> None:
    # the real thing, against this checkout's (warm) numba cache
    engine.lock_path().touch()
    env = dict(os.environ, DICEHALL_CACHE_DIR=str(stamps))
    proc = subprocess.run(
        [sys.executable, "-m", "dicehall.cli.engine", "--holding-lock"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert not engine.lock_path().exists()
    assert engine.is_warm()
