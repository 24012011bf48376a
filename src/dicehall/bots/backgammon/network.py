"""The neural evaluator: one hidden layer, five sigmoid outputs, inference in numpy/numba.

Outputs, for the player who has just moved (``features`` explains the inputs):
``[win, gammon win, backgammon win, gammon loss, backgammon loss]``, each an
unconditional probability (a gammon win counts in both *win* and *gammon win*).

>>> net = Network.create(hidden=8, seed=1)
>>> from dicehall.games.backgammon.rules import START_SIDE
>>> p = net.evaluate([START_SIDE, START_SIDE])
>>> bool(0 <= p[0] <= 1 and p[1] <= p[0] and p[3] <= 1 - p[0])
True
"""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.bots.backgammon.features import BASE_INPUTS, NUM_INPUTS
from dicehall.bots.backgammon.neural import (
    LOSE_BACKGAMMON,
    LOSE_GAMMON,
    NUM_OUTPUTS,
    WIN,
    WIN_BACKGAMMON,
    WIN_GAMMON,
    equity,
    flip,
    forward,
    make_consistent,
    sigmoid,
)

#: the shipped, trained weights inside the package
DEFAULT_WEIGHTS = "weights.npz"

Array = np.ndarray[Any, np.dtype[np.float64]]


class Network:
    """Weights of the evaluator and the methods to use, save and load them."""

    def __init__(
        self,
        w1: Array,
        b1: Array,
        w2: Array,
        b2: Array,
        meta: dict[str, Any],
        *,
        bearoff: bool = True,
        race: Any = None,
        prune: Any = None,
    ):
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.meta = meta
        #: whether evaluations use the bear-off databases where they apply
        self.bearoff = bearoff
        #: race net weights ``(w1, b1, w2, b2)`` for races (``race.py``): None for the
        #: shipped ones (if the package has any), ``race.empty()`` for none
        self.race = race
        #: pruning net weights (``prune.py``): None for the shipped ones (if any),
        #: ``prune.empty()`` for none; used only by searches given ``prune`` > 0
        self.prune = prune
        self._ext: tuple[Any, ...] | None = None

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    @classmethod
    def create(cls, hidden: int = 80, seed: int = 0) -> Network:
        """Small random weights, reproducible from ``seed``."""
        rng = np.random.default_rng(seed)
        w1 = rng.uniform(-0.1, 0.1, (NUM_INPUTS, hidden))
        w2 = rng.uniform(-0.1, 0.1, (hidden, NUM_OUTPUTS))
        return cls(w1, np.zeros(hidden), w2, np.zeros(NUM_OUTPUTS), {"games": 0, "seed": seed})

    def weights(self) -> tuple[Array, Array, Array, Array]:
        """The net's own arrays ``(w1, b1, w2, b2)`` (what training updates)."""
        return self.w1, self.b1, self.w2, self.b2

    def params(self) -> tuple[Array, Array, Array, Array, tuple[Any, ...]]:
        """What the compiled search takes: ``(w1, b1, w2, b2, ext)``, where ``ext`` is
        ``(one, gammon, two, rw1, rb1, rw2, rb2, pw1, pb1, pw2, pb2)``: the bear-off
        databases (``bearoff.py``; loaded, or built and cached, on first use; empty
        arrays when ``bearoff`` is off), the race net's weights and the pruning net's
        (``prune.py``; each empty when there is none).
        Pass it on as ``*net.params()``: ``ext`` may gain members."""
        if self._ext is None:
            from dicehall.bots.backgammon import prune, race

            if self.bearoff:
                from dicehall.bots.backgammon.bearoff import load

                db = load()
                tables = (db.one, db.gammon, db.two)
            else:
                tables = (np.zeros((0, 1)), np.zeros((0, 1)), np.zeros(0))
            self._ext = (
                tables
                + tuple(race.shipped() if self.race is None else self.race)
                + tuple(prune.shipped() if self.prune is None else self.prune)
            )
        return self.w1, self.b1, self.w2, self.b2, self._ext

    def evaluate(self, board: Any) -> Array:
        """Consistent probabilities for the player in row 0 of ``board`` who just moved."""
        from dicehall.bots.backgammon.search import evaluate_after

        y = np.zeros(NUM_OUTPUTS)
        evaluate_after(np.asarray(board, dtype=np.int8), *self.params(), y)
        return y

    # -- files ----------------------------------------------------------------
    def save(self, path: str | Path, *, compact: bool = False, **extra: Any) -> None:
        """Write an ``.npz``; ``compact`` stores float32 (to ship), else exact float64
        (checkpoints, so a resumed run continues bit for bit)."""
        meta = {**self.meta, **extra}
        dtype = np.float32 if compact else np.float64
        arrays = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}
        buf = io.BytesIO()
        payload: dict[str, Any] = {k: v.astype(dtype) for k, v in arrays.items()}
        payload["meta"] = np.array(repr(meta))
        np.savez_compressed(buf, **payload)
        Path(path).write_bytes(buf.getvalue())

    @classmethod
    def load(cls, path: str | Path | None = None) -> Network:
        """Load weights from ``path``, or the trained weights shipped in the package."""
        if path is None:
            data = resources.files("dicehall.bots.backgammon").joinpath(DEFAULT_WEIGHTS)
            raw = data.read_bytes()
        else:
            raw = Path(path).read_bytes()
        with np.load(io.BytesIO(raw)) as f:
            import ast

            meta = ast.literal_eval(str(f["meta"])) if "meta" in f else {}
            w1, b1, w2, b2 = (f[k].astype(np.float64) for k in ("w1", "b1", "w2", "b2"))
        if BASE_INPUTS <= w1.shape[0] < NUM_INPUTS:  # made before the later inputs: 0
            w1 = np.concatenate([w1, np.zeros((NUM_INPUTS - w1.shape[0], w1.shape[1]))])
        if w1.shape[0] != NUM_INPUTS or w2.shape[1] != NUM_OUTPUTS:
            raise ValueError(f"{path}: weights do not match {NUM_INPUTS} inputs")
        return cls(w1, b1, w2, b2, meta)

    def __repr__(self) -> str:
        return f"Network(hidden={self.hidden}, games={self.meta.get('games', 0)})"


# The kernels live in the leaf module ``neural`` (so the search need not import this
# module, which imports the search); they are re-exported for their old callers.
__all__ = [
    "DEFAULT_WEIGHTS",
    "LOSE_BACKGAMMON",
    "LOSE_GAMMON",
    "NUM_OUTPUTS",
    "WIN",
    "WIN_BACKGAMMON",
    "WIN_GAMMON",
    "Array",
    "Network",
    "equity",
    "flip",
    "forward",
    "make_consistent",
    "sigmoid",
]
