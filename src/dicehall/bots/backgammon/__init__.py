"""Backgammon bots: pubeval, and a TD-trained neural net searched at 0, 1 or 2 ply.

``Bot(level=...)`` is what ``dicehall play backgammon --vs bot:expert`` loads.

========  ===============================================================
level     what it does
========  ===============================================================
beginner  the net at 0-ply with noise added to every play's equity
easy      Tesauro's pubeval (the classic benchmark opponent)
medium    the net at 0-ply
hard      the net at 1-ply (best 6 plays re-searched)
expert    the net at 2-ply, gnubg-style move filtering and a pruning net (~0.06 s)
========  ===============================================================

>>> from dicehall import load_game
>>> state = load_game("backgammon").new_initial_state().apply_text("3-1")
>>> Bot(level="medium").act(state) in state.legal_actions()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from dicehall.bots.registry import BotFamily
from dicehall.core.cache import BoundedCache

if TYPE_CHECKING:
    from dicehall.bots.backgammon.network import Network
    from dicehall.games.backgammon.rules import BackgammonState, Play

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "expert"


@dataclass(frozen=True)
class Settings:
    """How a level chooses: evaluator, search depth, filtering, noise."""

    evaluator: str = "net"  # "net" or "pubeval"
    plies: int = 0
    keep1: int = 6
    margin1: float = 0.25
    keep2: int = 3
    margin2: float = 0.1
    reply_keep: int = 2
    noise: float = 0.0
    budget: int = 0  # positions evaluated before 2-ply stops (``search.analyse``; 0: no cap)
    readmit: int = 0  # filtered-out plays re-admitted per depth (``search.analyse``)
    keep3: int = 0  # close plays re-valued at reduced 3-ply (``search.analyse``; 0: off)
    margin3: float = 0.0  # how close to the best at 2-ply a play must be for that
    budget3: int = 0  # positions evaluated in the whole decision before 3-ply stops
    blend: float = 0.0  # weight of the 1-ply value in a 2-ply play's value (0: off)
    prune: int = 0  # plays of an inner roll the full net values (``prune.py``; 0: all)
    full3: bool = False  # the third stage (``keep3``) at full 3-ply (``search.analyse``)


#: every level ``Bot`` accepts: the public ``LEVELS`` plus names for benchmarks
SETTINGS: dict[str, Settings] = {
    "beginner": Settings(noise=0.25),
    "easy": Settings(evaluator="pubeval"),
    "medium": Settings(),
    "hard": Settings(plies=1),
    "expert": Settings(plies=2, keep2=3, reply_keep=1, budget=100_000, prune=6),
    "pubeval": Settings(evaluator="pubeval"),
    "0ply": Settings(),
    "1ply": Settings(plies=1, keep1=8),
    "2ply": Settings(plies=2, keep1=8, keep2=4, reply_keep=3),
    "hard-readmit": Settings(plies=1, readmit=3),
    "expert-readmit": Settings(plies=2, keep2=3, reply_keep=1, budget=100_000, readmit=3),
    "expert-wide": Settings(plies=2, keep2=5, margin2=0.2, reply_keep=1, budget=100_000),
    # the expert until 6 Dec 2026: every play of every inner roll valued by the full net
    "expert-unpruned": Settings(plies=2, keep2=3, reply_keep=1, budget=100_000),
    "expert-full3": Settings(
        plies=2,
        keep2=3,
        reply_keep=1,
        budget=100_000,
        prune=6,
        keep3=2,
        margin3=0.05,
        budget3=100_000,
        full3=True,
    ),
    "expert-3ply": Settings(
        plies=2, keep2=3, reply_keep=1, budget=100_000, keep3=2, margin3=0.05, budget3=100_000
    ),
}


@dataclass(frozen=True)
class PlayValue:
    """One legal play with its evaluation, for hints and analysis."""

    index: int  # position in state.legal_actions()
    play: Play
    text: str
    probs: tuple[float, float, float, float, float]  # win, gammon, bg, gammon loss, bg loss
    equity: float
    depth: int  # plies searched

    @property
    def win(self) -> float:
        return self.probs[0]


#: The shipped network, loaded on first use (one entry; ``NETWORKS.clear()`` reloads it).
NETWORKS = BoundedCache[str, "Network"]("backgammon networks", 1)


def default_network() -> Network:
    """The trained weights shipped with the package (loaded once)."""
    from dicehall.bots.backgammon.network import Network

    network = NETWORKS.get("default")
    if network is None:
        network = NETWORKS.put("default", Network.load())
    return network


def load_network(path: str) -> Network:
    """Weights written by ``dicehall train`` (a checkpoint, a snapshot or ``--export``),
    for ``bot:net=PATH``; loaded once per file.

    :raises ValueError: the file cannot be read or holds no backgammon net.
    """
    from pathlib import Path

    from dicehall.bots.backgammon.network import Network

    key = str(Path(path).resolve())
    network = NETWORKS.get(key)
    if network is None:
        try:
            network = NETWORKS.put(key, Network.load(path))
        except OSError as exc:
            raise ValueError(f"cannot read the net {path}: {exc.strerror or exc}") from None
        except (KeyError, ValueError, EOFError) as exc:
            raise ValueError(
                f"{path} is not a backgammon net written by dicehall train ({exc})"
            ) from None
    return network


def is_single(state: BackgammonState) -> bool:
    """Whether every win scores one point (then only winning chances count)."""
    return state.game.options.get("scoring", "single") == "single"


class Bot:
    """A backgammon player of a given level, reproducible from ``seed``."""

    def __init__(
        self, level: str | None = None, seed: int | None = None, network: Network | None = None
    ) -> None:
        level = level or DEFAULT_LEVEL
        if level not in SETTINGS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        self.level = level
        self.settings = SETTINGS[level]
        self.seed = seed
        self.name = f"bot:{level}"
        self._rng = np.random.default_rng(seed)
        self._network = network

    @property
    def network(self) -> Network:
        if self._network is None:
            self._network = default_network()
        return self._network

    # -- the raw interface (compact boards) ------------------------------------
    def choose(self, board: Any, d1: int, d2: int, single: bool = True) -> int:
        """Index of the chosen play among ``fast.plays(board, d1, d2)``."""
        s = self.settings
        if s.evaluator == "pubeval":
            from dicehall.bots.backgammon.search import choose_pubeval

            return int(choose_pubeval(board, d1, d2))
        if s.plies == 0 and s.noise == 0.0:
            from dicehall.bots.backgammon.search import choose_0ply

            return int(choose_0ply(board, d1, d2, *self.network.params(), single))
        _, eqs, depth = self.evaluate(board, d1, d2, single)
        if s.noise:
            eqs = eqs + self._rng.normal(0.0, s.noise, eqs.shape)
        deepest = depth == depth.max()
        return int(np.flatnonzero(deepest)[np.argmax(eqs[deepest])])

    def evaluate(self, board: Any, d1: int, d2: int, single: bool = True) -> tuple[Any, Any, Any]:
        """``(probs, equities, depth)`` of every play, searched as this level does."""
        from dicehall.bots.backgammon.search import analyse

        s = self.settings
        return analyse(
            board,
            d1,
            d2,
            *self.network.params(),
            single,
            s.plies,
            s.keep1,
            s.margin1,
            s.keep2,
            s.margin2,
            s.reply_keep,
            s.budget,
            s.readmit,
            s.keep3,
            s.margin3,
            s.budget3,
            s.blend,
            s.prune,
            s.full3,
        )

    # -- the protocol ------------------------------------------------------------
    def act(self, state: BackgammonState) -> Any:
        """The chosen action in ``state``: a play of the dice (valued by the score in
        cube and match games), or a cube or resignation answer (``cube.bot_decision``)."""
        from dicehall.games.backgammon.fast import to_array

        if not state.is_checker_play():
            from dicehall.bots.backgammon.cube import bot_decision

            return bot_decision(self, state)
        actions = [a for a, _ in state.play_results()]
        if len(actions) == 1:
            return actions[0]
        assert state.dice is not None
        if state.game.extended:  # gammons valued by the score and the cube
            from dicehall.bots.backgammon.cube import bot_play

            return actions[bot_play(self, state)]
        i = self.choose(to_array(state.board), state.dice[0], state.dice[1], is_single(state))
        return actions[i]

    def rank(self, state: BackgammonState, plies: int | None = None) -> list[PlayValue]:
        """Every legal play of ``state`` valued by the net, best first (for hints)."""
        from dicehall.games.backgammon.fast import to_array

        assert state.dice is not None
        bot = self if plies is None else Bot(self._plies_level(plies), network=self._network)
        single = is_single(state)
        probs, eqs, depth = bot.evaluate(to_array(state.board), *state.dice, single)
        actions = [a for a, _ in state.play_results()]
        order = sorted(range(len(actions)), key=lambda i: (-depth[i], -eqs[i]))
        return [
            PlayValue(
                i,
                actions[i],
                state.action_to_text(actions[i]),
                tuple(float(v) for v in probs[i]),  # type: ignore[arg-type]
                float(eqs[i]),
                int(depth[i]),
            )
            for i in order
        ]

    def value_of(self, state: BackgammonState, index: int, plies: int) -> tuple[Any, float]:
        """``(probs, equity)`` of legal play ``index`` of ``state`` searched ``plies`` deep."""
        from dicehall.bots.backgammon.network import equity
        from dicehall.bots.backgammon.search import evaluate_1ply, evaluate_2ply, evaluate_after
        from dicehall.games.backgammon.fast import plays, to_array

        assert state.dice is not None
        single = is_single(state)
        _, _, boards, _ = plays(to_array(state.board), *state.dice)
        y = np.zeros(5)
        params = self.network.params()
        s = self.settings
        if plies <= 0:
            evaluate_after(boards[index], *params, y)
        elif plies == 1:
            evaluate_1ply(boards[index], *params, single, y)
        else:
            evaluate_2ply(boards[index], *params, single, s.reply_keep, 0.1, y)
        return y, float(equity(y, single))

    @staticmethod
    def _plies_level(plies: int) -> str:
        return {0: "0ply", 1: "1ply"}.get(plies, "2ply")

    def __repr__(self) -> str:
        return f"Bot(level={self.level!r}, seed={self.seed})"


#: What backgammon declares as its bots (``GameEntry.bots``).
BOTS = BotFamily(LEVELS, DEFAULT_LEVEL, Bot)

__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "SETTINGS",
    "Bot",
    "PlayValue",
    "default_network",
    "load_network",
]
