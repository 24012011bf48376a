"""Backgammon in the terminal: a coloured board and move help."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from dicehall.cli.views import FunctionsView
from dicehall.core.game import State


def render(state: State, perspective: int | None) -> Text:
    """The ASCII board with X in bold cyan and O in bold magenta."""
    text = Text()
    for line in state.render(perspective).splitlines():
        if line.lstrip().startswith(("|", "+")):
            for ch in line:
                default = "dim" if ch in "|+-" else ""
                style = {"X": "bold cyan", "O": "bold magenta"}.get(ch, default)
                text.append(ch, style=style)
        else:
            text.append(line, style="bold" if "on roll" in line or "to play" in line else "")
        text.append("\n")
    return text


def describe(before: State, text: str, after: State) -> str | None:
    """Explain the opening roll (who rolled what, who starts) and re-rolled ties."""
    if getattr(before, "opening", False) and before.is_chance_node():
        first, second = (int(x) for x in text.split("-"))
        if first == second:
            return f"both rolled {first}: roll again"
        starter = 1 if first > second else 2
        return f"seat 1 rolled {first}, seat 2 rolled {second}: seat {starter} starts"
    history: tuple[tuple[int, int], ...] = getattr(after, "history", ())
    if len(history) > len(getattr(before, "history", ())):
        winner, points = history[-1]
        score = getattr(after, "match_score", (0, 0))
        return (
            f"seat {winner + 1} wins game {len(history)} for {points} point{'s' * (points != 1)};"
            f" score {score[0]}-{score[1]}"
        )
    return None


def help(state: State) -> str:
    text = (
        "Moves use your own point numbers (24 down to 1), e.g. 24/18 13/11, bar/22*, 6/off,\n"
        "8/5(2) or 13/7/5; any order, hits marked with * or not. 'pass' when you cannot move."
    )
    game = getattr(state, "game", None)
    if getattr(game, "extended", False):
        text += (
            "\nBefore each roll: 'roll' or 'double'. Doubled: 'take' or 'pass' (or 'beaver').\n"
            "'resign', 'resign gammon' or 'resign backgammon' offers to resign; the opponent\n"
            "answers 'accept' or 'reject'."
        )
    return text


def summary(state: State) -> str:
    length = getattr(state, "match_length", 0)
    score = getattr(state, "match_score", (0, 0))
    if length:
        winner = 0 if score[0] > score[1] else 1
        return f"Seat {winner + 1} wins the match to {length}, {score[0]}-{score[1]}."
    if len(getattr(state, "history", ())) > 1:
        net = state.returns()[0]
        return f"Money session over: seat 1 {net:+g} points, seat 2 {-net:+g}."
    returns = state.returns()
    winner = 0 if returns[0] > 0 else 1
    points = int(abs(returns[0]))
    kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}.get(points, f"{points}")
    return f"Seat {winner + 1} wins {kind} ({points} point{'s' * (points != 1)})."


def hint(state: State, count: int = 5) -> Table | None:
    """The bot's best plays (expert search) with equity and win/gammon percentages."""
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.rules import BackgammonState

    if not isinstance(state, BackgammonState) or state.is_terminal():
        return None
    if state.is_cube_decision():
        return cube_hint(state)
    if state.dice is None or not state.is_checker_play():
        return None
    from dicehall.bots.backgammon.cube import rank_plays

    ranked = rank_plays(Bot("expert"), state)  # by the score in cube and match games
    single = state.game.options.get("scoring", "single") == "single"
    kind = "single game" if single else "money, cubeless"
    if state.match_length:
        kind = "match, normalised"
    table = Table(
        title=f"hint: {state.dice[0]}-{state.dice[1]} ({kind} equity)",
        title_justify="left",
        box=None,
    )
    for name in ("#", "play", "equity", "diff", "win", "gammon", "lose gammon", "ply"):
        table.add_column(name, justify="left" if name == "play" else "right")
    best = ranked[0].equity
    for rank, pv in enumerate(ranked[:count], 1):
        win, gammon, _, lose_gammon, _ = pv.probs
        table.add_row(
            str(rank),
            pv.text,
            f"{pv.equity:+.3f}",
            "" if rank == 1 else f"{pv.equity - best:+.3f}",
            f"{100 * win:.1f}%",
            f"{100 * gammon:.1f}%",
            f"{100 * lose_gammon:.1f}%",
            str(pv.depth),
            style="bold green" if rank == 1 else "",
        )
    return table


