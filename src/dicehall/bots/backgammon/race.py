"""The race net: a second evaluator for positions without contact, trained on
deeper targets (supervised), not by TD.

The contact net (``network.py``, the shipped ``weights.npz``) values every position
with contact. Once the sides have passed each other the game is a race, whose
value depends on pip counts and on how well each side's checkers are placed to
bear off; a net of its own, with inputs made for races, learns that better.

Inputs, ``RACE_INPUTS`` = 203, for the player who has just moved (row 0) and then
the opponent (on roll), 101 each:

* 0..95: Tesauro's four units for each of points 1..24 (>= 1, >= 2, >= 3 checkers,
  (n - 3) / 2 beyond three);
* 96: checkers borne off / 15;
* 97: pip count / 100;
* 98: checkers outside the home board / 15 (each still has to come in);
* 99: crossovers / 30: the sum over checkers of the quadrants each has still to
  cross to reach home (a checker on point p has ``(p - 1) // 6``);
* 100: empty home points / 6 (gaps waste pips in the bear-off).

then 202: the race lead, (opponent's pips - mover's pips) / 20.

Training (``python -m dicehall.bots.backgammon.race_training``, see that module):

1. **Targets**: race positions (after a play, not yet both home, where the bear-off
   databases take over) are sampled from seeded 0-ply self-play games of the
   contact net; each is valued at **1-ply** by the contact net with the bear-off
   databases at its leaves. Chunks of positions are generated in parallel worker
   processes (``--workers``) with a progress bar; each chunk is written to
   ``OUT/targets-NNNN.npz`` as soon as it is done, and a rerun skips the chunks
   already there (resume across days and machines: copy the folder).
2. **Fit**: stochastic gradient descent on the squared error of the five sigmoid
   outputs, ``--epochs`` passes in an order drawn from ``(seed, epoch)``; after each
   pass ``OUT/race-checkpoint.npz`` (float64 weights, the epoch) is written, and
   ``--resume`` continues bit for bit. The last chunk is held out: ``OUT/log.jsonl``
   records the held-out error of the race net and of the contact net at 0-ply
   against the same 1-ply targets.
3. ``--export FILE`` writes the float32 weights that ship (``race_weights.npz``).
"""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.neural import NUM_OUTPUTS, forward, make_consistent

RACE_INPUTS = 203
SIDE = 101
RACE_WEIGHTS = "race_weights.npz"


@njit(cache=True, nogil=True)
def encode_race(board: Any, out: Any) -> None:
    """Write the ``RACE_INPUTS`` inputs of ``board`` (mover in row 0) into ``out``."""
    out[:] = 0.0
    pips = np.zeros(2)
    for side in range(2):
        base = side * SIDE
        outside = 0
        cross = 0
        gaps = 0
        total = 0
        for p in range(1, 25):
            n = board[side, p]
            total += p * n
            if n >= 1:
                out[base + 4 * (p - 1)] = 1.0
            if n >= 2:
                out[base + 4 * (p - 1) + 1] = 1.0
            if n >= 3:
                out[base + 4 * (p - 1) + 2] = 1.0
            if n > 3:
                out[base + 4 * (p - 1) + 3] = (n - 3) / 2.0
            if p > 6:
                outside += n
            cross += n * ((p - 1) // 6)
            if p <= 6 and n == 0:
                gaps += 1
        total += 25 * board[side, 25]
        outside += board[side, 25]
        cross += 4 * board[side, 25]
        pips[side] = total
        out[base + 96] = board[side, 0] / 15.0
        out[base + 97] = total / 100.0
        out[base + 98] = outside / 15.0
        out[base + 99] = cross / 30.0
        out[base + 100] = gaps / 6.0
    out[202] = (pips[1] - pips[0]) / 20.0


@njit(cache=True, nogil=True)
def race_forward(board: Any, w1: Any, b1: Any, w2: Any, b2: Any, y: Any) -> None:
    """The race net's consistent probabilities for ``board`` into ``y``."""
    x = np.empty(RACE_INPUTS)
    h = np.empty(b1.shape[0])
    encode_race(board, x)
    forward(x, w1, b1, w2, b2, h, y)
    make_consistent(y)


# -- weights ---------------------------------------------------------------------


def empty() -> tuple[Any, Any, Any, Any]:
    """Arrays that mean "no race net" to the compiled search."""
    return np.zeros((0, 1)), np.zeros(1), np.zeros((1, NUM_OUTPUTS)), np.zeros(NUM_OUTPUTS)


def without(ext: tuple[Any, ...]) -> tuple[Any, ...]:
    """A search's ``ext`` (``Network.params``) with its race net taken out."""
    return ext[:3] + empty() + ext[7:]


def create(hidden: int, seed: int) -> tuple[Any, Any, Any, Any]:
    rng = np.random.default_rng(seed)
    return (
        rng.uniform(-0.1, 0.1, (RACE_INPUTS, hidden)),
        np.zeros(hidden),
        rng.uniform(-0.1, 0.1, (hidden, NUM_OUTPUTS)),
        np.zeros(NUM_OUTPUTS),
    )


def save(path: Path, weights: tuple[Any, ...], meta: dict[str, Any], compact: bool) -> None:
    """``compact``: float32 to ship; else float64 (checkpoints resume bit for bit)."""
    dtype = np.float32 if compact else np.float64
    buf = io.BytesIO()
    names = ("w1", "b1", "w2", "b2")
    arrays: dict[str, Any] = {
        k: np.asarray(v, dtype=dtype) for k, v in zip(names, weights, strict=True)
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(buf, **arrays)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


def read_weights(source: Any) -> tuple[tuple[Any, Any, Any, Any], dict[str, Any]]:
    """``(w1, b1, w2, b2)`` as float64 and the meta of a file written by ``save``:
    ``source`` is a path or a package resource; raises ``FileNotFoundError`` when it
    is missing."""
    raw = source.read_bytes() if hasattr(source, "read_bytes") else Path(source).read_bytes()
    with np.load(io.BytesIO(raw)) as f:
        w1, b1, w2, b2 = (f[k].astype(np.float64) for k in ("w1", "b1", "w2", "b2"))
        meta = json.loads(str(f["meta"]))
    return (w1, b1, w2, b2), meta


def load(path: str | Path | None = None) -> tuple[tuple[Any, Any, Any, Any], dict[str, Any]]:
    """Race weights from ``path``, or the shipped ones; raises ``FileNotFoundError``
    when none ship and ``ValueError`` for weights of another shape."""
    (w1, b1, w2, b2), meta = read_weights(
        path or resources.files("dicehall.bots.backgammon").joinpath(RACE_WEIGHTS)
    )
    if w1.shape[0] != RACE_INPUTS or w2.shape[1] != NUM_OUTPUTS:
        raise ValueError(f"{path}: not race weights ({RACE_INPUTS} inputs, 5 outputs)")
    return (w1, b1, w2, b2), meta


def shipped() -> tuple[Any, Any, Any, Any]:
    """The shipped race weights, or ``empty()`` when the package has none."""
    try:
        return load()[0]
    except FileNotFoundError:
        return empty()
