"""Move choice by search over the neural evaluator: 0-ply, 1-ply and 2-ply.

* 0-ply: every legal play is valued by the network directly (the position after it).
* 1-ply: the value of a position after our play is the average, over the opponent's
  21 rolls weighted by probability, of our value after his best reply (chosen at
  0-ply).
* 2-ply: the same, but his reply is chosen and valued at 1-ply among his best few
  at 0-ply (move filtering).

At the root, plays are first ranked at 0-ply; only the best few (``keep`` plays
within ``margin`` equity of the best) are searched deeper: that filtering is what
keeps 2-ply under a second. An optional third stage (``analyse``'s ``keep3``) values
the best plays of close decisions at a reduced 3-ply (``evaluate_3ply``).

Probabilities are always ``[win, gammon win, backgammon win, gammon loss,
backgammon loss]`` for the player in row 0 of the board (the one who just moved).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from dicehall.bots.backgammon.bearoff import bearoff_probs
from dicehall.bots.backgammon.features import NUM_INPUTS, encode, is_race
from dicehall.bots.backgammon.neural import equity, flip, forward, make_consistent
from dicehall.bots.backgammon.prune import prune_scores
from dicehall.bots.backgammon.pubeval import score as pubeval_score
from dicehall.bots.backgammon.race import race_forward
from dicehall.games.backgammon.fast import (
    CHECKERS,
    opening_roll,
    outcome,
    plays,
    start_board,
    swap,
)

# numba caches a kernel by its own file only: edit this file when features.encode changes
# (the inputs grew from 201 to 207 on 1 Dec 2026, to 219 on 2 Dec 2026; encode_base split
# out on 6 Dec 2026)

#: how many pruning-net evaluations count as one full one in a search's budget
PRUNE_COST = 6

#: the 21 distinct rolls (high die first) and their probabilities
ROLLS = np.array([(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)], dtype=np.int64)
ROLL_WEIGHTS = np.array([(1.0 if a == b else 2.0) / 36.0 for a, b in ROLLS])

#: the reduced chance layers of the 3-ply search (``evaluate_3ply``): eight rolls each,
#: with the 21 rolls' balance: six non-doubles (5/36 each) in which every face shows
#: twice and the pips are 7 on average, and two doubles (3/36 each) of 14 pips on
#: average; the two sets share no roll, so their errors do not add up in one direction
ROLLS_A = np.array([(6, 5), (4, 3), (2, 1), (6, 4), (5, 2), (3, 1), (5, 5), (2, 2)], np.int64)
ROLLS_B = np.array([(6, 3), (5, 1), (4, 2), (6, 2), (5, 3), (4, 1), (4, 4), (3, 3)], np.int64)
WEIGHTS_AB = np.array([5.0 / 36.0] * 6 + [3.0 / 36.0] * 2)


@njit(cache=True, nogil=True)
def evaluate_after(board: Any, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, y: Any) -> None:
    """0-ply probabilities of the position after a play: exact when it ends the game,
    from the bear-off databases in ``ext`` (see ``Network.params``) when both sides
    are bearing off, from the race net in ``ext`` (if any) in other races, else from
    the (contact) net."""
    if board[0, 0] == CHECKERS:
        points = outcome(board[0], board[1])
        y[:] = 0.0
        y[0] = 1.0
        y[1] = 1.0 if points >= 2 else 0.0
        y[2] = 1.0 if points >= 3 else 0.0
        return
    if bearoff_probs(board, ext[0], ext[1], ext[2], y):
        return
    if ext[3].shape[0] > 0 and is_race(board):
        race_forward(board, ext[3], ext[4], ext[5], ext[6], y)
        return
    x = np.empty(NUM_INPUTS)
    h = np.empty(b1.shape[0])
    encode(board, x)
    forward(x, w1, b1, w2, b2, h, y)
    make_consistent(y)


@njit(cache=True, nogil=True)
def rank_0ply(
    boards: Any, n: int, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, single: bool
) -> Any:
    """0-ply probabilities (rows) of the first ``n`` after-positions in ``boards``."""
    out = np.empty((n, 5))
    for i in range(n):
        evaluate_after(boards[i], w1, b1, w2, b2, ext, out[i])
    return out


@njit(cache=True, nogil=True)
def pruned_choice(
    parent: Any,
    boards: Any,
    n: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    y: Any,
    prune: int,
) -> int:
    """The best, by the full evaluator, of the ``prune`` plays among ``boards[:n]`` (of
    the position ``parent``) that the pruning net in ``ext`` (``prune.py``) ranks best;
    its value into ``y``. -1 when pruning does not apply (``prune`` 0, no pruning net,
    no more than ``prune`` plays, or no contact in ``parent``): the caller then values
    all ``n``. A play that wins is taken at once."""
    if prune <= 0 or n <= prune or ext[7].shape[0] == 0 or is_race(parent):
        return -1
    scores = np.empty(n)
    prune_scores(boards, n, ext[7], ext[8], ext[9], ext[10], single, scores)
    order = np.argsort(-scores, kind="mergesort")  # stable: ties keep the play order
    best = -1e9
    pick = -1
    cur = np.empty(5)
    for r in range(prune):
        i = order[r]
        evaluate_after(boards[i], w1, b1, w2, b2, ext, cur)
        if boards[i, 0, 0] == CHECKERS:
            y[:] = cur
            return int(i)
        eq = equity(cur, single)
        if eq > best:
            best = eq
            pick = i
            y[:] = cur
    return int(pick)


@njit(cache=True, nogil=True)
def _best_reply_0ply(
    opp: Any,
    d1: int,
    d2: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    y: Any,
    prune: int,
) -> int:
    """The opponent (row 0 of ``opp``) plays his best 0-ply reply; ``y`` gets its value
    for him. Returns how many positions were evaluated (``PRUNE_COST`` pruned ones
    count as one).

    With ``prune`` > 0, a pruning net in ``ext`` and contact in ``opp``, only the
    ``prune`` plays the pruning net (``prune.py``) ranks best are valued by the full
    evaluator, which picks among them."""
    n, _, boards, _ = plays(opp, d1, d2)
    if pruned_choice(opp, boards, n, w1, b1, w2, b2, ext, single, y, prune) >= 0:
        return prune + n // PRUNE_COST
    best = -1e9
    cur = np.empty(5)
    for i in range(n):
        evaluate_after(boards[i], w1, b1, w2, b2, ext, cur)
        eq = equity(cur, single)
        if eq > best:
            best = eq
            y[:] = cur
        if boards[i, 0, 0] == CHECKERS:
            y[:] = cur
            return i + 1
    return n


@njit(cache=True, nogil=True)
def _evaluate_1ply(
    board: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    y: Any,
    counter: Any,
    prune: int,
) -> None:
    _evaluate_1ply_rolls(board, w1, b1, w2, b2, ext, single, ROLLS, ROLL_WEIGHTS, y, counter, prune)


@njit(cache=True, nogil=True)
def evaluate_1ply(
    board: Any, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, single: bool, y: Any
) -> None:
    """1-ply probabilities of the position after a play (mover in row 0)."""
    _evaluate_1ply(board, w1, b1, w2, b2, ext, single, y, np.zeros(1, dtype=np.int64), 0)


@njit(cache=True, nogil=True)
def _evaluate_2ply(
    board: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    keep: int,
    margin: float,
    y: Any,
    counter: Any,
    budget: int,
    prune: int,
) -> bool:
    """2-ply into ``y``; False (``y`` unusable) if ``counter`` passed ``budget`` (> 0).
    ``prune`` goes to the 1-ply searches (``_best_reply_0ply``)."""
    if board[0, 0] == CHECKERS:
        evaluate_after(board, w1, b1, w2, b2, ext, y)
        return True
    opp = swap(board)
    mine = np.empty(5)
    cur = np.empty(5)
    best_y = np.empty(5)
    y[:] = 0.0
    for r in range(ROLLS.shape[0]):
        n, _, boards, _ = plays(opp, ROLLS[r, 0], ROLLS[r, 1])
        probs = rank_0ply(boards, n, w1, b1, w2, b2, ext, single)
        counter[0] += n
        eqs = np.empty(n)
        for i in range(n):
            eqs[i] = equity(probs[i], single)
        order = np.argsort(-eqs)
        best = -1e9
        for rank in range(min(keep, n)):
            i = order[rank]
            if eqs[i] < eqs[order[0]] - margin:
                break
            if budget > 0 and counter[0] > budget:
                return False
            _evaluate_1ply(boards[i], w1, b1, w2, b2, ext, single, cur, counter, prune)
            eq = equity(cur, single)
            if eq > best:
                best = eq
                best_y[:] = cur
        flip(best_y, mine)
        y += ROLL_WEIGHTS[r] * mine
    return True


@njit(cache=True, nogil=True)
def evaluate_2ply(
    board: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    keep: int,
    margin: float,
    y: Any,
) -> None:
    """2-ply probabilities: the opponent's replies ranked at 0-ply, the best ``keep``
    (within ``margin``) valued at 1-ply, the best of those taken."""
    _evaluate_2ply(
        board, w1, b1, w2, b2, ext, single, keep, margin, y, np.zeros(1, dtype=np.int64), 0, 0
    )


@njit(cache=True, nogil=True)
def _best_play_0ply(
    boards: Any, n: int, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, single: bool
) -> int:
    """Index of the mover's best play at 0-ply among ``boards[:n]`` (a winning play at
    once)."""
    best = -1e9
    pick = 0
    cur = np.empty(5)
    for i in range(n):
        if boards[i, 0, 0] == CHECKERS:
            return i
        evaluate_after(boards[i], w1, b1, w2, b2, ext, cur)
        eq = equity(cur, single)
        if eq > best:
            best = eq
            pick = i
    return pick


@njit(cache=True, nogil=True)
def _evaluate_1ply_rolls(
    board: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    rolls: Any,
    weights: Any,
    y: Any,
    counter: Any,
    prune: int,
) -> None:
    """1-ply over the given rolls (weights summing to 1) instead of all 21; ``prune``
    as in ``_best_reply_0ply``."""
    if board[0, 0] == CHECKERS:
        evaluate_after(board, w1, b1, w2, b2, ext, y)
        return
    opp = swap(board)
    reply = np.empty(5)
    mine = np.empty(5)
    y[:] = 0.0
    for r in range(rolls.shape[0]):
        counter[0] += _best_reply_0ply(
            opp, rolls[r, 0], rolls[r, 1], w1, b1, w2, b2, ext, single, reply, prune
        )
        flip(reply, mine)
        y += weights[r] * mine


@njit(cache=True, nogil=True)
def _evaluate_2ply_rolls(
    board: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    y: Any,
    counter: Any,
) -> None:
    """The reduced 2-ply of the 3-ply search: the opponent's rolls are ``ROLLS_A``, his
    reply is his best at 0-ply, valued at 1-ply over ``ROLLS_B``."""
    if board[0, 0] == CHECKERS:
        evaluate_after(board, w1, b1, w2, b2, ext, y)
        return
    opp = swap(board)
    cur = np.empty(5)
    mine = np.empty(5)
    y[:] = 0.0
    for r in range(ROLLS_A.shape[0]):
        n, _, boards, _ = plays(opp, ROLLS_A[r, 0], ROLLS_A[r, 1])
        counter[0] += n
        i = _best_play_0ply(boards, n, w1, b1, w2, b2, ext, single)
        _evaluate_1ply_rolls(
            boards[i], w1, b1, w2, b2, ext, single, ROLLS_B, WEIGHTS_AB, cur, counter, 0
        )
        flip(cur, mine)
        y += WEIGHTS_AB[r] * mine


@njit(cache=True, nogil=True)
def _pick_0ply(
    parent: Any,
    boards: Any,
    n: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    counter: Any,
    prune: int,
) -> int:
    """Index of the best of ``parent``'s plays ``boards[:n]`` at 0-ply (a winning play
    at once), the pruning net choosing the ``prune`` plays valued when it applies (as
    in ``_best_reply_0ply``); adds the positions evaluated to ``counter``."""
    pick = pruned_choice(parent, boards, n, w1, b1, w2, b2, ext, single, np.empty(5), prune)
    if pick >= 0:
        counter[0] += prune + n // PRUNE_COST
        return pick
    counter[0] += n
    return _best_play_0ply(boards, n, w1, b1, w2, b2, ext, single)


@njit(cache=True, nogil=True)
def _evaluate_3ply(
    board: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    y: Any,
    counter: Any,
    budget: int,
    full: bool,
    prune: int,
) -> bool:
    """3-ply into ``y``: over all 21 rolls the opponent plays his best reply at 0-ply,
    valued at 2-ply. Reduced (``full`` False): the two inner chance layers have 8
    rolls each (``_evaluate_2ply_rolls``). Full: all 21 at every layer (his replies
    to it at 1-ply, ``_evaluate_2ply``), with ``prune`` as in ``_best_reply_0ply`` at
    every 0-ply choice. False (``y`` unusable) if ``counter`` passed ``budget`` (> 0)
    before a roll."""
    if board[0, 0] == CHECKERS:
        evaluate_after(board, w1, b1, w2, b2, ext, y)
        return True
    opp = swap(board)
    cur = np.empty(5)
    mine = np.empty(5)
    y[:] = 0.0
    for r in range(ROLLS.shape[0]):
        if budget > 0 and counter[0] > budget:
            return False
        n, _, boards, _ = plays(opp, ROLLS[r, 0], ROLLS[r, 1])
        i = _pick_0ply(opp, boards, n, w1, b1, w2, b2, ext, single, counter, prune)
        if full:
            _evaluate_2ply(boards[i], w1, b1, w2, b2, ext, single, 1, 0.1, cur, counter, 0, prune)
        else:
            _evaluate_2ply_rolls(boards[i], w1, b1, w2, b2, ext, single, cur, counter)
        flip(cur, mine)
        y += ROLL_WEIGHTS[r] * mine
    return True


@njit(cache=True, nogil=True)
def evaluate_3ply(
    board: Any, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, single: bool, y: Any
) -> int:
    """Reduced 3-ply probabilities of the position after a play (``_evaluate_3ply``);
    returns the positions evaluated."""
    counter = np.zeros(1, dtype=np.int64)
    _evaluate_3ply(board, w1, b1, w2, b2, ext, single, y, counter, 0, False, 0)
    return int(counter[0])


@njit(cache=True, nogil=True)
def analyse(
    board: Any,
    d1: int,
    d2: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    plies: int,
    keep1: int,
    margin1: float,
    keep2: int,
    margin2: float,
    reply_keep: int,
    budget: int,
    readmit: int = 0,
    keep3: int = 0,
    margin3: float = 0.0,
    budget3: int = 0,
    blend: float = 0.0,
    prune: int = 0,
    full3: bool = False,
) -> tuple[Any, Any, Any]:
    """Every legal play valued: returns ``(probs, equities, depth)`` rows in play order.

    All plays get 0-ply values; the best ``keep1`` within ``margin1`` are re-valued at
    1-ply when ``plies >= 1``, and of those the best ``keep2`` within ``margin2`` at
    2-ply when ``plies >= 2``. ``depth[i]`` tells how deep play i was searched;
    compare equities only among plays of the greatest depth. A positive ``budget``
    caps the positions evaluated: when the 2-ply stage would pass it, the play being
    searched keeps its 1-ply value and the search stops; the plays already valued at
    2-ply (the best at 1-ply, searched best first) keep their 2-ply values and the
    choice is made among them, or by the 1-ply values if none was finished
    (deterministic, unlike a clock).

    ``readmit`` (default 0: off) fixes the filter's lock-in: after the admitted plays
    are searched at a depth, up to ``readmit`` more of the filtered-out ones are
    searched too, best first, as long as the shallower value of the next one is
    above the best value found at the new depth (the play the shallower search
    overrated has fallen below it, so the deeper search might prefer that one).

    ``keep3`` (default 0: off) adds a third stage on close decisions only: when
    ``plies == 2`` and the second best play at 2-ply is within ``margin3`` of the best,
    the best ``keep3`` plays within ``margin3`` are valued at (reduced) 3-ply
    (``_evaluate_3ply``), best first, while the positions evaluated stay under
    ``budget3`` (> 0, counting the whole decision). If at least two were finished
    they get depth 3 and the choice is made among them; otherwise nothing changes.

    ``blend`` (default 0: off) values each play searched at 2-ply by ``(1 - blend)``
    times its 2-ply probabilities plus ``blend`` times its 1-ply ones (an odd and an
    even ply, whose errors lean opposite ways), at no extra cost.

    ``prune`` (default 0: off) lets the pruning net (``prune.py``, in ``ext``) choose
    the ``prune`` plays of each inner roll that the full net values
    (``_best_reply_0ply``): several times fewer full evaluations.

    ``full3`` makes the third stage (``keep3``) a full 3-ply (``_evaluate_3ply``, all
    21 rolls at every chance layer) instead of the reduced one; it is affordable
    only with ``prune``.
    """
    n, _, boards, _ = plays(board, d1, d2)
    probs = rank_0ply(boards, n, w1, b1, w2, b2, ext, single)
    counter = np.zeros(1, dtype=np.int64)
    counter[0] = n
    eqs = np.empty(n)
    depth = np.zeros(n, dtype=np.int64)
    for i in range(n):
        eqs[i] = equity(probs[i], single)
    for level in range(1, plies + 1):
        keep = keep1 if level == 1 else keep2
        margin = margin1 if level == 1 else margin2
        cand = np.empty(n, dtype=np.int64)
        m = 0
        for i in range(n):
            if depth[i] == level - 1:
                cand[m] = i
                m += 1
        if m <= 1 and level > 1:
            break
        sub = np.empty(m)
        for c in range(m):
            sub[c] = -eqs[cand[c]]
        order = np.argsort(sub)
        top = eqs[cand[order[0]]]
        saved_probs = probs.copy()
        saved_eqs = eqs.copy()
        saved_depth = depth.copy()
        best_deep = -1e9
        extra = 0
        for rank in range(m):
            i = cand[order[rank]]
            if rank >= keep or eqs[i] < top - margin:
                # filtered out, unless its shallower value still beats the best value
                # found deeper: then the deeper search might prefer it (re-admission)
                if extra >= readmit or eqs[i] <= best_deep:
                    break
                extra += 1
            if level == 1:
                _evaluate_1ply(boards[i], w1, b1, w2, b2, ext, single, probs[i], counter, prune)
            else:
                done = _evaluate_2ply(
                    boards[i],
                    w1,
                    b1,
                    w2,
                    b2,
                    ext,
                    single,
                    reply_keep,
                    0.1,
                    probs[i],
                    counter,
                    budget,
                    prune,
                )
                if not done:
                    # the budget ran out inside play i: it keeps its shallower value;
                    # the plays already valued at this depth (the best by the
                    # shallower values, searched best first) keep theirs
                    probs[i] = saved_probs[i]
                    eqs[i] = saved_eqs[i]
                    depth[i] = saved_depth[i]
                    return probs, eqs, depth
            if level == 2 and blend > 0.0:
                probs[i] = (1.0 - blend) * probs[i] + blend * saved_probs[i]
            eqs[i] = equity(probs[i], single)
            depth[i] = level
            best_deep = max(best_deep, eqs[i])
    if plies == 2 and keep3 > 1:
        _close_calls_3ply(
            boards,
            n,
            w1,
            b1,
            w2,
            b2,
            ext,
            single,
            probs,
            eqs,
            depth,
            keep3,
            margin3,
            budget3,
            counter,
            prune,
            full3,
        )
    return probs, eqs, depth


@njit(cache=True, nogil=True)
def _close_calls_3ply(
    boards: Any,
    n: int,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    ext: Any,
    single: bool,
    probs: Any,
    eqs: Any,
    depth: Any,
    keep3: int,
    margin3: float,
    budget3: int,
    counter: Any,
    prune: int,
    full3: bool,
) -> None:
    """``analyse``'s third stage (see there): updates ``probs``, ``eqs``, ``depth``."""
    m = 0
    cand = np.empty(n, dtype=np.int64)
    for i in range(n):
        if depth[i] == 2:
            cand[m] = i
            m += 1
    if m < 2:
        return
    sub = np.empty(m)
    for c in range(m):
        sub[c] = -eqs[cand[c]]
    order = np.argsort(sub)
    top = eqs[cand[order[0]]]
    if eqs[cand[order[1]]] < top - margin3:
        return
    done = np.empty(min(keep3, m), dtype=np.int64)
    values = np.empty((min(keep3, m), 5))
    k = 0
    for rank in range(min(keep3, m)):
        i = cand[order[rank]]
        if eqs[i] < top - margin3:
            break
        if not _evaluate_3ply(
            boards[i], w1, b1, w2, b2, ext, single, values[k], counter, budget3, full3, prune
        ):
            break
        done[k] = i
        k += 1
    if k < 2:
        return
    for c in range(k):
        i = done[c]
        probs[i] = values[c]
        eqs[i] = equity(values[c], single)
        depth[i] = 3


