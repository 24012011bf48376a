"""A heuristic evaluation of Coin Rows positions for the search agents.

The score of a game is coins (purse plus own coins on the board), so everything
is measured in coins of *lead* for the player whose turn it is, then squashed to a
winning expectation in [-1, 1] (``payoff=result``) or halved into net coins
(``payoff=coins``). The features, each a coin count:

* **lead**: the difference of the two totals;
* **capture now**: in Phase A the best capture gains the opponent's coins in the
  row (each one moves from his total to ours: twice its count in lead);
* **exposure**: our coins the opponent could capture at his next Phase A if our
  turn ended on this board (it ends with every roll of 7, 11 or 12);
* **threats next roll**: rows the mover can complete with one roll, i.e. an
  opponent coin that shares no row yet but one of our coins can reach its row;
* **refill burden**: a capture the opponent cannot pay back ends the game at once
  (he is broke), so with the lead it is as good as a win.
* **stall**: when a player has no coin on the board he cannot move and has nothing
  to lose, and the game can only end by the turn limit unless his opponent captures
  some of his own coins (which makes him refill onto the board); a position like that
  counts against the opponent if the opponent is not ahead, so the search finds the
  way out instead of drifting into a drawn turn limit.

Two facts are exact and override the estimate: a player in Phase A who leads may
leave (with ``leaving`` allowed) and win, and a capture that makes the opponent
broke ends the game on the totals after it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dicehall.core.cache import BoundedCache
from dicehall.core.game import State
from dicehall.games.coinrows.rules import (
    CAPTURE_ROWS,
    SIZE,
    Board,
    Capture,
    CoinRowsState,
    Phase,
    capture_options,
)

#: Probability that one roll ends the turn (totals 7, 11 and 12: 9 in 36).
P_END = 9 / 36


@dataclass(frozen=True)
class Weights:
    """How much each feature counts, in coins of lead."""

    capture_now: float = 1.0
    exposure: float = 0.55
    threat: float = 0.25
    stall: float = 0.5  # coins: the cost of facing an opponent with no coin in play
    scale: float = 3.0  # lead (coins) that makes a win about 76% likely: tanh(1)


DEFAULT_WEIGHTS = Weights()
GREEDY_WEIGHTS = Weights(capture_now=1.0, exposure=0.0, threat=0.0, stall=0.0)


def capture_gain(board: Board, capture: Capture, seat: int) -> int:
    """Coins of the opponent of ``seat`` that ``capture`` takes."""
    return sum(1 for c in capture.columns if (coin := board[c]) is not None and coin.owner != seat)


def best_capture(board: Board, seat: int, rule: str) -> tuple[int, Capture | None]:
    """The capture that takes most of the opponent's coins (and that count)."""
    best, best_capture_ = 0, None
    for capture in capture_options(board, rule):
        gain = capture_gain(board, capture, seat)
        if gain > best:
            best, best_capture_ = gain, capture
    return best, best_capture_


def _rows(board: Board, seat: int) -> tuple[list[int], list[int], list[int]]:
    """Per row: all coins, ``seat``'s coins, the opponent's coins."""
    count, mine, theirs = [0] * SIZE, [0] * SIZE, [0] * SIZE
    for coin in board:
        if coin is not None:
            count[coin.row] += 1
            if coin.owner == seat:
                mine[coin.row] += 1
            else:
                theirs[coin.row] += 1
    return count, mine, theirs


def threats(board: Board, seat: int) -> int:
    """Opponent coins alone in a capture row that one of ``seat``'s coins outside that
    row could join with a roll (a rough count of next-roll capture chances)."""
    count, mine, theirs = _rows(board, seat)
    own_rows = [r for r in range(SIZE) if mine[r]]
    return sum(
        theirs[r]
        for r in CAPTURE_ROWS
        if count[r] == 1 and theirs[r] and any(x != r for x in own_rows)
    )


