"""Agents: generic ones for every game here, game-specific ones in subpackages."""

from dicehall.bots.random import RandomBot
from dicehall.bots.registry import make_agent

__all__ = ["RandomBot", "make_agent"]
