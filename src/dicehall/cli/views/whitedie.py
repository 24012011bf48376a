"""White Die in the terminal: scores, the white die and its challenge, the grid or
square being built, an explanation of every score, and hints from the exact solver."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dicehall.cli.views import FunctionsView
from dicehall.core.game import State
from dicehall.games.whitedie.challenges import BLOCKS, CHALLENGES, LINES, SQUARES, tictactoe_lines
from dicehall.games.whitedie.render import (
    challenge_lines,
    matching_explanation,
    score_explanation,
    seat_label,
)
from dicehall.games.whitedie.rules import (
    OVER,
    ROLL,
    START,
    TICTACTOE,
    ChallengeResult,
    WhiteDieState,
)

_LINE_NAMES: dict[tuple[int, ...], str] = {
    **{LINES[i]: f"row {i + 1}" for i in range(3)},
    **{LINES[3 + i]: f"column {'abc'[i]}" for i in range(3)},
    LINES[6]: "diagonal a1-c3",
    LINES[7]: "diagonal c1-a3",
    **{b: f"block {SQUARES[b[0]]}-{SQUARES[b[3]]}" for b in BLOCKS},
}


def _styled(line: str) -> Text:
    """Colour the player's squares cyan and the opponent's magenta."""
    text = Text()
    i = 0
    while i < len(line):
        chunk = line[i : i + 3]
        if len(chunk) == 3 and chunk[0] in "[(" and chunk[2] == {"[": "]", "(": ")"}[chunk[0]]:
            text.append(chunk, style="bold cyan" if chunk[0] == "[" else "bold magenta")
            i += 3
        else:
            text.append(line[i])
            i += 1
    return text


def render(state: State, perspective: int | None) -> RenderableType:
    """Scores table and a panel with the challenge in play."""
    assert isinstance(state, WhiteDieState)
    table = Table(title=f"White Die — first to {state.game.target}", show_edge=False)
    table.add_column("seat")
    table.add_column("score", justify="right")
    table.add_column("")
    for seat, score in enumerate(state.scores):
        note = ""
        if state.phase == OVER and state.winner == seat:
            note = "[bold green]winner[/]"
        elif state.phase not in (START, OVER) and seat == state.turn:
            note = "[bold]on turn[/]"
        elif seat == state.opponent and state.challenge in ("Tic-tac-toe", "Matching"):
            note = "opponent"
        you = " (you)" if perspective == seat else ""
        table.add_row(f"{seat + 1}{you}", str(score), note)
    body = Text("\n").join(_styled(ln) for ln in challenge_lines(state))
    title = None
    if state.challenge:
        title = f"[bold white on black] {state.white} [/] {state.challenge}"
    return Group(table, Panel(body, title=title, expand=False))


def explain_result(result: ChallengeResult, chart: str = "standard") -> str:
    """Why a finished challenge scored what it did."""
    who = seat_label(result.seat)
    if result.white in (2, 5, 6):
        why = score_explanation(result.white, result.dice, chart, result.points)
        return f"{CHALLENGES[result.white]}: {who}'s {' '.join(map(str, result.dice))} — {why}"
    if result.white == 4:
        why = matching_explanation(result.dice, result.opponent_dice)
        return f"Matching: {who}'s {' '.join(map(str, result.dice))} against " + (
            f"{' '.join(map(str, result.opponent_dice))} — {why}"
        )
    found = tictactoe_lines(result.grid)
    names = ", ".join(_LINE_NAMES[tuple(f)] for f in found) or "no line and no block"
    claim = ""
    if any(abs(c) == 7 for c in result.grid):
        owner = "the player" if any(c == 7 for c in result.grid) else "the opponent"
        claim = f"; the empty squares went to {owner}"
    elif result.claim_declined:
        claim = "; the player left the empty squares unclaimed"
    points = result.points
    return f"Tic-tac-toe{claim}: {names} → {points} point{'s' * (points != 1)}"


def describe(before: State, text: str, after: State) -> str | None:
    """Explain dice and every score as it is given."""
    assert isinstance(before, WhiteDieState) and isinstance(after, WhiteDieState)
    notes: list[str] = []
    if before.phase == START:
        roller = before.roller
        notes.append(f"{seat_label(roller)} rolled {text}")
        if after.phase == ROLL:
            notes.append(f"{seat_label(after.turn)} has the highest white die and starts")
        elif after.contenders != before.contenders:
            tied = ", ".join(seat_label(s) for s in after.contenders)
            notes.append(f"tied on white die and coloured sum: {tied} roll again")
        return "; ".join(notes)
    if before.phase == ROLL:
        who = seat_label(before.turn)
        if text.startswith("white 1"):
            if after is before or (after.phase == ROLL and after.turn == before.turn):
                return f"white 1: {who} is behind, so he ignores it and rolls all five again"
            return f"white 1: {who} leads or is tied for the lead — the turn ends, no score"
        name = CHALLENGES[after.white]
        if after.opponent is not None:
            notes.append(f"white {after.white}: {name} against {seat_label(after.opponent)}")
        else:
            notes.append(f"white {after.white}: {name}")
    if before.phase == TICTACTOE and after.phase == TICTACTOE and after.side == before.side:
        notes.append("the other side cannot place and passes")
    if after.last is not None and after.last is not before.last:
        result = after.last
        notes.append(explain_result(result, after.game.poker_chart))
        notes.append(
            f"{seat_label(result.seat)} scores {result.points}: now {after.scores[result.seat]}"
        )
    if after.phase == OVER and after.winner is not None:
        notes.append(f"{seat_label(after.winner)} reaches {after.scores[after.winner]} and wins")
    return "; ".join(notes) or None


def help(state: State) -> str:
    """How to write White Die actions."""
    return (
        "Actions: stand | reroll 2 5 (by die values; #1 #3 by position; reroll all) |\n"
        "keep 5 5 (reroll the others) | place 4 b1 (columns a-c, rows 1-3 from the top) |\n"
        "opponent 3 (choose whom to play in tic-tac-toe or matching) |\n"
        "arrange 2 (Pips: a square scoring 2; 'best' for the most) | claim or decline\n"
        "(tic-tac-toe: take the empty squares or leave them)."
    )


def hint(state: State) -> RenderableType | None:
    """Each option's exact value for the seat to act, from the perfect solver."""
    from dicehall.bots.whitedie import hint_lines

    assert isinstance(state, WhiteDieState)
    lines = hint_lines(state)
    if not lines:
        return None
    who = seat_label(state.turn)
    title = f"Exact values for {who} (best first)"
    if state.current_player() != state.turn:
        title += f"; {seat_label(state.current_player())} wants them low"
    table = Table(title=title, show_edge=False)
    table.add_column("action")
    table.add_column(f"expected points of {who}", justify="right")
    table.add_column("")
    for action, value, note in lines:
        table.add_row(action, value, note)
    return table


def summary(state: State) -> str:
    """Who won and the final scores."""
    assert isinstance(state, WhiteDieState)
    scores = ", ".join(f"{seat_label(s)} {v}" for s, v in enumerate(state.scores))
    if state.winner is None:
        return f"The game is not over ({scores})."
    who = seat_label(state.winner).capitalize()
    return f"{who} wins with {state.scores[state.winner]} ({scores})."


#: The terminal view the game declares (``GameEntry.terminal_view``).
VIEW = FunctionsView(render=render, describe=describe, help=help, hint=hint, summary=summary)
