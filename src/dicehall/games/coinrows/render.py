"""Text drawings of a Coin Rows position, seen from one player's side of the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dicehall.games.coinrows.board import COLUMNS, HOME_ROWS, MARKS, SIZE, Ending, Phase

if TYPE_CHECKING:
    from dicehall.games.coinrows.rules import CoinRowsState

EMPTY = "."


def seat_label(seat: int) -> str:
    """``seat 1 (X)``: how the texts name a seat and its colour."""
    return f"seat {seat + 1} ({MARKS[seat]})"


def purse_line(state: CoinRowsState, seat: int) -> str:
    """A seat's purse, coins on the board and total (its score)."""
    on = state.on_board(seat)
    return (
        f"{seat_label(seat)}  purse {state.purses[seat]:2}  + {on} on board"
        f"  = {state.purses[seat] + on:2}"
    )


def phase_line(state: CoinRowsState) -> str:
    """Whose turn, which phase and what may be done: one line."""
    who = seat_label(state.turn)
    limit = state.game.options["turn_limit"]
    head = f"Turn {state.turn_number}/{limit}, {who}"
    if state.phase is Phase.A:
        leave = " or leave" if state.game.options["leaving"] else ""
        what = "capture" if state.captures() else "no capture possible;"
        return f"{head}: Phase A, {what} roll{leave}"
    if state.phase is Phase.DICE:
        return f"{head}: Phase B, rolling the dice"
    if state.phase is Phase.B:
        roll = state.last_roll
        assert roll is not None
        return (
            f"{head}: Phase B, move {roll} (one coin {roll.total}, "
            f"or two coins {roll.low} and {roll.high})"
        )
    return "Game over: " + result_text(state)


def result_text(state: CoinRowsState) -> str:
    """Why the game ended and who won, e.g. ``seat 2 (O) left; 22 to 18, seat 1 (X) wins``."""
    if state.ending is Ending.LEFT:
        why = f"{seat_label(state.ended_by or 0)} left"
    elif state.ending is Ending.BROKE:
        why = f"{seat_label(state.ended_by or 0)} is broke"
    else:
        why = f"the turn limit ({state.game.options['turn_limit']}) is reached"
    t = state.totals()
    winner = state.winner()
    outcome = "drawn" if winner is None else f"{seat_label(winner)} wins"
    return f"{why}; totals {t[0]} to {t[1]}, {outcome}"


def capture_notes(state: CoinRowsState) -> dict[int, str]:
    """Row -> a note on the captures it offers (Phase A only)."""
    notes: dict[int, str] = {}
    for capture in state.captures():
        n = len(capture.columns)
        text = f"{state.action_to_text(capture)} ({n} coins)"
        notes[capture.row] = f"{notes[capture.row]}, {text}" if capture.row in notes else text
    return notes


def render_text(state: CoinRowsState, perspective: int | None = None) -> str:
    """The grid with row and column names, both purses and the state of the turn,
    drawn for ``perspective`` (default: the player whose turn it is; seat 0 once the
    game is over) with his home row at the bottom and his left-hand column on the left.

    >>> from dicehall import load_game
    >>> print(load_game("coinrows").new_initial_state().render())
    seat 2 (O)  purse 18  + 2 on board  = 20
         a  b  c  d  e  f  g
      7  O  O  .  .  .  .  .  7   home of seat 2
      6  .  .  .  .  .  .  .  6
      5  .  .  .  .  .  .  .  5
      4  .  .  .  .  .  .  .  4
      3  .  .  .  .  .  .  .  3
      2  .  .  .  .  .  .  .  2
      1  .  .  X  X  X  X  X  1   home of seat 1
         a  b  c  d  e  f  g
    seat 1 (X)  purse 15  + 5 on board  = 20
    Turn 1/1000, seat 1 (X): Phase A, no capture possible; roll or leave
    Last roll: none
    """
    if perspective is None:
        # a finished game has no player on move: show it the way the rules name squares
        perspective = 0 if state.phase is Phase.OVER else state.turn
    me = perspective
    rows = range(SIZE - 1, -1, -1) if me == 0 else range(SIZE)
    columns = range(SIZE) if me == 0 else range(SIZE - 1, -1, -1)
    header = "     " + "  ".join(COLUMNS[c] for c in columns)
    notes = capture_notes(state)
    lines = [purse_line(state, 1 - me), header]
    for row in rows:
        cells = []
        for c in columns:
            coin = state.board[c]
            cells.append(MARKS[coin.owner] if coin is not None and coin.row == row else EMPTY)
        line = f"  {row + 1}  " + "  ".join(cells) + f"  {row + 1}"
        if row in HOME_ROWS:
            line += f"   home of seat {HOME_ROWS.index(row) + 1}"
        elif row in notes:
            line += f"   <- {notes[row]}"
        lines.append(line)
    lines += [header, purse_line(state, me), phase_line(state)]
    if state.refilled and state.phase in (Phase.A, Phase.OVER):
        squares = " ".join(f"{COLUMNS[c]}{HOME_ROWS[state.turn] + 1}" for c in state.refilled)
        lines.append(f"Phase C: {seat_label(state.turn)} paid coins into {squares}")
    lines.append(f"Last roll: {state.last_roll or 'none'}")
    return "\n".join(lines)
