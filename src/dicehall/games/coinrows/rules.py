"""Coin Rows positions, move generation and the turn sequence.

The board has seven columns (a..g, from player 1's left) and seven rows (1..7,
from player 1's side). A column never holds more than one coin, so a board is
simply one entry per column: ``None`` or the ``Coin`` in it (its row and owner).
Coins move only along their own column, so they can never collide; the only
thing that limits a move is the edge of the board.

Internally rows and columns are numbered 0..6; texts use the chess-like names
(``c1`` is column 2, row 0). Seat 0 is player 1 (moves first, home row 1),
seat 1 is player 2 (home row 7).

A turn runs through the phases of the rules:

* ``Phase.A``: the player to act captures a row, calls ``roll`` or may ``leave``;
* ``Phase.DICE``: a chance node, the two dice (``3-4``);
* ``Phase.B``: he moves the roll (``c1-c4`` or ``c1-c3 e1-e5``), then is back in
  Phase A if every pip was moved, otherwise the turn ends;
* Phase C (the refill after a capture) involves no choice, so it happens inside
  the capture's transition: the opponent's Phase A state already shows the
  refilled board and ``refilled`` names the columns he paid into.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dicehall.core.errors import GameOverError
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.options import Option
from dicehall.games.coinrows import fast
from dicehall.games.coinrows.board import (
    ALL_ROLLS,
    CAPTURE_ROWS,
    COIN_AT,
    COLUMNS,
    ENDING_TOTALS,
    HOME_ROWS,
    LEAVE,
    MARKS,
    OPENING_COINS,
    ROLL,
    ROLL_OF,
    SIZE,
    START_BOARD,
    Action,
    Board,
    Capture,
    Coin,
    Decision,
    Ending,
    LegalMoves,
    Move,
    Phase,
    Roll,
    Step,
    apply_move,
    board_captures,
    capture_options,
    coins_in_row,
    destination,
    legal_moves,
    move_candidates,
    parse_square,
    row_runs,
    square_name,
)

# the phases as module constants (read in every transition)
_A, _B, _DICE, _OVER = Phase.A, Phase.B, Phase.DICE, Phase.OVER
_LEFT, _BROKE, _TURN_LIMIT = Ending.LEFT, Ending.BROKE, Ending.TURN_LIMIT

#: The opening splits the ``opening`` option allows (coins of player 1 - player 2).
OPENINGS = ("5-2", "4-3", "3-4", "2-5", "6-1", "1-6")

# -- the game -------------------------------------------------------------------

OPTIONS = (
    Option(
        "purse",
        int,
        20,
        "coins each player starts with (the seed's 'specified number of pieces'); "
        "player 1 puts 5 of them on the board, player 2 puts 2",
        minimum=OPENING_COINS[0],
        maximum=1000,
    ),
    Option(
        "leaving",
        bool,
        True,
        "whether a player may leave the game in Phase A (ending it)",
    ),
    Option(
        "capture",
        str,
        "row",
        "row: a capture takes every coin of the row; adjacent: one run of two or "
        "more coins in neighbouring columns",
        choices=("row", "adjacent"),
    ),
    Option(
        "turn_limit", int, 1000, "the game ends after this many turns", minimum=1, maximum=100_000
    ),
    Option(
        "opening",
        str,
        "5-2",
        "coins player 1 and player 2 put on their home rows at the start, in their "
        "right-hand columns: the seed's 5-2, or a fair start measured by the exact "
        "solver (docs/rules/coinrows.md)",
        choices=OPENINGS,
    ),
    Option(
        "payoff",
        str,
        "result",
        "result: +1 win, 0 draw, -1 loss; coins: each player's net gain or loss of coins",
        choices=("result", "coins"),
    ),
)


class CoinRows(Game):
    """Coin Rows, the 7x7 coin-capturing dice game; see docs/rules/coinrows.md.

    >>> from dicehall import load_game
    >>> state = load_game("coinrows", purse=30).new_initial_state()
    >>> state.purses, state.totals()
    ((25, 28), (30, 30))
    """

    name = "coinrows"
    title = "Coin Rows"
    min_players = 2
    max_players = 2
    option_specs = OPTIONS

    @property
    def purse(self) -> int:
        return int(self.options["purse"])

    @property
    def opening(self) -> tuple[int, int]:
        """Coins each seat puts on the board at the start (option ``opening``)."""
        first, second = str(self.options["opening"]).split("-")
        return int(first), int(second)

    def utility_bounds(self) -> tuple[float, float]:
        """Win or lose 1; with ``payoff=coins`` a seat's net coins, which the two seats'
        conserved total of ``2 * purse`` bounds by ``purse`` either way."""
        top = float(self.purse) if self.options["payoff"] == "coins" else 1.0
        return (-top, top)

    def new_initial_state(self) -> CoinRowsState:
        start = self.__dict__.get("_start")
        if start is None:  # the first time: checked and kept (options never change),
            first = self._first_state()  # with its legal actions (an immutable tuple)
            first._work_out_legal()
            start = self.__dict__["_start"] = first.__dict__
        return _new_state(start.copy())

    def _first_state(self) -> CoinRowsState:
        purse = self.purse
        first, second = self.opening
        if purse < max(first, second):
            raise ValueError(
                f"a purse of {purse} cannot pay the opening {first}-{second}: "
                f"the purse must be at least {max(first, second)}"
            )
        board = START_BOARD
        if (first, second) != OPENING_COINS:
            # player 1's right-hand columns are the last ones, player 2's the first ones
            board = tuple(Coin(SIZE - 1, 1) if c < second else Coin(0, 0) for c in range(SIZE))
        return CoinRowsState(self, board, (purse - first, purse - second), turn=0, phase=Phase.A)

    def setup(
        self,
        coins: Mapping[str, int],
        purses: tuple[int, int],
        *,
        turn: int = 0,
        roll: Roll | str | None = None,
        turn_number: int = 1,
    ) -> CoinRowsState:
        """A position for analysis or tests.

        ``coins`` maps squares to seats (``{"c1": 0, "a7": 1, ...}``): seven coins,
        one per column. Coins are conserved, so the purses and the board must hold
        the two starting purses together. With ``roll`` the seat ``turn`` is to move
        it (Phase B); without, he is in Phase A.

        >>> from dicehall import load_game
        >>> g = load_game("coinrows")
        >>> s = g.setup({"a7": 1, "b4": 0, "c4": 1, "d4": 0, "e1": 0, "f1": 0, "g1": 0},
        ...             purses=(15, 18))
        >>> s.legal_texts()
        ['roll', 'capture 4', 'leave']
        """
        cells: list[Coin | None] = [None] * SIZE
        for square, seat in coins.items():
            column, row = parse_square(square)
            if seat not in (0, 1):
                raise ValueError(f"coin on {square}: seat must be 0 or 1, got {seat}")
            if cells[column] is not None:
                raise ValueError(f"column {COLUMNS[column]} would hold two coins")
            cells[column] = Coin(row, seat)
        if any(c is None for c in cells):
            raise ValueError("seven coins must be in play: one in every column a-g")
        if any(p < 0 for p in purses) or len(purses) != 2:
            raise ValueError("purses are two non-negative counts")
        if sum(purses) + SIZE != 2 * self.purse:
            raise ValueError(
                f"coins are conserved: purses plus the 7 coins on the board must make "
                f"{2 * self.purse} (two purses of {self.purse}), not {sum(purses) + SIZE}"
            )
        if turn not in (0, 1):
            raise ValueError("turn must be seat 0 or 1")
        if not 1 <= turn_number <= int(self.options["turn_limit"]):
            raise ValueError("turn_number must lie within the turn limit")
        board: Board = tuple(cells)
        state = CoinRowsState(self, board, (purses[0], purses[1]), turn, Phase.A, None, turn_number)
        if roll is None:
            return state
        if isinstance(roll, str):
            parsed = state.as_chance().parse_action(roll)
            assert isinstance(parsed, Roll)
            roll = parsed
        if roll.ends_turn or not legal_moves(board, turn, roll):
            raise ValueError(f"{roll} leaves nothing to move here (the turn would end)")
        return CoinRowsState(self, board, state.purses, turn, Phase.B, roll, turn_number)


@dataclass(frozen=True, eq=False)
class CoinRowsState(State[Action]):
    """A Coin Rows position.

    ``board`` has one entry per column; ``purses`` are the coins each seat holds
    off the board; ``turn`` is the seat whose turn it is and ``turn_number`` counts
    turns from 1. ``last_roll`` is the roll to move in Phase B and otherwise the
    most recent roll (shown to players, not part of the position). ``refilled``
    lists the columns the player on turn paid into at the start of this turn
    (Phase C), also for display. A finished game says why in ``ending``, and
    ``ended_by`` is the seat that went broke or left.
    """

    game: CoinRows
    board: Board
    purses: tuple[int, int]
    turn: int
    phase: Phase
    last_roll: Roll | None = None
    turn_number: int = 1
    refilled: tuple[int, ...] = ()
    ending: Ending | None = None
    ended_by: int | None = None

    # -- protocol -------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase is _OVER

    def is_chance_node(self) -> bool:
        return self.phase is _DICE

    def current_player(self) -> int:
        if self.phase is _OVER:
            return TERMINAL
        if self.phase is _DICE:
            return CHANCE
        return self.turn

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The 21 distinct rolls: doubles 1/36, the others 2/36 (either die order)."""
        if self.phase is not _DICE:
            raise ValueError("this state is not a chance node: it has no outcomes")
        return list(ALL_ROLLS)

    def chance_dice(self) -> int:
        return 2 if self.phase is _DICE else 0

    def outcome_from_dice(self, faces: Sequence[int]) -> Roll:
        """The roll two rolled ``faces`` (1..6, either order) make; ``ValueError`` for
        other faces."""
        try:
            return ROLL_OF[tuple(faces)]  # type: ignore[index]
        except (KeyError, TypeError):
            raise ValueError(f"two dice faces 1..6 are rolled here, not {faces!r}") from None

    @property
    def _legal(self) -> Sequence[Action]:
        """The legal actions, worked out once (kept in the instance, as a cached
        property would, without its lock)."""
        legal: Sequence[Action] | None = self.__dict__.get("_legal_list")
        return self._work_out_legal() if legal is None else legal

    def _work_out_legal(self) -> Sequence[Action]:
        phase = self.phase
        legal: Sequence[Action]
        if phase is _OVER:
            legal = ()
        elif phase is _DICE:
            legal = _ROLLS
        elif phase is _B:
            roll = self.last_roll
            assert roll is not None
            legal = fast.legal_moves(self.board, self.turn, roll.low, roll.high)
        else:
            options = self.game.options
            captures = board_captures(self.board, options["capture"])  # type: ignore[arg-type]
            if options["leaving"]:
                legal = (ROLL, *captures, LEAVE)
            else:
                legal = (ROLL, *captures) if captures else _ROLL_ONLY
        self.__dict__["_legal_list"] = legal
        return legal

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions: in Phase B the moves of the roll (a lazy, immutable
        ``LegalMoves``: each ``Move`` is made when it is looked at), else a list."""
        legal = self.__dict__.get("_legal_list")
        if legal is None:
            legal = self._work_out_legal()
        return legal if type(legal) is LegalMoves else list(legal)

    def apply(self, action: Action) -> CoinRowsState:
        """The state after ``action``, one of ``legal_actions()`` (or equal to one):
        checked by identity first (a roll from ``outcome_from_dice``, a move from
        ``legal_actions()``), else by equality; anything else raises
        ``IllegalActionError`` (``GameOverError`` once the game is over)."""
        legal = self.__dict__.get("_legal_list")
        if legal is None:
            legal = self._work_out_legal()
        phase = self.phase
        if phase is _DICE:
            if id(action) in _ROLL_IDS or (isinstance(action, Roll) and action in _ROLLS):
                return self._after_roll(action)  # type: ignore[arg-type]
        elif phase is _B:
            if type(legal) is LegalMoves and legal.code(action) is not None:
                return self._after_move(action, legal.pips)  # type: ignore[arg-type]
        elif phase is _A:
            for a in legal:
                if a is action:  # one of legal_actions() itself
                    break
            else:
                try:
                    if action not in legal:
                        raise self.illegal(self._text_or_str(action), self._why_not(action))
                except TypeError:  # not comparable, so certainly not one of ours
                    raise self.illegal(self._text_or_str(action), self._why_not(action)) from None
            values = self.__dict__.copy()
            if action is ROLL:
                values["phase"] = _DICE
                values["refilled"] = ()
                values["_legal_list"] = _ROLLS
                return _new_state(values)
            if isinstance(action, Capture):
                return self._after_capture(action)
            assert action == LEAVE
            values["phase"] = _OVER
            values["ending"] = _LEFT
            values["ended_by"] = self.turn
            values["_legal_list"] = ()
            return _new_state(values)
        else:
            raise GameOverError(str(action))
        raise self.illegal(self._text_or_str(action), self._why_not(action))

    def apply_text(self, text: str) -> CoinRowsState:
        return self.apply(self.parse_action(text))

    def returns(self) -> list[float]:
        if self.phase is not _OVER:
            return [0.0, 0.0]
        totals = self.totals()
        if self.game.options["payoff"] == "coins":
            return [float(t - self.game.purse) for t in totals]
        if totals[0] == totals[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0]

    # -- transitions ----------------------------------------------------
    def _replace(self, **changes: Any) -> CoinRowsState:
        """What ``dataclasses.replace`` does, without its introspection and ``__init__``
        (hot in play and search): a copy of the fields with ``changes``, nothing cached."""
        values = self.__dict__.copy()
        values["_legal_list"] = None
        values.update(changes)
        return _new_state(values)

    def _after_roll(self, roll: Roll) -> CoinRowsState:
        if id(roll) in _ENDING_IDS if id(roll) in _ROLL_IDS else roll.ends_turn:
            return self._end_turn(self.board, self.purses, roll)
        # the moves are worked out here, as they are asked for next
        legal = fast.legal_moves(self.board, self.turn, roll.low, roll.high)
        if not legal.pips:  # no coin on the board (a coin can always move a square)
            return self._end_turn(self.board, self.purses, roll)
        values = self.__dict__.copy()
        values["phase"] = _B
        values["last_roll"] = roll
        values["_legal_list"] = legal
        return _new_state(values)

    def _after_move(self, move: Move, pips: int) -> CoinRowsState:
        """After a legal ``move``; ``pips``: the squares it moves."""
        roll = self.last_roll
        assert roll is not None
        cells = list(self.board)
        coins = COIN_AT
        turn = self.turn
        for column, _, to in move.steps:
            cells[column] = coins[to][turn]
        board = tuple(cells)
        if pips == roll.low + roll.high:
            values = self.__dict__.copy()
            values["board"] = board
            values["phase"] = _A
            values["refilled"] = ()
            values["_legal_list"] = None
            return _new_state(values)
        return self._end_turn(board, self.purses, roll)

    def _after_capture(self, capture: Capture) -> CoinRowsState:
        cells = list(self.board)
        for c in capture.columns:
            cells[c] = None
        purses = list(self.purses)
        purses[self.turn] += len(capture.columns)
        return self._end_turn(tuple(cells), (purses[0], purses[1]), self.last_roll, capture.columns)

    def _end_turn(
        self,
        board: Board,
        purses: tuple[int, int],
        last_roll: Roll | None,
        emptied: tuple[int, ...] = (),
    ) -> CoinRowsState:
        """The turn is over: the game ends at the turn limit, else the opponent
        refills the emptied columns (Phase C) and begins his Phase A."""
        values = self.__dict__.copy()
        values["last_roll"] = last_roll
        values["_legal_list"] = None
        if self.turn_number >= self.game.options["turn_limit"]:  # type: ignore[operator]
            values.update(purses=purses, board=board, phase=_OVER, ending=_TURN_LIMIT, refilled=())
            return _new_state(values)
        nxt = 1 - self.turn
        paid = emptied[: purses[nxt]]  # a broke player pays what he can, from column a on
        if paid:
            cells = list(board)
            coin = COIN_AT[HOME_ROWS[nxt]][nxt]
            for c in paid:
                cells[c] = coin
            board = tuple(cells)
            n = len(paid)
            purses = (purses[0] - n, purses[1]) if nxt == 0 else (purses[0], purses[1] - n)
        values["purses"] = purses
        values["board"] = board
        values["turn"] = nxt
        values["turn_number"] = self.turn_number + 1
        values["refilled"] = paid
        if len(paid) < len(emptied):
            values.update(phase=_OVER, ending=_BROKE, ended_by=nxt)
        else:
            values["phase"] = _A
        return _new_state(values)

    def as_chance(self) -> CoinRowsState:
        """This position with the dice about to be rolled (for tools and ``setup``)."""
        return self._replace(phase=_DICE)

    # -- derived facts --------------------------------------------------
    @property
    def capture_rule(self) -> str:
        return str(self.game.options["capture"])

    def coins(self, seat: int | None = None) -> list[tuple[int, int, int]]:
        """(column, row, owner) of each coin on the board, optionally of one seat."""
        return [
            (c, coin.row, coin.owner)
            for c, coin in enumerate(self.board)
            if coin is not None and (seat is None or coin.owner == seat)
        ]

    def on_board(self, seat: int) -> int:
        """How many of ``seat``'s coins are on the board."""
        return sum(1 for coin in self.board if coin is not None and coin.owner == seat)

    def totals(self) -> tuple[int, int]:
        """Each seat's purse plus its own coins on the board: the score."""
        return (self.purses[0] + self.on_board(0), self.purses[1] + self.on_board(1))

    def winner(self) -> int | None:
        """The seat with the higher total once the game is over (None: drawn or not over)."""
        if self.phase is not Phase.OVER:
            return None
        t = self.totals()
        return None if t[0] == t[1] else (0 if t[0] > t[1] else 1)

    def captures(self) -> list[Capture]:
        """Captures the player could make now (Phase A) under the game's rule."""
        return capture_options(self.board, self.capture_rule) if self.phase is Phase.A else []

    # -- text -----------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        if isinstance(action, Capture):
            return action.text(self.capture_rule)
        if isinstance(action, (Roll, Move, Decision)):
            return str(action)
        raise TypeError(f"{action!r} is not a Coin Rows action")

    def _text_or_str(self, action: Action) -> str:
        if isinstance(action, (Roll, Move, Capture, Decision)):
            return self.action_to_text(action)
        return str(action)

    def _why_not(self, action: Action) -> str:
        if self.phase is Phase.DICE:
            return "the dice must be rolled now (a roll like 3-4)"
        if self.phase is Phase.B:
            return "not a legal play of the roll " + str(self.last_roll)
        if action is LEAVE:
            return "leaving is not allowed in this game (option leaving=false)"
        return "in Phase A capture a row, roll or leave"

    def parse_action(self, text: str) -> Action:
        from dicehall.games.coinrows.notation import parse_action

        return parse_action(self, text)

    def render(self, perspective: int | None = None) -> str:
        from dicehall.games.coinrows.render import render_text

        return render_text(self, perspective)

    def __str__(self) -> str:
        return self.render()

    def board_code(self) -> str:
        """A compact text of the board: each column's row and mark, or ``-``.

        >>> from dicehall import load_game
        >>> load_game("coinrows").new_initial_state().board_code()
        '7O 7O 1X 1X 1X 1X 1X'
        """
        return " ".join(
            "-" if coin is None else f"{coin.row + 1}{MARKS[coin.owner]}" for coin in self.board
        )

    def _key(self) -> tuple[Any, ...]:
        # the last roll is part of the position only while it is to be moved
        roll = self.last_roll if self.phase is Phase.B else None
        return (
            self.board,
            self.purses,
            self.turn,
            self.phase,
            roll,
            self.turn_number,
            self.ending,
            self.ended_by,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CoinRowsState):
            return NotImplemented
        if self is other:
            return True
        return (self.game is other.game or self.game == other.game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        roll = f" roll {self.last_roll}" if self.phase is Phase.B else ""
        return (
            f"<CoinRowsState {self.board_code()} purses {self.purses[0]}/{self.purses[1]} "
            f"seat {self.turn + 1} phase {self.phase.value}{roll} turn {self.turn_number}>"
        )


assert not hasattr(CoinRowsState, "__post_init__"), "_replace would skip it"


def _new_state(values: dict[str, Any]) -> CoinRowsState:
    """A state with the fields (and cache) ``values``, made without ``__init__``."""
    new = object.__new__(CoinRowsState)
    object.__setattr__(new, "__dict__", values)
    return new


#: the chance outcomes, in ``chance_outcomes()`` order
_ROLLS: tuple[Action, ...] = tuple(roll for roll, _ in ALL_ROLLS)
#: ``id`` of each roll in ``_ROLLS`` (they are the ones ``outcome_from_dice`` hands
#: out), and of those that end the turn: a roll is checked by identity first
_ROLL_IDS = frozenset(map(id, _ROLLS))
_ENDING_IDS = frozenset(id(roll) for roll in _ROLLS if isinstance(roll, Roll) and roll.ends_turn)
_ROLL_ONLY: tuple[Action, ...] = (ROLL,)


# The board module's names are re-exported (most callers import them from here).
__all__ = [
    "ALL_ROLLS",
    "CAPTURE_ROWS",
    "COLUMNS",
    "ENDING_TOTALS",
    "HOME_ROWS",
    "LEAVE",
    "MARKS",
    "OPENING_COINS",
    "OPTIONS",
    "ROLL",
    "SIZE",
    "START_BOARD",
    "Action",
    "Board",
    "Capture",
    "Coin",
    "CoinRows",
    "CoinRowsState",
    "Decision",
    "Ending",
    "Move",
    "Phase",
    "Roll",
    "Step",
    "apply_move",
    "capture_options",
    "coins_in_row",
    "destination",
    "legal_moves",
    "move_candidates",
    "parse_square",
    "row_runs",
    "square_name",
]
