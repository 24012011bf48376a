"""Typed errors: syntax, ambiguity, game over and illegality are told apart, and misuse of
the protocol is a plain ``ValueError``, never an illegal action."""

from __future__ import annotations

import pytest

from dicehall import load_game
from dicehall.bots.random import RandomBot
from dicehall.core.errors import (
    ActionSyntaxError,
    AmbiguousActionError,
    GameOverError,
    IllegalActionError,
)
from dicehall.core.match import Match
from dicehall.games.backgammon import BackgammonState, decode_position_id


def finished(game: str) -> Match:
    match = Match(load_game(game), [RandomBot(seed=1), RandomBot(seed=2)], seed=3)
    match.play()
    return match


def test_error_classes_form_one_family() -> None:
    for cls in (ActionSyntaxError, AmbiguousActionError, GameOverError):
        assert issubclass(cls, IllegalActionError)
        assert issubclass(cls, ValueError)


def test_backgammon_ambiguous_play_carries_its_candidates() -> None:
    game = load_game("backgammon")
    state = BackgammonState(game, decode_position_id("Us/BASJKb8EgUA"), 1, (5, 4))
    with pytest.raises(AmbiguousActionError) as info:
        state.parse_action("bar/16")
    assert info.value.candidates == ["bar/20*/16", "bar/21*/16"]
    assert "bar/20*/16" in info.value.legal
    assert state.action_to_text(state.parse_action("bar/21*/16")) == "bar/21*/16"


@pytest.mark.parametrize(
    ("game", "moves", "text", "kind"),
    [
        ("backgammon", ["3-1"], "8/x", ActionSyntaxError),
        ("backgammon", [], "7-7", ActionSyntaxError),
        ("backgammon", ["3-1"], "24/18", IllegalActionError),
        ("coinrows", [], "fly away", ActionSyntaxError),
        ("coinrows", ["roll"], "9-9", ActionSyntaxError),
        ("coinrows", ["roll", "2-3"], "c1-z9", ActionSyntaxError),
        ("coinrows", ["roll", "2-3"], "c1-c2", IllegalActionError),
        ("whitedie", [], "", ActionSyntaxError),
        (
            "whitedie",
            ["white 5: 1 2 3 4", "white 2: 6 6 6 6", "white 6: 2 4 4 1"],
            "reroll x",
            ActionSyntaxError,
        ),
        (
            "whitedie",
            ["white 5: 1 2 3 4", "white 2: 6 6 6 6", "white 6: 2 4 4 1"],
            "reroll 6 6",
            IllegalActionError,
        ),
    ],
)
def test_each_failure_has_its_own_type(
    game: str, moves: list[str], text: str, kind: type[IllegalActionError]
) -> None:
    state = load_game(game).new_initial_state()
    for move in moves:
        state = state.apply_text(move)
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(text)
    assert type(info.value) is kind
    assert info.value.legal == state.legal_texts()


def test_coinrows_capture_without_a_row_is_ambiguous() -> None:
    state = load_game("coinrows").new_initial_state()
    for move in ["roll", "5-5", "c1-c6 g1-g6", "roll", "2-2", "d1-d3 f1-f3"]:
        state = state.apply_text(move)
    with pytest.raises(AmbiguousActionError) as info:
        state.parse_action("capture")
    assert info.value.candidates == ["capture 3", "capture 6"]


@pytest.mark.parametrize("game", ["backgammon", "coinrows", "whitedie"])
def test_acting_after_the_end_is_game_over(game: str) -> None:
    match = finished(game)
    with pytest.raises(GameOverError, match="the game is over"):
        match.state.parse_action("roll")
    first_legal = load_game(game).new_initial_state().legal_actions()[0]
    with pytest.raises(GameOverError):
        match.state.apply(first_legal)
    with pytest.raises(ValueError, match="game is over") as info:
        match.step()
    assert not isinstance(info.value, IllegalActionError)


@pytest.mark.parametrize(
    ("game", "moves"),
    [
        ("backgammon", ["3-1"]),
        ("coinrows", []),
        ("whitedie", ["white 5: 1 2 3 4", "white 2: 6 6 6 6", "white 6: 2 4 4 1"]),
    ],
)
def test_chance_outcomes_of_a_decision_is_misuse(game: str, moves: list[str]) -> None:
    state = load_game(game).new_initial_state()
    for move in moves:
        state = state.apply_text(move)
    assert not state.is_chance_node()
    with pytest.raises(ValueError, match="not a chance node") as info:
        state.chance_outcomes()
    assert not isinstance(info.value, IllegalActionError)
