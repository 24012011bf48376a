"""dicehall: Backgammon, Coin Rows and White Die with exact rules, bots and a uniform API.

>>> import dicehall
>>> game = dicehall.load_game("backgammon", scoring="standard")
>>> state = game.new_initial_state()
>>> state.current_player() == dicehall.CHANCE
True
"""

from dicehall.core import (
    CHANCE,
    TERMINAL,
    ActionSyntaxError,
    AmbiguousActionError,
    Game,
    GameOverError,
    IllegalActionError,
    Match,
    OptionError,
    Record,
    RecordError,
    ScriptedDice,
    SeededDice,
    State,
    UnknownGameError,
    load_game,
    registered_games,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ActionSyntaxError",
    "AmbiguousActionError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Match",
    "OptionError",
    "Record",
    "RecordError",
    "ScriptedDice",
    "SeededDice",
    "State",
    "UnknownGameError",
    "__version__",
    "load_game",
    "registered_games",
]
