"""Plain-text drawings of White Die states: scores, the challenge, the dice, the grid.

Pure functions: call them from a REPL, the Rich view builds on the same pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.games.whitedie.board import (
    ARRANGE,
    CHOOSE,
    CLAIM,
    MATCH_LAST,
    MATCH_OPPONENT,
    MATCH_PLAYER,
    OPPONENT_ROLL,
    OVER,
    PLAYER_SIDE,
    REROLL,
    ROLL,
    START,
    TICTACTOE,
)
from dicehall.games.whitedie.challenges import (
    CHALLENGES,
    CLAIMED,
    Grid,
    best_matches,
    best_pip_square,
    challenge_score,
    claim,
    matching_score,
    pip_scores,
    pip_square,
    poker_hand,
    sixes_sets,
    tictactoe_score,
)

if TYPE_CHECKING:
    from dicehall.games.whitedie.rules import WhiteDieState


def cell_text(value: int) -> str:
    """A grid square as 3 characters: ``[4]`` the player's die, ``(4)`` the opponent's,
    ``[#]``/``(#)`` a claimed square, `` . `` empty.

    >>> cell_text(4), cell_text(-2), cell_text(-7), cell_text(0)
    ('[4]', '(2)', '(#)', ' . ')
    """
    if value == 0:
        return " . "
    face = "#" if abs(value) == CLAIMED else str(abs(value))
    return f"[{face}]" if value > 0 else f"({face})"


def grid_lines(grid: Grid) -> list[str]:
    """The tic-tac-toe grid with column letters and row numbers.

    >>> print("\\n".join(grid_lines((0, 0, 0, 0, 3, -4, 0, 0, 0))))
         a   b   c
     1   .   .   .
     2   .  [3] (4)
     3   .   .   .
    """
    lines = ["     a   b   c"]
    for r in range(3):
        row = " ".join(cell_text(grid[r * 3 + c]) for c in range(3))
        lines.append(f" {r + 1}  {row}".rstrip())
    return lines


def dice_text(dice: tuple[int, ...]) -> str:
    """Dice faces separated by spaces, or ``none``."""
    return " ".join(map(str, dice)) or "none"


def seat_label(seat: int) -> str:
    """How seats are named to people (1-based)."""
    return f"seat {seat + 1}"


def score_explanation(
    white: int, dice: tuple[int, ...], chart: str = "standard", points: int | None = None
) -> str:
    """Why four dice score what they do in Poker, Pips or Sixes (in Pips: the best
    square, or the square the player arranged to score ``points``).

    >>> score_explanation(6, (2, 4, 4, 1))
    'sixes: 2+4, 2+4 → 2 points'
    >>> score_explanation(2, (3, 4, 5, 6))
    'straight → 4 points'
    >>> score_explanation(5, (1, 1, 6, 6), points=2)
    'arranged square: 2 empty rows and 0 empty columns → 2 points (the best square scores 3)'
    """
    best = challenge_score(white, dice, chart)
    if white != 5 or points is None:
        points = best
    unit = "point" if points == 1 else "points"
    if white == 2:
        return f"{poker_hand(dice)} → {points} {unit}"
    if white == 6:
        sets = ", ".join("+".join(map(str, s)) for s in sixes_sets(dice)) or "no set adds up to 6"
        return f"sixes: {sets} → {points} {unit}"
    square = pip_square(dice, points)
    rows, cols = square.empty_rows(), square.empty_columns()
    which = "best square" if points == best else "arranged square"
    text = (
        f"{which}: {len(rows)} empty row{'s' * (len(rows) != 1)} and "
        f"{len(cols)} empty column{'s' * (len(cols) != 1)} → {points} {unit}"
    )
    return text if points == best else f"{text} (the best square scores {best})"


def matching_explanation(mine: tuple[int, ...], theirs: tuple[int, ...]) -> str:
    """The matches found and the score.

    >>> matching_explanation((4, 5, 2, 2), (3, 6, 4, 6))
    'matches 2+2 = 4, 4+5 = 3+6 + all-four bonus → 3 points'
    """
    matches = best_matches(mine, theirs)
    points = matching_score(mine, theirs)
    found = ", ".join(map(str, matches)) or "no match"
    bonus = " + all-four bonus" if sum(len(m.mine) for m in matches) == 4 else ""
    return f"matches {found}{bonus} → {points} point{'s' * (points != 1)}"


def render_text(state: WhiteDieState, perspective: int | None = None) -> str:
    """The whole table as text: scores, whose turn, the white die and the challenge.

    >>> from dicehall import load_game
    >>> print(load_game("whitedie").setup([4, 9], 1, white=6, dice=[2, 4, 4, 1]))
    White Die — first to 21
      seat 1   4
      seat 2   9  ◀ on turn
    White 6: Sixes — seat 2, 2 rerolls left
      dice: 1 2 4 4   (now: sixes: 2+4, 2+4 → 2 points)
    """
    game = state.game
    lines = [f"White Die — first to {game.target}"]
    for seat, score in enumerate(state.scores):
        mark = ""
        if state.phase == OVER and state.winner == seat:
            mark = "  ★ winner"
        elif state.phase not in (START, OVER) and seat == state.turn:
            mark = "  ◀ on turn"
        elif state.opponent == seat and state.challenge in ("Tic-tac-toe", "Matching"):
            mark = "  ◀ opponent"
        lines.append(f"  {seat_label(seat)} {score:3}{mark}")
    lines += challenge_lines(state)
    return "\n".join(lines)


def challenge_lines(state: WhiteDieState) -> list[str]:
    """The lines under the scores that describe the phase of play."""
    who = seat_label(state.turn)
    if state.phase == START:
        contenders = ", ".join(seat_label(s) for s in state.contenders)
        done = ", ".join(
            f"{seat_label(s)} white {w} (sum {t})"
            for s, (w, t) in zip(state.contenders, state.start_rolls, strict=False)
        )
        return [f"Who starts: {contenders} roll all five" + (f"; so far {done}" if done else "")]
    if state.phase == ROLL:
        return [f"{who} rolls all five dice"]
    if state.phase == OVER:
        assert state.winner is not None
        return [f"Game over: {seat_label(state.winner)} wins"]
    name = CHALLENGES[state.white]
    opp = seat_label(state.opponent) if state.opponent is not None else "?"
    if state.phase == REROLL:
        left = f"{state.rerolls_left} reroll{'s' * (state.rerolls_left != 1)} left"
        lines = [f"White {state.white}: {name} — {who}, {left}"]
        if state.rolling:
            lines.append(f"  keeps {dice_text(state.kept)}, rerolls {state.rolling}")
        else:
            now = score_explanation(state.white, state.dice, state.game.poker_chart)
            lines.append(f"  dice: {dice_text(state.dice)}   (now: {now})")
            if state.white == 5:
                lines += ["  " + row for row in str(best_pip_square(state.dice)).splitlines()]
        return lines
    if state.phase == ARRANGE:
        can = ", ".join(map(str, pip_scores(state.dice)))
        lines = [
            f"White 5: Pips — {who} arranges his square",
            f"  dice: {dice_text(state.dice)}   squares can score {can}: type 'arrange N' "
            "or 'best' (this one):",
        ]
        return lines + ["  " + row for row in str(best_pip_square(state.dice)).splitlines()]
    if state.phase == CLAIM:
        taken, kept = tictactoe_score(claim(state.grid, 0)), tictactoe_score(state.grid)
        lines = [f"White 3: Tic-tac-toe — {who} [x] against {opp} (x): nobody can place"]
        lines += ["  " + ln for ln in grid_lines(state.grid)]
        lines.append(
            f"  {who} has placed all his dice: 'claim' the empty squares ({taken} points) "
            f"or 'decline' ({kept})"
        )
        return lines
    if state.phase == CHOOSE:
        return [
            f"White {state.white}: {name} — {who} chooses an opponent",
            f"  dice: {dice_text(state.dice)}",
        ]
    if state.phase == OPPONENT_ROLL:
        return [
            f"White {state.white}: {name} — {who} against {opp}, who rolls four dice",
            f"  {who}'s dice: {dice_text(state.dice)}",
        ]
    if state.phase == TICTACTOE:
        side = who if state.side == PLAYER_SIDE else opp
        lines = [f"White 3: Tic-tac-toe — {who} [x] against {opp} (x), {side} to place"]
        lines += ["  " + ln for ln in grid_lines(state.grid)]
        lines.append(
            f"  {who} holds {dice_text(state.dice)}; {opp} holds {dice_text(state.opponent_dice)}"
        )
        return lines
    stage = {
        MATCH_PLAYER: f"{who} must reroll two dice",
        MATCH_OPPONENT: f"{opp} must reroll two dice",
        MATCH_LAST: f"{who} may reroll one die or stand",
    }[state.phase]
    if state.rolling:
        stage = f"rerolling {state.rolling} (kept {dice_text(state.kept)})"
    lines = [f"White 4: Matching — {who} against {opp}: {stage}"]
    lines.append(f"  {who}: {dice_text(state.dice)}   {opp}: {dice_text(state.opponent_dice)}")
    if not state.rolling:
        lines.append(f"  now: {matching_explanation(state.dice, state.opponent_dice)}")
    return lines
