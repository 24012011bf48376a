"""Reinforcement-learning environments over the dicehall protocol.

* ``DicehallAECEnv`` (``dicehall.envs.pettingzoo_env``): a PettingZoo AEC
  environment for every game, all seats learners;
* ``DicehallGymEnv`` (``dicehall.envs.gymnasium_env``): a Gymnasium environment for
  one seat, the others played by dicehall agents;
* ``dicehall.envs.openspiel``: each game registered as an OpenSpiel Python game.

They use the integer ids and tensors of ``dicehall.games.<game>.encoding`` and need
the ``rl`` extra (``pip install dicehall[rl]``: pettingzoo, gymnasium); the names
here import their modules on first use.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DicehallAECEnv", "DicehallGymEnv"]


def __getattr__(name: str) -> Any:
    if name == "DicehallAECEnv":
        from dicehall.envs.pettingzoo_env import DicehallAECEnv

        return DicehallAECEnv
    if name == "DicehallGymEnv":
        from dicehall.envs.gymnasium_env import DicehallGymEnv

        return DicehallGymEnv
    raise AttributeError(f"module 'dicehall.envs' has no attribute {name!r}")
