"""Backgammon positions and move generation: the reference rules implementation.

A board is stored per player in that player's own numbering: index 0 counts the
checkers borne off, 1..24 are the points (1 = the player's own ace point, where
his checkers move towards), and 25 is the bar. A point ``i`` of one player is
point ``25 - i`` of the other. Each player thus always moves from high to low
numbers, which keeps the code for both colours the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from dicehall.core.errors import GameOverError, OptionError
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.options import Option
from dicehall.games.backgammon.board import (
    BAR,
    CHECKERS,
    CUBE_DECISION,
    CUBE_KINDS,
    NO_PENDING,
    OFF,
    RACCOON_DECISION,
    RESIGN_DECISION,
    RESIGN_LEVELS,
    START_SIDE,
    TAKE_DECISION,
    Board,
    CubeAction,
    Play,
    Resign,
    ResignAnswer,
    Roll,
    Side,
    Step,
    move_step,
    opening,
    pip_count,
    start_board,
)

Action = Roll | Play | CubeAction | Resign | ResignAnswer

if TYPE_CHECKING:
    from dicehall.games.backgammon.fast import LegalPlays

#: every ``Roll`` the game makes, made once: ``_ROLL_OF[a, b]`` is ``Roll(a, b)``
_ROLL_OF: dict[tuple[int, int], Roll] = {
    (a, b): Roll(a, b) for a in range(1, 7) for b in range(1, 7)
}
#: the chance outcomes, made once: the opening roll (seat 0's die first, ties
#: included) and every later roll (high die first)
OPENING_OUTCOMES: tuple[tuple[Roll, Fraction], ...] = tuple(
    (_ROLL_OF[a, b], Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
)
ROLL_OUTCOMES: tuple[tuple[Roll, Fraction], ...] = tuple(
    (_ROLL_OF[a, b], Fraction(1 if a == b else 2, 36))
    for a in range(6, 0, -1)
    for b in range(a, 0, -1)
)
_OPENING_ROLLS: tuple[Action, ...] = tuple(r for r, _ in OPENING_OUTCOMES)
_ROLLS: tuple[Action, ...] = tuple(r for r, _ in ROLL_OUTCOMES)
#: the outcome of two rolled faces: at the opening as rolled, later high die first
_OPENING_FACES: dict[Any, Roll] = dict(_ROLL_OF)
_LATER_FACES: dict[Any, Roll] = {(a, b): _ROLL_OF[max(a, b), min(a, b)] for a, b in _ROLL_OF}
#: the legal outcomes by identity (the interned rolls above), so that ``apply`` checks
#: a roll made by ``outcome_from_dice`` or listed by ``legal_actions`` with one lookup
_OPENING_IDS: dict[int, Roll] = {id(r): r for r in _ROLL_OF.values()}
_LATER_IDS: dict[int, Roll] = {id(r): r for r, _ in ROLL_OUTCOMES}


@cache
def _legal_plays() -> type[LegalPlays]:
    """``fast.LegalPlays``, imported on first use (numba loads with it)."""
    from dicehall.games.backgammon.fast import LegalPlays

    return LegalPlays


def single_steps(mine: Sequence[int], theirs: Sequence[int], die: int) -> list[Step]:
    """Every legal single move of one die, highest source first."""
    if mine[BAR]:
        dst = 25 - die
        return [(BAR, dst)] if theirs[die] < 2 else []
    steps: list[Step] = []
    highest = 0
    for i in range(24, 0, -1):
        if mine[i]:
            highest = i
            break
    bearing_off = highest <= 6
    for src in range(highest, 0, -1):
        if not mine[src]:
            continue
        dst = src - die
        if dst >= 1:
            if theirs[25 - dst] < 2:
                steps.append((src, dst))
        elif bearing_off and (dst == 0 or src == highest):
            steps.append((src, OFF))
    return steps


def generate_plays(board: Board, dice: tuple[int, int]) -> dict[Board, tuple[Step, ...]]:
    """Map each position reachable by a legal whole play to one step sequence reaching it.

    Runs the compiled ``fast.generate_plays``, which tests prove identical (same
    positions, order and steps) to ``generate_plays_reference`` below.
    """
    from dicehall.games.backgammon.fast import generate_plays as compiled

    return compiled(board, dice)


def generate_plays_reference(board: Board, dice: tuple[int, int]) -> dict[Board, tuple[Step, ...]]:
    """Map each position reachable by a legal whole play to one step sequence reaching it.

    Enforces the obligations: use as many dice as possible; if only one of two
    different dice can be used, use the larger when it can be.
    """
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    results: dict[Board, tuple[Step, ...]] = {}
    best = 0
    seen: set[tuple[Board, tuple[int, ...]]] = set()

    def dfs(mine: list[int], theirs: list[int], rest: tuple[int, ...], path: list[Step]) -> None:
        nonlocal best
        key = (tuple(mine), tuple(theirs))
        if (key, rest) in seen:
            return
        seen.add((key, rest))
        steps = single_steps(mine, theirs, rest[0]) if rest else []
        if not steps:
            used = len(path)
            if used > best:
                best = used
                results.clear()
            if used == best and key not in results:
                results[key] = tuple(path)
            return
        for src, dst in steps:
            m, t = mine.copy(), theirs.copy()
            move_step(m, t, src, dst)
            path.append((src, dst))
            dfs(m, t, rest[1:], path)
            path.pop()

    for order in orders:
        dfs(list(board[0]), list(board[1]), order, [])
    if best == 1 and d1 != d2:
        # only one die can be used: the larger one must be, when it can
        high = max(d1, d2)
        mine, theirs = board
        larger: dict[Board, tuple[Step, ...]] = {}
        for src, dst in single_steps(mine, theirs, high):
            m, t = list(mine), list(theirs)
            move_step(m, t, src, dst)
            larger.setdefault((tuple(m), tuple(t)), ((src, dst),))
        if larger:
            return larger
    return results


OPTIONS = (
    Option(
        "scoring",
        str,
        "single",
        "single: every win scores 1 (the seed); standard: gammon 2, backgammon 3",
        choices=("single", "standard"),
    ),
    Option("cube", bool, False, "the doubling cube (double before the roll; take or pass)"),
    Option(
        "match_length",
        int,
        0,
        "0: money play (one game or a session of games); N: a match to N points",
        minimum=0,
        maximum=99,
    ),
    Option("games", int, 1, "money play: games in the session", minimum=1, maximum=1000),
    Option(
        "crawford",
        bool,
        True,
        "match play: no doubling in the game after a player first reaches N-1",
    ),
    Option("jacoby", bool, False, "money play: gammons count only once the cube has been turned"),
    Option(
        "beavers", bool, False, "money play: a doubled player may beaver (redouble, keep the cube)"
    ),
    Option(
        "raccoons",
        bool,
        False,
        "money play with beavers: the doubler may answer a beaver with a raccoon",
    ),
    Option(
        "max_cube",
        int,
        64,
        "the highest value the cube may reach",
        choices=tuple(2**k for k in range(1, 13)),
    ),
)


class Backgammon(Game):
    """Two-player backgammon with the standard rules; see docs/rules/backgammon.md."""

    name = "backgammon"
    title = "Backgammon"
    min_players = 2
    max_players = 2
    option_specs = OPTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        money = o["match_length"] == 0
        for name in ("jacoby", "beavers", "raccoons"):
            if o[name] and not (o["cube"] and money):
                raise OptionError(
                    f"option {name}=true needs money play with the cube (cube=true, match_length=0)"
                )
        if o["raccoons"] and not o["beavers"]:
            raise OptionError("option raccoons=true needs beavers=true")
        if o["games"] != 1 and not money:
            raise OptionError(
                "option games counts the games of a money session; "
                "a match (match_length > 0) lasts until a player reaches its length"
            )

    @property
    def match_length(self) -> int:
        """0 for money play, N for a match to N points."""
        return int(self.options["match_length"])

    @cached_property
    def extended(self) -> bool:
        """Cube or match play: resignations are offered and a match spans games.

        Asked at every decision; the options never change, so it is worked out once."""
        return bool(self.options["cube"]) or self.match_length > 0

    def utility_bounds(self) -> tuple[float, float] | None:
        """A match is won (1) or lost (-1); money play without the cube scores at most 1 a
        game (3 with standard scoring: a backgammon) over ``games`` games; with the cube
        there is no ceiling (None)."""
        if self.match_length:
            return (-1.0, 1.0)
        if self.options["cube"]:
            return None
        top = (3.0 if self.options["scoring"] == "standard" else 1.0) * int(self.options["games"])
        return (-top, top)

    def new_initial_state(self) -> BackgammonState:
        return BackgammonState(self, start_board(), turn=0, dice=None, opening=True)

    def setup(
        self,
        board: Board,
        *,
        turn: int = 0,
        dice: tuple[int, int] | None = None,
        cube_value: int = 1,
        cube_owner: int | None = None,
        match_score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        post_crawford: bool = False,
        pending: str | None = None,
    ) -> BackgammonState:
        """A position for analysis or tests: ``board[p]`` in player p's own numbering.

        With ``dice`` the player ``turn`` is to move them; without, he is to roll (at a
        cube decision first when he may double, unless ``pending`` says otherwise:
        ``"take"`` sets up his opponent's answer to his double of ``cube_value``).
        Raises ``ValueError`` for an impossible position, cube or score.
        """
        sides = (tuple(board[0]), tuple(board[1]))
        for p, side in enumerate(sides):
            if len(side) != 26 or any(n < 0 for n in side) or sum(side) != CHECKERS:
                raise ValueError(
                    f"player {p + 1}'s side must list 26 non-negative counts "
                    f"(off, points 1..24, bar) summing to {CHECKERS}"
                )
        for i in range(1, 25):
            if sides[0][i] and sides[1][25 - i]:
                raise ValueError(f"point {i} (player 1's numbering) holds both colours")
        if dice is not None:
            dice = (max(dice), min(dice))
            if not all(1 <= d <= 6 for d in dice):
                raise ValueError("dice must be 1..6")
        if turn not in (0, 1):
            raise ValueError("turn must be seat 0 or 1")
        if cube_value not in {2**k for k in range(16)} or cube_value > int(
            self.options["max_cube"]
        ):
            raise ValueError(
                f"cube value must be a power of 2 up to max_cube={self.options['max_cube']}"
            )
        if cube_owner not in (None, 0, 1):
            raise ValueError("cube_owner must be None (centred), 0 or 1")
        if (cube_value > 1 or cube_owner is not None) and not self.options["cube"]:
            raise ValueError("this game has no cube (option cube=false)")
        n = self.match_length
        if any(p < 0 for p in match_score) or (n and max(match_score) >= n):
            raise ValueError(f"match score {match_score} is not a score of a match to {n}")
        if (crawford or post_crawford) and not n:
            raise ValueError("Crawford and post-Crawford belong to match play")
        state = BackgammonState(
            self,
            (sides[turn], sides[1 - turn]),
            turn=turn,
            dice=dice,
            cube_value=cube_value,
            cube_owner=cube_owner,
            match_score=(int(match_score[0]), int(match_score[1])),
            crawford=crawford,
            post_crawford=post_crawford,
        )
        if state.board[0][OFF] == CHECKERS or state.board[1][OFF] == CHECKERS:
            raise ValueError("the game in that position is already over")
        if pending is None:
            pending = CUBE_DECISION if dice is None and self.extended else NO_PENDING
        if pending == TAKE_DECISION:
            if dice is not None or not state.may_double():
                raise ValueError(
                    "a double can be offered only before the roll by a player who may double"
                )
        elif pending == CUBE_DECISION:
            if dice is not None or not self.extended:
                raise ValueError("a decision before the roll needs cube or match play and no dice")
        elif pending != NO_PENDING:
            raise ValueError(f"pending {pending!r}: expected None, 'double', 'take' or ''")
        return state._next(pending=pending)


@dataclass(frozen=True, eq=False)
class BackgammonState(State[Action]):
    """A backgammon position. ``board[0]`` is the side of the player ``turn`` (on roll).

    With the cube or in a match the state also holds the cube (``cube_value``,
    ``cube_owner``: a seat or None when centred), the score of the games finished
    so far (``match_score``, ``history``), whether this game is the Crawford game or
    after it, and ``pending``: the cube or resignation question being answered.
    A match (or money session) is one state sequence: when a game ends and the
    match goes on, the next state is the next game's opening roll.
    """

    game: Backgammon
    board: Board
    turn: int
    dice: tuple[int, int] | None
    opening: bool = False
    winner: int | None = None
    points: int = 0
    cube_value: int = 1
    cube_owner: int | None = None
    match_score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    pending: str = NO_PENDING
    resign_level: int = 0  # the level offered while pending is RESIGN_DECISION
    resign_refused: int = 0  # the highest level refused this turn (offers must go higher)
    history: tuple[tuple[int, int], ...] = ()  # (winner, points) of each finished game
    # what is worked out from the position (legal plays); never passed on or copied
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    # After a play, ``board`` is made only when it is asked for: the state holds
    # ``_src = (rows, i)``, the kernel's row of the play that led here (the board
    # after it, from the mover's side: this state's board swapped), and its own
    # plays are generated from that row. ``__getattr__`` turns it into tuples once.

    if not TYPE_CHECKING:  # (hidden from mypy, which would accept any attribute then)

        def __getattr__(self, name: str) -> Any:
            # called only for a missing attribute: the lazy board, or an AttributeError
            if name == "board":
                src = self.__dict__.get("_src")
                if src is not None:
                    from dicehall.games.backgammon.fast import board_of_row

                    board = board_of_row(src[0], src[1], True)
                    self.__dict__["board"] = board
                    return board
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _next(self, **changes: Any) -> BackgammonState:
        """This state with ``changes``, sharing nothing cached (``dataclasses.replace``
        without its cost: this runs on every action)."""
        new = object.__new__(BackgammonState)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.pop("_plays", None)  # the cached_property of this state's plays
        fields["_cache"] = {}
        if "board" in changes:
            fields.pop("_src", None)
        elif "_src" in changes:
            fields.pop("board", None)
        fields.update(changes)
        return new

    # -- match and cube facts (the API the cube bot codes against) ----------
    @property
    def match_length(self) -> int:
        """0 for money play, N for a match to N points."""
        return self.game.match_length

    @property
    def jacoby(self) -> bool:
        """Money play under the Jacoby rule (gammons count once the cube is turned)."""
        return bool(self.game.options["jacoby"])

    @property
    def beavers(self) -> bool:
        """Money play where a doubled player may beaver."""
        return bool(self.game.options["beavers"])

    @property
    def max_cube(self) -> int:
        """The highest value the cube may reach."""
        return int(self.game.options["max_cube"])

    @property
    def game_number(self) -> int:
        """Which game of the match or session this is (1 for the first)."""
        return len(self.history) + (0 if self.winner is not None else 1)

    def is_cube_decision(self) -> bool:
        """True when the legal actions are cube actions: before the roll ``roll`` and,
        when ``may_double()``, ``double`` (cube and match play stop before every roll
        so the player may double or resign); ``take``/``pass``/``beaver`` in answer to
        a double; ``take``/``raccoon`` after a beaver. Resignation offers may follow
        the cube actions in ``legal_actions()``."""
        return self.pending in (CUBE_DECISION, TAKE_DECISION, RACCOON_DECISION)

    def is_resign_decision(self) -> bool:
        """True when the opponent of the player on turn answers a resignation offer."""
        return self.pending == RESIGN_DECISION

    def is_checker_play(self) -> bool:
        """True when the player on turn has dice to play."""
        return self.pending == NO_PENDING and self.dice is not None and self.winner is None

    def may_double(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: the player on turn) may double before his roll:
        cube play on, not the Crawford game, the cube centred or his, the doubled
        value within ``max_cube``, and (in a match, as gnubg) the cube not dead: his
        score plus the cube's value still short of the match length."""
        p = self.turn if player is None else player
        n = self.match_length
        return (
            bool(self.game.options["cube"])
            and self.winner is None
            and not self.crawford
            and self.cube_owner in (None, p)
            and self.cube_value * 2 <= self.max_cube
            and not (n and self.match_score[p] + self.cube_value >= n)
        )

    def may_beaver(self) -> bool:
        """Whether the doubled player (at a take decision) may beaver."""
        return (
            self.pending == TAKE_DECISION
            and self.beavers
            and self.match_length == 0
            and self.cube_value * 4 <= self.max_cube
        )

    def game_points(self, level: int) -> int:
        """Points a win of ``level`` (1 single, 2 gammon, 3 backgammon) scores now: the
        level as the scoring counts it (Jacoby: 1 while the cube is centred at 1) times
        the cube."""
        if self.game.options["scoring"] == "single" or (self.jacoby and self.cube_value == 1):
            level = 1
        return level * self.cube_value

    # -- protocol -------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance_node(self) -> bool:
        return self.dice is None and self.winner is None and not self.pending

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.pending in (TAKE_DECISION, RESIGN_DECISION):
            return 1 - self.turn
        if self.pending:
            return self.turn
        if self.dice is None:
            return CHANCE
        return self.turn

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.current_player() != CHANCE:
            raise ValueError("this state is not a chance node: it has no outcomes")
        return list(OPENING_OUTCOMES if self.opening else ROLL_OUTCOMES)

    def chance_dice(self) -> int:
        return 2 if self.current_player() == CHANCE else 0

    def outcome_from_dice(self, faces: Sequence[int]) -> Roll:
        """The roll two rolled ``faces`` (1..6) make: as rolled at the opening (seat 0's
        die first), high die first later; raises ``ValueError`` for other faces."""
        try:
            return (_OPENING_FACES if self.opening else _LATER_FACES)[tuple(faces)]
        except (KeyError, TypeError):
            raise ValueError(f"two dice faces 1..6 are rolled here, not {faces!r}") from None

    @property
    def _legal(self) -> LegalPlays:
        """The compiled kernel's plays (``fast.LegalPlays``), made lazily into objects.

        Kept in ``_cache`` (a plain dict: cheaper than ``cached_property``). After a
        play the kernel reads the position from the row of the play before
        (``_src``), so a game played through ``apply`` converts no board tuples."""
        legal: LegalPlays | None = self._cache.get("legal")
        if legal is None:
            assert self.dice is not None
            src = self.__dict__.get("_src")
            legal = _legal_plays()(src, None if src is not None else self.board, self.dice)
            self._cache["legal"] = legal
        return legal

    @cached_property
    def _plays(self) -> dict[Board, tuple[Step, ...]]:
        # the same mapping as generate_plays(self.board, self.dice), from one kernel run
        return self._legal.as_dict()

    def _resign_offers(self) -> list[Action]:
        if not self.game.extended:
            return []
        top = 1 if self.game.options["scoring"] == "single" else 3
        return [Resign(level) for level in range(self.resign_refused + 1, top + 1)]

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions: at a checker play the plays (a lazy, immutable sequence
        of ``Play``, followed by resignations where the game allows them), at a chance
        node the rolls; ``[]`` once the game is over."""
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(_OPENING_ROLLS if self.opening else _ROLLS)
        pending = self.pending
        if pending == CUBE_DECISION:
            double = [CubeAction("double")] if self.may_double() else []
            return [CubeAction("roll"), *double, *self._resign_offers()]
        if pending == TAKE_DECISION:
            beaver = [CubeAction("beaver")] if self.may_beaver() else []
            return [CubeAction("take"), CubeAction("pass"), *beaver]
        if pending == RACCOON_DECISION:
            return [CubeAction("take"), CubeAction("raccoon")]
        if pending == RESIGN_DECISION:
            return [ResignAnswer(True), ResignAnswer(False)]
        offers = self._resign_offers()
        return [*self._legal, *offers] if offers else self._legal

    def apply(self, action: Action) -> BackgammonState:
        legal = self._cache.get("legal")
        if legal is not None:
            # a checker play whose plays are listed: one of them, by identity, is
            # applied from the kernel's row (no second validation in Python)
            i = legal._ids.get(id(action))
            if i is not None and legal._items[i] is action:
                if legal.finishes(i):
                    return self._after_play(legal.board(i))
                return self._after_play(None, (legal.rows(), i))
        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(str(action))
        if player == CHANCE:
            # a roll is checked by identity (the game's own rolls) or by its range (the
            # outcomes are every pair of faces, high die first after the opening), not
            # by listing the outcomes
            if (_OPENING_IDS if self.opening else _LATER_IDS).get(id(action)) is action:
                return self._after_roll(action)
            if not (
                isinstance(action, Roll)
                and 1 <= action.first <= 6
                and 1 <= action.second <= 6
                and (self.opening or action.first >= action.second)
            ):
                raise self.illegal(str(action), "the dice must be rolled now")
            return self._after_roll(action)
        if self.pending:
            return self._after_decision(action)
        if isinstance(action, Resign):
            return self._after_resign(action)
        if not isinstance(action, Play):
            if isinstance(action, CubeAction) and action.kind in ("double", "beaver", "raccoon"):
                raise self.illegal(str(action), self.why_no_cube(action.kind))
            raise self.illegal(str(action), self._expected())
        legal = self._legal
        i = legal.find(action)
        if i is not None:  # one of legal_actions(): its position is known
            if legal.finishes(i):
                return self._after_play(legal.board(i))
            return self._after_play(None, (legal.rows(), i))
        # another order of steps reaching a legal position is the same play
        after = self.board_after(action.steps)
        if after is None or after not in self._plays:
            raise self.illegal(self._safe_text(action), "not a legal play of these dice")
        return self._after_play(after)

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        if self.match_length:
            out = [-1.0, -1.0]
            out[self.winner] = 1.0
            return out
        net = float(self.match_score[0] - self.match_score[1])
        return [net, -net]

    # -- transitions ----------------------------------------------------
    def _expected(self) -> str:
        """What kind of action the current decision wants, in words."""
        return {
            CUBE_DECISION: "before the roll, double or roll (or resign)",
            TAKE_DECISION: "answer the double: take or pass"
            + (" (or beaver)" if self.may_beaver() else ""),
            RACCOON_DECISION: "answer the beaver: take (play on) or raccoon",
            RESIGN_DECISION: "answer the resignation: accept or reject",
        }.get(self.pending, "a play of the dice is expected")

    def _after_decision(self, action: Action) -> BackgammonState:
        if action not in self.legal_actions():
            text = str(action)
            if isinstance(action, CubeAction) and action.kind in ("double", "beaver", "raccoon"):
                raise self.illegal(text, self.why_no_cube(action.kind))
            if isinstance(action, Resign) and self.pending == CUBE_DECISION:
                return self._after_resign(action)  # raises with the reason
            raise self.illegal(text, self._expected())
        pending, v = self.pending, self.cube_value
        if isinstance(action, Resign):
            return self._after_resign(action)
        if isinstance(action, ResignAnswer):
            if action.accept:
                return self._end_game(1 - self.turn, self.game_points(self.resign_level))
            back = CUBE_DECISION if self.dice is None else NO_PENDING
            return self._next(pending=back, resign_level=0, resign_refused=self.resign_level)
        assert isinstance(action, CubeAction)
        kind = action.kind
        if pending == CUBE_DECISION:
            return self._next(pending=TAKE_DECISION if kind == "double" else NO_PENDING)
        if pending == TAKE_DECISION:
            if kind == "pass":
                return self._end_game(self.turn, v)
            if kind == "take":
                return self._next(pending=NO_PENDING, cube_value=2 * v, cube_owner=1 - self.turn)
            raccoon = bool(self.game.options["raccoons"]) and 8 * v <= self.max_cube
            return self._next(
                pending=RACCOON_DECISION if raccoon else NO_PENDING,
                cube_value=4 * v,
                cube_owner=1 - self.turn,
            )
        # the doubler answers a beaver
        if kind == "raccoon":
            return self._next(pending=NO_PENDING, cube_value=2 * v, cube_owner=self.turn)
        return self._next(pending=NO_PENDING)

    def why_no_cube(self, kind: str = "double") -> str:
        """Why ``kind`` (double, beaver, raccoon) is not legal now, in words."""
        o = self.game.options
        if kind == "double":
            if not o["cube"]:
                return "this game is played without the cube (option cube=false)"
            if self.pending != CUBE_DECISION and self.is_checker_play():
                return "a double is offered before the roll, not after it"
            if self.crawford:
                return "no doubling in the Crawford game"
            if self.cube_owner is not None and self.cube_owner != self.turn:
                return (
                    f"the cube belongs to seat {self.cube_owner + 1}; only its owner may redouble"
                )
            if self.cube_value * 2 > self.max_cube:
                return f"the cube is at {self.cube_value}; it may not pass max_cube={self.max_cube}"
            n, score = self.match_length, self.match_score[self.turn]
            if n and score + self.cube_value >= n:
                return (
                    f"the cube is dead: with {score} points and the cube at "
                    f"{self.cube_value}, winning this game already wins the match to {n}"
                )
            return "a double is offered before the roll by the player on roll"
        if kind == "beaver":
            if not o["beavers"]:
                return "beavers are off in this game (option beavers=false)"
            if self.pending != TAKE_DECISION:
                return "a beaver answers a double"
            return f"a beaver would take the cube past max_cube={self.max_cube}"
        if not o["raccoons"]:
            return "raccoons are off in this game (option raccoons=false)"
        return "a raccoon answers a beaver"

    def _after_resign(self, action: Resign) -> BackgammonState:
        if action not in self._resign_offers():
            if not self.game.extended:
                reason = "resignations belong to cube or match play (options cube, match_length)"
            elif action.level <= self.resign_refused:
                reason = (
                    f"after a refused offer, offer more than a {RESIGN_LEVELS[self.resign_refused]}"
                )
            else:
                reason = "with single scoring only a single game can be resigned"
            raise self.illegal(str(action), reason)
        return self._next(pending=RESIGN_DECISION, resign_level=action.level)

    def _after_roll(self, roll: Roll) -> BackgammonState:
        if self.opening:
            started = opening(roll.first, roll.second)
            if started is None:
                return self  # a tie: both roll again
            turn, dice = started
            board = self.board if turn == self.turn else (self.board[1], self.board[0])
            return self._next(board=board, turn=turn, dice=dice, opening=False)
        return self._next(dice=(roll.first, roll.second))

    def _after_play(self, after: Board | None, src: Any = None) -> BackgammonState:
        """The state after a play reaching ``after``, or (when the game goes on) the
        kernel's row ``src = (rows, i)`` of that play, from which the next state makes
        its board when asked and its plays (see ``__getattr__``)."""
        if after is None:
            if self.game.extended:
                return self._next(
                    turn=1 - self.turn,
                    dice=None,
                    resign_refused=0,
                    _src=src,
                    pending=CUBE_DECISION,
                )
            return self._next(turn=1 - self.turn, dice=None, resign_refused=0, _src=src)
        mine, theirs = after
        if mine[OFF] == CHECKERS:
            level = 1
            if theirs[OFF] == 0:
                level = 2
                # a checker on the bar or in the winner's home board: backgammon
                if theirs[BAR] or any(theirs[i] for i in range(19, 25)):
                    level = 3
            return self._next(board=after)._end_game(self.turn, self.game_points(level))
        following = self._next(
            board=(theirs, mine), turn=1 - self.turn, dice=None, resign_refused=0
        )
        if self.game.extended:
            return following._next(pending=CUBE_DECISION)
        return following

    def _end_game(self, winner: int, points: int) -> BackgammonState:
        """The state after a game won by ``winner`` for ``points``: the end of the match
        or session, or the opening roll of the next game."""
        score = list(self.match_score)
        score[winner] += points
        history = (*self.history, (winner, points))
        n = self.match_length
        over = score[winner] >= n if n else len(history) >= int(self.game.options["games"])
        if over:
            return self._next(
                dice=None,
                winner=winner,
                points=points,
                match_score=(score[0], score[1]),
                history=history,
                pending=NO_PENDING,
                resign_level=0,
            )
        crawford, post = False, self.post_crawford or self.crawford
        if n and self.game.options["crawford"] and not post and n - 1 in score:
            crawford = True
        return BackgammonState(
            self.game,
            (START_SIDE, START_SIDE),
            turn=0,
            dice=None,
            opening=True,
            match_score=(score[0], score[1]),
            crawford=crawford,
            post_crawford=post,
            history=history,
        )

    def board_after(self, steps: Sequence[Step]) -> Board | None:
        """The board after ``steps`` (mover's side first), or None if they cannot be
        played in this order with these dice (each step using one die)."""
        dice = list(self.dice or ())
        if len(dice) == 2 and dice[0] == dice[1]:
            dice *= 2
        if len(steps) > len(dice):
            return None

        def walk(mine: list[int], theirs: list[int], i: int, left: list[int]) -> Board | None:
            if i == len(steps):
                return (tuple(mine), tuple(theirs))
            src, dst = steps[i]
            for die in dict.fromkeys(left):
                if (src, dst) in single_steps(mine, theirs, die):
                    m, t = mine.copy(), theirs.copy()
                    move_step(m, t, src, dst)
                    rest = left.copy()
                    rest.remove(die)
                    found = walk(m, t, i + 1, rest)
                    if found is not None:
                        return found
            return None

        return walk(list(self.board[0]), list(self.board[1]), 0, dice)

    # -- derived facts --------------------------------------------------
    def side(self, player: int) -> Side:
        """Checker counts of ``player`` (a seat) in his own numbering."""
        return self.board[0] if player == self.turn else self.board[1]

    def pip_counts(self) -> tuple[int, int]:
        """Pip counts of seat 0 and seat 1."""
        return pip_count(self.side(0)), pip_count(self.side(1))

    def play_results(self) -> Iterator[tuple[Play, Board]]:
        """Each legal play with the board it leads to (mover's side first)."""
        if not self.is_checker_play():
            return
        for board, steps in self._plays.items():
            yield Play(steps), board

    # -- text -----------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        from dicehall.games.backgammon.notation import format_play

        if isinstance(action, Play):
            return format_play(self.board, action.steps)
        return str(action)

    def _safe_text(self, action: Play) -> str:
        try:
            return self.action_to_text(action)
        except Exception:
            return str(action)

    def parse_action(self, text: str) -> Action:
        from dicehall.games.backgammon.notation import parse_action

        return parse_action(self, text)

    def position_id(self) -> str:
        """The GNU Backgammon Position ID of this position (player on roll last)."""
        from dicehall.games.backgammon.notation import encode_position_id

        return encode_position_id(self.board)

    def render(self, perspective: int | None = None) -> str:
        from dicehall.games.backgammon.render import render_text

        return render_text(self, perspective)

    def __str__(self) -> str:
        return self.render()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BackgammonState):
            return NotImplemented
        return (
            self.game == other.game
            and self.board == other.board
            and self.turn == other.turn
            and self.dice == other.dice
            and self.opening == other.opening
            and self.winner == other.winner
            and self.points == other.points
            and self.cube_value == other.cube_value
            and self.cube_owner == other.cube_owner
            and self.match_score == other.match_score
            and self.crawford == other.crawford
            and self.post_crawford == other.post_crawford
            and self.pending == other.pending
            and self.resign_level == other.resign_level
            and self.resign_refused == other.resign_refused
            and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.board,
                self.turn,
                self.dice,
                self.opening,
                self.winner,
                self.cube_value,
                self.cube_owner,
                self.match_score,
                self.pending,
            )
        )

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of this state (cube, score, dice, pending offers)."""
        from dicehall.games.backgammon.matchid import encode_match_id

        return encode_match_id(self)

    def __repr__(self) -> str:
        dice = "" if self.dice is None else f", dice={self.dice}"
        extra = ""
        if self.game.extended:
            extra = f" cube={self.cube_value}@{self.cube_owner} score={self.match_score}"
            extra += f" pending={self.pending!r}" if self.pending else ""
        return f"<BackgammonState {self.position_id()} turn={self.turn}{dice}{extra}>"


# The board module's names are re-exported (most callers import them from here): listed
# with this module's own public names.
__all__ = [
    "BAR",
    "CHECKERS",
    "CUBE_DECISION",
    "CUBE_KINDS",
    "NO_PENDING",
    "OFF",
    "OPTIONS",
    "RACCOON_DECISION",
    "RESIGN_DECISION",
    "RESIGN_LEVELS",
    "START_SIDE",
    "TAKE_DECISION",
    "Action",
    "Backgammon",
    "BackgammonState",
    "Board",
    "CubeAction",
    "Play",
    "Resign",
    "ResignAnswer",
    "Roll",
    "Side",
    "Step",
    "generate_plays",
    "generate_plays_reference",
    "move_step",
    "opening",
    "pip_count",
    "single_steps",
    "start_board",
]
