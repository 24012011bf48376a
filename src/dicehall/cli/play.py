"""``dicehall play``: a game in the terminal against a bot or another person.

Pleasant at a terminal (colour, confirmation with undo, hints) and scriptable
from a pipe (moves read line by line, echoed, no confirmation).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.panel import Panel
from rich.table import Table

from dicehall.cli.common import build_game, console, friendly_errors, interactive
from dicehall.cli.views import TerminalView, get_view
from dicehall.core.errors import IllegalActionError
from dicehall.core.match import Agent, Match
from dicehall.core.record import Record

GENERAL_HELP = """Commands:
  <action>       play it (see below)
  moves          list every legal action
  hint           the bot's view of the best actions (where the game has one)
  hint --rollout the best plays rolled out (backgammon)
  board          show the board again
  undo           take back your action before confirming it (at a terminal)
  save [FILE]    save the record now
  quit           stop (the record is saved if --save was given)"""


class Quit(Exception):
    """The player asked to stop."""


def _read(prompt: str) -> str:
    if interactive():
        return console.input(f"[bold]{prompt}[/]")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    line = line.rstrip("\n")
    console.print(f"{prompt}{line}")
    return line


def _seat_name(match: Match, seat: int) -> str:
    return f"seat {seat + 1} ({match.record.players[seat]})"


def _save(match: Match, path: Path | None) -> None:
    if path is not None:
        match.record.save(path)
        console.print(f"[dim]record saved to {path}[/]")


def _human_turn(match: Match, view: TerminalView, confirm: bool, save: Path | None) -> None:
    state = match.state
    seat = state.current_player()
    console.print(view.render(state, seat))
    while True:
        try:
            line = _read(f"{_seat_name(match, seat)}> ").strip()
        except EOFError:
            raise Quit from None
        word = line.lower()
        # "resign" quits, unless the game takes resignations (cube and match play)
        if word in ("q", "quit", "exit") or (
            word == "resign" and "resign single" not in state.legal_texts()
        ):
            raise Quit
        if word in ("?", "h", "help"):
            extra = view.help(state)
            console.print(GENERAL_HELP + ("\n\n" + extra if extra else ""))
            continue
        if word in ("m", "moves", "legal", "list", "l"):
            texts = state.legal_texts()
            console.print(f"{len(texts)} legal: " + ", ".join(texts))
            continue
        if word in ("b", "board"):
            console.print(view.render(state, seat))
            continue
        if word in ("hint", "hint --rollout"):
            hint = view.hint(state) if word == "hint" else view.rollout_hint(state)
            console.print(hint if hint is not None else "[yellow]no hints for this game yet[/]")
            continue
        if word.startswith("save"):
            target = word[4:].strip() or (str(save) if save else "")
            if not target:
                console.print("[yellow]save where? write: save FILE[/]")
                continue
            match.record.save(target)
            console.print(f"[dim]record saved to {target}[/]")
            continue
        if word == "undo":
            console.print("[yellow]nothing to undo: undo takes back an unconfirmed action[/]")
            continue
        try:
            action = state.parse_action(line)
        except IllegalActionError as exc:
            console.print(f"[red]{exc}[/]")
            continue
        if confirm and view.confirm(state, action):
            after = state.apply(action)
            console.print(view.render(after, seat))
            answer = _read("Enter to confirm, 'undo' to take it back: ").strip().lower()
            if answer in ("u", "undo", "n", "no"):
                console.print("[dim]taken back[/]")
                console.print(view.render(state, seat))
                continue
        match.apply(action)
        return


def run_game(
    match: Match,
    *,
    confirm: bool,
    save: Path | None,
    view: TerminalView,
    show_bots: bool = True,
) -> None:
    """Drive ``match`` to the end, asking people for their actions at their seats."""

    def announce(before: object, text: str, after: object) -> None:
        from dicehall.core.game import State

        assert isinstance(before, State) and isinstance(after, State)
        who = before.current_player()
        if before.is_chance_node():
            console.print(f"[bold yellow]dice:[/] {text}")
        elif match.agents[who] is not None or not interactive():
            console.print(f"[bold]{_seat_name(match, who)}[/] plays [green]{text}[/]")
        note = view.describe(before, text, after)
        if note:
            console.print(f"[italic]{note}[/]")

    match.listeners.append(announce)
    try:
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance_node():
                match.roll()
                continue
            seat = state.current_player()
            if match.agents[seat] is None:
                _human_turn(match, view, confirm, save)
            else:
                match.step()
    except Quit:
        _save(match, save)
        console.print("[yellow]game stopped[/]")
        raise typer.Exit(1) from None
    console.print(view.render(match.state, None))
    table = Table(title="Game over", show_header=True)
    table.add_column("seat")
    table.add_column("player")
    table.add_column("result", justify="right")
    for i, (name, r) in enumerate(zip(match.record.players, match.state.returns(), strict=True)):
        table.add_row(str(i + 1), name, f"{r:+g}")
    console.print(table)
    decisions = sum(1 for _ in match.record.actions)
    console.print(Panel(f"{view.summary(match.state)}  ({decisions} actions recorded)"))
    _save(match, save)


def _cube_shortcuts(match_to: int | None, money: bool) -> dict[str, object]:
    """The backgammon options ``--match N`` and ``--money`` stand for."""
    if match_to is not None and money:
        raise typer.BadParameter("choose --match N or --money, not both")
    if match_to is not None:
        return {"cube": True, "scoring": "standard", "match_length": match_to}
    if money:
        return {"cube": True, "scoring": "standard", "jacoby": True}
    return {}


def default_opponent(game: str) -> str:
    """``bot`` when the game declares bots, else ``random``."""
    from dicehall.bots.registry import game_bots

    return "bot" if game_bots(game) is not None else "random"


def register(app: typer.Typer) -> None:
    """Add ``play`` to the command line."""

    @app.command()
    def play(
        game: Annotated[str, typer.Argument(help="backgammon, coinrows or whitedie")],
        vs: Annotated[
            str | None,
            typer.Option(
                "--vs",
                help="opponent: bot, bot:LEVEL, random or human "
                "(default: the game's bot, else random; on --resume, the saved opponent)",
            ),
        ] = None,
        seed: Annotated[int | None, typer.Option(help="seed for dice and bots")] = None,
        save: Annotated[Path | None, typer.Option(help="write the JSON record here")] = None,
        seat: Annotated[int, typer.Option(help="your seat (1 = moves first)")] = 1,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-o", help="game option name=value")
        ] = None,
        players: Annotated[int | None, typer.Option(help="number of players (whitedie)")] = None,
        purse: Annotated[int | None, typer.Option(help="starting purse (coinrows)")] = None,
        scoring: Annotated[str | None, typer.Option(help="single or standard (backgammon)")] = None,
        match_to: Annotated[
            int | None,
            typer.Option("--match", help="backgammon: a match to N points with the cube"),
        ] = None,
        money: Annotated[
            bool, typer.Option("--money", help="backgammon: money play with the cube and Jacoby")
        ] = False,
        confirm: Annotated[
            bool | None,
            typer.Option(help="ask to confirm each move (default: at a terminal only)"),
        ] = None,
        resume: Annotated[
            Path | None, typer.Option(help="continue the game saved in this record")
        ] = None,
    ) -> None:
        """Play GAME in the terminal."""
        from dicehall.bots.registry import make_agent
        from dicehall.core.dice import SeededDice

        with friendly_errors():
            record = Record.load(resume) if resume else None
            g = (
                record.load_game()
                if record
                else build_game(
                    game,
                    option,
                    players=players,
                    purse=purse,
                    **(
                        _cube_shortcuts(match_to, money) | ({"scoring": scoring} if scoring else {})
                    ),
                )
            )
            if vs is None:
                saved = record.meta.get("opponent") if record else None
                vs = saved if isinstance(saved, str) else default_opponent(g.name)
            if not 1 <= seat <= g.num_players:
                raise typer.BadParameter(f"--seat must be 1..{g.num_players}")
            if record is not None and seed is None:
                seed = record.meta.get("seed")
            dice = SeededDice(seed)
            if record is not None:
                dice.skip(list(record.states())[:-1])
            agents: list[Agent | None] = []
            names: list[str] = []
            for i in range(g.num_players):
                if i == seat - 1:
                    agents.append(None)
                    names.append("you")
                else:
                    agent = make_agent(g.name, vs, seed=dice.seed + 1 + i)
                    agents.append(agent)
                    names.append(agent.name if agent else "human")
            match = Match(g, agents, dice, record=record, players=names)
            if record is None:
                match.record.meta["seed"] = dice.seed
                match.record.meta["opponent"] = vs
            seats = ", ".join(f"seat {i + 1}: {n}" for i, n in enumerate(names))
            console.print(
                f"[bold]{g.title}[/] — {seats}   [dim](seed {dice.seed}; type help for commands)[/]"
            )
            run_game(
                match,
                confirm=interactive() if confirm is None else confirm,
                save=save,
                view=get_view(g.name),
            )
