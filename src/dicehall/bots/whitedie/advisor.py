"""The value of every option in a White Die decision, for bots and hints.

``options(state, objective)`` lists each legal decision with its value for the
*player on turn* (the one whose challenge it is): exact expected points
(``Fraction``) for the ``points`` objective, or the chance of winning the game
for the ``win`` objective. The player picks the highest value, his opponent in
tic-tac-toe and matching the lowest.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from dicehall.bots.whitedie import matching, reroll, tictactoe
from dicehall.bots.whitedie.blas import one_thread
from dicehall.bots.whitedie.dice import FOUR_PROB, INDEX
from dicehall.bots.whitedie.maxn import (
    GeneralMatching,
    MaxnSolution,
    general_matching,
    load_maxn,
    outcomes,
)
from dicehall.bots.whitedie.solved import winprob_table
from dicehall.bots.whitedie.tables import load_tables
from dicehall.bots.whitedie.winprob import Utility, points_utility, utility_for
from dicehall.games.whitedie.challenges import EMPTY_GRID, claim, pip_scores, tictactoe_score
from dicehall.games.whitedie.rules import (
    ARRANGE,
    CHOOSE,
    CLAIM,
    MATCH_LAST,
    MATCH_OPPONENT,
    MATCH_PLAYER,
    PLAYER_SIDE,
    REROLL,
    TICTACTOE,
    Action,
    ChooseOpponent,
    WhiteDieState,
)

Value = Fraction | float

POINTS = "points"
WIN = "win"


def maxn_solution(state: WhiteDieState) -> MaxnSolution | None:
    """The max^n table for this game's options when one is shipped (three or four players) and
    holds this position (a partial table holds the positions from its lowest score
    total up)."""
    n = len(state.scores)
    if n < 3:
        return None
    game = state.game
    sol = load_maxn(n, game.target, game.poker_chart, game.free_choices)
    if sol is None or not sol.solved(state.scores):
        return None
    return sol


def outcome_table(state: WhiteDieState, sol: MaxnSolution) -> np.ndarray:
    """``R[s, i]``: seat ``turn + i``'s winning chance after the player on turn scores
    ``s`` (max^n play afterwards)."""
    n = len(state.scores)
    x = tuple(state.scores[(state.turn + i) % n] for i in range(n))
    out: np.ndarray = outcomes(sol.values, sol.target, x)
    return out


def utility(state: WhiteDieState) -> Utility:
    """What each score of the current challenge is worth to the player on turn in
    winning chances (two players exact; three or four with a shipped max^n table exact; else
    against his strongest rival)."""
    game = state.game
    sol = maxn_solution(state)
    if sol is not None:
        return np.asarray(outcome_table(state, sol)[:, 0])
    table = winprob_table(game.target, game.poker_chart, game.free_choices)
    me = state.turn
    rival = max(state.scores[s] for s in range(len(state.scores)) if s != me)
    return utility_for(table, game.target, state.scores[me], rival)


@lru_cache(maxsize=64)
@one_thread
def _matching_solution(u: tuple[float, ...]) -> matching.UtilitySolution:
    return matching.solve_utility(np.array(u))


@lru_cache(maxsize=64)
@one_thread
def _general_matching(u: tuple[float, ...], g: tuple[float, ...]) -> GeneralMatching:
    sc = matching.score_table()
    return general_matching(np.array(u)[sc], np.array(g)[sc])


def _opponent_utility(state: WhiteDieState, sol: MaxnSolution, opponent: int) -> Utility:
    n = len(state.scores)
    return np.asarray(outcome_table(state, sol)[:, (opponent - state.turn) % n])


def _maxn_matching_values(
    state: WhiteDieState, sol: MaxnSolution, stage: int
) -> list[tuple[str, Value]]:
    """Matching options under max^n: the player's in his chance, the opponent's (stage
    2) in his own chance."""
    assert state.opponent is not None
    u = utility(state)
    g = _opponent_utility(state, sol, state.opponent)
    gm = _general_matching(tuple(u), tuple(g))
    p, o = INDEX[tuple(sorted(state.dice))], INDEX[tuple(sorted(state.opponent_dice))]
    sc = matching.score_table()
    if stage == 3:
        mv1 = matching.moves(1)
        out: list[tuple[str, Value]] = [("stand", float(u[sc[p, o]]))]
        for k, vals in enumerate(mv1.values[p]):
            out.append((f"reroll {vals[0]}", float(u[sc[mv1.target[p, k], o]].mean())))
        return out
    mv = matching.moves(2)
    res: list[tuple[str, Value]] = []
    for k, vals in enumerate(mv.values[p if stage == 1 else o]):
        if stage == 1:
            v = float((gm.u2[mv.target[p, k], o] * mv.weight).sum() / 36.0)
        else:
            v = float((gm.g3[p, mv.target[o, k]] * mv.weight).sum() / 36.0)
        res.append(("reroll " + " ".join(map(str, vals)), v))
    return res


def _maxn_opponent_values(state: WhiteDieState, sol: MaxnSolution) -> list[tuple[str, Value]]:
    """Choosing the opponent under max^n: his matching policy depends on his own
    chances; in tic-tac-toe every opponent gives the score minimax."""
    u = utility(state)
    p = INDEX[tuple(sorted(state.dice))]
    out: list[tuple[str, Value]] = []
    for seat in range(len(state.scores)):
        if seat == state.turn:
            continue
        if state.white == 4:
            gm = _general_matching(tuple(u), tuple(_opponent_utility(state, sol, seat)))
            value = float(gm.u1[p] @ FOUR_PROB)
        else:
            value = float(u[load_tables().tictactoe[p]] @ FOUR_PROB)
        out.append((str(ChooseOpponent(seat)), value))
    return out


@lru_cache(maxsize=64)
@one_thread
def _reroll_solution(
    white: int, u: tuple[float, ...], chart: str, free: bool = False
) -> reroll.UtilitySolution:
    return reroll.solve_utility(white, np.array(u), chart, free=free)


def options(state: WhiteDieState, objective: str = POINTS) -> list[tuple[Action, Value]]:
    """Each legal decision with its value to the player on turn, in legal order."""
    if state.current_player() < 0:
        return []
    values = dict(_values(state, objective))
    texts = [(a, state.action_to_text(a)) for a in state.legal_actions()]
    return [(a, values[text]) for a, text in texts if text in values]


def _values(state: WhiteDieState, objective: str) -> list[tuple[str, Value]]:
    chart = state.game.poker_chart
    free = state.game.free_choices
    u = utility(state) if objective == WIN else points_utility()
    if state.phase == REROLL:
        if objective == POINTS:  # the best square has the most points: free or not
            return list(reroll.option_values(state.white, state.dice, state.rerolls_left, chart))
        sol = _reroll_solution(state.white, tuple(u), chart, free)
        return list(
            reroll.utility_option_values(
                sol, state.white, state.dice, state.rerolls_left, u, chart, free
            )
        )
    if state.phase == ARRANGE:
        return [
            (f"arrange {p}", Fraction(p) if objective == POINTS else float(u[p]))
            for p in pip_scores(state.dice)
        ]
    if state.phase == CLAIM:
        taken, left = tictactoe_score(claim(state.grid, 0)), tictactoe_score(state.grid)
        if objective == POINTS:
            return [("claim", Fraction(taken)), ("decline", Fraction(left))]
        return [("claim", float(u[taken])), ("decline", float(u[left]))]
    if state.phase in (MATCH_PLAYER, MATCH_OPPONENT, MATCH_LAST):
        stage = {MATCH_PLAYER: 1, MATCH_OPPONENT: 2, MATCH_LAST: 3}[state.phase]
        table = maxn_solution(state) if objective == WIN else None
        if table is not None:
            return _maxn_matching_values(state, table, stage)
        if objective == POINTS:
            return list(matching.option_values(stage, state.dice, state.opponent_dice))
        msol = _matching_solution(tuple(u))
        return list(matching.utility_option_values(msol, stage, state.dice, state.opponent_dice, u))
    if state.phase == TICTACTOE:
        leaf, worth = tictactoe_objective(u)
        out: list[tuple[str, Value]] = []
        for v, sq, outcome in tictactoe.move_values(
            state.grid, state.dice, state.opponent_dice, _side(state), leaf, free
        ):
            text = state.action_to_text(_place(v, sq))
            out.append((text, Fraction(outcome) if objective == POINTS else worth[outcome]))
        return out
    if state.phase == CHOOSE:
        table = maxn_solution(state) if objective == WIN else None
        if table is not None:
            return _maxn_opponent_values(state, table)
        value = challenge_value(state, u, exact=objective == POINTS)
        return [
            (str(ChooseOpponent(s)), value) for s in range(len(state.scores)) if s != state.turn
        ]
    return []


def _side(state: WhiteDieState) -> int:
    return tictactoe.PLAYER if state.side == PLAYER_SIDE else tictactoe.OPPONENT


def tictactoe_objective(u: Utility) -> tuple[tictactoe.Leaf, list[float]]:
    """The leaf order for a tic-tac-toe search maximising ``u``, and the worth of each
    rank. Increasing ``u`` (nearly always) keeps the plain score order, whose searches
    are shared with the score tables."""
    leaf = tictactoe.ranks(list(u))
    if list(leaf) == sorted(leaf):
        return tictactoe.SCORES, [float(x) for x in u]
    worth = [0.0] * 13
    for s, r in enumerate(leaf):
        worth[r] = float(u[s])
    return leaf, worth


def tictactoe_move(state: WhiteDieState, u: Utility) -> Action:
    """A minimax placement for the side to act (fast: null-window tests when the value
    of the position is in the shipped table)."""
    leaf, _ = tictactoe_objective(u)
    known = None
    if leaf == tictactoe.SCORES and state.grid == EMPTY_GRID and len(state.dice) == 4:
        p, o = INDEX[state.dice], INDEX[state.opponent_dice]
        known = int(load_tables().tictactoe[p, o])
    v, sq, _ = tictactoe.best_move(
        state.grid, state.dice, state.opponent_dice, _side(state), known, leaf,
        state.game.free_choices,
    )  # fmt: skip
    return _place(v, sq)


def _place(value: int, square: int) -> Action:
    from dicehall.games.whitedie.rules import Place

    return Place(value, square)


def challenge_value(state: WhiteDieState, u: Utility, *, exact: bool) -> Value:
    """Value of tic-tac-toe or matching before the opponent rolls (every opponent
    plays perfectly, so the choice of opponent does not change it)."""
    p = INDEX[tuple(sorted(state.dice))]
    if state.white == 4:
        if exact:
            return matching.expected_score(state.dice)
        return float(_matching_solution(tuple(u)).v1[p] @ FOUR_PROB)
    row = load_tables().tictactoe[p]
    if exact:
        from dicehall.bots.whitedie.dice import FOUR_WAYS

        return Fraction(int(row @ FOUR_WAYS), 1296)
    return float(u[row] @ FOUR_PROB)


def minimising(state: WhiteDieState, objective: str = WIN) -> bool:
    """True if the seat to act is the opponent and minimises the player's value; under
    max^n (a shipped three-player table) the opponent's matching reroll is valued in
    his own winning chance instead, which he maximises."""
    if state.current_player() == state.turn:
        return False
    return not (
        objective == WIN and state.phase == MATCH_OPPONENT and maxn_solution(state) is not None
    )
