"""The ``.mat`` match text format (Jellyfish's, as GNU Backgammon writes and reads it).

A file holds a match (``N point match``) or a money session (``0 point match``),
game by game; each numbered line shows one event of player 0 (left column) and
one of player 1 (right)::

     5 point match

     Game 1
     alice : 0                      bob : 0
      1)                             21: 13/11 24/23
      2) 52: 13/8 24/22               Doubles => 2
      3)  Takes                      63: 8/5 11/5

Events: ``52: 13/8 24/22`` (dice and single-die moves in the mover's numbering,
25 the bar and 0 off, ``*`` a hit; nothing after the colon when no move is
possible), ``Doubles => 2``, ``Takes``, ``Drops``, ``Beavers => 4``, ``Raccoons =>
8`` and ``Wins 2 points`` (``and the match`` at its end). A ``Wins`` that no move
or drop explains is a resignation accepted for that many points. What a ``.mat``
file cannot hold is lost on export: refused resignations and the ties of opening
rolls. A roll made just before resigning is written as the dice with no move.

>>> from dicehall import Match, load_game
>>> from dicehall.bots import RandomBot
>>> game = load_game("backgammon", cube=True, match_length=3, scoring="standard")
>>> m = Match(game, [RandomBot(seed=1), RandomBot(seed=2)], seed=3)
>>> record = m.play()
>>> import_mat(export_mat(record)).final_state().match_score == m.state.match_score
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dicehall.core.errors import DicehallError, RecordError
from dicehall.core.record import Record
from dicehall.games.backgammon.rules import (
    CUBE_DECISION,
    RACCOON_DECISION,
    TAKE_DECISION,
    BackgammonState,
    CubeAction,
    Play,
    Resign,
    ResignAnswer,
    Roll,
    move_step,
)

LEFT_WIDTH = 28  # gnubg's width of player 0's column


def _points(n: int) -> str:
    return f"{n} point{'s' * (n != 1)}"


def _steps_text(state: BackgammonState, play: Play) -> str:
    """Single-die moves as .mat writes them: ``13/8 25/21* 6/0``."""
    mine, theirs = list(state.board[0]), list(state.board[1])
    out = []
    for src, dst in play.steps:
        hit = move_step(mine, theirs, src, dst)
        out.append(f"{src}/{dst}{'*' * hit}")
    return " ".join(out)


def _name(name: str, seat: int) -> str:
    cleaned = re.sub(r"[\s:]+", "_", name.strip())
    return cleaned or f"player_{seat + 1}"


@dataclass
class _Game:
    score: tuple[int, int]
    events: list[tuple[int, str]]


def export_mat(record: Record) -> str:
    """The ``.mat`` text of a backgammon record (a match, a money game or session).

    :raises RecordError: if the record is not backgammon or does not replay.
    """
    if record.game != "backgammon":
        raise RecordError(f".mat files hold backgammon, not {record.game}")
    states = list(record.states())
    first = states[0]
    assert isinstance(first, BackgammonState)
    games: list[_Game] = [_Game(first.match_score, [])]
    dice: tuple[int, int] | None = None
    for text, before, after in zip(record.actions, states, states[1:], strict=False):
        assert isinstance(before, BackgammonState) and isinstance(after, BackgammonState)
        action = before.parse_action(text)
        events = games[-1].events
        turn = before.turn
        if isinstance(action, Roll):
            if before.opening and action.is_double:
                continue
            dice = after.dice
        elif isinstance(action, Play):
            assert dice is not None
            events.append((turn, f"{dice[0]}{dice[1]}: {_steps_text(before, action)} ".rstrip()))
            dice = None
        elif isinstance(action, CubeAction):
            kind, v = action.kind, before.cube_value
            if kind == "double":
                events.append((turn, f" Doubles => {2 * v}"))
            elif kind == "take" and before.pending == TAKE_DECISION:
                events.append((1 - turn, " Takes"))
            elif kind == "pass":
                events.append((1 - turn, " Drops"))
            elif kind == "beaver":
                events.append((1 - turn, f" Beavers => {4 * v}"))
            elif kind == "raccoon":
                events.append((turn, f" Raccoons => {2 * v}"))
        elif isinstance(action, ResignAnswer) and action.accept and dice is not None:
            events.append((turn, f"{dice[0]}{dice[1]}:"))  # rolled, then resigned
            dice = None
        if len(after.history) > len(before.history):
            winner, points = after.history[-1]
            end = " and the match" if after.is_terminal() and after.match_length else ""
            events.append((winner, f" Wins {_points(points)}{end}"))
            if not after.is_terminal():
                games.append(_Game(after.match_score, []))
    if not games[-1].events:
        games.pop()
    names = [_name(record.players[i] if i < len(record.players) else "", i) for i in (0, 1)]
    length = int(record.options.get("match_length", 0))
    lines = [f" {length} point match", ""]
    for number, game in enumerate(games, 1):
        lines += [f" Game {number}"]
        left = f" {names[0]} : {game.score[0]}"
        lines.append(f"{left:<32}{names[1]} : {game.score[1]}")
        lines += _layout(game.events)
        lines.append("")
    return "\n".join(lines) + "\n"


def _layout(events: list[tuple[int, str]]) -> list[str]:
    """Events in two columns: each line one slot of player 0, one of player 1."""
    slots: list[str] = []
    for player, text in events:
        if len(slots) % 2 != player:
            slots.append("")
        slots.append(text)
    if len(slots) % 2:
        slots.append("")
    lines = []
    number = 0
    for i in range(0, len(slots), 2):
        left, right = slots[i], slots[i + 1]
        only_result = all(not s or s.startswith(" Wins") for s in (left, right))
        if only_result:
            prefix = "     "
        else:
            number += 1
            prefix = f"{number:3d}) "
        lines.append(f"{prefix}{left:<{LEFT_WIDTH}}{right}".rstrip())
    return lines


# -- import --------------------------------------------------------------------

_EVENT = re.compile(
    r"(?P<dice>[1-6][1-6]):(?P<moves>(?:\s*(?:\d{1,2}|bar|off)/(?:\d{1,2}|bar|off)\*?(?:\(\d\))?)*)"
    r"|(?P<double>Doubles)\s*=>\s*(?P<dv>\d+)"
    r"|(?P<beaver>Beavers)\s*=>\s*(?P<bv>\d+)"
    r"|(?P<raccoon>Raccoons)\s*=>\s*(?P<rv>\d+)"
    r"|(?P<take>Takes|Accepts)"
    r"|(?P<drop>Drops|Passes|Rejects)"
    r"|(?P<wins>Wins)\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?",
    re.IGNORECASE,
)
_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_SCORES = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_LINE = re.compile(r"^\s*(\d+)\)(.*)$")


@dataclass
class _Event:
    player: int
    kind: str
    value: int = 0
    dice: tuple[int, int] = (0, 0)
    moves: str = ""
    line: int = 0


def _parse_events(text: str) -> tuple[int, list[str], list[tuple[tuple[int, int], list[_Event]]]]:
    """Match length, player names and each game's (score, events) of a .mat text."""
    length: int | None = None
    names: list[str] = []
    games: list[tuple[tuple[int, int], list[_Event]]] = []
    pending_game = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if length is None:
            m = _HEADER.match(line)
            if m:
                length = int(m.group(1))
                continue
            raise RecordError(f"line {n}: a .mat file starts with 'N point match', not {line!r}")
        if _GAME.match(line):
            pending_game = True
            continue
        if pending_game:
            m = _SCORES.match(line)
            if not m:
                raise RecordError(f"line {n}: expected 'name : score   name : score', got {line!r}")
            if not names:
                names = [m.group(1), m.group(3)]
            games.append(((int(m.group(2)), int(m.group(4))), []))
            pending_game = False
            continue
        if not games:
            raise RecordError(f"line {n}: moves before the first 'Game 1' line")
        m = _LINE.match(line)
        # an unnumbered line (a result) is aligned with the numbered ones
        body = m.group(2) if m else line[4:]
        for ev in _EVENT.finditer(body):
            player = 0 if ev.start() < LEFT_WIDTH // 2 else 1
            if ev.group("dice"):
                d = ev.group("dice")
                moves = ev.group("moves").strip().replace("bar", "25").replace("off", "0")
                event = _Event(player, "roll", dice=(int(d[0]), int(d[1])), moves=moves)
            elif ev.group("double"):
                event = _Event(player, "double", int(ev.group("dv")))
            elif ev.group("beaver"):
                event = _Event(player, "beaver", int(ev.group("bv")))
            elif ev.group("raccoon"):
                event = _Event(player, "raccoon", int(ev.group("rv")))
            elif ev.group("take"):
                event = _Event(player, "take")
            elif ev.group("drop"):
                event = _Event(player, "pass")
            else:
                event = _Event(player, "wins", int(ev.group("points")))
            event.line = n
            games[-1][1].append(event)
    if length is None:
        raise RecordError("not a .mat file: no 'N point match' line")
    if not games:
        raise RecordError(".mat file holds no game")
    return length, names, games


