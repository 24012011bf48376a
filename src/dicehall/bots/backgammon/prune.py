"""The pruning net: a small, cheap evaluator that picks which plays the full net values
inside the search.

Most of a 2-ply search's time goes to one question asked thousands of times: *which
of the 20 or so plays of this roll does the side to move choose?* The full net values
every one of them (about 5 µs each: half for the 219 inputs, whose contact features
walk the board many times, half for 256 hidden units). gnubg answers it as this
module does: a small net (gnubg's pruning nets have 5 hidden units) on inputs one pass
over the board gives ranks all the plays, and only its best few (``prune`` in
``search.analyse``) are valued by the full net, which picks among them. The cost of a
roll falls from ``n`` full evaluations to ``n`` cheap ones plus ``prune`` full ones.

* Inputs: ``features.encode_base``, the first ``CHEAP_INPUTS`` (200) of the full
  net's: Tesauro's point units, bar and borne-off units, pip counts and blots of both
  sides, for the side that just moved (row 0).
* Outputs: two linear units, the win-only and the money (cubeless) equity of the
  position *up to a constant per decision*: only differences between the plays of one
  roll matter to a pruner, and every play of a roll leaves the opponent's checkers
  where they were (but for hits), so most of a position's value is shared by all of
  them. The net spends its few units on what tells the plays apart.
* Training (``python -m dicehall.bots.backgammon.prune_training``): *distillation*.
  Positions come from seeded 0-ply self-play of the shipped net; at every contact
  decision the positions after **all** legal plays are kept (the pruner must rank the
  bad plays too). Their targets are the shipped evaluator's own 0-ply equities
  (``search.evaluate_after``), so no teacher but the net itself is needed and the
  data take seconds. The loss is the squared error of the outputs and the targets,
  both centred on their decision's mean (a ranking loss). The held-out figures are
  how often the full net's best play is not among the pruner's best ``k`` (``misses``),
  and the equity that costs.
* ``--export FILE`` writes the float32 weights that ship (``prune_weights.npz``).

The pruner is used only where its parent position has contact: races go to the race
net and the bear-off databases, which are already cheap.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.features import CHEAP_INPUTS, encode_base
from dicehall.bots.backgammon.neural import hidden_layer
from dicehall.games.backgammon.fast import CHECKERS

PRUNE_WEIGHTS = "prune_weights.npz"
#: the outputs: win-only equity, money equity (each up to a constant per decision)
PRUNE_OUTPUTS = 2


@njit(cache=True, nogil=True)
def prune_scores(
    boards: Any, n: int, pw1: Any, pb1: Any, pw2: Any, pb2: Any, single: bool, out: Any
) -> None:
    """The pruning net's equity (win-only when ``single``, else money), up to a
    constant, of each of the first ``n`` after-positions in ``boards`` (mover in row 0)
    into ``out``; a play that bears off the last checker gets 1e9, so it always
    survives the cut."""
    x = np.zeros(CHEAP_INPUTS)
    nh = pb1.shape[0]
    h = np.empty(nh)
    col = 0 if single else 1
    for i in range(n):
        if boards[i, 0, 0] == CHECKERS:
            out[i] = 1e9
            continue
        x[:] = 0.0
        encode_base(boards[i], x)
        hidden_layer(x, pw1, pb1, h)
        z = pb2[col]
        for j in range(nh):
            z += h[j] * pw2[j, col]
        out[i] = z


def empty() -> tuple[Any, Any, Any, Any]:
    """Arrays that mean "no pruning net" to the compiled search."""
    return np.zeros((0, 1)), np.zeros(1), np.zeros((1, PRUNE_OUTPUTS)), np.zeros(PRUNE_OUTPUTS)


def load(path: str | Path | None = None) -> tuple[tuple[Any, Any, Any, Any], dict[str, Any]]:
    """Pruning weights from ``path``, or the shipped ones; raises ``FileNotFoundError``
    when none ship and ``ValueError`` for weights of another shape."""
    from dicehall.bots.backgammon.race import read_weights

    weights, meta = read_weights(
        path or resources.files("dicehall.bots.backgammon").joinpath(PRUNE_WEIGHTS)
    )
    if weights[0].shape[0] != CHEAP_INPUTS or weights[2].shape[1] != PRUNE_OUTPUTS:
        raise ValueError(
            f"{path}: not pruning weights ({CHEAP_INPUTS} inputs, {PRUNE_OUTPUTS} outputs)"
        )
    return weights, meta


def shipped() -> tuple[Any, Any, Any, Any]:
    """The shipped pruning weights, or ``empty()`` when the package has none."""
    try:
        return load()[0]
    except FileNotFoundError:
        return empty()
