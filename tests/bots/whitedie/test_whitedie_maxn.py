"""Three players under max^n, the shipped tables' Bellman equations, and the perfect
bot's choices checked at thousands of random decision points."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.random import RandomBot
from dicehall.bots.whitedie import Bot
from dicehall.bots.whitedie.advisor import WIN, minimising, options
from dicehall.bots.whitedie.blas import one_thread
from dicehall.bots.whitedie.maxn import (
    MAXN_TABLES,
    bellman_residual,
    general_matching,
    load_maxn,
    solve_maxn,
)
from dicehall.bots.whitedie.solved import winprob_table
from dicehall.bots.whitedie.tables import load_tables
from dicehall.bots.whitedie.winprob import TurnModel, _solve_pair, utility_for
from dicehall.core.dice import SeededDice
from dicehall.core.game import State
from dicehall.core.match import resolve_chance

TOLERANCE = 1e-9


@pytest.mark.slow
@one_thread
def test_every_entry_of_the_two_player_table_solves_its_equations() -> None:
    win = winprob_table(21, "standard")
    model = TurnModel("standard", load_tables())
    worst = 0.0
    for a in range(21):
        for b in range(a, 21):
            u_ab, u_ba = utility_for(win, 21, a, b), utility_for(win, 21, b, a)
            x, y = _solve_pair(
                win, 21, a, b, model.distribution(u_ab, u_ab), model.distribution(u_ba, u_ba)
            )
            worst = max(worst, abs(x - win[a, b]), abs(y - win[b, a]))
    assert worst < 1e-9


@pytest.mark.slow
@one_thread
def test_the_shipped_three_player_table_solves_its_equations() -> None:
    assert MAXN_TABLES.exists()
    sol = load_maxn(3, 8, "standard")
    assert sol is not None
    assert sol.values.shape == (8, 8, 8, 3)
    assert np.allclose(sol.values.sum(axis=-1), 1.0)  # somebody always wins
    assert bellman_residual(sol) < 1e-9  # every one of the 512 positions
    start = sol.values[0, 0, 0]
    assert start[0] > start[1] > start[2]  # the order of play matters


def test_max_n_agrees_with_zero_sum_for_opposed_objectives() -> None:
    # an opponent whose objective is the player's loss plays the minimax reroll
    rng = np.random.default_rng(3)
    u = np.sort(rng.random(13))
    from dicehall.bots.whitedie import matching

    sc = matching.score_table()
    gm = general_matching(u[sc], 1.0 - u[sc])
    zero_sum = matching.solve_utility(u)
    assert np.allclose(gm.u1, zero_sum.v1)


def test_a_tiny_three_player_game_is_consistent_and_fair_in_symmetry() -> None:
    sol = solve_maxn(3, target=2)
    assert bellman_residual(sol) < 1e-12
    # one point from the target, on turn: he wins unless a white 1 stops a leader
    # or he scores 0
    v = sol.values[1, 0, 0]
    assert v[0] > 0.8 and v[1] > v[2] > 0.0 and v.sum() == pytest.approx(1.0)


def decision_points(players: int, count: int, seed: int, **options: object) -> list[State]:
    """Positions where a seat decides, from games of random play."""
    game = load_game("whitedie", players=players, **options)
    rng = random.Random(seed)
    out: list[State] = []
    g = 0
    while len(out) < count:
        state, dice, bot = game.new_initial_state(), SeededDice(seed + g), RandomBot(seed=g)
        g += 1
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state = state.apply(resolve_chance(state, dice))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.5:
                out.append(state)
            state = state.apply(bot.act(state))
    return out


@pytest.mark.parametrize(("players", "target"), [(2, 21), (3, 8), (3, 21)])
def test_perfect_never_picks_a_worse_choice(players: int, target: int) -> None:
    bot = Bot("perfect", seed=1)
    points = decision_points(players, 2000, seed=players, target=target)
    kinds = set()
    for state in points:
        valued = options(state, WIN)  # type: ignore[arg-type]
        sign = -1.0 if minimising(state, WIN) else 1.0  # type: ignore[arg-type]
        best = max(sign * float(v) for _, v in valued)
        chosen = bot.act(state)
        value = dict((state.action_to_text(a), float(v)) for a, v in valued)[
            state.action_to_text(chosen)
        ]
        assert sign * value >= best - TOLERANCE, state
        kinds.add(state.phase)  # type: ignore[attr-defined]
    assert len(kinds) >= 5  # rerolls, both matching sides, tic-tac-toe, ...