def import_mat(text: str, **options: Any) -> Record:
    """A dicehall record of the match or money session in ``.mat`` text.

    The game is backgammon with the cube and standard scoring, the file's match
    length (a money session: as many games as the file holds, beavers and
    raccoons on when the file has them) and ``options`` (e.g. ``jacoby=True`` for
    a money session played under Jacoby).

    :raises RecordError: if the text is not a .mat file, or an event does not
        replay (an illegal move, a score that differs from the file's).
    """
    from dicehall.core.registry import load_game

    length, names, games = _parse_events(text)
    opts: dict[str, Any] = {"cube": True, "scoring": "standard", "match_length": length}
    if length == 0:
        opts["games"] = len(games)
        kinds = {ev.kind for _, events in games for ev in events}
        if "beaver" in kinds or "raccoon" in kinds:
            opts["beavers"] = True
        if "raccoon" in kinds:
            opts["raccoons"] = True
    opts |= options
    try:
        game = load_game("backgammon", **opts)
    except DicehallError as exc:
        raise RecordError(f"cannot load the game of this .mat file: {exc}") from exc
    importer = _Importer(Record.new(game, names or None), game.new_initial_state())
    for number, (score, events) in enumerate(games, 1):
        importer.game(number, score, events, money=not length)
    return importer.record


