"""MCTS finds the clear best move, reproducibly, in a hand-built game and in backgammon."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dicehall import load_game
from dicehall.bots.mcts import MCTSBot
from dicehall.core.dice import SeededDice, resolve_chance
from dicehall.core.game import State

sys.path.insert(0, str(Path(__file__).parent))
from test_expectimax import Gamble, GambleState


def trailing_last_turn() -> GambleState:
    """Seat 1 trails 1 to 3 on the last turn: the safe point loses for sure, gambling may not."""
    return GambleState(Gamble(4), (3, 1), 3, False)


@pytest.mark.parametrize("chance", ["sample", "expand"])
def test_mcts_gambles_when_trailing(chance: str) -> None:
    state = trailing_last_turn()
    bot = MCTSBot(iterations=300, chance=chance, seed=7)
    assert bot.act(state) == "gamble"
    stats = {s.text: s for s in bot.search(state)}
    assert stats["safe"].value == -1.0
    # exact value of the gamble for seat 1: (-1/2 + 0/4 + 1/8) / (7/8) = -3/7
    assert stats["gamble"].value == pytest.approx(-3 / 7, abs=0.15)


def race_to_bear_off() -> State:
    """Seat 0 to play 6-1 with checkers on its 6 and 1 points; seat 1 will bear off next roll.

    Bearing off both (``6/off 1/off``) wins now; ``6/5/off`` leaves a checker and loses.
    """
    game = load_game("backgammon")
    mine = [13, 1, 0, 0, 0, 0, 1] + [0] * 19
    theirs = [13, 1, 1] + [0] * 23
    return game.setup((tuple(mine), tuple(theirs)), turn=0, dice=(6, 1))  # type: ignore[attr-defined]


def test_mcts_bears_off_to_win() -> None:
    state = race_to_bear_off()
    texts = state.legal_texts()
    assert len(texts) > 1
    action = MCTSBot(iterations=200, seed=3).act(state)
    assert state.apply(action).is_terminal()


def test_same_seed_same_choice_and_statistics() -> None:
    state = race_to_bear_off()
    a = MCTSBot(iterations=60, seed=11).search(state)
    b = MCTSBot(iterations=60, seed=11).search(state)
    assert [(s.text, s.visits, s.value) for s in a] == [(s.text, s.visits, s.value) for s in b]


def test_three_players_use_their_own_returns() -> None:
    game = load_game("whitedie", players=3)
    state = game.new_initial_state()
    dice = SeededDice(5)
    while state.is_chance_node():
        state = state.apply(resolve_chance(state, dice))
    bot = MCTSBot(iterations=40, seed=1)
    assert bot.act(state) in list(state.legal_actions())
    values = [s.value for s in bot.search(state)]
    assert all(-0.5 <= v <= 1.0 for v in values)


def test_time_budget() -> None:
    state = trailing_last_turn()
    assert MCTSBot(time_limit=0.05, seed=1).act(state) in ("safe", "gamble")