def lead_estimate(state: CoinRowsState, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The expected final lead, in coins, of the player whose turn it is."""
    p = state.turn
    board = state.board
    count, mine, theirs = _rows(board, p)
    on_mine = sum(mine)
    on_theirs = sum(theirs)
    level = state.purses[p] + on_mine - state.purses[1 - p] - on_theirs  # the totals' difference
    lead = float(level)
    if state.capture_rule == "row":
        rows = [r for r in CAPTURE_ROWS if count[r] >= 2]
        gain = max((theirs[r] for r in rows), default=0)
        exposed = max((mine[r] for r in rows), default=0)
    else:
        gain, _ = best_capture(board, p, state.capture_rule)
        exposed, _ = best_capture(board, 1 - p, state.capture_rule)
    own_rows = [r for r in range(SIZE) if mine[r]]
    their_rows = [r for r in range(SIZE) if theirs[r]]
    my_threats = sum(
        1 for r in CAPTURE_ROWS if count[r] == 1 and theirs[r] and any(x != r for x in own_rows)
    )
    their_threats = sum(
        1 for r in CAPTURE_ROWS if count[r] == 1 and mine[r] and any(x != r for x in their_rows)
    )
    if state.phase is Phase.A:
        # we may capture now; otherwise we roll and the board changes before he plays
        lead += weights.capture_now * 2 * gain
        lead -= weights.exposure * P_END * 2 * exposed
    else:
        # mid-turn: we may still reach Phase A and capture, or the roll ends the turn
        lead += weights.capture_now * (1 - P_END) * 2 * gain
        lead -= weights.exposure * 2 * exposed * (P_END + 0.25)
    lead += weights.threat * (my_threats - P_END * their_threats)
    if on_theirs == 0 and level <= 0:
        lead -= weights.stall  # he cannot move or lose a coin, and we are not ahead
    if on_mine == 0 and level >= 0:
        lead += weights.stall  # the same, seen from his side
    return lead


def exact_phase_a(state: CoinRowsState) -> int | None:
    """-1, 0 or 1 when the player in Phase A can secure a result outright (leaving
    with the lead, or a capture that breaks the opponent with the lead after it);
    None otherwise. Only certain wins and secured draws are reported."""
    if state.phase is not Phase.A:
        return None
    p = state.turn
    o = 1 - p
    totals = state.totals()
    lead = totals[p] - totals[o]
    best: int | None = None
    if state.game.options["leaving"]:
        best = (lead > 0) - (lead < 0)
    for capture in capture_options(state.board, state.capture_rule):
        if state.purses[o] < len(capture.columns):
            gain = capture_gain(state.board, capture, p)
            after = lead + 2 * gain
            result = (after > 0) - (after < 0)
            best = result if best is None else max(best, result)
    if best is None or best < 0:
        return None
    return best


#: Evaluations already computed (values never depend on it; emptied when full).
EVALUATIONS = BoundedCache[tuple[object, ...], list[float]]("coinrows evaluations", 500_000)


def evaluate(
    state: State,
    weights: Weights = DEFAULT_WEIGHTS,
    contempt: float = 0.0,
    root: int | None = None,
) -> list[float]:
    """Values of both seats (seat 0 first) on the scale of the game's returns.

    With ``contempt`` a draw the mover can secure by leaving is worth that much less
    to the seat ``root`` (the one searching) and that much more to the other.
    """
    assert isinstance(state, CoinRowsState)
    # the shared weight sets key by a small int: hashing a dataclass costs a call
    wkey = 0 if weights is DEFAULT_WEIGHTS else 1 if weights is GREEDY_WEIGHTS else weights
    key = (state, wkey, contempt, root)
    cached = EVALUATIONS.get(key)
    if cached is None:
        cached = EVALUATIONS.put(key, _evaluate(state, weights, contempt, root))
    return cached


def _evaluate(
    state: CoinRowsState, weights: Weights, contempt: float, root: int | None
) -> list[float]:
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    p = state.turn
    coins = state.game.options["payoff"] == "coins"
    lead = lead_estimate(state, weights)
    if coins:
        value = lead / 2
        if state.phase is Phase.A and state.game.options["leaving"]:
            totals = state.totals()
            value = max(value, (totals[p] - totals[1 - p]) / 2)
    else:
        value = math.tanh(lead / weights.scale) * 0.95
        sure = exact_phase_a(state)
        if sure is not None:
            draw = 0.0 if root is None else (-contempt if p == root else contempt)
            value = max(value, float(sure)) if sure > 0 else max(value, draw)
    return [value, -value] if p == 0 else [-value, value]


def greedy_evaluate(state: State, contempt: float = 0.0, root: int | None = None) -> list[float]:
    """Only the lead and the capture at hand: the plain greedy player's view."""
    return evaluate(state, GREEDY_WEIGHTS, contempt, root)


def search_bounds(state: CoinRowsState) -> tuple[float, float]:
    """Lowest and highest value of a game: ±1, or ± both purses with ``payoff=coins``."""
    if state.game.options["payoff"] == "coins":
        total = float(2 * state.game.purse)
        return (-total, total)
    return (-1.0, 1.0)


def values_for(state: CoinRowsState, seats: Sequence[int] = (0, 1)) -> list[float]:
    """``evaluate`` for the given seats (convenience for tools)."""
    v = evaluate(state)
    return [v[s] for s in seats]
