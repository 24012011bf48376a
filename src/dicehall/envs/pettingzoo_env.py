"""PettingZoo AEC environments for the dicehall games (White Die with 2..6 agents).

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Each observation is a dict
``{"observation": float32 tensor, "action_mask": int8 mask}`` from the game's
encoding (``dicehall.games.<game>.encoding``); actions are its decision ids. Chance
(dice) is resolved inside the environment by a numpy generator seeded in
``reset(seed=...)``, each outcome with its exact probability, so agents only ever see
decision nodes. Rewards come once, at the end: each seat's ``returns()``.

An action whose id is not legal raises ``IllegalActionError`` (the mask says which
are); wrap the environment in PettingZoo's ``TerminateIllegalWrapper`` to make it a
loss instead.

>>> env = DicehallAECEnv("coinrows")
>>> env.reset(seed=1)
>>> env.agent_selection, env.observe("player_0")["action_mask"][:2].tolist()
('player_0', [1, 1])
>>> env.step(1)  # leave at once: both still hold 20 coins, a draw
>>> env.terminations["player_1"], env.rewards
(True, {'player_0': 0.0, 'player_1': 0.0})
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dicehall.core.game import Game, State
from dicehall.envs._common import OBSERVATION_HIGH, game_encoding, resolve_game, roll


class DicehallAECEnv(AECEnv):  # type: ignore[misc]
    """One dicehall game as a PettingZoo AEC environment.

    ``game`` is a name (``"backgammon"``, ``"coinrows"``, ``"whitedie"``) with its
    options as keywords (``players=4`` for White Die), or a ``Game``.
    ``render_mode`` may be ``"ansi"`` (``render()`` returns the board text) or
    ``"human"`` (prints it).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own attribute)
        "render_modes": ["ansi", "human"],
        "name": "dicehall_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str | Game = "backgammon", render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = resolve_game(game, options)
        self.encoding = game_encoding(self.game)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"dicehall_{self.game.name}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.encoding
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, OBSERVATION_HIGH, enc.observation_shape, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (enc.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state: State = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every dice roll that follows."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = roll(self.game.new_initial_state(), self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat[agent]
        if self.state.current_player() == seat:
            mask = self.encoding.legal_mask(self.state)
        else:
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        return {"observation": self.encoding.observation(self.state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give a decision id, not None")
        chosen = self.encoding.id_to_action(self.state, int(action))
        self._cumulative_rewards[agent] = 0.0
        self.state = roll(self.state.apply(chosen), self._rng)
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def env(game: str | Game = "backgammon", **kwargs: Any) -> DicehallAECEnv:
    """A new ``DicehallAECEnv`` (PettingZoo's usual ``env()`` constructor)."""
    return DicehallAECEnv(game, **kwargs)
