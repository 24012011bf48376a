"""Depth-limited expectimax for any game of the protocol.

Decision nodes take the best child for the seat to act; chance nodes take the
exact probability-weighted mean of their outcomes. Everything the algorithm
knows about a game comes from the protocol plus two pluggable pieces: an
*evaluation* of non-terminal leaves and an optional *move ordering*.

Two-player zero-sum games (every dicehall game) are searched as
expectiminimax from seat 0's point of view with alpha-beta pruning at decision
nodes and, when the returns are bounded (``bounds=(lo, hi)``), Ballard's Star1
pruning at chance nodes: a chance node stops as soon as the outcomes searched so
far prove its value is outside the window whatever the rest turn out to be.
Both prunings are sound: the value of the root and the chosen action are the same
as without them. Games with more seats are searched as max^n (each seat
maximises its own component of the value vector), without pruning.

Depth counts decisions only; chance nodes do not use it up. A chance outcome
that leads back to the same state (backgammon's tied opening roll) is removed
and the others renormalised, which is exact. Chance nodes with very many outcomes
(``max_outcomes``) are replaced by a seeded sample of them.

>>> from dicehall import load_game
>>> bot = ExpectimaxBot(depth=1, seed=3)
>>> s = load_game("backgammon").new_initial_state().apply_text("3-1")
>>> s.action_to_text(bot.act(s)) in s.legal_texts()
True
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from dicehall.core.game import CHANCE, TERMINAL, Action, State

#: Values of a non-terminal state for every seat, on the same scale as ``returns()``.
Evaluation = Callable[[State], Sequence[float]]
#: Reorders the legal actions of a decision node, most promising first.
MoveOrdering = Callable[[State, Sequence[Action]], Sequence[Action]]

#: Chance nodes whose physical dice have more faces combinations than this are sampled
#: by rolling rather than enumerated.
_ENUMERATE_DICE_UP_TO = 6**5
#: After this many chance nodes in a row without a decision, a leaf is evaluated.
_MAX_CHANCE_RUN = 12


def neutral_evaluation(state: State) -> list[float]:
    """The evaluation that knows nothing: every seat gets 0 (the search sees only the rules)."""
    return [0.0] * state.game.num_players


class _OutOfTime(Exception):
    """Raised inside the search when the time limit is reached."""


@dataclass(frozen=True)
class ScoredAction:
    """One root action with the search value for the seat to act."""

    action: Action
    text: str
    value: float

    def __repr__(self) -> str:
        return f"ScoredAction({self.text!r}, {self.value:+.4f})"


class ExpectimaxBot:
    """An expectimax (expectiminimax for two players) agent for any registered game.

    ``depth`` is the number of decisions searched ahead; ``evaluate`` scores the leaves;
    ``bounds`` are the lowest and highest possible value (returns and evaluations) and enable
    Star1 pruning at chance nodes (``"game"``: the game's declared ``utility_bounds()``, sound
    when the evaluation stays inside them too); ``order`` sorts actions (default: the
    transposition cache's best action first, then by the shallow evaluation of the action's
    result); ``time_limit`` turns the search into iterative deepening that stops after that many
    seconds with the deepest completed answer (not reproducible; fixed depth is). ``node_limit``
    does the same with a budget of work per decision (states generated, whether searched or only
    evaluated for move ordering), which bounds the time and stays reproducible. With
    ``chance_at_horizon`` the dice that follow the last decision searched are still averaged
    over (so a decision to roll is valued by its outcomes); without it the evaluation sees the
    state before the dice, as backgammon evaluators expect. ``beam`` limits the decisions below
    the root to that many best actions by the ordering (forward pruning: faster, but no longer
    exact; off by default). ``contempt`` makes a drawn end worth that much less to the seat
    searching (so it plays on against a weaker opponent instead of settling for a draw).
    ``seed`` fixes the sampling of huge chance nodes and nothing else.
    """

    def __init__(
        self,
        depth: int = 2,
        *,
        evaluate: Evaluation | None = None,
        bounds: tuple[float, float] | Literal["game"] | None = None,
        order: MoveOrdering | None = None,
        zero_sum: bool | None = None,
        time_limit: float | None = None,
        chance_at_horizon: bool = True,
        beam: int | None = None,
        node_limit: int | None = None,
        contempt: float = 0.0,
        max_outcomes: int = 64,
        cache_size: int = 200_000,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        if depth < 1:
            raise ValueError("expectimax depth must be at least 1")
        self.depth = depth
        self.evaluate: Evaluation = evaluate or neutral_evaluation
        # "game": the utility bounds the game declares (Game.utility_bounds), read per search
        self._bounds_from_game = bounds == "game"
        self.bounds: tuple[float, float] | None = None if bounds == "game" else bounds
        self.order = order
        self.zero_sum = zero_sum
        self.time_limit = time_limit
        self.chance_at_horizon = chance_at_horizon
        self.beam = beam
        self.node_limit = node_limit
        self.contempt = contempt
        self._root: int | None = None
        self._node_budget: int | None = None
        self.max_outcomes = max_outcomes
        self.cache_size = cache_size
        self.seed = seed
        self.name = name or f"expectimax:{depth}"
        self._rng = random.Random(seed)
        # (state, depth) -> (lower, upper, best action) in scalar mode; (vector, best) in max^n
        self._cache: dict[tuple[State, int], Any] = {}
        self._deadline: float | None = None
        self.nodes = 0

    # -- public ------------------------------------------------------------
    def act(self, state: State) -> Action:
        """The best action for the seat to act in ``state``."""
        actions: list[Action] = list(state.legal_actions())
        if not actions:
            raise ValueError("no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        return self._best(state, actions)

    def analyse(self, state: State, depth: int | None = None) -> list[ScoredAction]:
        """Every legal action with its exact search value for the seat to act, best first.

        Unlike ``act`` this searches every root action with a full window, so the
        values of the second-best actions are exact too (useful for hints).
        """
        player = state.current_player()
        if player in (CHANCE, TERMINAL):
            raise ValueError("analyse needs a state where a player decides")
        d = depth or self.depth
        self._begin(None, None, player, state)
        scored: list[ScoredAction] = []
        for action in self._ordered(state, list(state.legal_actions()), d):
            child = state.apply(action)
            if self._scalar(state):
                v = self._scalar_value(child, d - 1, -math.inf, math.inf, 0)
                value = v if player == 0 else -v
            else:
                value = self._vector_value(child, d - 1, 0)[player]
            scored.append(ScoredAction(action, state.action_to_text(action), value))
        scored.sort(key=lambda s: -s.value)
        return scored

    def value(self, state: State, depth: int | None = None) -> list[float]:
        """The search value of ``state`` for every seat (seat 0 and its negation for two)."""
        self._begin(None, state=state)
        d = depth or self.depth
        if self._scalar(state):
            v = self._scalar_value(state, d, -math.inf, math.inf, 0)
            return [v, -v]
        return list(self._vector_value(state, d, 0))

    def __repr__(self) -> str:
        return f"ExpectimaxBot(depth={self.depth}, seed={self.seed})"

    # -- root --------------------------------------------------------------
    def _begin(
        self,
        time_limit: float | None,
        node_limit: int | None = None,
        root: int | None = None,
        state: State | None = None,
    ) -> None:
        if self._bounds_from_game and state is not None:
            self.bounds = state.game.utility_bounds()
        if root != self._root:
            self._cache.clear()  # values depend on the searching seat (contempt)
            self._root = root
        self._deadline = None if time_limit is None else time.perf_counter() + time_limit
        self._node_budget = None if node_limit is None else self.nodes + node_limit
        if len(self._cache) > self.cache_size:
            self._cache.clear()

    def _best(self, state: State, actions: list[Action]) -> Action:
        self._begin(self.time_limit, self.node_limit, state.current_player(), state)
        if self.time_limit is None and self.node_limit is None:
            return self._best_at(state, actions, self.depth)
        best = actions[0]
        for d in range(1, self.depth + 1):
            try:
                best = self._best_at(state, actions, d)
            except _OutOfTime:
                break
        self._deadline = self._node_budget = None
        return best

    def _best_at(self, state: State, actions: list[Action], depth: int) -> Action:
        player = state.current_player()
        ordered = self._ordered(state, actions, depth)
        best, best_value = ordered[0], -math.inf
        if self._scalar(state):
            sign = 1.0 if player == 0 else -1.0
            for action in ordered:
                child = state.apply(action)
                # search each child with the window (best so far, +inf) for the mover
                if sign > 0:
                    v = self._scalar_value(child, depth - 1, best_value, math.inf, 0)
                else:
                    v = -self._scalar_value(child, depth - 1, -math.inf, -best_value, 0)
                if v > best_value:
                    best, best_value = action, v
        else:
            for action in ordered:
                v = self._vector_value(state.apply(action), depth - 1, 0)[player]
                if v > best_value:
                    best, best_value = action, v
        return best

    # -- helpers -----------------------------------------------------------
    def _scalar(self, state: State) -> bool:
        two = state.game.num_players == 2
        return two if self.zero_sum is None else (self.zero_sum and two)

    def _tick(self) -> None:
        self.nodes += 1
        deadline = self._deadline
        if deadline is not None and self.nodes % 256 == 0 and time.perf_counter() > deadline:
            raise _OutOfTime
        budget = self._node_budget
        if budget is not None and self.nodes > budget:
            raise _OutOfTime

    def _is_leaf(self, player: int, depth: int, chance_run: int) -> bool:
        if player == TERMINAL or chance_run > _MAX_CHANCE_RUN:
            return True
        if depth > 0:
            return False
        return player != CHANCE or not self.chance_at_horizon

    def _leaf(self, state: State) -> list[float]:
        if state.is_terminal():
            returns = [float(r) for r in state.returns()]
            if self.contempt and self._root is not None and len(set(returns)) == 1:
                # a draw counts as a small loss for the searching seat (it plays on)
                n = len(returns)
                return [
                    r - self.contempt if s == self._root else r + self.contempt / (n - 1)
                    for s, r in enumerate(returns)
                ]
            return returns
        values = [float(v) for v in self.evaluate(state)]
        if self.bounds is not None:
            lo, hi = self.bounds
            values = [min(hi, max(lo, v)) for v in values]
        return values

    def _outcomes(self, state: State) -> list[tuple[State, float]]:
        """The states after each outcome with their probabilities (self-loops removed)."""
        dice = state.chance_dice()
        if dice and 6**dice > _ENUMERATE_DICE_UP_TO:
            rolls = Counter(
                state.outcome_from_dice([self._rng.randint(1, 6) for _ in range(dice)])
                for _ in range(self.max_outcomes)
            )
            pairs = [(a, n / self.max_outcomes) for a, n in rolls.items()]
        else:
            pairs = [(a, float(p)) for a, p in state.chance_outcomes()]
            if len(pairs) > self.max_outcomes:
                weights = [p for _, p in pairs]
                drawn = Counter(self._rng.choices(range(len(pairs)), weights, k=self.max_outcomes))
                pairs = [(pairs[i][0], n / self.max_outcomes) for i, n in sorted(drawn.items())]
        loop = 0.0
        kept: list[tuple[State, float]] = []
        for action, p in pairs:
            if p <= 0.0:
                continue
            self._tick()
            child = state.apply(action)
            # the tied opening roll of backgammon: the same chance node again
            if child == state:
                loop += p
            else:
                kept.append((child, p))
        if loop and kept:
            kept = [(c, p / (1.0 - loop)) for c, p in kept]
        return kept

    def _inner(self, state: State, depth: int) -> list[Action]:
        """The actions searched at a decision node below the root (``beam`` best only)."""
        actions: list[Action] = list(state.legal_actions())
        beam = self.beam
        if beam is not None and len(actions) > beam:
            return self._ordered(state, actions, max(depth, 2))[:beam]
        return self._ordered(state, actions, depth)

    def _ordered(self, state: State, actions: list[Action], depth: int) -> list[Action]:
        if self.order is not None:
            ordered = list(self.order(state, actions))
        elif depth >= 2 and len(actions) > 1:
            player = state.current_player()
            scalar = self._scalar(state)

            def key(action: Action) -> float:
                self._tick()  # ordering costs a state and an evaluation per action
                v = self._leaf(state.apply(action))
                if scalar:
                    return -(v[0] if player == 0 else -v[0])
                return -v[player]

            ordered = sorted(actions, key=key)
        else:
            ordered = list(actions)
        entry = self._cache.get((state, depth))
        if entry is not None:
            best = entry[-1]
            if best is not None and best in ordered:
                ordered.remove(best)
                ordered.insert(0, best)
        return ordered

    # -- two players, zero-sum: expectiminimax with alpha-beta and Star1 ----
    def _scalar_value(
        self, state: State, depth: int, alpha: float, beta: float, chance_run: int
    ) -> float:
        """Seat 0's value of ``state``, fail-soft: exact if strictly inside (alpha, beta),
        otherwise a bound on the same side of the window."""
        self._tick()
        player = state.current_player()
        if self._is_leaf(player, depth, chance_run):
            return self._leaf(state)[0]
        key = (state, depth)
        entry = self._cache.get(key)
        best_action: Action | None = None
        if entry is not None:
            lower, upper, best_action = entry
            if lower >= beta:
                return float(lower)
            if upper <= alpha:
                return float(upper)
            if lower == upper:
                return float(lower)
            alpha, beta = max(alpha, lower), min(beta, upper)
        if player == CHANCE:
            value = self._chance_value(state, depth, alpha, beta, chance_run)
        else:
            value, best_action = self._decision_value(state, depth, alpha, beta)
        lower, upper = (-math.inf, math.inf) if entry is None else entry[:2]
        if value <= alpha:
            upper = min(upper, value)
        elif value >= beta:
            lower = max(lower, value)
        else:
            lower = upper = value
        self._cache[key] = (lower, upper, best_action)
        return value

    def _decision_value(
        self, state: State, depth: int, alpha: float, beta: float
    ) -> tuple[float, Action | None]:
        maximise = state.current_player() == 0
        best_action: Action | None = None
        best = -math.inf if maximise else math.inf
        for action in self._inner(state, depth):
            v = self._scalar_value(state.apply(action), depth - 1, alpha, beta, 0)
            if maximise:
                if v > best:
                    best, best_action = v, action
                alpha = max(alpha, v)
            else:
                if v < best:
                    best, best_action = v, action
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best, best_action

    def _chance_value(
        self, state: State, depth: int, alpha: float, beta: float, chance_run: int
    ) -> float:
        outcomes = self._outcomes(state)
        if not outcomes:
            return self._leaf(state)[0]
        run = chance_run + 1
        if self.bounds is None:
            return sum(
                p * self._scalar_value(child, depth, -math.inf, math.inf, run)
                for child, p in outcomes
            )
        lo, hi = self.bounds
        done = 0.0  # probability of the outcomes searched so far
        total = 0.0  # their weighted values (exact)
        for child, p in outcomes:
            rest = max(0.0, 1.0 - done - p)
            # the child's window: outside it, the node is outside (alpha, beta) whatever
            # the remaining outcomes are worth (Star1)
            child_alpha = (alpha - total - hi * rest) / p
            child_beta = (beta - total - lo * rest) / p
            v = self._scalar_value(child, depth, max(lo, child_alpha), min(hi, child_beta), run)
            if v <= child_alpha:
                return total + p * v + hi * rest  # an upper bound <= alpha
            if v >= child_beta:
                return total + p * v + lo * rest  # a lower bound >= beta
            total += p * v
            done += p
        return total

    # -- more seats: max^n ----------------------------------------------------
    def _vector_value(self, state: State, depth: int, chance_run: int) -> list[float]:
        self._tick()
        player = state.current_player()
        if self._is_leaf(player, depth, chance_run):
            return self._leaf(state)
        key = (state, depth)
        entry = self._cache.get(key)
        if entry is not None and entry[0] is not None:
            return list(entry[0])
        best_action: Action | None = None
        if player == CHANCE:
            outcomes = self._outcomes(state)
            if not outcomes:
                return self._leaf(state)
            value = [0.0] * state.game.num_players
            for child, p in outcomes:
                vector = self._vector_value(child, depth, chance_run + 1)
                value = [v + p * c for v, c in zip(value, vector, strict=True)]
        else:
            value = []
            for action in self._inner(state, depth):
                result = self._vector_value(state.apply(action), depth - 1, 0)
                if not value or result[player] > value[player]:
                    value, best_action = result, action
        self._cache[key] = (tuple(value), best_action)
        return value
