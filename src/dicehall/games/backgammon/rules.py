"""Backgammon positions and move generation: the reference rules implementation.

A board is stored per player in that player's own numbering: index 0 counts the
checkers borne off, 1..24 are the points (1 = the player's own ace point, where
his checkers move towards), and 25 is the bar. A point ``i`` of one player is
point ``25 - i`` of the other. Each player thus always moves from high to low
numbers, which keeps the code for both colours the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.options import Option

BAR = 25
OFF = 0
CHECKERS = 15

Side = tuple[int, ...]  # 26 counts: off, points 1..24, bar
Board = tuple[Side, Side]
Step = tuple[int, int]  # one die moved: (from, to) in the mover's numbering

START_SIDE: Side = tuple({24: 2, 13: 5, 8: 3, 6: 5}.get(i, 0) for i in range(26))

if TYPE_CHECKING:
    from dicehall.games.backgammon.fast import LegalPlays


@dataclass(frozen=True)
class Roll:
    """A dice outcome. At the opening ``first`` is seat 0's die and ``second`` seat 1's;
    later rolls are stored high die first."""

    first: int
    second: int

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


@dataclass(frozen=True)
class Play:
    """One whole turn: the single-die steps in the order played (empty: no legal play).

    Two plays that lead to the same position are the same choice; ``legal_actions``
    lists one representative of each.
    """

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return " ".join(f"{a}/{b}" for a, b in self.steps) or "pass"


Action = Roll | Play

#: the chance outcomes, made once: the opening roll (seat 0's die first, ties
#: included) and every later roll (high die first)
OPENING_OUTCOMES: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll(a, b), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
)
ROLL_OUTCOMES: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll(a, b), Fraction(1 if a == b else 2, 36)) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
_OPENING_ROLLS: tuple[Action, ...] = tuple(r for r, _ in OPENING_OUTCOMES)
_ROLLS: tuple[Action, ...] = tuple(r for r, _ in ROLL_OUTCOMES)


def pip_count(side: Side) -> int:
    """Pips a player needs to bear off every checker (the bar counts 25)."""
    return sum(i * n for i, n in enumerate(side))


def move_step(mine: list[int], theirs: list[int], src: int, dst: int) -> bool:
    """Move one checker of ``mine`` from ``src`` to ``dst`` in place; True if it hit."""
    mine[src] -= 1
    mine[dst] += 1
    if dst != OFF and theirs[25 - dst] == 1:
        theirs[25 - dst] = 0
        theirs[BAR] += 1
        return True
    return False


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
)


class Backgammon(Game):
    """Two-player backgammon with the standard rules; see docs/rules/backgammon.md."""

    name = "backgammon"
    title = "Backgammon"
    min_players = 2
    max_players = 2
    option_specs = OPTIONS

    def new_initial_state(self) -> BackgammonState:
        return BackgammonState(self, (START_SIDE, START_SIDE), turn=0, dice=None, opening=True)

    def setup(
        self,
        board: Board,
        *,
        turn: int = 0,
        dice: tuple[int, int] | None = None,
    ) -> BackgammonState:
        """A position for analysis or tests: ``board[p]`` in player p's own numbering.

        With ``dice`` the player ``turn`` is to move them; without, he is to roll.
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
        state = BackgammonState(self, (sides[turn], sides[1 - turn]), turn=turn, dice=dice)
        if state.board[0][OFF] == CHECKERS or state.board[1][OFF] == CHECKERS:
            raise ValueError("the game in that position is already over")
        return state


