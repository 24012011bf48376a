"""White Die solved: exact solvers for every challenge, a provably optimal bot, hints.

* ``reroll``: Poker, Pips, Sixes - stand/reroll dynamic programming over multisets;
* ``tictactoe``: minimax over every placement, pass and claim;
* ``matching``: the three reroll stages, exactly;
* ``winprob``: two-player winning chances by value iteration, exact policy
  evaluation, and the approximation for three to six players;
* ``advisor``: the value of every option in a state; ``Bot``: the levels.

Tables that take minutes to compute ship in ``tables.npz``; ``dicehall solve
whitedie`` regenerates them.

>>> from dicehall import load_game
>>> s = load_game("whitedie").setup([0, 0], 0, white=2, dice=[1, 3, 5, 6])
>>> [(text, value) for text, value, _ in hint_lines(s)][:2]
[('reroll 1 5 6', '2.134'), ('reroll 1 6', '2.093')]
"""

from __future__ import annotations

from fractions import Fraction

from dicehall.bots.registry import BotFamily
from dicehall.bots.whitedie.advisor import POINTS, WIN, minimising, options
from dicehall.bots.whitedie.bot import DEFAULT_LEVEL, LEVELS, Bot
from dicehall.games.whitedie.rules import WhiteDieState

#: What White Die declares as its bots (``GameEntry.bots``).
BOTS = BotFamily(LEVELS, DEFAULT_LEVEL, Bot)


def hint_lines(state: WhiteDieState, limit: int = 12) -> list[tuple[str, str, str]]:
    """The options of the seat to act, best first: ``(action, expected points of the
    player on turn, note)``; with two players the note gives the winning chance of the
    player on turn under perfect play and marks the perfect choice."""
    if state.current_player() < 0:
        return []
    points = options(state, POINTS)
    two = len(state.scores) == 2
    wins = dict(options(state, WIN)) if two else {}
    sign = -1 if minimising(state, WIN if two else POINTS) else 1
    key = wins if two else dict(points)
    best = max(sign * v for v in key.values())
    ranked = sorted(points, key=lambda av: -sign * key[av[0]])
    out = []
    for action, value in ranked[:limit]:
        note = f"win {float(wins[action]):.1%}" if two else ""
        if sign * key[action] >= best - 1e-12:
            note = (note + "  ← best").strip()
        shown = f"{float(value):.3f}" if isinstance(value, Fraction) else f"{value:.3f}"
        out.append((state.action_to_text(action), shown, note))
    return out


__all__ = ["BOTS", "DEFAULT_LEVEL", "LEVELS", "Bot", "hint_lines"]