def cube_hint(state: State) -> Table | None:
    """The expert's cube analysis before the roll or at a double: cubeless chances and
    the cubeful equities of no double, double/take and double/pass (match: with the
    match winning chances), the right action marked."""
    from dicehall.bots.backgammon import Bot
    from dicehall.bots.backgammon.cube import judge_cube
    from dicehall.games.backgammon.rules import CUBE_DECISION, BackgammonState, CubeAction

    if not isinstance(state, BackgammonState) or not state.is_cube_decision():
        return None
    if state.pending == CUBE_DECISION and not state.may_double():
        table = Table(title="hint: no cube decision to make", title_justify="left", box=None)
        table.add_column("why")
        table.add_row(f"{state.why_no_cube('double')}: roll")
        return table
    action = CubeAction("roll") if state.pending == CUBE_DECISION else CubeAction("take")
    j = judge_cube(Bot("expert"), state, action)
    if j is None:
        return None
    d = j.decision
    win, gammon, _, lose_gammon, _ = j.probs
    who = "you (on roll)" if j.kind == "double" else "the doubler"
    table = Table(
        title=f"hint: cube for {who}: win {100 * win:.1f}%, gammon {100 * gammon:.1f}%, "
        f"lose gammon {100 * lose_gammon:.1f}%; right action: {d.action}",
        title_justify="left",
        box=None,
    )
    columns = ["action", "equity", "diff"] + ([] if d.mwc is None else ["match win"])
    for name in columns:
        table.add_column(name, justify="left" if name == "action" else "right")
    verb = "Redouble" if state.cube_owner is not None else "Double"
    rows = [
        (f"No {verb.lower()}", d.no_double),
        (f"{verb}, take", d.double_take),
        (f"{verb}, pass", d.double_pass),
    ]
    best = d.best
    for k, (name, eq) in enumerate(rows):
        right = (k == 0 and not d.should_double) or (
            k > 0 and d.should_double and (k == 1) == d.should_take
        )
        cells = [name, f"{eq:+.3f}", "" if right else f"{eq - best:+.3f}"]
        if d.mwc is not None:
            cells.append(f"{100 * d.mwc[k]:.1f}%")
        table.add_row(*cells, style="bold green" if right else "")
    return table


#: what ``hint --rollout`` spends: 216 trials of each of the 5 best plays, truncated
#: after 10 plies, with variance reduction, each side valuing the 6 plays of a roll the
#: pruning net ranks best (a few seconds a play on one core)
HINT_ROLLOUT = {"candidates": 5, "trials": 216, "truncate": 10, "prune": 6}


def rollout_hint(state: State) -> Table | None:
    """The best plays rolled out (``hint --rollout``), on every core."""
    from dicehall.bots.backgammon.rollout import default_workers
    from dicehall.cli.rollout import rollout_table
    from dicehall.games.backgammon.rules import BackgammonState

    if not isinstance(state, BackgammonState) or state.dice is None or state.is_terminal():
        return None
    return rollout_table(state, workers=default_workers(), **HINT_ROLLOUT)  # type: ignore[arg-type]


#: The terminal view the game declares (``GameEntry.terminal_view``).
VIEW = FunctionsView(
    render=render,
    describe=describe,
    help=help,
    summary=summary,
    hint=hint,
    rollout_hint=rollout_hint,
)
