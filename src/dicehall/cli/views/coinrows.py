"""Coin Rows in the terminal: a coloured grid, action help and plain-English notes
on what each action did (captures, refills, turns ending)."""

from __future__ import annotations

import re

from rich.text import Text

from dicehall.cli.views import FunctionsView
from dicehall.core.game import State
from dicehall.games.coinrows.render import result_text, seat_label
from dicehall.games.coinrows.rules import (
    COLUMNS,
    HOME_ROWS,
    MARKS,
    Capture,
    CoinRowsState,
    Ending,
    Move,
    Phase,
    Roll,
)

COIN_STYLES = {MARKS[0]: "bold cyan", MARKS[1]: "bold magenta"}
_GRID_LINE = re.compile(r"^  [1-7]  ")


def _coins(n: int) -> str:
    return f"{n} coin{'s' * (n != 1)}"


def render(state: State, perspective: int | None) -> Text:
    """The text board with seat 1's coins (X) in cyan and seat 2's (O) in magenta,
    capturable rows in yellow and the line saying whose turn it is in bold."""
    assert isinstance(state, CoinRowsState)
    text = Text()
    for line in state.render(perspective).splitlines():
        if _GRID_LINE.match(line):
            grid, sep, note = line.partition("   ")
            for ch in grid:
                style = COIN_STYLES.get(ch, "dim" if ch == "." else "")
                text.append(ch, style=style)
            if sep:
                style = "yellow" if note.startswith("<-") else "dim"
                text.append(sep + note, style=style)
        elif line.startswith(("seat 1", "seat 2")):
            text.append(line[:10], style=COIN_STYLES[line[8]])
            text.append(line[10:])
        elif line.startswith(("Turn", "Game over")):
            text.append(line, style="bold")
        elif line.startswith("Phase C"):
            text.append(line, style="italic")
        else:
            text.append(line, style="dim" if line.startswith(" ") else "")
        text.append("\n")
    return text


def describe(before: State, text: str, after: State) -> str | None:
    """What an action did, in words: the turn ending, captures and refills, the end."""
    assert isinstance(before, CoinRowsState) and isinstance(after, CoinRowsState)
    seat = before.turn
    notes: list[str] = []
    if before.phase is Phase.DICE:
        roll = after.last_roll
        assert roll is not None
        if roll.ends_turn:
            notes.append(f"{roll.total} ends {seat_label(seat)}'s turn at once.")
        elif after.phase is not Phase.B:
            notes.append(f"{seat_label(seat)} has no coin on the board to move: the turn ends.")
    elif before.phase is Phase.B:
        action = before.parse_action(text)
        roll = before.last_roll
        assert isinstance(action, Move) and isinstance(roll, Roll)
        if action.pips == roll.total:
            notes.append(f"All {roll.total} moved: {seat_label(seat)} is back in Phase A.")
        else:
            notes.append(
                f"Only {action.pips} of {roll.total} could be moved (a coin stops at the "
                "edge): the turn ends."
            )
    elif before.phase is Phase.A:
        action = before.parse_action(text)
        if isinstance(action, Capture):
            notes.append(_capture_note(before, action, after))
    if after.phase is Phase.OVER:
        notes.append("Game over: " + result_text(after) + ".")
    text = " ".join(notes)
    return text[:1].upper() + text[1:] if text else None


def _capture_note(before: CoinRowsState, capture: Capture, after: CoinRowsState) -> str:
    seat, other = before.turn, 1 - before.turn
    owners = [before.board[c].owner for c in capture.columns]  # type: ignore[union-attr]
    mix = ", ".join(f"{owners.count(s)} {MARKS[s]}" for s in (other, seat) if owners.count(s))
    note = (
        f"{seat_label(seat)} captures {_coins(len(owners))} of row {capture.row + 1} ({mix}): "
        f"purse {before.purses[seat]} -> {after.purses[seat]}."
    )
    if after.ending is Ending.TURN_LIMIT:
        return note
    home = HOME_ROWS[other] + 1
    paid = " ".join(f"{COLUMNS[c]}{home}" for c in after.refilled)
    need = len(capture.columns)
    if len(after.refilled) == need:
        note += (
            f" Phase C: {seat_label(other)} pays {_coins(need)} onto {paid} so that seven "
            f"coins are in play again (purse {before.purses[other]} -> {after.purses[other]})."
        )
    else:
        can = f"only {len(after.refilled)}" + (f" ({paid})" if paid else "")
        note += f" Phase C: {seat_label(other)} owes {need} coins but can pay {can}: broke."
    return note


def help(state: State) -> str:
    return (
        "Phase A: 'roll', 'capture N' to take every coin of row N (2-6, at least two coins;\n"
        "with -o capture=adjacent: 'capture N b-d' takes a run in neighbouring columns), or\n"
        "'leave' to end the game. Dice: 7, 11 and 12 end the turn. Phase B: move one coin\n"
        "by the total ('c1-c6') or two coins by one die each ('c1-c3 e1-e5'), straight\n"
        "up or down its column; it stops at the edge. You must move the whole roll when\n"
        "you can (else as far as you can); moving it all brings you back to Phase A.\n"
        "After a capture the opponent refills the emptied columns on his home row."
    )


def summary(state: State) -> str:
    assert isinstance(state, CoinRowsState)
    line = result_text(state)
    line = line[0].upper() + line[1:] + "."
    if state.game.options["payoff"] == "coins":
        gains = ", ".join(f"{seat_label(s)} {r:+g} coins" for s, r in enumerate(state.returns()))
        line += f" Net: {gains}."
    return line


def confirm(state: State, action: object) -> bool:
    """Rolling has nothing to take back: only moves, captures and leaving are confirmed."""
    return state.action_to_text(action) != "roll"


def hint(state: State) -> Text | None:
    """The bot's ranking of the options of the player to act, with their values."""
    from dicehall.bots.coinrows import hint as rank

    assert isinstance(state, CoinRowsState)
    lines = rank(state)
    if not lines:
        return None
    coins = state.game.options["payoff"] == "coins"
    unit = "net coins" if coins else "expected result, -1 loss .. +1 win"
    text = Text(f"Best options for {seat_label(state.turn)} ({unit}):\n", style="bold")
    for i, (action, value) in enumerate(lines):
        text.append(f"  {action:<16} {value:+.2f}\n", style="green" if i == 0 else "")
    return text


#: The terminal view the game declares (``GameEntry.terminal_view``).
VIEW = FunctionsView(
    render=render, describe=describe, help=help, summary=summary, confirm=confirm, hint=hint
)