@njit(cache=True, nogil=True)
def choose_0ply(
    board: Any, d1: int, d2: int, w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, single: bool
) -> int:
    """Index of the best play at 0-ply (the training and fast-benchmark policy)."""
    n, _, boards, _ = plays(board, d1, d2)
    best = -1e9
    pick = 0
    y = np.empty(5)
    for i in range(n):
        evaluate_after(boards[i], w1, b1, w2, b2, ext, y)
        eq = equity(y, single)
        if boards[i, 0, 0] == CHECKERS:
            return i
        if eq > best:
            best = eq
            pick = i
    return pick


@njit(cache=True, nogil=True)
def choose_pubeval(board: Any, d1: int, d2: int) -> int:
    """Index of the play pubeval scores highest (first of equals)."""
    n, _, boards, _ = plays(board, d1, d2)
    race = is_race(board)
    best = -1e18
    pick = 0
    for i in range(n):
        s = pubeval_score(boards[i], race)
        if s > best:
            best = s
            pick = i
    return pick


@njit(cache=True, nogil=True)
def duel_0ply_vs_pubeval(
    w1: Any, b1: Any, w2: Any, b2: Any, ext: Any, pairs: int, seed: int, single: bool
) -> Any:
    """``pairs`` pairs of games, net at 0-ply against pubeval, the net taking each seat
    once with the same dice. Returns the net's points in each game (negative: a loss)."""
    out = np.zeros(2 * pairs)
    for p in range(pairs):
        for net_seat in range(2):
            np.random.seed(seed * 1000003 + p)
            board = start_board()
            seat, d1, d2 = opening_roll()
            while True:
                _n, _, boards, _ = plays(board, d1, d2)
                if seat == net_seat:
                    i = choose_0ply(board, d1, d2, w1, b1, w2, b2, ext, single)
                else:
                    i = choose_pubeval(board, d1, d2)
                after = boards[i]
                pts = outcome(after[0], after[1])
                if pts > 0:
                    if single:
                        pts = 1
                    out[2 * p + net_seat] = pts if seat == net_seat else -pts
                    break
                board = swap(after)
                seat = 1 - seat
                a = np.random.randint(1, 7)
                b = np.random.randint(1, 7)
                d1, d2 = max(a, b), min(a, b)
    return out