@dataclass(frozen=True, eq=False)
class BackgammonState(State[Action]):
    """A backgammon position. ``board[0]`` is the side of the player ``turn`` (on roll)."""

    game: Backgammon
    board: Board
    turn: int
    dice: tuple[int, int] | None
    opening: bool = False
    winner: int | None = None
    points: int = 0
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # -- protocol -------------------------------------------------------
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.dice is None:
            return CHANCE
        return self.turn

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.current_player() != CHANCE:
            raise IllegalActionError("roll", "it is not time to roll the dice")
        return list(OPENING_OUTCOMES if self.opening else ROLL_OUTCOMES)

    def chance_dice(self) -> int:
        return 2 if self.current_player() == CHANCE else 0

    def outcome_from_dice(self, faces: Sequence[int]) -> Roll:
        a, b = faces
        return Roll(a, b) if self.opening else Roll(max(a, b), min(a, b))

    @property
    def _legal(self) -> LegalPlays:
        """The compiled kernel's plays (``fast.LegalPlays``), made lazily into objects.

        Kept in ``_cache`` (a plain dict: cheaper than ``cached_property``). The
        compact board comes from the state before when it passed it on there, so a
        game played through ``apply`` converts no board tuples."""
        legal: LegalPlays | None = self._cache.get("legal")
        if legal is None:
            from dicehall.games.backgammon.fast import LegalPlays

            assert self.dice is not None
            legal = LegalPlays(self._cache.get("array"), self.board, self.dice)
            self._cache["legal"] = legal
        return legal

    @cached_property
    def _plays(self) -> dict[Board, tuple[Step, ...]]:
        # the same mapping as generate_plays(self.board, self.dice), from one kernel run
        return self._legal.as_dict()

    def legal_actions(self) -> Sequence[Action]:
        """The legal plays (a lazy, immutable sequence of ``Play``) or at a chance node
        the rolls; ``[]`` once the game is over."""
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(_OPENING_ROLLS if self.opening else _ROLLS)
        return self._legal

    def apply(self, action: Action) -> BackgammonState:
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError(str(action), "the game is over")
        if player == CHANCE:
            # a roll is checked by its range (the outcomes are every pair of faces,
            # high die first after the opening), not by listing the outcomes
            if not (
                isinstance(action, Roll)
                and 1 <= action.first <= 6
                and 1 <= action.second <= 6
                and (self.opening or action.first >= action.second)
            ):
                raise self.illegal(str(action), "the dice must be rolled now")
            return self._after_roll(action)
        if not isinstance(action, Play):
            raise self.illegal(str(action), "a play of the dice is expected, not a roll")
        legal = self._legal
        i = legal.find(action)
        if i is not None:  # one of legal_actions(): its position is known
            return self._after_play(legal.board(i), legal.swapped_array(i))
        # another order of steps reaching a legal position is the same play
        after = self.board_after(action.steps)
        if after is None or after not in self._plays:
            raise self.illegal(self._safe_text(action), "not a legal play of these dice")
        return self._after_play(after)

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        out = [0.0, 0.0]
        out[self.winner] = float(self.points)
        out[1 - self.winner] = -float(self.points)
        return out

    # -- transitions ----------------------------------------------------
    def _after_roll(self, roll: Roll) -> BackgammonState:
        if self.opening:
            if roll.is_double:
                return self  # a tie: both roll again
            turn = 0 if roll.first > roll.second else 1
            board = self.board if turn == self.turn else (self.board[1], self.board[0])
            dice = (max(roll.first, roll.second), min(roll.first, roll.second))
            return BackgammonState(self.game, board, turn=turn, dice=dice)
        array = self._cache.get("array")
        return _new_state(
            self.game,
            self.board,
            self.turn,
            (roll.first, roll.second),
            {} if array is None else {"array": array},
        )

    def _after_play(self, after: Board, swapped: Any = None) -> BackgammonState:
        """The state after a play reaching ``after``; ``swapped`` is its compact board
        from the opponent's side when the kernel already has it."""
        mine, theirs = after
        if mine[OFF] == CHECKERS:
            points = 1
            if self.game.options["scoring"] == "standard" and theirs[OFF] == 0:
                points = 2
                # a checker on the bar or in the winner's home board: backgammon
                if theirs[BAR] or any(theirs[i] for i in range(19, 25)):
                    points = 3
            return BackgammonState(
                self.game, after, turn=self.turn, dice=None, winner=self.turn, points=points
            )
        return _new_state(
            self.game,
            (theirs, mine),
            1 - self.turn,
            None,
            {} if swapped is None else {"array": swapped},
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
        if self.current_player() in (CHANCE, TERMINAL):
            return
        for board, steps in self._plays.items():
            yield Play(steps), board

    # -- text -----------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        from dicehall.games.backgammon.notation import format_play

        if isinstance(action, Roll):
            return str(action)
        return format_play(self.board, action.steps)

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
        )

    def __hash__(self) -> int:
        return hash((self.board, self.turn, self.dice, self.opening, self.winner))

    def __repr__(self) -> str:
        dice = "" if self.dice is None else f", dice={self.dice}"
        return f"<BackgammonState {self.position_id()} turn={self.turn}{dice}>"


#: every field of a state that has a default, with it (for ``_new_state``)
_DEFAULTS = {f.name: f.default for f in fields(BackgammonState) if f.default is not MISSING}
assert not hasattr(BackgammonState, "__post_init__"), "_new_state would skip it"


def _new_state(
    game: Backgammon,
    board: Board,
    turn: int,
    dice: tuple[int, int] | None,
    cache: dict[str, Any],
) -> BackgammonState:
    """``BackgammonState(game, board, turn=turn, dice=dice, _cache=cache)`` without the
    frozen dataclass ``__init__`` (one ``object.__setattr__`` per field): the two
    transitions of every turn make their states here."""
    values = dict(_DEFAULTS)
    values.update(game=game, board=board, turn=turn, dice=dice, _cache=cache)
    state = object.__new__(BackgammonState)
    object.__setattr__(state, "__dict__", values)
    return state
