"""Each game declares itself once: its entry names every part, and every name resolves."""

from __future__ import annotations

import random

import pytest

from dicehall.bots.registry import BotPackage, game_bots, make_agent
from dicehall.cli.views import FunctionsView as TerminalFunctions
from dicehall.cli.views import TerminalView, get_view
from dicehall.core.declaration import PARTS, GameEntry
from dicehall.core.errors import GameDeclarationError, UnknownGameError
from dicehall.core.registry import (
    game_class,
    game_entry,
    load_game,
    refresh_games,
    register_game,
    registered_games,
)
from dicehall.server.views import FunctionsView as WebFunctions
from dicehall.server.views import WebView
from dicehall.server.views import get_view as get_web_view

SHIPPED = ["backgammon", "coinrows", "whitedie"]


def test_the_shipped_games_come_from_entry_points() -> None:
    from importlib import metadata

    names = {ep.name for ep in metadata.entry_points(group="dicehall.games")}
    assert set(SHIPPED) <= names
    assert set(SHIPPED) <= set(registered_games())


@pytest.mark.parametrize("name", SHIPPED)
def test_every_declared_part_resolves_to_its_protocol(name: str) -> None:
    entry = game_entry(name)
    assert entry.name == name and all(getattr(entry, part) is not None for part in PARTS)
    assert game_class(name).name == name
    assert isinstance(game_bots(name), BotPackage)
    assert isinstance(get_view(name), TerminalView)
    assert isinstance(get_web_view(name), WebView)
    assert callable(entry.load("statistics"))


def test_a_misspelt_part_is_an_error_not_a_fallback() -> None:
    entry = GameEntry(
        "tinybg",
        rules="dicehall.games.backgammon.rules:Backgammon",
        bots="dicehall.bots.backgammon:BOT",
    )
    with pytest.raises(GameDeclarationError, match="has no attribute 'BOT'"):
        entry.load("bots")
    with pytest.raises(GameDeclarationError, match="no module 'dicehall.cli.viewz'"):
        GameEntry("x", rules="dicehall.cli.viewz.x:VIEW").load("rules")
    with pytest.raises(GameDeclarationError, match="lazy 'package.module:attribute'"):
        GameEntry("x", rules="dicehall.games.backgammon")
    with pytest.raises(GameDeclarationError, match="lower case"):
        GameEntry("Pig", rules="a:b")
    with pytest.raises(TypeError, match="unknown terminal view function"):
        TerminalFunctions(hnit=print)
    with pytest.raises(TypeError, match="unknown web view function"):
        WebFunctions(summery=print)


def test_run_time_registration_and_wrong_shapes() -> None:
    cls = type(load_game("coinrows"))
    register_game(GameEntry("badbots", rules=cls, bots="dicehall.games.coinrows:ENTRY"))
    register_game(GameEntry("badview", rules=cls, terminal_view="dicehall.games.coinrows:ENTRY"))
    register_game(GameEntry("badrules", rules="dicehall.games.coinrows:ENTRY"))
    try:
        with pytest.raises(GameDeclarationError, match="not a BotPackage"):
            make_agent("badbots", "bot")
        with pytest.raises(GameDeclarationError, match="FunctionsView"):
            get_view("badview")
        with pytest.raises(GameDeclarationError, match="not a Game subclass"):
            load_game("badrules")
        # a part left out is the layer's generic behaviour
        assert game_bots("badview") is None
        assert get_web_view("badbots").legal_view(cls().new_initial_state()) is None
    finally:
        refresh_games()
    with pytest.raises(UnknownGameError):
        game_entry("badbots")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("backgammon", {}),
        ("backgammon", {"scoring": "standard"}),
        ("coinrows", {}),
        ("coinrows", {"payoff": "coins"}),
        ("whitedie", {}),
        ("whitedie", {"players": 3}),
    ],
)
def test_declared_utility_bounds_hold_in_played_games(
    name: str, options: dict[str, object]
) -> None:
    game = load_game(name, **options)
    bounds = game.utility_bounds()
    assert bounds is not None
    lo, hi = bounds
    rng = random.Random(7)
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply(rng.choice(list(state.legal_actions())))
        assert all(lo <= r <= hi for r in state.returns()), state.returns()
