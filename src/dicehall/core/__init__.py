"""The game-agnostic core: protocol, options, dice, records and matches."""

from dicehall.core.declaration import GameEntry
from dicehall.core.dice import Dice, ScriptedDice, SeededDice, resolve_chance
from dicehall.core.errors import (
    ActionSyntaxError,
    AmbiguousActionError,
    DicehallError,
    GameDeclarationError,
    GameOverError,
    IllegalActionError,
    OptionError,
    RecordError,
    UnknownGameError,
)
from dicehall.core.game import CHANCE, TERMINAL, Action, Game, State
from dicehall.core.match import Agent, Match
from dicehall.core.options import Option
from dicehall.core.record import Record
from dicehall.core.registry import (
    game_class,
    game_entry,
    load_game,
    refresh_games,
    register_game,
    registered_games,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionSyntaxError",
    "Agent",
    "AmbiguousActionError",
    "Dice",
    "DicehallError",
    "Game",
    "GameDeclarationError",
    "GameEntry",
    "GameOverError",
    "IllegalActionError",
    "Match",
    "Option",
    "OptionError",
    "Record",
    "RecordError",
    "ScriptedDice",
    "SeededDice",
    "State",
    "UnknownGameError",
    "game_class",
    "game_entry",
    "load_game",
    "refresh_games",
    "register_game",
    "registered_games",
    "resolve_chance",
]
