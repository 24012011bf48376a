"""Gymnasium single-agent environments: one seat of a dicehall game, the other seats
played by dicehall agents (``random``, ``bot:expert``, ``mcts:200`` ... any spec that
``dicehall.bots.registry.make_agent`` accepts).

The observation is the game's tensor for the learner's seat (a ``Box``), the action
a decision id (``Discrete``); ``info["action_mask"]`` marks the legal ids. Dice and
the other seats' moves happen inside ``step`` until the learner is to act again or
the game is over; the reward is the learner's ``returns()`` at the end, 0 before.

An illegal id ends the episode at once with ``illegal_reward`` (default -1) and
``info["illegal_action"] = True``, so that algorithms that ignore the mask still
get a well-defined environment. Everything random (dice, the other seats' seeds)
comes from the generator seeded by ``reset(seed=...)``.

>>> env = DicehallGymEnv("whitedie", opponents="random")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((210,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from dicehall.bots.registry import make_agent
from dicehall.core.game import Game, State
from dicehall.core.match import Agent
from dicehall.envs._common import OBSERVATION_HIGH, game_encoding, resolve_game, roll


class DicehallGymEnv(gym.Env):
    """Seat ``seat`` of a dicehall game against ``opponents``.

    ``opponents`` is one agent spec for every other seat, or a list with one spec
    per other seat in seat order. Raises ``AgentSpecError`` for an unknown spec and
    ``ValueError`` for a bad seat, ``human`` or a wrong number of specs.
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        game: str | Game = "backgammon",
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = resolve_game(game, options)
        self.encoding = game_encoding(self.game)
        n = self.game.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1} for {self.game.name}, not {seat!r}")
        self.seat = seat
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"give one opponent spec, or {n - 1} (one per other seat)")
        self.specs = specs
        for spec in specs:  # fail now, not at the first reset
            if make_agent(self.game.name, spec, seed=0) is None:
                raise ValueError("'human' cannot be an opponent inside an environment")
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        enc = self.encoding
        self.observation_space = spaces.Box(
            0.0, OBSERVATION_HIGH, enc.observation_shape, dtype=np.float32
        )
        self.action_space = spaces.Discrete(enc.num_actions)
        self.state: State = self.game.new_initial_state()
        self.agents: dict[int, Agent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.agents = {}
        for s, spec in zip(others, self.specs, strict=True):
            agent = make_agent(self.game.name, spec, seed=int(self.np_random.integers(2**31)))
            assert agent is not None
            self.agents[s] = agent
        self.state = self._advance(self.game.new_initial_state())
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        if self.state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        mask = self.encoding.legal_mask(self.state)
        if (
            not (isinstance(action, (int, np.integer)) and 0 <= action < len(mask))
            or not mask[action]
        ):
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        chosen = self.encoding.id_to_action(self.state, int(action))
        self.state = self._advance(self.state.apply(chosen))
        reward = float(self.state.returns()[self.seat]) if self.state.is_terminal() else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self.state.is_terminal(), False, self._info()

    def _advance(self, state: State) -> State:
        """Roll dice and let the other seats act until the learner is to act or the end."""
        while True:
            state = roll(state, self.np_random)
            player = state.current_player()
            if state.is_terminal() or player == self.seat:
                return state
            state = state.apply(self.agents[player].act(state))

    def _observe(self) -> np.ndarray[Any, Any]:
        return self.encoding.observation(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.encoding.legal_mask(self.state)}

    def render(self) -> str | None:
        """The board as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text
