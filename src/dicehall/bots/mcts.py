"""Monte Carlo tree search with explicit chance nodes, for any game of the protocol.

Every node keeps the sum of the returns of all seats over its simulations, so the
same search serves two players and six: at a decision node the seat to act picks
the child with the best upper confidence bound (UCT) on *its own* mean return.
Returns are normalised by the smallest and largest return seen so far, so the
exploration constant means the same for +1/-1 games and for coin payoffs.

Chance nodes are either *sampled* (an outcome drawn with its exact probability,
rolling physical dice where the game has them) or *expanded* (every outcome is a
child, visited in proportion to its probability: the least-visited relative to
its share goes next, which removes the sampling noise of the dice). Leaves are
valued by a random playout (seeded), optionally cut after ``rollout_limit``
decisions and finished by an evaluation.

The budget is ``iterations`` (reproducible: the same seed and state give the same
action) or ``time_limit`` seconds (not reproducible). The action played is the
most visited one.

>>> from dicehall import load_game
>>> bot = MCTSBot(iterations=50, seed=1)
>>> s = load_game("backgammon").new_initial_state().apply_text("3-1")
>>> bot.act(s) == MCTSBot(iterations=50, seed=1).act(s)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from dicehall.core.game import CHANCE, TERMINAL, Action, State

#: Values of a non-terminal state for every seat, on the same scale as ``returns()``.
Evaluation = Callable[[State], Sequence[float]]
#: Picks the next action of a playout: (state, rng) -> action.
RolloutPolicy = Callable[[State, random.Random], Action]


def random_rollout_policy(state: State, rng: random.Random) -> Action:
    """The default playout policy: a uniformly random legal action."""
    actions: Sequence[Action] = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def sample_outcome(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn with its exact probability (by rolling dice when it is dice)."""
    dice = state.chance_dice()
    if dice:
        rolled: Action = state.outcome_from_dice([rng.randint(1, 6) for _ in range(dice)])
        return rolled
    outcomes: list[tuple[Action, Fraction]] = state.chance_outcomes()
    draw = rng.random()
    for action, p in outcomes:
        draw -= float(p)
        if draw < 0:
            return action
    return outcomes[-1][0]


@dataclass(eq=False)
class Node:
    """One state of the search tree with its statistics."""

    state: State
    player: int
    visits: int = 0
    totals: list[float] = field(default_factory=list)
    children: dict[Action, Node] = field(default_factory=dict)
    untried: list[Action] = field(default_factory=list)
    # expanded chance nodes: every outcome with its probability
    outcomes: list[tuple[Action, float]] = field(default_factory=list)

    def mean(self, seat: int) -> float:
        """Mean return of ``seat`` over the simulations through this node."""
        return self.totals[seat] / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class ActionStats:
    """A root action with its visit count and mean return for the seat to act."""

    action: Action
    text: str
    visits: int
    value: float


