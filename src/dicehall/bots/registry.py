"""Agents by name, as typed after ``--vs`` or in the arena: ``random``, ``bot:expert`` ...

``bot[:level]`` asks the game's declared ``BotPackage`` (``GameEntry.bots``) for an agent
of that level, so each game's own bot slots in without the front ends knowing it;
``bot[:level]:net=PATH`` gives it the net in PATH (one written by ``dicehall train``),
where the game's bot package has a ``load_network``. Generic agents register a factory
in ``GENERIC_AGENTS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from dicehall.core.errors import DicehallError, GameDeclarationError
from dicehall.core.game import State
from dicehall.core.match import Agent
from dicehall.core.registry import game_entry

AgentFactory = Callable[[str, str | None, int | None], Agent]

#: Values per seat of a state, for the leaves of the generic search agents.
SearchEvaluation = Callable[[State], Sequence[float]]


@runtime_checkable
class BotPackage(Protocol):
    """What a game's bots offer the front ends: levels by name and a factory.

    ``make(level=..., seed=...)`` builds an agent (a ``ValueError`` or ``KeyError`` for an
    unknown level); ``search_evaluation`` (or None) scores leaves for ``expectimax:N``.
    """

    levels: Sequence[str]
    default_level: str
    make: Callable[..., Any]
    search_evaluation: SearchEvaluation | None


@dataclass(frozen=True)
class BotFamily:
    """The ``BotPackage`` a game's bot package declares, e.g.
    ``BOTS = BotFamily(LEVELS, DEFAULT_LEVEL, Bot)``; ``make`` is typed loosely because a
    game's bot accepts only that game's states, which is narrower than ``Agent``."""

    levels: Sequence[str]
    default_level: str
    make: Callable[..., Any]
    search_evaluation: SearchEvaluation | None = None

    def __post_init__(self) -> None:
        if self.default_level not in self.levels:
            raise GameDeclarationError(
                f"default level {self.default_level!r} is not one of {list(self.levels)}"
            )


def _random(game: str, arg: str | None, seed: int | None) -> Agent:
    from dicehall.bots.random import RandomBot

    return RandomBot(seed=seed)


def _search_evaluation(game: str) -> SearchEvaluation | None:
    """The ``search_evaluation(state) -> values per seat`` the game's bots declare, which
    the generic search agents use for their leaves (None: no knowledge)."""
    bots = game_bots(game)
    return bots.search_evaluation if bots is not None else None


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


def game_bots(game: str) -> BotPackage | None:
    """The bots ``game`` declares, or None if it has none yet.

    :raises UnknownGameError: if no game has that name.
    :raises GameDeclarationError: if the declared object is not a ``BotPackage``.
    """
    hint = "levels, default_level, make, search_evaluation: use BotFamily"
    bots: BotPackage | None = game_entry(game).load_as("bots", BotPackage, hint)
    return bots


def agent_names(game: str) -> list[str]:
    """Every spec accepted for ``game``, for help texts and error messages."""
    names = ["human", *GENERIC_AGENTS]
    bots = game_bots(game)
    if bots is not None:
        names += ["bot"] + [f"bot:{lvl}" for lvl in bots.levels]
        if _bot_module(bots) is not None and hasattr(_bot_module(bots), "load_network"):
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


def _bot_module(bots: BotPackage) -> Any:
    """The module that declares ``bots`` (where ``load_network`` lives, if anywhere)."""
    import sys

    return sys.modules.get(getattr(bots.make, "__module__", ""))


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
        bots = game_bots(game)
        if bots is None:
            raise AgentSpecError(
                f"{game} has no bot yet; choose one of: {', '.join(agent_names(game))}"
            )
        arg, net = _net_argument(spec, arg)
        level = arg or bots.default_level
        extra: dict[str, Any] = {}
        if net is not None:
            extra["network"] = _load_net(game, _bot_module(bots), net)
        try:
            agent: Agent = bots.make(level=level, seed=seed, **extra)
        except (ValueError, KeyError) as exc:
            raise AgentSpecError(
                f"unknown level {arg!r} for {game}; choose one of: {', '.join(agent_names(game))}"
            ) from exc
        if net is not None:
            agent.name = f"{agent.name}:net={net}"
        return agent
    raise AgentSpecError(
        f"unknown opponent {spec!r} for {game}; choose one of: {', '.join(agent_names(game))}"
    )