class _Importer:
    """Replays .mat events into a record, one dicehall action at a time."""

    def __init__(self, record: Record, state: Any) -> None:
        self.record = record
        self.state: BackgammonState = state

    def do(self, action_text: str, line: int) -> None:
        try:
            action = self.state.parse_action(action_text)
            after = self.state.apply(action)
        except DicehallError as exc:
            raise RecordError(f"line {line}: {action_text!r} does not replay: {exc}") from exc
        assert isinstance(after, BackgammonState)
        self.record.actions.append(self.state.action_to_text(action))
        self.state = after

    def game(self, number: int, score: tuple[int, int], events: list[_Event], money: bool) -> None:
        state = self.state
        if state.is_terminal():
            raise RecordError(f"game {number}: the match was already over")
        if state.match_score != score:
            raise RecordError(
                f"game {number}: the file's score {score[0]}-{score[1]} is not the "
                f"replayed {state.match_score[0]}-{state.match_score[1]}"
            )
        games_before = len(state.history)
        for i, ev in enumerate(events):
            if len(self.state.history) > games_before:
                if ev.kind != "wins":
                    raise RecordError(f"line {ev.line}: an event after the end of game {number}")
                winner, points = self.state.history[-1]
                if (winner, points) != (ev.player, ev.value):
                    hint = " (a money session under Jacoby? pass jacoby=true)" if money else ""
                    raise RecordError(
                        f"line {ev.line}: the file says player {ev.player + 1} wins "
                        f"{_points(ev.value)}, the replay gives player {winner + 1} "
                        f"{_points(points)}{hint}"
                    )
                continue
            self.event(ev, events[i + 1 : i + 2])
        if len(self.state.history) == games_before:
            raise RecordError(f"game {number} of the file does not end")

    def event(self, ev: _Event, following: list[_Event]) -> None:
        """Apply one .mat event, with the roll or cube answer it implies."""
        state = self.state
        actor = state.turn if state.is_chance_node() else state.current_player()
        if ev.kind != "wins" and not state.opening and ev.player != actor:
            raise RecordError(
                f"line {ev.line}: an event in player {ev.player + 1}'s column "
                f"when player {actor + 1} is to act"
            )
        if ev.kind == "roll":
            if state.opening:
                hi, lo = max(ev.dice), min(ev.dice)
                self.do(f"{hi}-{lo}" if ev.player == 0 else f"{lo}-{hi}", ev.line)
            else:
                if state.pending == CUBE_DECISION:
                    self.do("roll", ev.line)
                self.do(f"{ev.dice[0]}-{ev.dice[1]}", ev.line)
            moves = ev.moves
            resigns = bool(following) and following[0].kind == "wins"
            if not moves and resigns and following[0].player != ev.player:
                plays = list(self.state.play_results())
                if not (len(plays) == 1 and not plays[0][0].steps):
                    return  # rolled, then resigned: the Wins event resigns
            self.do(moves or "pass", ev.line)
        elif ev.kind == "wins":
            self.resignation(ev)
        else:
            if ev.kind == "double" and state.pending != CUBE_DECISION:
                raise RecordError(f"line {ev.line}: a double when no double can be offered")
            self.do(ev.kind, ev.line)

    def resignation(self, ev: _Event) -> None:
        """A ``Wins`` no move explains: the loser resigned and the winner accepted."""
        state = self.state
        cube = state.cube_value
        if ev.value % cube or not 1 <= ev.value // cube <= 3:
            raise RecordError(
                f"line {ev.line}: a resignation for {_points(ev.value)} at cube {cube}"
            )
        if state.pending == RACCOON_DECISION:
            self.do("take", ev.line)
        if state.current_player() != 1 - ev.player or state.is_resign_decision():
            raise RecordError(
                f"line {ev.line}: player {2 - ev.player} resigns when it is not his turn "
                "(dicehall takes resignations from the player on turn)"
            )
        self.do(str(Resign(ev.value // cube)), ev.line)
        self.do(str(ResignAnswer(True)), ev.line)


__all__ = ["export_mat", "import_mat"]
