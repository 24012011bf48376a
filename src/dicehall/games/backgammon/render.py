"""Text drawings of a backgammon position, oriented for one player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.games.backgammon.board import BAR, OFF, pip_count

if TYPE_CHECKING:
    from dicehall.games.backgammon.rules import BackgammonState

ROWS = 5


def _cell(count: int, row: int, mark: str) -> str:
    """One 3-wide cell of a point's column: a checker, a count for tall stacks, or blank."""
    if count > ROWS and row == ROWS - 1:
        return f"{count:>2} "
    return f" {mark} " if count > row else "   "


def render_text(state: BackgammonState, perspective: int | None = None) -> str:
    """ASCII board for ``perspective`` (a seat; default the player on roll), drawn as X
    with his home board bottom right and points numbered from his side.

    >>> from dicehall import load_game
    >>> print(load_game("backgammon").new_initial_state().render().splitlines()[1])
     +13-14-15-16-17-18-+---+19-20-21-22-23-24-+
    """
    me = state.turn if perspective is None else perspective
    mine, theirs = state.side(me), state.side(1 - me)

    def at(point: int) -> tuple[int, str]:
        if mine[point]:
            return mine[point], "X"
        if theirs[25 - point]:
            return theirs[25 - point], "O"
        return 0, " "

    def label(points: range) -> str:
        return "".join(f"{p:-<3}" if p >= 10 else f"-{p}-" for p in points)

    top_left, top_right = range(13, 19), range(19, 25)
    bot_left, bot_right = range(12, 6, -1), range(6, 0, -1)
    opp = f"seat {2 - me} (O)  pips {pip_count(theirs):3}  off {theirs[OFF]:2}"
    lines = [f"  {opp}", f" +{label(top_left)}+---+{label(top_right)}+"]
    for row in range(ROWS):
        left = "".join(_cell(at(p)[0], row, at(p)[1]) for p in top_left)
        right = "".join(_cell(at(p)[0], row, at(p)[1]) for p in top_right)
        bar = _cell(theirs[BAR], row, "O")
        lines.append(f" |{left}|{bar}|{right}|")
    lines.append(f" |{' ' * 18}|BAR|{' ' * 18}|")
    for row in reversed(range(ROWS)):
        left = "".join(_cell(at(p)[0], row, at(p)[1]) for p in bot_left)
        right = "".join(_cell(at(p)[0], row, at(p)[1]) for p in bot_right)
        bar = _cell(mine[BAR], row, "X")
        lines.append(f" |{left}|{bar}|{right}|")
    lines.append(f" +{label(bot_left)}+---+{label(bot_right)}+")
    status = f"seat {me + 1} (X)  pips {pip_count(mine):3}  off {mine[OFF]:2}"
    if state.winner is not None:
        who = "X" if state.winner == me else "O"
        status += f"   game over: {who} wins {state.points} point{'s' * (state.points != 1)}"
    elif state.turn == me:
        status += (
            "   on roll" if state.dice is None else f"   to play {state.dice[0]}-{state.dice[1]}"
        )
    lines.append(f"  {status}")
    lines.append(f"  Position ID: {state.position_id()}")
    if state.game.extended:
        lines[1:1] = [f"  {cube_line(state, me)}"]
        lines.append(f"  Match ID:    {state.match_id()}")
    return "\n".join(lines)


def cube_line(state: BackgammonState, me: int) -> str:
    """The cube, the score and any question pending, as seen by seat ``me`` (X).

    >>> from dicehall import load_game
    >>> cube_line(load_game("backgammon", cube=True, match_length=5).new_initial_state(), 0)
    'match to 5, game 1: X 0 - O 0   cube 1 (centred)'
    """
    from dicehall.games.backgammon.board import (
        RACCOON_DECISION,
        RESIGN_DECISION,
        RESIGN_LEVELS,
        TAKE_DECISION,
    )

    mine, theirs = state.match_score[me], state.match_score[1 - me]
    n = state.match_length
    where = f"match to {n}" if n else "money"
    text = f"{where}, game {state.game_number}: X {mine} - O {theirs}"
    if state.crawford:
        text += " (Crawford game)"
    elif state.post_crawford:
        text += " (post-Crawford)"
    if state.game.options["cube"]:
        owner = state.cube_owner
        held = "centred" if owner is None else "X owns it" if owner == me else "O owns it"
        text += f"   cube {state.cube_value} ({held})"
    who = "X" if state.current_player() == me else "O"
    if state.pending == TAKE_DECISION:
        text += f"   {who}: double to {2 * state.cube_value} offered - take or pass?"
    elif state.pending == RACCOON_DECISION:
        text += f"   {who}: beavered - take or raccoon?"
    elif state.pending == RESIGN_DECISION:
        level = RESIGN_LEVELS[state.resign_level]
        text += f"   {who}: {level} resignation offered - accept or reject?"
    return text
