"""Three players under max^n, the shipped tables' Bellman equations, and the perfect
bot's choices checked at thousands of random decision points."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.random import RandomBot
from dicehall.bots.whitedie import Bot
from dicehall.bots.whitedie.advisor import WIN, maxn_solution, minimising, options
from dicehall.bots.whitedie.blas import one_thread
from dicehall.bots.whitedie.maxn import (
    MAXN_FREE_TABLES,
    MAXN_TABLES,
    bellman_residual,
    general_matching,
    load_maxn,
    solve_maxn,
)
from dicehall.bots.whitedie.solved import winprob_table
from dicehall.bots.whitedie.tables import load_tables, winprob_key
from dicehall.bots.whitedie.winprob import TurnModel, _solve_pair, utility_for
from dicehall.core.dice import SeededDice
from dicehall.core.game import State
from dicehall.core.match import resolve_chance
from dicehall.games.whitedie.rules import ARRANGE, CLAIM

TOLERANCE = 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("free", [True, False])
@one_thread
def test_every_entry_of_the_two_player_table_solves_its_equations(free: bool) -> None:
    # free: the default game (the player arranges Pips and decides the claim); else the
    # game with free_choices=false. Both tables are shipped, each with its order tables.
    win = winprob_table(21, "standard", free)
    assert win is load_tables().winprob[winprob_key(21, "standard", free)]
    model = TurnModel("standard", load_tables(), free=free)
    worst = 0.0
    for a in range(21):
        for b in range(a, 21):
            u_ab, u_ba = utility_for(win, 21, a, b), utility_for(win, 21, b, a)
            x, y = _solve_pair(
                win, 21, a, b, model.distribution(u_ab, u_ab), model.distribution(u_ba, u_ba)
            )
            worst = max(worst, abs(x - win[a, b]), abs(y - win[b, a]))
    assert worst < 1e-12  # solved until nothing moves by 1e-13 (measured: 2.2e-16)


@pytest.mark.slow
@pytest.mark.parametrize("free", [True, False])
@one_thread
def test_the_shipped_three_player_table_solves_its_equations(free: bool) -> None:
    assert MAXN_TABLES.exists() and MAXN_FREE_TABLES.exists()
    sol = load_maxn(3, 8, "standard", free)
    assert sol is not None and sol.free == free and sol.lowest_total == 0
    assert sol.values.shape == (8, 8, 8, 3)
    assert np.allclose(sol.values.sum(axis=-1), 1.0)  # somebody always wins
    assert bellman_residual(sol) < 1e-9  # every one of the 512 positions
    start = sol.values[0, 0, 0]
    assert start[0] > start[1] > start[2]  # the order of play matters


@pytest.mark.slow
@one_thread
def test_the_shipped_four_player_table_solves_its_equations() -> None:
    sol = load_maxn(4, 6, "standard", True)
    assert sol is not None and sol.values.shape == (6, 6, 6, 6, 4) and sol.lowest_total == 0
    assert np.allclose(sol.values.sum(axis=-1), 1.0)
    rng = np.random.default_rng(4)
    sample = [tuple(int(x) for x in rng.integers(6, size=4)) for _ in range(150)]
    assert bellman_residual(sol, sample) < 1e-9  # (the solve prints it over all 1,296)
    start = sol.values[0, 0, 0, 0]
    assert start[0] > start[1] > start[2] > start[3]


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


@pytest.mark.parametrize(
    ("players", "target", "free"), [(2, 21, True), (2, 21, False), (3, 8, True), (3, 21, True),
                                    (3, 21, False), (4, 6, True)]
)  # fmt: skip
def test_perfect_never_picks_a_worse_choice(players: int, target: int, free: bool) -> None:
    bot = Bot("perfect", seed=1)
    points = decision_points(players, 2000, seed=players, target=target, free_choices=free)
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
    # the free choices are among them: the Pips arrangement and the claim
    if free:
        assert {ARRANGE, CLAIM} <= kinds
    else:
        assert not kinds & {ARRANGE, CLAIM}
    if players > 2:  # the max^n table (exact) decides there, not the approximation
        assert all(maxn_solution(p) is not None for p in points[-50:])  # type: ignore[arg-type]


def test_perfect_arranges_pips_for_fewer_points_where_they_are_worth_more() -> None:
    # 16-18: 1 1 6 6 can make a square of 3, 2 or 0 points. 3 points (19-18) leads,
    # so a white 1 would end his next turn; 2 (18-18) is worth more.
    game = load_game("whitedie")
    s = game.setup([16, 18], 0, white=5, dice=[1, 1, 6, 6], rerolls_left=1).apply_text("stand")
    win = winprob_table(21, "standard", True)
    values = dict((str(a), v) for a, v in options(s, WIN))  # type: ignore[arg-type]
    for p in (3, 2, 0):
        assert values[f"arrange {p}"] == pytest.approx(1 - win[18, 16 + p], abs=1e-12)
    assert values["arrange 2"] > values["arrange 3"] + 0.01
    assert str(Bot("perfect").act(s)) == "arrange 2"
    assert str(Bot("greedy").act(s)) == "arrange 3"  # the most points
