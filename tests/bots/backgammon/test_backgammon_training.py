"""A tiny TD(λ) self-play run, end to end: checkpoints, log, resume, the command."""

from __future__ import annotations

import json

import numpy as np

from dicehall.bots.backgammon.network import Network
from dicehall.bots.backgammon.training import TrainConfig, train


def test_tiny_run_checkpoints_and_resumes_exactly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    config = TrainConfig(
        games=6, hidden=6, chunk=2, checkpoint_every=2, eval_every=4, eval_pairs=2, seed=7
    )
    straight = train(config, tmp_path / "a")
    assert straight.meta["games"] == 6
    log = [json.loads(line) for line in (tmp_path / "a" / "log.jsonl").read_text().splitlines()]
    assert [r["games"] for r in log] == [2, 4, 6] and "pubeval_0ply" in log[-1]
    assert (tmp_path / "a" / "net-0000004.npz").exists()

    half = TrainConfig(**{**config.__dict__, "games": 4})
    train(half, tmp_path / "b")
    resumed = train(config, tmp_path / "b", resume=True)
    assert np.array_equal(resumed.w1, straight.w1) and np.array_equal(resumed.b2, straight.b2)
    assert Network.load(tmp_path / "b" / "checkpoint.npz").meta["games"] == 6


def test_weights_change_with_traces(tmp_path) -> None:  # type: ignore[no-untyped-def]
    start = Network.create(hidden=4, seed=2)
    net = train(TrainConfig(games=2, hidden=4, seed=2, lam=0.7, chunk=2, eval_every=0), tmp_path)
    assert not np.allclose(net.w1, start.w1)
    assert np.isfinite(net.w1).all()


def test_train_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from dicehall.cli.main import _load_commands, app

    _load_commands()
    out = tmp_path / "run"
    export = tmp_path / "w.npz"
    args = [
        "train",
        "backgammon",
        "--games",
        "4",
        "--hidden",
        "4",
        "--chunk",
        "2",
        "--out",
        str(out),
        "--eval-every",
        "0",
        "--export",
        str(export),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (out / "checkpoint.npz").exists() and Network.load(export).hidden == 4
    again = CliRunner().invoke(app, [*args[:3], "6", *args[4:], "--resume"])
    assert again.exit_code == 0, again.output
    assert Network.load(out / "checkpoint.npz").meta["games"] == 6
