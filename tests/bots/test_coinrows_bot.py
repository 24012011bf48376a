"""The Coin Rows bot: its evaluation, its levels, and that it knows when to capture,
roll again and leave."""

from __future__ import annotations

import time

import pytest

from dicehall import load_game
from dicehall.bots.coinrows import DEFAULT_LEVEL, LEVELS, Bot, evaluate, hint, lead_estimate
from dicehall.bots.registry import agent_names, make_agent
from dicehall.games.coinrows import CoinRowsState


def setup(coins: dict[str, int], purses: tuple[int, int], **options: object) -> CoinRowsState:
    state = load_game("coinrows", **options).setup(coins, purses=purses)  # type: ignore[attr-defined]
    assert isinstance(state, CoinRowsState)
    return state


def test_levels_are_registered() -> None:
    assert LEVELS[0] == "beginner" and LEVELS[-1] == "expert"
    assert DEFAULT_LEVEL in LEVELS
    assert "bot:expert" in agent_names("coinrows")
    assert make_agent("coinrows", "bot:greedy", seed=1).name == "coinrows bot:greedy"  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        Bot(level="grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_captures_a_row_of_opponent_coins(level: str) -> None:
    # row 4 holds two of seat 2's coins and one of ours: capturing wins two coins
    state = setup(
        {"a7": 1, "b4": 1, "c4": 1, "d4": 0, "e1": 0, "f1": 0, "g1": 0},
        purses=(16, 17),
        leaving=False,
    )
    if level == "beginner":
        return  # the beginner blunders on purpose
    assert state.action_to_text(Bot(level=level, seed=1).act(state)) == "capture 4"


@pytest.mark.parametrize("level", ["greedy", "advanced", "expert"])
def test_leaves_with_the_lead(level: str) -> None:
    # seat 1 leads 22 to 18 (no capture available): leaving wins at once
    state = setup({"a7": 1, "b7": 1, "c1": 0, "d1": 0, "e1": 0, "f1": 0, "g1": 0}, purses=(17, 16))
    assert state.totals() == (22, 18)
    assert state.action_to_text(Bot(level=level, seed=1).act(state)) == "leave"


@pytest.mark.parametrize("level", ["advanced", "expert"])
def test_rolls_again_when_behind(level: str) -> None:
    # seat 1 trails and nothing can be captured: leaving loses, so roll on
    state = setup({"a7": 1, "b7": 1, "c1": 0, "d1": 0, "e1": 0, "f1": 0, "g1": 0}, purses=(13, 20))
    assert state.totals()[0] < state.totals()[1]
    assert state.action_to_text(Bot(level=level, seed=1).act(state)) == "roll"


def test_capture_that_breaks_the_opponent_is_a_win() -> None:
    # seat 2 has a single coin in his purse and row 3 holds two of our coins and one of
    # his: taking the row (three columns) leaves him unable to refill, ending the game
    state = setup({"a3": 1, "b3": 0, "c3": 0, "d7": 1, "e1": 0, "f1": 0, "g1": 0}, purses=(32, 1))
    assert evaluate(state)[0] == 1.0
    assert state.action_to_text(Bot(level="expert", seed=1).act(state)) == "capture 3"


def test_evaluation_is_antisymmetric_and_bounded() -> None:
    state = load_game("coinrows").new_initial_state()
    for text in ["roll", "2-3", "c1-c6", "roll", "1-5", "d1-d7"]:
        state = state.apply_text(text) if not state.is_terminal() else state
        v = evaluate(state)
        assert v[0] == -v[1]
        assert -1.0 <= v[0] <= 1.0


def test_exposure_costs_and_lead_counts() -> None:
    safe = setup({"a7": 1, "b7": 1, "c1": 0, "d1": 0, "e1": 0, "f1": 0, "g1": 0}, (15, 18))
    exposed = setup({"a7": 1, "b7": 1, "c4": 0, "d4": 0, "e1": 0, "f1": 0, "g1": 0}, (15, 18))
    assert lead_estimate(exposed) < lead_estimate(safe)
    ahead = setup({"a7": 1, "b7": 1, "c1": 0, "d1": 0, "e1": 0, "f1": 0, "g1": 0}, (18, 15))
    assert lead_estimate(ahead) > lead_estimate(safe)


def test_coins_payoff_values_are_coins() -> None:
    state = setup(
        {"a7": 1, "b7": 1, "c1": 0, "d1": 0, "e1": 0, "f1": 0, "g1": 0},
        purses=(17, 16),
        payoff="coins",
    )
    assert evaluate(state)[0] >= 2.0  # leaving now nets two coins
    values = dict(hint(state, level="advanced"))
    assert values["leave"] == 2.0  # values are net coins, not results


def test_expert_decides_within_a_second_on_typical_positions() -> None:
    # a smoke check of the node budget, not a benchmark: generous bound for slow CI
    bot = Bot(level="expert", seed=3)
    state = load_game("coinrows", leaving=False).new_initial_state()
    for text in ["roll", "3-5", "c1-c4 d1-d6", "roll", "2-4"]:
        state = state.apply_text(text)
    start = time.perf_counter()
    bot.act(state)
    assert time.perf_counter() - start < 5.0


def test_same_seed_same_game() -> None:
    from dicehall.core.match import Match

    def play() -> list[str]:
        game = load_game("coinrows", leaving=False, turn_limit=8)
        match = Match(game, [Bot("beginner", seed=4), Bot("advanced", seed=5)], seed=6)
        return match.play().actions

    assert play() == play()


def test_hint_ranks_the_options() -> None:
    state = setup({"a7": 1, "b4": 1, "c4": 1, "d4": 0, "e1": 0, "f1": 0, "g1": 0}, (16, 17))
    lines = hint(state)
    assert lines[0][0] == "capture 4"
    assert [v for _, v in lines] == sorted((v for _, v in lines), reverse=True)
    from dicehall.cli.views import get_view

    shown = get_view("coinrows").hint(state)
    assert shown is not None and "capture 4" in str(shown)


@pytest.mark.parametrize("level", ["advanced", "expert"])
def test_breaks_a_stall_by_capturing_its_own_pair(level: str) -> None:
    # seat 2 has every coin on the board and the totals are level (20 each); seat 1 has
    # no coin, so he cannot move and nothing of his can be captured: shuffling coins
    # would run into the 1000-turn limit for a draw. Pairing two coins in a capture row
    # and capturing them makes seat 1 refill onto the board, where his coins can be won
    # (a search two decisions deep sees it: the move, then the capture).
    bot = Bot(level=level, seed=1)
    state = load_game("coinrows", leaving=False).setup(  # type: ignore[attr-defined]
        {"a4": 1, "b1": 1, "c2": 1, "d1": 1, "e7": 1, "f1": 1, "g7": 1},
        purses=(20, 13),
        turn=1,
        roll="6-2",
    )
    assert state.totals() == (20, 20) and state.on_board(0) == 0
    state = state.apply(bot.act(state))
    capture = bot.act(state)
    assert state.action_to_text(capture).startswith("capture")
    after = state.apply(capture)
    assert after.on_board(0) > 0 and after.totals() == (20, 20)
