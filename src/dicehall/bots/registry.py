"""Agents by name, as typed after ``--vs`` or in the arena: ``random``, ``bot:expert`` ...

``bot[:level]`` loads ``dicehall.bots.<game>.Bot(level=...)``, so each game's own
bot slots in without the front ends knowing it; ``bot[:level]:net=PATH`` gives it
the net in PATH (one written by ``dicehall train``), where the game's bot package
has a ``load_network``. Generic agents register a factory
in ``GENERIC_AGENTS``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from dicehall.core.errors import DicehallError
from dicehall.core.match import Agent

AgentFactory = Callable[[str, str | None, int | None], Agent]


def _random(game: str, arg: str | None, seed: int | None) -> Agent:
    from dicehall.bots.random import RandomBot

    return RandomBot(seed=seed)


def _search_evaluation(game: str) -> Any:
    """The optional ``search_evaluation(state) -> values per seat`` of the game's bot
    package, which the generic search agents use for their leaves (None: no knowledge)."""
    module = game_bot_module(game)
    return getattr(module, "search_evaluation", None) if module is not None else None


def _count(kind: str, arg: str | None, default: int) -> int:
    if not arg:
        return default
    try:
        value = int(arg)
    except ValueError:
        raise AgentSpecError(f"{kind}:{arg}: expected a whole number after the colon") from None
    if value < 1:
        raise AgentSpecError(f"{kind}:{arg}: the number must be at least 1")
    return value


def _expectimax(game: str, arg: str | None, seed: int | None) -> Agent:
    from dicehall.bots.expectimax import ExpectimaxBot

    return ExpectimaxBot(
        depth=_count("expectimax", arg, 2), evaluate=_search_evaluation(game), seed=seed
    )


def _mcts(game: str, arg: str | None, seed: int | None) -> Agent:
    from dicehall.bots.mcts import MCTSBot

    return MCTSBot(iterations=_count("mcts", arg, 1000), seed=seed)


#: name -> factory(game, argument after the colon, seed)
GENERIC_AGENTS: dict[str, AgentFactory] = {
    "random": _random,
    "expectimax": _expectimax,
    "mcts": _mcts,
}


class AgentSpecError(DicehallError, ValueError):
    """An agent name that is not known for the game."""


def game_bot_module(game: str) -> Any | None:
    """The game's own bot package, or None if the game has none yet."""
    try:
        return importlib.import_module(f"dicehall.bots.{game}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"dicehall.bots.{game}"):
            return None
        raise


def agent_names(game: str) -> list[str]:
    """Every spec accepted for ``game``, for help texts and error messages."""
    names = ["human", *GENERIC_AGENTS]
    module = game_bot_module(game)
    if module is not None:
        levels = getattr(module, "LEVELS", ())
        names += ["bot"] + [f"bot:{lvl}" for lvl in levels]
        if hasattr(module, "load_network"):
            names.append("bot:net=PATH")
    return names


def _net_argument(spec: str, arg: str) -> tuple[str, str | None]:
    """Split ``bot:[LEVEL:]net=PATH`` into the level and the path, the path's case kept
    (the rest of a spec is read in lower case)."""
    if "net=" not in arg:
        return arg, None
    level = arg.partition("net=")[0].rstrip(":,")
    path = spec.strip()[spec.lower().index("net=") + 4 :]
    if not path:
        raise AgentSpecError(f"{spec}: write the net's file after net=, e.g. bot:net=run/net.npz")
    return level, path


def _load_net(game: str, module: Any, path: str) -> Any:
    loader = getattr(module, "load_network", None)
    if loader is None:
        raise AgentSpecError(f"{game}'s bot does not play trained nets (bot:net=PATH)")
    try:
        return loader(path)
    except ValueError as exc:
        raise AgentSpecError(str(exc)) from None


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent | None:
    """Build the agent named ``spec`` for ``game``; ``human`` gives None (a person plays).

    >>> make_agent("backgammon", "random", seed=1).name
    'random'
    """
    name, _, arg = spec.strip().lower().partition(":")
    if name == "human":
        return None
    if name in GENERIC_AGENTS:
        return GENERIC_AGENTS[name](game, arg or None, seed)
    if name == "bot":
        module = game_bot_module(game)
        if module is None:
            raise AgentSpecError(
                f"{game} has no bot yet; choose one of: {', '.join(agent_names(game))}"
            )
        arg, net = _net_argument(spec, arg)
        level = arg or getattr(module, "DEFAULT_LEVEL", None)
        extra: dict[str, Any] = {}
        if net is not None:
            extra["network"] = _load_net(game, module, net)
        try:
            agent = module.Bot(level=level, seed=seed, **extra)
        except (ValueError, KeyError) as exc:
            raise AgentSpecError(
                f"unknown level {arg!r} for {game}; choose one of: {', '.join(agent_names(game))}"
            ) from exc
        if net is not None:
            agent.name = f"{agent.name}:net={net}"
        return agent  # type: ignore[no-any-return]
    raise AgentSpecError(
        f"unknown opponent {spec!r} for {game}; choose one of: {', '.join(agent_names(game))}"
    )
