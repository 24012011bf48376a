"""Coin Rows: the 7x7 coin-capturing dice game (rules, action text, text rendering).

Player 1 (seat 0) moves first from row 1, player 2 from row 7. A turn is
Phase A (capture a row, roll or leave), then after a roll Phase B (move the
dice); a capture makes the opponent refill the emptied columns (Phase C).

>>> from dicehall import load_game
>>> game = load_game("coinrows")
>>> state = game.new_initial_state()
>>> state.legal_texts()
['roll', 'leave']
>>> state = state.apply_text("roll")
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 21)
>>> state = state.apply_text("2-3")          # Phase B: move 5 with one coin or 2 and 3
>>> state = state.apply_text("c1-c6")
>>> state.phase, state.current_player()      # the full roll was moved: Phase A again
(<Phase.A: 'A'>, 0)
>>> state.apply_text("roll").apply_text("3-4").turn   # 7 ends the turn at once
1
"""

from dicehall.core.declaration import GameEntry
from dicehall.games.coinrows.render import render_text
from dicehall.games.coinrows.rules import (
    ALL_ROLLS,
    COLUMNS,
    ENDING_TOTALS,
    HOME_ROWS,
    LEAVE,
    MARKS,
    ROLL,
    SIZE,
    START_BOARD,
    Action,
    Board,
    Capture,
    Coin,
    CoinRows,
    CoinRowsState,
    Decision,
    Ending,
    Move,
    Phase,
    Roll,
    capture_options,
    legal_moves,
    move_candidates,
    parse_square,
    square_name,
)

#: Coin Rows's one declaration (registered in pyproject.toml's ``dicehall.games`` entry points).
ENTRY = GameEntry(
    "coinrows",
    rules="dicehall.games.coinrows.rules:CoinRows",
    bots="dicehall.bots.coinrows:BOTS",
    terminal_view="dicehall.cli.views.coinrows:VIEW",
    web_view="dicehall.server.views.coinrows:VIEW",
    statistics="dicehall.games.coinrows.statistics:game_statistics",
    svg="dicehall.svg.coinrows:board_svg",
)

__all__ = [
    "ALL_ROLLS",
    "COLUMNS",
    "ENDING_TOTALS",
    "ENTRY",
    "HOME_ROWS",
    "LEAVE",
    "MARKS",
    "ROLL",
    "SIZE",
    "START_BOARD",
    "Action",
    "Board",
    "Capture",
    "Coin",
    "CoinRows",
    "CoinRowsState",
    "Decision",
    "Ending",
    "Move",
    "Phase",
    "Roll",
    "capture_options",
    "legal_moves",
    "move_candidates",
    "parse_square",
    "render_text",
    "square_name",
]