class MCTSBot:
    """UCT search with chance nodes, for every registered game and any number of seats.

    ``iterations`` simulations per decision, or as many as fit in ``time_limit``
    seconds when that is given; ``exploration`` is the UCT constant on returns
    normalised to [0, 1]; ``chance`` is ``"sample"`` or ``"expand"``;
    ``rollout_limit`` cuts playouts after that many decisions and scores the
    state with ``evaluate`` (default: a playout runs to the end of the game).
    """

    def __init__(
        self,
        iterations: int = 1000,
        *,
        time_limit: float | None = None,
        exploration: float = 1.4,
        chance: str = "sample",
        rollout_policy: RolloutPolicy | None = None,
        rollout_limit: int | None = None,
        evaluate: Evaluation | None = None,
        max_expanded_outcomes: int = 64,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        if chance not in ("sample", "expand"):
            raise ValueError("chance must be 'sample' or 'expand'")
        if rollout_limit is not None and evaluate is None:
            raise ValueError("rollout_limit needs an evaluate function for cut playouts")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.chance = chance
        self.rollout_policy = rollout_policy or random_rollout_policy
        self.rollout_limit = rollout_limit
        self.evaluate = evaluate
        self.max_expanded_outcomes = max_expanded_outcomes
        self.seed = seed
        self.name = name or f"mcts:{iterations}"
        self._rng = random.Random(seed)
        self._low = math.inf
        self._high = -math.inf

    # -- public ------------------------------------------------------------
    def act(self, state: State) -> Action:
        """The most visited root action after the search."""
        actions: list[Action] = list(state.legal_actions())
        if not actions:
            raise ValueError("no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        return self.search(state)[0].action

    def search(self, state: State) -> list[ActionStats]:
        """Run the search from ``state`` and list the root actions, most visited first."""
        player = state.current_player()
        if player in (CHANCE, TERMINAL):
            raise ValueError("search needs a state where a player decides")
        root = self._node(state)
        self._low, self._high = math.inf, -math.inf
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        n = 0
        while True:
            self._simulate(root)
            n += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif n >= self.iterations:
                break
        stats = [
            ActionStats(a, state.action_to_text(a), c.visits, c.mean(player))
            for a, c in root.children.items()
        ]
        order = {a: i for i, a in enumerate(state.legal_actions())}
        stats.sort(key=lambda s: (-s.visits, -s.value, order.get(s.action, 0)))
        return stats

    def __repr__(self) -> str:
        return f"MCTSBot(iterations={self.iterations}, seed={self.seed})"

    # -- the four steps ----------------------------------------------------
    def _node(self, state: State) -> Node:
        player = state.current_player()
        node = Node(state, player, totals=[0.0] * state.game.num_players)
        if player == CHANCE:
            if self.chance == "expand" and not state.chance_dice() > 4:
                outcomes = state.chance_outcomes()
                if len(outcomes) <= self.max_expanded_outcomes:
                    node.outcomes = [(a, float(Fraction(p))) for a, p in outcomes]
        elif player != TERMINAL:
            node.untried = list(state.legal_actions())
            self._rng.shuffle(node.untried)
        return node

    def _simulate(self, root: Node) -> None:
        path = [root]
        node = root
        # selection and expansion
        while node.player != TERMINAL:
            if node.player == CHANCE:
                action = self._chance_action(node)
            elif node.untried:
                action = node.untried.pop()
            else:
                action = self._uct(node)
            child = node.children.get(action)
            if child is None:
                child = self._node(node.state.apply(action))
                node.children[action] = child
                path.append(child)
                node = child
                break
            path.append(child)
            node = child
        returns = self._rollout(node.state)
        for r in returns:
            self._low = min(self._low, r)
            self._high = max(self._high, r)
        for visited in path:
            visited.visits += 1
            for seat, r in enumerate(returns):
                visited.totals[seat] += r

    def _chance_action(self, node: Node) -> Action:
        if not node.outcomes:
            return sample_outcome(node.state, self._rng)
        # expanded: the outcome furthest behind its share of the visits
        total = node.visits + 1
        best, best_gap = node.outcomes[0][0], -math.inf
        for action, p in node.outcomes:
            child = node.children.get(action)
            gap = p * total - (child.visits if child else 0)
            if gap > best_gap:
                best, best_gap = action, gap
        return best

    def _uct(self, node: Node) -> Action:
        seat = node.player
        span = self._high - self._low
        scale = span if span > 0 else 1.0
        log_n = math.log(node.visits)
        best, best_score = None, -math.inf
        for action, child in node.children.items():
            exploit = (child.mean(seat) - self._low) / scale if span > 0 else 0.5
            score = exploit + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _rollout(self, state: State) -> list[float]:
        decisions = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return [float(r) for r in state.returns()]
            if player == CHANCE:
                state = state.apply(sample_outcome(state, self._rng))
                continue
            if self.rollout_limit is not None and decisions >= self.rollout_limit:
                assert self.evaluate is not None
                return [float(v) for v in self.evaluate(state)]
            state = state.apply(self.rollout_policy(state, self._rng))
            decisions += 1
