"""``dicehall play``: a game in the terminal against a bot or another person.

Pleasant at a terminal (colour, confirmation with undo, hints) and scriptable
from a pipe (moves read line by line, echoed, no confirmation).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from dicehall.cli.common import build_game, console, err_console, friendly_errors, interactive
from dicehall.cli.views import TerminalView, get_view
from dicehall.core.errors import IllegalActionError, RecordError
from dicehall.core.game import State
from dicehall.core.match import Agent, Match
from dicehall.core.record import Record

GENERAL_HELP = """Commands:
  <action>       play it (see below)
  moves          list every legal action
  hint           the bot's view of the best actions (where the game has one)
  hint --rollout the best plays rolled out (backgammon)
  board          show the board again
  undo           take back your action before confirming it (at a terminal)
  save [FILE]    save the record now (to FILE, or to the --save/--resume file)
  quit           stop; the record is kept when --save or --resume names a file

With --save or --resume the record is written after every action, so Ctrl-C,
Ctrl-D or a crash never lose the game: continue it with --resume FILE."""

#: the longest line read as an action; longer ones are refused without being parsed
MAX_LINE = 200
#: legal choices shown after an error (``moves`` lists them all)
SHOWN_CHOICES = 8

CONFIRM_PROMPT = "Enter or y to confirm, undo or n to take it back: "
YES = ("", "y", "yes")
NO = ("u", "undo", "n", "no")


class Quit(Exception):
    """The player asked to stop (``quit``, or the input ended)."""


def _read(prompt: str) -> str:
    if interactive():
        return console.input(f"[bold]{prompt}[/]")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    line = line.rstrip("\n")
    console.print(f"{prompt}{clip(line)}", markup=False)
    return line


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis says it was cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_error(exc: IllegalActionError, limit: int = SHOWN_CHOICES) -> str:
    """The reason an action was refused, then the first few legal choices with their
    count; the typed text is cut short, however long it was."""
    reason = clip(exc.reason, 160)
    message = f"illegal action {clip(exc.action.strip())!r}: {reason}"
    if exc.legal:
        shown = ", ".join(exc.legal[:limit])
        more = f", … ('moves' lists all {len(exc.legal)})" if len(exc.legal) > limit else ""
        message += f"\n{len(exc.legal)} legal: {shown}{more}"
    return message


def _seat_name(match: Match, seat: int) -> str:
    return f"seat {seat + 1} ({match.record.players[seat]})"


class Session:
    """Where a game in the terminal is kept: the file named by ``--save`` (or else by
    ``--resume``), written atomically after every action. A failed write is reported
    and the game goes on; the next action tries again."""

    def __init__(self, match: Match, game: str, path: Path | None) -> None:
        self.match = match
        self.game = game
        self.path = path
        self.failed: str | None = None

    def save(self, path: Path | None = None, *, quiet: bool = True) -> bool:
        """Write the record to ``path`` (default: the session's file); True when written."""
        target = path or self.path
        if target is None:
            return False
        try:
            self.match.record.save(target)
        except RecordError as exc:
            if str(exc) != self.failed or not quiet:
                console.print(f"[bold red]not saved:[/] {escape(str(exc))}; the game goes on")
            if target == self.path:
                self.failed = str(exc)
            return False
        if target == self.path:
            if self.failed:
                console.print(f"[green]saved to {escape(str(target))} again[/]")
            self.failed = None
        if not quiet:
            console.print(f"[dim]record saved to {escape(str(target))}[/]")
        return True

    def after_action(self, before: object, text: str, after: object) -> None:
        """Listener: keep the file up to date after every action."""
        self.save()

    def farewell(self, why: str) -> None:
        """Save once more and say where the game is and how to continue it."""
        where = escape(str(self.path))
        if self.path is not None and self.save():
            console.print(
                f"[yellow]{why}[/]: the game is saved in {where}; continue it with\n"
                f"  dicehall play {self.game} --resume {where}"
            )
        elif self.path is not None:
            console.print(f"[bold red]{why}[/]: the game could NOT be saved to {where}")
        else:
            console.print(f"[yellow]{why}[/]: not saved (play with --save FILE to keep games)")


def _save_command(line: str, session: Session) -> None:
    """``save`` or ``save FILE`` (the file name exactly as typed)."""
    name = line.strip()[4:].strip()
    target = Path(name) if name else session.path
    if target is None:
        console.print("[yellow]save where? write: save FILE[/]")
        return
    if session.save(target, quiet=False) and session.path is None:
        session.path = target
        console.print(
            f"[dim]the record is now saved to {escape(str(target))} after every action[/]"
        )


def _confirmed(view: TerminalView, state: State, action: Any, seat: int) -> bool:
    """Show the board after ``action`` and ask until the answer is yes or no."""
    text = state.action_to_text(action)
    console.print(view.render(state.apply(action), seat))
    while True:
        answer = _read(CONFIRM_PROMPT).strip().lower()
        if answer in YES:
            return True
        if answer in NO:
            console.print("[dim]taken back[/]")
            console.print(view.render(state, seat))
            return False
        console.print(
            f"[yellow]{escape(repr(clip(answer)))} is not an answer: Enter or y plays "
            f"{escape(text)}, undo or n takes it back[/]"
        )


def _human_turn(match: Match, view: TerminalView, confirm: bool, session: Session) -> None:
    state = match.state
    seat = state.current_player()
    console.print(view.render(state, seat))
    while True:
        try:
            line = _read(f"{_seat_name(match, seat)}> ").strip()
        except EOFError:
            raise Quit("game stopped (end of input)") from None
        word = line.lower()
        if len(line) > MAX_LINE:
            console.print(
                f"[red]that line is {len(line):,} characters long; an action is at most "
                f"{MAX_LINE}[/] (type moves to list them)"
            )
            continue
        if not word:
            console.print("[dim]type your action, moves for the legal ones, or help[/]")
            continue
        # "resign" quits, unless the game takes resignations (cube and match play)
        if word in ("q", "quit", "exit") or (
            word == "resign" and "resign single" not in state.legal_texts()
        ):
            raise Quit("game stopped")
        if word in ("?", "h", "help"):
            extra = view.help(state)
            console.print(GENERAL_HELP + ("\n\n" + extra if extra else ""), markup=False)
            continue
        if word in ("m", "moves", "legal", "list", "l"):
            texts = state.legal_texts()
            console.print(f"{len(texts)} legal: " + ", ".join(texts), markup=False)
            continue
        if word in ("b", "board"):
            console.print(view.render(state, seat))
            continue
        if word in ("hint", "hint --rollout"):
            hint = view.hint(state) if word == "hint" else view.rollout_hint(state)
            console.print(hint if hint is not None else "[yellow]no hints for this game yet[/]")
            continue
        if word == "save" or word.startswith(("save ", "save\t")):
            _save_command(line, session)
            continue
        if word == "undo":
            console.print("[yellow]nothing to undo: undo takes back an unconfirmed action[/]")
            continue
        try:
            action = state.parse_action(line)
        except IllegalActionError as exc:
            console.print(short_error(exc), style="red", markup=False)
            continue
        try:
            if (
                confirm
                and view.confirm(state, action)
                and not _confirmed(view, state, action, seat)
            ):
                continue
        except EOFError:
            raise Quit("game stopped (end of input)") from None
        match.apply(action)
        return


class BotFailed(Exception):
    """A bot raised an error instead of choosing an action."""


def run_game(
    match: Match,
    *,
    confirm: bool,
    save: Path | None,
    view: TerminalView,
    show_bots: bool = True,
    game: str | None = None,
) -> None:
    """Drive ``match`` to the end, asking people for their actions at their seats.

    With ``save`` the record is written after every action. Exit statuses: 0 when the
    game ends or the player quits (Ctrl-D included), 130 on Ctrl-C, 1 when a bot fails;
    in every case the game is saved first.
    """
    session = Session(match, game or match.game.name, save)

    def announce(before: object, text: str, after: object) -> None:
        assert isinstance(before, State) and isinstance(after, State)
        who = before.current_player()
        if before.is_chance_node():
            console.print(f"[bold yellow]dice:[/] {text}")
        elif match.agents[who] is not None or not interactive():
            console.print(f"[bold]{_seat_name(match, who)}[/] plays [green]{text}[/]")
        note = view.describe(before, text, after)
        if note:
            console.print(f"[italic]{note}[/]")

    match.listeners.append(session.after_action)
    match.listeners.append(announce)
    session.save()
    try:
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance_node():
                match.roll()
                continue
            seat = state.current_player()
            if match.agents[seat] is None:
                _human_turn(match, view, confirm, session)
            else:
                try:
                    match.step()
                except (KeyboardInterrupt, Quit):
                    raise
                except Exception as exc:
                    raise BotFailed(f"{_seat_name(match, seat)} failed: {exc!r}") from exc
    except Quit as stop:
        session.farewell(str(stop))
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        console.print()
        session.farewell("interrupted")
        raise typer.Exit(130) from None
    except BotFailed as exc:
        err_console.print(f"[bold red]error:[/] {escape(str(exc))}")
        session.farewell("the bot failed")
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
    if session.path is not None:
        session.save(quiet=False)


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
                help="opponent: bot, bot:LEVEL, bot:net=PATH (a net from train), random or human "
                "(default: the game's bot, else random; on --resume, the saved opponent)",
            ),
        ] = None,
        seed: Annotated[int | None, typer.Option(help="seed for dice and bots")] = None,
        save: Annotated[Path | None, typer.Option(help="write the JSON record here")] = None,
        seat: Annotated[
            int,
            typer.Option(
                help="your seat, 1 to the number of players (seat 1 is listed first; who "
                "moves first is the game's rule, e.g. the opening roll in backgammon)"
            ),
        ] = 1,
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
                match.record.stamp()
            seats = ", ".join(f"seat {i + 1}: {n}" for i, n in enumerate(names))
            console.print(
                f"[bold]{g.title}[/] — {seats}   [dim](seed {dice.seed}; type help for commands)[/]"
            )
            from dicehall.cli.engine import ready

            ready(g.name)
            keep = save or resume
            if record is not None:
                console.print(
                    f"[dim]resumed {escape(str(resume))} after {len(record.actions)} actions[/]"
                )
            if keep is not None:
                console.print(
                    f"[dim]the record is saved to {escape(str(keep))} after every action[/]"
                )
            run_game(
                match,
                confirm=interactive() if confirm is None else confirm,
                save=keep,
                view=get_view(g.name),
                game=g.name,
            )
