"""Training the evaluator by TD(λ) self-play, in chunks with checkpoints and resume.

The run is reproducible: the network starts from ``seed``, and each chunk of games
draws its dice from a seed derived from ``seed`` and the number of games already
played, so a run resumed from a checkpoint continues exactly as if never stopped
(checkpoints keep float64 weights).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     net = train(TrainConfig(games=4, hidden=4, chunk=2, eval_every=0), d)
>>> net.meta["games"]
4
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from dicehall.bots.backgammon.network import Network

CHECKPOINT = "checkpoint.npz"
LOG = "log.jsonl"


@dataclass
class TrainConfig:
    """Every knob of a run; stored in the checkpoint and checked on resume."""

    games: int = 500_000
    hidden: int = 128
    seed: int = 1
    alpha: float = 0.1
    alpha_final: float = 0.02
    anneal_games: int = 500_000
    lam: float = 0.0
    chunk: int = 500
    checkpoint_every: int = 10_000
    eval_every: int = 20_000
    eval_pairs: int = 500

    def alpha_at(self, games_done: int) -> float:
        """Learning rate after ``games_done`` games: linear from alpha to alpha_final."""
        frac = min(1.0, games_done / self.anneal_games) if self.anneal_games else 1.0
        return self.alpha + (self.alpha_final - self.alpha) * frac

    def chunk_seed(self, games_done: int) -> int:
        return (self.seed * 1_000_003 + games_done) % (2**31 - 1)


@dataclass
class Progress:
    """What a progress display gets after each chunk."""

    games_done: int
    games_total: int
    alpha: float
    plies_per_game: float
    gammon_rate: float
    last_eval: float | None


def evaluate_vs_pubeval(net: Network, pairs: int, seed: int = 12345) -> float:
    """Share of single games the net wins at 0-ply against pubeval (``2 * pairs`` games,
    colours swapped with the same dice)."""
    from dicehall.bots.backgammon.search import duel_0ply_vs_pubeval

    points = duel_0ply_vs_pubeval(*net.params(), pairs, seed, True)
    return float((points > 0).mean())


def train(
    config: TrainConfig,
    out_dir: str | Path,
    *,
    resume: bool = False,
    on_progress: Callable[[Progress], None] | None = None,
) -> Network:
    """Run (or continue) TD self-play until ``config.games`` games; returns the net."""
    from dicehall.bots.backgammon.td import train_games

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / CHECKPOINT
    if resume and ckpt.exists():
        net = Network.load(ckpt)
        saved = dict(net.meta.get("config", {}))
        if saved.get("seed") != config.seed or saved.get("hidden") != config.hidden:
            raise ValueError(
                f"{ckpt} was trained with seed={saved.get('seed')} "
                f"hidden={saved.get('hidden')}; pass the same values to resume"
            )
    else:
        net = Network.create(config.hidden, config.seed)
    net.meta["config"] = asdict(config)
    done = int(net.meta.get("games", 0))
    last_eval: float | None = net.meta.get("pubeval_0ply")
    next_ckpt = (done // config.checkpoint_every + 1) * config.checkpoint_every
    next_eval = (done // config.eval_every + 1) * config.eval_every if config.eval_every else 0
    while done < config.games:
        n = min(config.chunk, config.games - done)
        alpha = config.alpha_at(done)
        started = time.perf_counter()
        stats = train_games(*net.weights(), n, config.chunk_seed(done), alpha, config.lam)
        done += n
        net.meta["games"] = done
        if config.eval_every and done >= next_eval:
            last_eval = evaluate_vs_pubeval(net, config.eval_pairs)
            net.meta["pubeval_0ply"] = last_eval
            net.save(out / f"net-{done:07d}.npz")
            next_eval += config.eval_every
        if done >= next_ckpt or done >= config.games:
            net.save(ckpt)
            next_ckpt += config.checkpoint_every
        record: dict[str, Any] = {
            "games": done,
            "alpha": round(alpha, 5),
            "plies": int(stats[0]),
            "gammons": int(stats[2]),
            "seconds": round(time.perf_counter() - started, 3),
        }
        if last_eval is not None:
            record["pubeval_0ply"] = last_eval
        with (out / LOG).open("a") as log:
            log.write(json.dumps(record) + "\n")
        if on_progress is not None:
            on_progress(Progress(done, config.games, alpha, stats[0] / n, stats[2] / n, last_eval))
    net.save(ckpt)
    return net
