"""White Die rules: turns, the white die, the five challenges, scores and the end.

A ``WhiteDieState`` is an immutable value. Chance nodes are physical dice rolls:
all five dice at the start and at each turn (``chance_dice() == 5``, the first
face is the white die), the opponent's four dice in tic-tac-toe and matching, and
the dice a player or opponent rerolls. Outcomes are multisets of faces (the order
of equal dice never matters) with exact probabilities; a white 1 at a turn is one
outcome because the coloured dice are then irrelevant.

During tic-tac-toe and matching the chosen opponent is ``current_player()`` for
his own placements and rerolls. Forced passes in tic-tac-toe happen by themselves: a
side is only asked when it has a legal placement.

With ``free_choices`` (the default) the player also makes the two choices the seed
leaves him, each only where it can matter: after the last reroll of Pips he arranges
his square (``arrange 2``: a score some arrangement of his dice reaches), when they
reach more than one score and the best does not win the game at once; and when
nobody can place in tic-tac-toe and he has placed all his dice he claims the empty
squares or not (``claim``/``decline``), when claiming changes his score and does not
win the game at once. Elsewhere the best square and the claim are taken for him, as
they always are with ``free_choices=false`` (the rules before these choices; records
that do not name the option replay under them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, ClassVar

from dicehall.core.errors import GameOverError
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.options import Option, OptionValue
from dicehall.games.whitedie.board import (
    ARRANGE,
    CHOOSE,
    CLAIM,
    MATCH_LAST,
    MATCH_OPPONENT,
    MATCH_PLAYER,
    OPPONENT_ROLL,
    OPPONENT_SIDE,
    OVER,
    PLAYER_SIDE,
    REROLL,
    ROLL,
    START,
    TICTACTOE,
    Action,
    Arrange,
    ChallengeResult,
    ChooseOpponent,
    Claim,
    Phase,
    Place,
    Reroll,
    Roll,
    Stand,
    multiset_outcomes,
    remove,
    sub_multisets,
)
from dicehall.games.whitedie.challenges import (
    CHALLENGES,
    EMPTY_GRID,
    HANDS,
    POKER_CHARTS,
    Dice,
    Grid,
    challenge_score,
    claim,
    pip_scores,
    placement_tuple,
    placements,
    tictactoe_score,
)
from dicehall.games.whitedie.matching_table import POINTS as MATCHING_POINTS


@cache
def _sub_multisets(dice: Dice, size: int | None) -> tuple[Dice, ...]:
    """``sub_multisets`` made once per (dice, size): there are only 209 sorted hands."""
    return tuple(sub_multisets(dice, size))


@cache
def _rerolls(dice: Dice, size: int | None) -> tuple[Reroll, ...]:
    """The ``Reroll`` actions of ``dice`` (all sub-multisets, or those of ``size``)."""
    return tuple(Reroll(v) for v in _sub_multisets(dice, size))


@cache
def _stand_or_reroll(dice: Dice, size: int | None) -> tuple[Action, ...]:
    """``stand`` and every reroll of ``dice`` (of ``size`` dice, or any number)."""
    return (_STAND, *_rerolls(dice, size))


@cache
def _five_dice_outcomes(turn: bool) -> tuple[tuple[Action, Fraction], ...]:
    """Outcomes of rolling all five: at a turn a white 1 is one outcome (the coloured
    dice do not matter then); at the start every white counts with the coloured sum."""
    out: list[tuple[Action, Fraction]] = []
    if turn:
        out.append((Roll((), 1), Fraction(1, 6)))
    for white in range(2 if turn else 1, 7):
        out += [(Roll(d, white), p / 6) for d, p in multiset_outcomes(4)]
    return tuple(out)


@cache
def _outcome_table(kind: str | int) -> tuple[dict[tuple[int, ...], Roll], dict[int, Roll]]:
    """The outcome of every tuple of rolled faces at one kind of chance node, each
    outcome one shared ``Roll``, and those outcomes by identity (what ``apply``
    checks a roll against with one lookup).

    ``kind`` is ``"start"`` (five dice to see who starts), ``"turn"`` (five dice at
    a turn: a white 1 is one outcome) or a number of dice 1..4 (coloured dice only).
    """
    count = 5 if kind in ("start", "turn") else int(kind)
    made: dict[Roll, Roll] = {}
    faces: dict[tuple[int, ...], Roll] = {}
    for rolled in product(range(1, 7), repeat=count):
        if kind == "turn" and rolled[0] == 1:
            roll = Roll((), 1)
        elif kind in ("start", "turn"):
            roll = Roll(tuple(sorted(rolled[1:])), rolled[0])
        else:
            roll = Roll(tuple(sorted(rolled)))
        faces[rolled] = made.setdefault(roll, roll)
    return faces, {id(r): r for r in made.values()}


# -- the game ------------------------------------------------------------------
OPTIONS = (
    Option("players", int, 2, "number of players", minimum=2, maximum=6),
    Option("target", int, 21, "points that win the game", minimum=1, maximum=1000),
    Option(
        "poker_chart",
        str,
        "standard",
        "Poker chart: standard (4 of a kind 6, straight 4, 3 of a kind 3, two pairs 2, pair 1), "
        "no-straights (straights score 0) or flat (4 of a kind 4, straight 3)",
        choices=tuple(POKER_CHARTS),
    ),
    Option(
        "free_choices",
        bool,
        True,
        "the player arranges his Pips square and decides the tic-tac-toe claim himself "
        "where the choice can matter (false: the best square and the claim are taken for him)",
    ),
)


class WhiteDie(Game):
    """White Die: five dice, five challenges, first to 21; see docs/rules/whitedie.md.

    >>> from dicehall import load_game
    >>> game = load_game("whitedie", players=3)
    >>> game.num_players, game.new_initial_state().chance_dice()
    (3, 5)
    """

    name = "whitedie"
    title = "White Die"
    min_players = 2
    max_players = 6
    option_specs = OPTIONS
    # records written before the option existed were played without the free choices
    record_defaults: ClassVar[Mapping[str, OptionValue]] = {"free_choices": False}

    @property
    def target(self) -> int:
        """Points that end the game."""
        return int(self.options["target"])

    @property
    def poker_chart(self) -> str:
        """The name of the poker chart in use."""
        return str(self.options["poker_chart"])

    @property
    def free_choices(self) -> bool:
        """Whether the player arranges Pips and decides the claim himself."""
        return bool(self.options["free_choices"])

    def utility_bounds(self) -> tuple[float, float]:
        """The winner gets 1 and the others share -1."""
        return (-1.0 / (self.num_players - 1), 1.0)

    def new_initial_state(self) -> WhiteDieState:
        n = self.num_players
        return WhiteDieState(self, (0,) * n, START, contenders=tuple(range(n)))

    def setup(
        self,
        scores: Sequence[int],
        turn: int,
        *,
        white: int | None = None,
        dice: Sequence[int] = (),
        rerolls_left: int = 2,
        opponent: int | None = None,
        opponent_dice: Sequence[int] = (),
    ) -> WhiteDieState:
        """A position for analysis and tests: ``turn`` about to roll (no ``white``),
        or in the challenge of ``white`` with his four ``dice``.

        For tic-tac-toe and matching give ``opponent`` (with 3+ players; without it
        the player is to choose) and ``opponent_dice`` to start placing or rerolling
        (without them the opponent is to roll).

        >>> from dicehall import load_game
        >>> s = load_game("whitedie").setup([3, 5], 0, white=6, dice=[2, 4, 4, 1])
        >>> s.legal_texts()[:3]
        ['stand', 'reroll 1', 'reroll 2']
        """
        scores = tuple(int(s) for s in scores)
        n = self.num_players
        if len(scores) != n or not 0 <= turn < n or any(s < 0 for s in scores):
            raise ValueError(f"give {n} non-negative scores and a seat 0..{n - 1}")
        if max(scores) >= self.target:
            raise ValueError("a score at the target: the game would be over")
        base = WhiteDieState(self, scores, ROLL, turn=turn)
        if white is None:
            return base
        d = tuple(sorted(dice))
        if len(d) != 4 or any(not 1 <= v <= 6 for v in d):
            raise ValueError("give the four coloured dice, faces 1..6")
        if white in (2, 5, 6):
            if not 1 <= rerolls_left <= 2:
                raise ValueError("rerolls_left must be 1 or 2")
            return _replace(base, phase=REROLL, white=white, dice=d, rerolls_left=rerolls_left)
        if white not in (3, 4):
            raise ValueError("white must be 2..6")
        if opponent is None and n == 2:
            opponent = 1 - turn
        if opponent is None:
            return _replace(base, phase=CHOOSE, white=white, dice=d)
        if opponent == turn or not 0 <= opponent < n:
            raise ValueError("give the opponent's seat (not the player's)")
        state = _replace(base, white=white, dice=d, opponent=opponent)
        if not opponent_dice:
            return _replace(state, phase=OPPONENT_ROLL)
        return state._after_opponent_roll(tuple(sorted(opponent_dice)))


@dataclass(frozen=True, eq=False)
class WhiteDieState(State):
    """A White Die position.

    ``turn`` is the player whose turn it is (at the start: unused); ``white``
    the challenge being played; ``dice`` his four coloured dice; ``opponent`` and
    ``opponent_dice`` the chosen opponent in tic-tac-toe and matching; ``grid`` the
    tic-tac-toe board; ``rolling`` > 0 while dice are being rerolled, with ``kept``
    the dice that stay.
    """

    game: WhiteDie
    scores: tuple[int, ...]
    phase: Phase
    turn: int = 0
    white: int = 0
    dice: Dice = ()
    rerolls_left: int = 0
    opponent: int | None = None
    opponent_dice: Dice = ()
    grid: Grid = ()
    side: int = OPPONENT_SIDE  # tic-tac-toe: who places next
    rolling: int = 0
    kept: Dice = ()
    contenders: tuple[int, ...] = ()
    start_rolls: tuple[tuple[int, int], ...] = ()  # (white, coloured sum) so far
    winner: int | None = None
    last: ChallengeResult | None = field(default=None, compare=False)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    # -- whose turn -----------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return bool(self.rolling) or self.phase in _CHANCE_PHASES

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.rolling or self.phase in _CHANCE_PHASES:
            return CHANCE
        if self.phase == TICTACTOE:
            assert self.opponent is not None
            return self.turn if self.side == PLAYER_SIDE else self.opponent
        if self.phase == MATCH_OPPONENT:
            assert self.opponent is not None
            return self.opponent
        return self.turn

    @property
    def challenge(self) -> str | None:
        """The name of the challenge being played, or None between challenges."""
        return CHALLENGES.get(self.white) if self.phase not in (START, ROLL, OVER) else None

    @property
    def roller(self) -> int:
        """At a chance node: the seat whose dice are rolled."""
        if self.phase == START:
            return self.contenders[len(self.start_rolls)]
        if self.phase == OPPONENT_ROLL or (self.rolling and self.phase == MATCH_OPPONENT):
            assert self.opponent is not None
            return self.opponent
        return self.turn

    def leads(self, seat: int) -> bool:
        """True if ``seat`` is in the lead or tied for it."""
        return self.scores[seat] >= max(self.scores)

    # -- chance ---------------------------------------------------------------
    def chance_dice(self) -> int:
        if self.rolling:
            return self.rolling
        return _CHANCE_PHASES.get(self.phase, 0)

    def _chance_kind(self) -> str | int:
        """Which ``_outcome_table`` this chance node's outcomes come from."""
        if self.rolling:
            return self.rolling
        phase = self.phase
        return "start" if phase == START else "turn" if phase == ROLL else 4

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.current_player() != CHANCE:
            raise ValueError("this state is not a chance node: it has no outcomes")
        if self.phase in (START, ROLL):
            return list(_five_dice_outcomes(self.phase == ROLL))
        return [(Roll(d), p) for d, p in multiset_outcomes(self.chance_dice())]

    def _is_outcome(self, roll: Roll) -> bool:
        """True if ``roll`` is one of the chance outcomes here (without listing them)."""
        d = roll.dice
        if list(d) != sorted(d) or any(not 1 <= f <= 6 for f in d):
            return False
        if self.phase in (START, ROLL):
            if roll.white is None or not 1 <= roll.white <= 6:
                return False
            if self.phase == ROLL and roll.white == 1:
                return d == ()
            return len(d) == 4
        return roll.white is None and len(d) == self.chance_dice()

    def outcome_from_dice(self, faces: Sequence[int]) -> Roll:
        """The outcome of rolled ``faces``; at a five-dice roll the first is the white die."""
        kind = self.rolling or _PHASE_KIND.get(self.phase)
        if not kind:
            raise ValueError(f"expected 0 faces 1..6, got {tuple(faces)}: this is no chance node")
        roll = _OUTCOME_FACES[kind].get(tuple(faces))
        if roll is None:
            raise ValueError(f"expected {self.chance_dice()} faces 1..6, got {tuple(faces)}")
        return roll

    # -- decisions ------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        cache = self._cache
        legal = cache.get("legal")
        if legal is None:
            legal = cache["legal"] = self._legal_actions()
        return list(legal)

    def _legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        if not self.rolling:  # the decisions, the commonest first
            if phase == TICTACTOE:
                return [_PLACES[v][sq] for v, sq in _placements_of(self, self.side)]
            if phase == REROLL:
                return _stand_or_reroll(self.dice, None)
            if phase == CHOOSE:
                return _CHOICES[len(self.scores)][self.turn]
            if phase == MATCH_PLAYER:
                return _rerolls(self.dice, 2)
            if phase == MATCH_OPPONENT:
                return _rerolls(self.opponent_dice, 2)
            if phase == MATCH_LAST:
                return _stand_or_reroll(self.dice, 1)
            if phase == ARRANGE:
                return [_ARRANGES[p] for p in pip_scores(self.dice)]
            if phase == CLAIM:
                return (_CLAIM, _DECLINE)
            if phase == OVER:
                return ()
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        raise AssertionError(f"unknown phase {self.phase}")

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` is legal here (a chance outcome at a chance node)."""
        player = self.current_player()
        if player == TERMINAL:
            return False
        if player == CHANCE:
            if _outcome_table(self._chance_kind())[1].get(id(action)) is action:
                return True  # one of the outcomes themselves (outcome_from_dice's)
            return isinstance(action, Roll) and self._is_outcome(action)
        # the common decisions are checked against the same tables legal_actions()
        # is built from, without making and hashing every action
        phase = self.phase
        if type(action) is Reroll and phase in _REROLL_SIZES:
            dice = self.opponent_dice if phase == MATCH_OPPONENT else self.dice
            return action.values in _sub_multisets(dice, _REROLL_SIZES[phase])
        if type(action) is Stand:
            return phase in (REROLL, MATCH_LAST)
        if type(action) is Place:
            if phase != TICTACTOE:
                return False
            placement = (action.value, action.square)
            return placement in _placements_of(self, self.side)
        if "legal_set" not in self._cache:
            self._cache["legal_set"] = frozenset(self.legal_actions())
        return action in self._cache["legal_set"]

    def placements(self, side: int) -> list[tuple[int, int]]:
        """Legal ``(value, square)`` placements of ``side`` (``PLAYER_SIDE`` or
        ``OPPONENT_SIDE``) in tic-tac-toe."""
        dice = self.dice if side == PLAYER_SIDE else self.opponent_dice
        return placements(self.grid, dice, player=side == PLAYER_SIDE)

    # -- transitions ----------------------------------------------------------
    def apply(self, action: Action) -> WhiteDieState:
        phase = self.phase
        if phase == OVER:
            raise GameOverError(str(action))
        # at a chance node: one of the outcomes themselves (outcome_from_dice's), by identity
        chance = self.rolling or _PHASE_KIND.get(phase)
        if chance and _OUTCOME_IDS[chance].get(id(action)) is action:
            return self._after_roll(action)
        # the common decisions, checked against the tables legal_actions() is built from
        kind = type(action)
        if not self.rolling:
            if kind is Place and phase == TICTACTOE:
                if (action.value, action.square) in _placements_of(self, self.side):  # type: ignore[union-attr]
                    return self._after_place(action)  # type: ignore[arg-type]
            elif kind is ChooseOpponent and phase == CHOOSE:
                seat = action.seat  # type: ignore[union-attr]
                if seat != self.turn and 0 <= seat < len(self.scores):
                    return _replace(self, phase=OPPONENT_ROLL, opponent=seat)
            elif kind is Stand and phase == REROLL:
                return self._finish(self.dice)
            elif kind is Reroll and phase in _REROLL_SIZES:
                mine = self.opponent_dice if phase == MATCH_OPPONENT else self.dice
                values = action.values  # type: ignore[union-attr]
                if values in _sub_multisets(mine, _REROLL_SIZES[phase]):
                    rerolls = self.rerolls_left - 1 if phase == REROLL else 0
                    return _replace(
                        self, rolling=len(values), kept=_remove(mine, values), rerolls_left=rerolls
                    )
        player = self.current_player()
        if not self.is_legal(action):
            if player == CHANCE:
                raise self.illegal(str(action), f"{self.chance_dice()} dice must be rolled now")
            raise self.illegal(str(action), "not a legal action here")
        if isinstance(action, Roll):
            return self._after_roll(action)
        if isinstance(action, ChooseOpponent):
            return _replace(self, phase=OPPONENT_ROLL, opponent=action.seat)
        if isinstance(action, Place):
            return self._after_place(action)
        if isinstance(action, Stand):
            if self.phase == MATCH_LAST:
                return self._score(_matching_points(self.dice, self.opponent_dice))
            return self._finish(self.dice)
        if isinstance(action, Arrange):
            return self._score(action.points)
        if isinstance(action, Claim):
            if action.take:
                grid = claim(self.grid, 0)
                return _replace(self, grid=grid)._score(tictactoe_score(grid))
            return self._score(tictactoe_score(self.grid), declined=True)
        assert isinstance(action, Reroll)
        mine = self.opponent_dice if self.phase == MATCH_OPPONENT else self.dice
        kept = _remove(mine, action.values)
        rerolls = self.rerolls_left - 1 if self.phase == REROLL else 0
        return _replace(self, rolling=len(action.values), kept=kept, rerolls_left=rerolls)

    def _after_roll(self, roll: Roll) -> WhiteDieState:
        if self.phase == START:
            assert roll.white is not None
            rolls = (*self.start_rolls, (roll.white, sum(roll.dice)))
            if len(rolls) < len(self.contenders):
                return _replace(self, start_rolls=rolls)
            best = max(rolls)
            tied = tuple(c for c, r in zip(self.contenders, rolls, strict=True) if r == best)
            if len(tied) > 1:
                return _replace(self, contenders=tied, start_rolls=())
            return _replace(self, phase=ROLL, turn=tied[0], contenders=(), start_rolls=())
        if self.phase == ROLL:
            assert roll.white is not None
            if roll.white == 1:
                if self.scores[self.turn] >= max(self.scores):  # he leads or is tied for it
                    return self._next_turn(self.scores, None)
                return self  # behind: he ignores the roll and rolls all five again
            if roll.white in (2, 5, 6):
                return _replace(
                    self, white=roll.white, dice=roll.dice, phase=REROLL, rerolls_left=2
                )
            if len(self.scores) == 2:
                return _replace(
                    self,
                    white=roll.white,
                    dice=roll.dice,
                    phase=OPPONENT_ROLL,
                    opponent=1 - self.turn,
                )
            return _replace(self, white=roll.white, dice=roll.dice, phase=CHOOSE)
        if self.phase == OPPONENT_ROLL:
            return self._after_opponent_roll(roll.dice)
        # a reroll
        new = _merge(self.kept, roll.dice)
        if self.phase == REROLL:
            state = _replace(self, rolling=0, kept=(), dice=new)
            if state.rerolls_left == 0:
                return state._finish(new)
            return state
        if self.phase == MATCH_PLAYER:
            return _replace(self, rolling=0, kept=(), dice=new, phase=MATCH_OPPONENT)
        if self.phase == MATCH_OPPONENT:
            return _replace(self, rolling=0, kept=(), opponent_dice=new, phase=MATCH_LAST)
        assert self.phase == MATCH_LAST
        state = _replace(self, rolling=0, kept=(), dice=new)
        return state._score(_matching_points(new, self.opponent_dice))

    def _after_opponent_roll(self, dice: Dice) -> WhiteDieState:
        if self.white == 4:
            return _replace(self, opponent_dice=dice, phase=MATCH_PLAYER)
        return _handover(
            self,
            EMPTY_GRID,
            self.dice,
            dice,
            PLAYER_SIDE,
            phase=TICTACTOE,
            grid=EMPTY_GRID,
            opponent_dice=dice,
        )

    def _after_place(self, place: Place) -> WhiteDieState:
        cells = list(self.grid)
        sq, value = place.square, place.value
        if self.side == PLAYER_SIDE:
            cells[sq] = value
            grid = tuple(cells)
            dice = _remove(self.dice, (value,))
            theirs = self.opponent_dice
            return _handover(self, grid, dice, theirs, PLAYER_SIDE, grid=grid, dice=dice)
        cells[sq] = -value
        grid = tuple(cells)
        opp = _remove(self.opponent_dice, (value,))
        return _handover(self, grid, self.dice, opp, OPPONENT_SIDE, grid=grid, opponent_dice=opp)

    def _next_side(self) -> WhiteDieState:
        """Hand tic-tac-toe to the other side; a side without a placement passes; when
        neither can place the empty squares are claimed and the player scores."""
        return _handover(self, self.grid, self.dice, self.opponent_dice, self.side)

    def _finish(self, dice: Dice) -> WhiteDieState:
        """Poker, Pips or Sixes is over with ``dice`` (this state's): score them, or in
        Pips with free choices let the player arrange his square where that can matter
        (more than one score reachable and the best not winning at once)."""
        chart = self.game.poker_chart
        if self.white == 5 and self.game.free_choices:
            reachable = pip_scores(dice)
            if len(reachable) > 1 and self.scores[self.turn] + reachable[0] < self.game.target:
                return _replace(self, phase=ARRANGE, rerolls_left=0)
        return self._score(_challenge_points(self.white, dice, chart))

    def _score(self, points: int, *, declined: bool = False) -> WhiteDieState:
        scores = list(self.scores)
        scores[self.turn] += points
        result = ChallengeResult(
            self.turn,
            self.white,
            points,
            self.dice if self.white != 3 else (),
            self.opponent,
            self.opponent_dice if self.white == 4 else (),
            self.grid if self.white == 3 else (),
            declined,
        )
        return self._next_turn(tuple(scores), result)

    def _next_turn(self, scores: tuple[int, ...], result: ChallengeResult | None) -> WhiteDieState:
        if scores[self.turn] >= self.game.target:
            return _fresh(self.game, scores, OVER, self.turn, result, winner=self.turn)
        return _fresh(self.game, scores, ROLL, (self.turn + 1) % len(scores), result)

    def returns(self) -> list[float]:
        n = len(self.scores)
        if self.winner is None:
            return [0.0] * n
        return [1.0 if s == self.winner else -1.0 / (n - 1) for s in range(n)]

    # -- text -----------------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        return str(action)

    def parse_action(self, text: str) -> Action:
        from dicehall.games.whitedie.notation import parse_action

        return parse_action(self, text)

    def render(self, perspective: int | None = None) -> str:
        from dicehall.games.whitedie.render import render_text

        return render_text(self, perspective)

    def __str__(self) -> str:
        return self.render()

    def _key(self) -> tuple[Any, ...]:
        return (
            self.scores, self.phase, self.turn, self.white, self.dice, self.rerolls_left,
            self.opponent, self.opponent_dice, self.grid, self.side, self.rolling, self.kept,
            self.contenders, self.start_rolls, self.winner,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WhiteDieState):
            return NotImplemented
        return self.game == other.game and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"<WhiteDieState {self.phase} turn={self.turn + 1} scores={list(self.scores)}"
            + (f" white={self.white} dice={self.dice}" if self.challenge else "")
            + ">"
        )


_STAND = Stand()
#: ``_OPPONENTS[s]`` is ``ChooseOpponent(s)``, made once
_OPPONENTS: tuple[ChooseOpponent, ...] = tuple(ChooseOpponent(s) for s in range(6))
#: ``_CHOICES[n][turn]``: the opponents the player on turn may choose among ``n`` seats
_CHOICES: dict[int, tuple[tuple[ChooseOpponent, ...], ...]] = {
    n: tuple(tuple(_OPPONENTS[s] for s in range(n) if s != turn) for turn in range(n))
    for n in range(2, 7)
}
_CLAIM = Claim(True)
_DECLINE = Claim(False)
#: ``_ARRANGES[p]`` is ``Arrange(p)``, made once (a square scores 0..8)
_ARRANGES: tuple[Arrange, ...] = tuple(Arrange(p) for p in range(9))
#: the chance phases and how many dice each rolls (a reroll: ``rolling`` dice)
_CHANCE_PHASES: dict[str, int] = {START: 5, ROLL: 5, OPPONENT_ROLL: 4}
#: ``_PLACES[v][sq]`` is ``Place(v, sq)``, made once
_PLACES: tuple[tuple[Place, ...], ...] = tuple(
    tuple(Place(v, sq) for sq in range(9)) for v in range(7)
)
#: the size of the rerolls each phase allows (None: any number of dice)
_REROLL_SIZES: dict[str, int | None] = {
    REROLL: None,
    MATCH_PLAYER: 2,
    MATCH_OPPONENT: 2,
    MATCH_LAST: 1,
}


def _handover(
    state: WhiteDieState,
    grid: Grid,
    dice: Dice,
    opponent_dice: Dice,
    last: int,
    /,
    **changes: Any,
) -> WhiteDieState:
    """``state`` with ``changes`` (which make its ``grid`` and both sides' dice these),
    tic-tac-toe handed to the side after ``last``: a side without a placement passes;
    when neither can place the empty squares are claimed and the player scores."""
    if last == PLAYER_SIDE:  # the other side first, then the same side again
        order = ((OPPONENT_SIDE, opponent_dice, False), (PLAYER_SIDE, dice, True))
    else:
        order = ((PLAYER_SIDE, dice, True), (OPPONENT_SIDE, opponent_dice, False))
    for side, held, player in order:
        if held and placement_tuple(grid, _distinct(held), player):
            changes["side"] = side
            return _replace(state, **changes)
    claimed = claim(grid, len(dice))
    points = tictactoe_score(claimed)
    if (
        not dice
        and state.game.free_choices
        and points != tictactoe_score(grid)
        and state.scores[state.turn] + points < state.game.target
    ):  # the player may claim or leave the squares empty, and it can matter
        return _replace(state, **{**changes, "grid": grid, "side": last, "phase": CLAIM})
    final = _replace(state, **{**changes, "grid": claimed, "side": last})
    return final._score(points)


def _placements_of(state: WhiteDieState, side: int) -> tuple[tuple[int, int], ...]:
    dice = state.dice if side == PLAYER_SIDE else state.opponent_dice
    return placement_tuple(state.grid, _distinct(dice), side == PLAYER_SIDE)


@cache
def _merge(kept: Dice, rolled: Dice) -> Dice:
    """The sorted hand of the dice kept and the dice rolled (a few hundred pairs)."""
    return tuple(sorted(kept + rolled))


@cache
def _remove(dice: Dice, values: Dice) -> Dice:
    """``remove`` of values that are all there (legal rerolls and placements), cached
    per (hand, values): a few thousand pairs."""
    rest = remove(dice, values)
    assert rest is not None, (dice, values)
    return rest


@cache
def _distinct(dice: Dice) -> Dice:
    """The distinct values of a sorted hand, sorted (at most 209 hands)."""
    return tuple(sorted(set(dice)))


@cache
def _challenge_points(white: int, dice: Dice, chart: str) -> int:
    """``challenge_score`` of a sorted hand, once per (white, hand, chart)."""
    return challenge_score(white, dice, chart)


@cache
def _hand_index() -> dict[Dice, int]:
    """The position of each sorted hand in ``HANDS`` (and in the matching table)."""
    return {hand: i for i, hand in enumerate(HANDS)}


def _matching_points(mine: Dice, theirs: Dice) -> int:
    """``matching_score`` of two sorted hands, read from the table of every pair
    (``matching_table.POINTS``, which a test checks against the search)."""
    index = _hand_index()
    return int(MATCHING_POINTS[126 * index[mine] + index[theirs]])


#: the chance outcomes by identity, per kind of chance node (see ``_outcome_table``)
_OUTCOME_IDS: dict[str | int, dict[int, Roll]] = {
    kind: _outcome_table(kind)[1] for kind in ("start", "turn", 1, 2, 3, 4)
}
#: the faces -> outcome tables, per kind of chance node
_OUTCOME_FACES: dict[str | int, dict[tuple[int, ...], Roll]] = {
    kind: _outcome_table(kind)[0] for kind in ("start", "turn", 1, 2, 3, 4)
}
#: the kind of chance node of each chance phase (while nobody is rerolling)
_PHASE_KIND: dict[str, str | int] = {START: "start", ROLL: "turn", OPPONENT_ROLL: 4}
#: the values of a state's fields that ``__init__`` would give by default
_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in fields(WhiteDieState) if f.default is not MISSING
}


def _fresh(
    game: WhiteDie,
    scores: tuple[int, ...],
    phase: Phase,
    turn: int,
    last: ChallengeResult | None,
    winner: int | None = None,
) -> WhiteDieState:
    """``WhiteDieState(game, scores, phase, turn=turn, last=last, winner=winner)``
    without the dataclass ``__init__`` (a new turn starts on every challenge)."""
    new = _NEW(WhiteDieState)
    values = _DEFAULTS.copy()
    values.update(game=game, scores=scores, phase=phase, turn=turn, last=last, winner=winner)
    values["_cache"] = {}
    _SET(new, "__dict__", values)
    return new


_FIELDS = frozenset(f.name for f in fields(WhiteDieState))
assert not hasattr(WhiteDieState, "__post_init__"), "_replace would skip it"


def _replace(state: WhiteDieState, **changes: Any) -> WhiteDieState:
    """What ``dataclasses.replace`` does (a copy with ``changes``, a fresh ``_cache``),
    without its per-call introspection and ``__init__``: this is the hot path of play.
    """
    values = state.__dict__.copy()  # every caller passes field names (a test reads them)
    values.update(changes)
    values["_cache"] = {}
    new = _NEW(WhiteDieState)
    _SET(new, "__dict__", values)
    return new


_NEW = object.__new__
_SET = object.__setattr__


# The board module's names are re-exported (most callers import them from here).
__all__ = [
    "ARRANGE",
    "CHOOSE",
    "CLAIM",
    "MATCH_LAST",
    "MATCH_OPPONENT",
    "MATCH_PLAYER",
    "OPPONENT_ROLL",
    "OPPONENT_SIDE",
    "OPTIONS",
    "OVER",
    "PLAYER_SIDE",
    "REROLL",
    "ROLL",
    "START",
    "TICTACTOE",
    "Action",
    "Arrange",
    "ChallengeResult",
    "ChooseOpponent",
    "Claim",
    "Phase",
    "Place",
    "Reroll",
    "Roll",
    "Stand",
    "WhiteDie",
    "WhiteDieState",
    "multiset_outcomes",
    "remove",
    "sub_multisets",
]
