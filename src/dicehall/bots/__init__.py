"""Agents: generic ones for every game here, game-specific ones in subpackages."""

from dicehall.bots.expectimax import ExpectimaxBot
from dicehall.bots.mcts import MCTSBot
from dicehall.bots.random import RandomBot
from dicehall.bots.registry import make_agent

__all__ = ["ExpectimaxBot", "MCTSBot", "RandomBot", "make_agent"]
