"""``dicehall hint``: the bot's view of any position, typed on the command line.

Backgammon positions are GNU Backgammon Position IDs with the dice to play::

    dicehall hint backgammon --position-id 4HPwATDgc/ABMA --dice 3-1

Coin Rows and White Die positions are short text setups, ``key value`` parts
separated by ``;`` (see ``SETUP_HELP``)::

    dicehall hint coinrows --setup "board 7O 4X 4O 4X 1X 1X 1X; purses 15 18; seat 1"
    dicehall hint whitedie --setup "scores 3 5; seat 1; white 6; dice 2 4 4 1"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from dicehall.cli.common import build_game, console, err_console, friendly_errors
from dicehall.core.errors import DicehallError
from dicehall.core.game import Game, State

SETUP_HELP = {
    "backgammon": "position ID; dice A-B  (or use --position-id and --dice)",
    "coinrows": "board <row and X or O for each column a..g>; purses N N; seat 1|2; "
    "[roll A-B]; [turn N]",
    "whitedie": "scores N N ...; seat N; [white W; dice A B C D; rerolls 1|2; "
    "opponent N; opponent-dice A B C D]",
}


class SetupError(DicehallError, ValueError):
    """A position typed for ``hint`` that cannot be set up."""


def parse_setup(text: str, allowed: set[str]) -> dict[str, str]:
    """``"key value; key value"`` as a dict (keys lower case, values stripped).

    :raises SetupError: an empty part, an unknown or repeated key.
    """
    fields: dict[str, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        key, _, value = part.partition(" ")
        key = key.lower()
        if key not in allowed:
            raise SetupError(f"unknown setup key {key!r}; allowed: {', '.join(sorted(allowed))}")
        if key in fields:
            raise SetupError(f"setup key {key!r} given twice")
        fields[key] = value.strip()
    return fields


def _numbers(key: str, value: str, count: int | None = None) -> list[int]:
    parts = value.replace(",", " ").replace("-", " ").split()
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise SetupError(f"{key}: expected whole numbers, got {value!r}") from None
    if count is not None and len(numbers) != count:
        raise SetupError(f"{key}: expected {count} numbers, got {len(numbers)} in {value!r}")
    return numbers


def _seat(fields: dict[str, str], players: int) -> int:
    seat = _numbers("seat", fields.get("seat", "1"), 1)[0]
    if not 1 <= seat <= players:
        raise SetupError(f"seat: must be 1..{players}, got {seat}")
    return seat - 1


def backgammon_position(game: Game, fields: dict[str, str]) -> State:
    """The position of a Position ID (the player on roll to play ``dice``)."""
    from dicehall.games.backgammon.notation import decode_position_id

    if "dice" not in fields:
        raise SetupError("give the dice to play, e.g. --dice 3-1 (a hint ranks the plays)")
    dice = _numbers("dice", fields["dice"], 2)
    if not all(1 <= d <= 6 for d in dice):
        raise SetupError(f"dice: faces are 1..6, got {fields['dice']!r}")
    pid = fields.get("position", "4HPwATDgc/ABMA")
    try:
        board = decode_position_id(pid)
        return game.setup(board, turn=0, dice=(dice[0], dice[1]))  # type: ignore[attr-defined, no-any-return]
    except ValueError as exc:
        raise SetupError(str(exc)) from None


def coinrows_position(game: Game, fields: dict[str, str]) -> State:
    """A Coin Rows position from its board code (as ``board_code()`` writes it)."""
    from dicehall.games.coinrows.rules import COLUMNS, MARKS

    if "board" not in fields or "purses" not in fields:
        raise SetupError(f"give at least board and purses: {SETUP_HELP['coinrows']}")
    cells = fields["board"].split()
    if len(cells) != len(COLUMNS):
        raise SetupError(
            f"board: one entry per column a..g (e.g. 7O 7O 1X 1X 1X 1X 1X), got {len(cells)}"
        )
    coins: dict[str, int] = {}
    for column, cell in zip(COLUMNS, cells, strict=True):
        row, mark = cell[:-1], cell[-1:].upper()
        if not row.isdigit() or mark not in MARKS:
            raise SetupError(f"board: {cell!r} in column {column} is not a row and X or O")
        coins[f"{column}{row}"] = MARKS.index(mark)
    purses = _numbers("purses", fields["purses"], 2)
    turn_number = _numbers("turn", fields.get("turn", "1"), 1)[0]
    try:
        return game.setup(  # type: ignore[attr-defined, no-any-return]
            coins,
            (purses[0], purses[1]),
            turn=_seat(fields, 2),
            roll=fields.get("roll") or None,
            turn_number=turn_number,
        )
    except (ValueError, DicehallError) as exc:
        raise SetupError(str(exc)) from None


def whitedie_position(game: Game, fields: dict[str, str]) -> State:
    """A White Die position: the scores, the seat on turn and its challenge so far."""
    n = game.num_players
    if "scores" not in fields:
        raise SetupError(f"give at least the scores: {SETUP_HELP['whitedie']}")
    kwargs: dict[str, Any] = {}
    if "white" in fields:
        kwargs["white"] = _numbers("white", fields["white"], 1)[0]
    if "dice" in fields:
        kwargs["dice"] = _numbers("dice", fields["dice"], 4)
    if "rerolls" in fields:
        kwargs["rerolls_left"] = _numbers("rerolls", fields["rerolls"], 1)[0]
    if "opponent" in fields:
        kwargs["opponent"] = _numbers("opponent", fields["opponent"], 1)[0] - 1
    if "opponent-dice" in fields:
        kwargs["opponent_dice"] = _numbers("opponent-dice", fields["opponent-dice"], 4)
    try:
        return game.setup(  # type: ignore[attr-defined, no-any-return]
            _numbers("scores", fields["scores"], n), _seat(fields, n), **kwargs
        )
    except (ValueError, DicehallError) as exc:
        raise SetupError(str(exc)) from None


SETUP_KEYS = {
    "backgammon": {"position", "dice"},
    "coinrows": {"board", "purses", "seat", "roll", "turn"},
    "whitedie": {"scores", "seat", "white", "dice", "rerolls", "opponent", "opponent-dice"},
}

#: game name -> builder of a position from its setup fields
POSITIONS: dict[str, Callable[[Game, dict[str, str]], State]] = {
    "backgammon": backgammon_position,
    "coinrows": coinrows_position,
    "whitedie": whitedie_position,
}


def position(game: Game, setup: str | None, pid: str | None, dice: str | None) -> State:
    """The position named on the command line for ``game``.

    :raises SetupError: the game takes no setups, or the setup is not a position.
    """
    builder = POSITIONS.get(game.name)
    if builder is None:
        raise SetupError(f"hint knows no setups for {game.name}; known: {', '.join(POSITIONS)}")
    fields = parse_setup(setup or "", SETUP_KEYS[game.name])
    if game.name == "backgammon":
        for key, value in (("position", pid), ("dice", dice)):
            if value is not None:
                if key in fields:
                    raise SetupError(f"{key} given both in --setup and as an option")
                fields[key] = value
    elif pid is not None or dice is not None:
        raise SetupError(
            f"--position-id and --dice are for backgammon; for {game.name} write "
            f'--setup "{SETUP_HELP[game.name]}"'
        )
    elif not fields:
        raise SetupError(f'describe the position: --setup "{SETUP_HELP[game.name]}"')
    return builder(game, fields)


def register(app: typer.Typer) -> None:
    """Add ``hint`` to the command line."""

    @app.command()
    def hint(
        game: Annotated[str, typer.Argument(help="backgammon, coinrows or whitedie")],
        position_id: Annotated[
            str | None,
            typer.Option("--position-id", "-p", help="backgammon: a GNU Backgammon Position ID"),
        ] = None,
        dice: Annotated[
            str | None, typer.Option("--dice", "-d", help="backgammon: the dice to play, e.g. 3-1")
        ] = None,
        setup: Annotated[
            str | None,
            typer.Option(
                "--setup",
                "-s",
                help="the position as text: coinrows: "
                + SETUP_HELP["coinrows"]
                + "; whitedie: "
                + SETUP_HELP["whitedie"],
            ),
        ] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-o", help="game option name=value")
        ] = None,
        players: Annotated[int | None, typer.Option(help="number of players (whitedie)")] = None,
        board: Annotated[bool, typer.Option(help="draw the position first")] = True,
    ) -> None:
        """The bot's best actions, with their values, in a position you type."""
        from dicehall.cli.views import get_view

        with friendly_errors():
            from dicehall.cli.engine import ready

            g = build_game(game, option, players=players)
            state = position(g, setup, position_id, dice)
            ready(g.name)
            view = get_view(g.name)
            if state.is_terminal() or state.is_chance_node():
                err_console.print(
                    "[bold red]error:[/] nobody is to decide in that position "
                    "(the dice are to be rolled); give the roll to play"
                )
                raise typer.Exit(2)
            if board:
                console.print(view.render(state, state.current_player()))
            shown = view.hint(state)
            if shown is None:
                err_console.print(f"[bold red]error:[/] no hints for {g.name} in that position")
                raise typer.Exit(2)
            console.print(shown)
