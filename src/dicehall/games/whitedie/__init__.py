"""White Die: five dice, five challenges (Poker, Tic-tac-toe, Matching, Pips, Sixes),
first to 21. Rules and interpretations: docs/rules/whitedie.md.

>>> from dicehall import load_game
>>> state = load_game("whitedie").new_initial_state()
>>> state = state.apply_text("white 5: 1 2 3 4").apply_text("white 2: 6 6 6 6")
>>> state.phase, state.turn, state.chance_dice()      # seat 1 starts: he rolls five
(<Phase.ROLL: 'roll'>, 0, 5)
>>> state = state.apply_text("white 6: 2 4 4 1")      # Sixes
>>> state.legal_texts()[:4]
['stand', 'reroll 1', 'reroll 2', 'reroll 4']
>>> state.apply_text("stand").scores                  # 2+4 twice
(2, 0)
"""

from dicehall.core.declaration import GameEntry
from dicehall.games.whitedie.challenges import (
    CHALLENGES,
    POKER_CHARTS,
    Match,
    PipSquare,
    best_matches,
    best_pip_square,
    challenge_score,
    matching_score,
    pips_score,
    poker_hand,
    poker_score,
    sixes_score,
    sixes_sets,
    tictactoe_score,
)
from dicehall.games.whitedie.rules import (
    ChallengeResult,
    ChooseOpponent,
    Phase,
    Place,
    Reroll,
    Roll,
    Stand,
    WhiteDie,
    WhiteDieState,
)

#: White Die's one declaration (registered in pyproject.toml's ``dicehall.games`` entry points).
ENTRY = GameEntry(
    "whitedie",
    rules="dicehall.games.whitedie.rules:WhiteDie",
    bots="dicehall.bots.whitedie:BOTS",
    terminal_view="dicehall.cli.views.whitedie:VIEW",
    web_view="dicehall.server.views.whitedie:VIEW",
    statistics="dicehall.games.whitedie.statistics:game_statistics",
    svg="dicehall.svg.whitedie:board_svg",
)

__all__ = [
    "CHALLENGES",
    "ENTRY",
    "POKER_CHARTS",
    "ChallengeResult",
    "ChooseOpponent",
    "Match",
    "Phase",
    "PipSquare",
    "Place",
    "Reroll",
    "Roll",
    "Stand",
    "WhiteDie",
    "WhiteDieState",
    "best_matches",
    "best_pip_square",
    "challenge_score",
    "matching_score",
    "pips_score",
    "poker_hand",
    "poker_score",
    "sixes_score",
    "sixes_sets",
    "tictactoe_score",
]
