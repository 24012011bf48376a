"""Backgammon: the standard game (with the cube, matches and resignations as options),
GNU Backgammon notations (Position ID, Match ID, .mat files), text rendering.

>>> from dicehall import load_game
>>> game = load_game("backgammon")
>>> state = game.new_initial_state().apply_text("3-1")   # seat 0 rolled 3, seat 1 rolled 1
>>> state.action_to_text(state.parse_action("8/5 6/5"))
'8/5 6/5'
"""

from dicehall.core.declaration import GameEntry
from dicehall.games.backgammon.notation import (
    decode_position_id,
    encode_position_id,
    format_play,
)
from dicehall.games.backgammon.rules import (
    BAR,
    OFF,
    START_SIDE,
    Backgammon,
    BackgammonState,
    CubeAction,
    Play,
    Resign,
    ResignAnswer,
    Roll,
    generate_plays,
    pip_count,
)

#: Backgammon's one declaration (registered in pyproject.toml's ``dicehall.games`` entry points).
ENTRY = GameEntry(
    "backgammon",
    rules="dicehall.games.backgammon.rules:Backgammon",
    bots="dicehall.bots.backgammon:BOTS",
    terminal_view="dicehall.cli.views.backgammon:VIEW",
    web_view="dicehall.server.views.backgammon:VIEW",
    statistics="dicehall.games.backgammon.statistics:game_statistics",
    svg="dicehall.svg.backgammon:board_svg",
)

__all__ = [
    "BAR",
    "ENTRY",
    "OFF",
    "START_SIDE",
    "Backgammon",
    "BackgammonState",
    "CubeAction",
    "Play",
    "Resign",
    "ResignAnswer",
    "Roll",
    "decode_position_id",
    "encode_position_id",
    "format_play",
    "generate_plays",
    "pip_count",
]
