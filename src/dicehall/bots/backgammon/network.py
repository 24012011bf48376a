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
from numba import njit

from dicehall.bots.backgammon.features import NUM_INPUTS

NUM_OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(NUM_OUTPUTS)
#: the shipped, trained weights inside the package
DEFAULT_WEIGHTS = "weights.npz"

Array = np.ndarray[Any, np.dtype[np.float64]]


#: the logistic function tabulated on [-16, 16] in steps of 1/1000; interpolating it
#: linearly is within 2e-8 of ``1 / (1 + exp(-z))`` and about twice as fast as ``exp``
_SIGMOID_STEPS = 1000.0
_SIGMOID_TABLE = 1.0 / (1.0 + np.exp(-np.linspace(-16.0, 16.0, 32_001)))


@njit(cache=True)
def sigmoid(z: float) -> float:
    """The logistic function: a table lookup in [-16, 16], ``exp`` beyond."""
    if -16.0 < z < 16.0:
        u = (z + 16.0) * _SIGMOID_STEPS
        i = int(u)
        lo = _SIGMOID_TABLE[i]
        return float(lo + (u - i) * (_SIGMOID_TABLE[i + 1] - lo))
    if z < -40.0:
        return 0.0
    if z > 40.0:
        return 1.0
    return float(1.0 / (1.0 + np.exp(-z)))


@njit(cache=True)
def forward(x: Any, w1: Any, b1: Any, w2: Any, b2: Any, h: Any, y: Any) -> None:
    """Hidden activations into ``h`` and outputs into ``y``; skips zero inputs."""
    nh = b1.shape[0]
    h[:] = b1
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(nh):
                h[j] += xi * w1[i, j]
    for j in range(nh):
        h[j] = sigmoid(h[j])
    # the five outputs in registers, w2 read row by row (it is (hidden, 5), C order)
    z0, z1, z2, z3, z4 = b2[0], b2[1], b2[2], b2[3], b2[4]
    for j in range(nh):
        hj = h[j]
        z0 += hj * w2[j, 0]
        z1 += hj * w2[j, 1]
        z2 += hj * w2[j, 2]
        z3 += hj * w2[j, 3]
        z4 += hj * w2[j, 4]
    y[0], y[1], y[2], y[3], y[4] = sigmoid(z0), sigmoid(z1), sigmoid(z2), sigmoid(z3), sigmoid(z4)


@njit(cache=True)
def make_consistent(y: Any) -> None:
    """Clamp raw outputs into valid probabilities: backgammons <= gammons <= wins/losses."""
    for k in range(5):
        y[k] = min(1.0, max(0.0, y[k]))
    y[1] = min(y[1], y[0])
    y[2] = min(y[2], y[1])
    y[3] = min(y[3], 1.0 - y[0])
    y[4] = min(y[4], y[3])


@njit(cache=True)
def flip(y: Any, out: Any) -> None:
    """Probabilities seen by the other player."""
    out[0] = 1.0 - y[0]
    out[1] = y[3]
    out[2] = y[4]
    out[3] = y[1]
    out[4] = y[2]


@njit(cache=True)
def equity(y: Any, single: bool) -> float:
    """Expected points: single games count a win as 1 whatever its kind; money
    (standard scoring, cubeless) counts gammons 2 and backgammons 3."""
    if single:
        return float(2.0 * y[0] - 1.0)
    return float(2.0 * y[0] - 1.0 + y[1] - y[3] + y[2] - y[4])


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
    ):
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.meta = meta
        #: whether evaluations use the bear-off databases where they apply
        self.bearoff = bearoff
        #: race net weights ``(w1, b1, w2, b2)`` for races (``race.py``): None for the
        #: shipped ones (if the package has any), ``race.empty()`` for none
        self.race = race
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
        ``(one, gammon, two, rw1, rb1, rw2, rb2)``: the bear-off databases
        (``bearoff.py``; loaded, or built and cached, on first use; empty arrays when
        ``bearoff`` is off) and the race net's weights (empty when there is none).
        Pass it on as ``*net.params()``: ``ext`` may gain members."""
        if self._ext is None:
            from dicehall.bots.backgammon import race

            if self.bearoff:
                from dicehall.bots.backgammon.bearoff import load

                db = load()
                tables = (db.one, db.gammon, db.two)
            else:
                tables = (np.zeros((0, 1)), np.zeros((0, 1)), np.zeros(0))
            self._ext = tables + tuple(race.shipped() if self.race is None else self.race)
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
        if w1.shape[0] != NUM_INPUTS or w2.shape[1] != NUM_OUTPUTS:
            raise ValueError(f"{path}: weights do not match {NUM_INPUTS} inputs")
        return cls(w1, b1, w2, b2, meta)

    def __repr__(self) -> str:
        return f"Network(hidden={self.hidden}, games={self.meta.get('games', 0)})"
