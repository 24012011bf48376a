"""The bot at every level plays only legal moves; hints, analysis and the registry."""

from __future__ import annotations

import time

import pytest

from dicehall import Match, load_game
from dicehall.bots import RandomBot
from dicehall.bots.backgammon import DEFAULT_LEVEL, LEVELS, Bot
from dicehall.bots.registry import make_agent
from dicehall.core.dice import SeededDice, resolve_chance


@pytest.mark.parametrize("level", ["beginner", "easy", "medium", "hard"])
def test_bot_plays_whole_games_legally(level: str) -> None:
    for seed in range(2):
        game = load_game("backgammon", scoring="standard" if seed else "single")
        bot = Bot(level=level, seed=seed)
        state = game.new_initial_state()
        dice = SeededDice(seed)
        other = RandomBot(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(resolve_chance(state, dice))
                continue
            agent = bot if state.current_player() == 0 else other
            action = agent.act(state)
            assert action in state.legal_actions()
            state = state.apply(action)


def test_expert_answers_legally_and_quickly() -> None:
    match = Match(load_game("backgammon"), [Bot("expert", seed=1), RandomBot(seed=2)], seed=3)
    decisions = 0
    while decisions < 6 and not match.state.is_terminal():
        state = match.state
        if state.is_chance_node() or state.current_player() == 1:
            match.step()
            continue
        started = time.perf_counter()
        action = match.agents[0].act(state)  # type: ignore[union-attr]
        assert time.perf_counter() - started < 10  # generous: a shared, busy machine
        assert action in state.legal_actions()
        match.apply(action)
        decisions += 1


def test_levels_and_registry() -> None:
    assert LEVELS[0] == "beginner" and LEVELS[-1] == "expert" and DEFAULT_LEVEL in LEVELS
    agent = make_agent("backgammon", "bot:expert", seed=1)
    assert isinstance(agent, Bot) and agent.level == "expert"
    assert isinstance(make_agent("backgammon", "bot"), Bot)
    with pytest.raises(ValueError, match="unknown level"):
        Bot(level="grandmaster")


def test_rank_orders_plays_and_covers_all() -> None:
    state = load_game("backgammon").new_initial_state().apply_text("6-5")
    ranked = Bot("hard").rank(state)
    assert len(ranked) == len(state.legal_actions())
    assert ranked[0].text == "24/13"
    assert ranked[0].depth == 1 and ranked[0].equity >= ranked[1].equity


def test_hint_shows_equities() -> None:
    from rich.console import Console

    from dicehall.cli.views import get_view

    state = load_game("backgammon").new_initial_state().apply_text("3-1")
    table = get_view("backgammon").hint(state)
    console = Console(width=120, record=True)
    console.print(table)
    text = console.export_text()
    assert "8/5 6/5" in text and "%" in text and "equity" in text


def test_analyze_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from dicehall.cli.main import _load_commands, app

    match = Match(load_game("backgammon"), [RandomBot(seed=1), Bot("medium")], seed=4)
    match.play(max_actions=30)
    path = tmp_path / "game.json"
    match.record.save(path)
    _load_commands()
    result = CliRunner().invoke(app, ["analyze", str(path), "--level", "medium", "--all"])
    assert result.exit_code == 0, result.output
    assert "totals per player" in result.output and "bot:medium" in result.output
