"""The dicehall games as OpenSpiel games, so OpenSpiel's algorithms run on them.

Importing this module registers one Python game per dicehall game with
``pyspiel.register_game``: ``python_dicehall_backgammon``, ``python_dicehall_coinrows``
and ``python_dicehall_whitedie``. Their parameters are the dicehall options (with the
same defaults), so ``pyspiel.load_game("python_dicehall_whitedie", {"players": 4})``
works. Chance nodes are explicit with exact probabilities (as floats), actions are
the ids of ``dicehall.games.<game>.encoding`` and the observation tensor is its
tensor. Each OpenSpiel state wraps an immutable dicehall state (``dicehall_state``),
so cloning is cheap and the rules stay in one place.

>>> import pyspiel
>>> game = pyspiel.load_game("python_dicehall_coinrows")
>>> state = game.new_initial_state()
>>> state.legal_actions(), [state.action_to_string(a) for a in state.legal_actions()]
([0, 1], ['roll', 'leave'])
>>> len(state.observation_tensor(0))
118
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from dicehall.core.encoding import ActionEncoding, encoding_for
from dicehall.core.game import CHANCE, TERMINAL, Game, State
from dicehall.core.registry import game_class, load_game

PREFIX = "python_dicehall_"
GAMES = ("backgammon", "coinrows", "whitedie")
#: a bound on the length of a game in OpenSpiel's sense (actions, chance included);
#: White Die has no hard bound (a trailing player's white 1 is rerolled), this is far
#: beyond any game ever played
MAX_GAME_LENGTH = 20_000


def _utility_bounds(game: Game) -> tuple[float, float]:
    if game.name == "backgammon":
        bounds = game.utility_bounds()
        if bounds is not None:
            return bounds
        # money play with the cube: no game scores more than a backgammon (3, or 1
        # with single scoring) at the highest cube, over the session's games
        level = 3.0 if game.options["scoring"] == "standard" else 1.0
        top = level * float(game.options["max_cube"]) * int(game.options["games"])
        return -top, top
    if game.name == "coinrows" and game.options["payoff"] == "coins":
        purse = float(game.options["purse"])
        return -purse, purse
    if game.name == "whitedie":
        return -1.0 / (game.num_players - 1), 1.0
    return -1.0, 1.0


def _game_type(name: str) -> Any:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"dicehall {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={o.name: o.default for o in cls.option_specs},
    )


class DicehallSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game backed by a dicehall game (see the module docstring)."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        self.dicehall_game = load_game(name, **dict(params or {}))
        self.encoding: ActionEncoding = encoding_for(self.dicehall_game)
        low, high = _utility_bounds(self.dicehall_game)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=self.encoding.num_chance_outcomes,
            num_players=self.dicehall_game.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(name), info, dict(self.dicehall_game.options))

    def new_initial_state(self) -> DicehallSpielState:
        return DicehallSpielState(self, self.dicehall_game.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer of the encoding's tensor (perfect information: one kind)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return Observer(self.encoding)


class DicehallSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping the immutable dicehall state ``dicehall_state``."""

    def __init__(self, game: DicehallSpielGame, state: State) -> None:
        super().__init__(game)
        self.encoding = game.encoding
        self._box = _Shared(state)

    @property
    def dicehall_state(self) -> State:
        """The dicehall state this OpenSpiel state stands for."""
        return self._box.value

    @dicehall_state.setter
    def dicehall_state(self, state: State) -> None:
        self._box = _Shared(state)

    def current_player(self) -> int:
        player = self.dicehall_state.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoding.legal_ids(self.dicehall_state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.encoding.chance_ids(self.dicehall_state)

    def _apply_action(self, action: int) -> None:
        state = self.dicehall_state
        self.dicehall_state = state.apply(self.encoding.id_to_action(state, action))

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            chosen = self.encoding.id_to_action(self.dicehall_state, action)
        except ValueError:
            return f"id {action}"
        return self.dicehall_state.action_to_text(chosen)

    def is_terminal(self) -> bool:
        return self.dicehall_state.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.dicehall_state.returns()]

    def __str__(self) -> str:
        return str(self.dicehall_state)


class _Shared:
    """Holds an immutable dicehall state: OpenSpiel clones a Python state with
    ``copy.deepcopy``, and a clone may share the state instead of copying it."""

    __slots__ = ("value",)

    def __init__(self, value: State) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return _Shared(self.value)


class Observer:
    """OpenSpiel's PyObserver interface over an encoding's observation tensor."""

    def __init__(self, encoding: ActionEncoding) -> None:
        self.encoding = encoding
        self.tensor = np.zeros(encoding.observation_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DicehallSpielState, player: int) -> None:
        self.tensor[...] = self.encoding.observation(state.dicehall_state, player)

    def string_from(self, state: DicehallSpielState, player: int) -> str:
        return str(state.dicehall_state)


class BackgammonSpielGame(DicehallSpielGame):
    """``python_dicehall_backgammon``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("backgammon", params)


class CoinRowsSpielGame(DicehallSpielGame):
    """``python_dicehall_coinrows``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("coinrows", params)


class WhiteDieSpielGame(DicehallSpielGame):
    """``python_dicehall_whitedie``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("whitedie", params)


# OpenSpiel keeps the registered factory until the process ends, after Python has
# finalised; it must be a class (as in OpenSpiel's own Python games), because freeing
# a function object there aborts the interpreter
_CLASSES = {
    "backgammon": BackgammonSpielGame,
    "coinrows": CoinRowsSpielGame,
    "whitedie": WhiteDieSpielGame,
}


def register() -> list[str]:
    """Register every dicehall game with OpenSpiel (again is harmless); their names."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        if PREFIX + name not in known:
            pyspiel.register_game(_game_type(name), _CLASSES[name])
    return [PREFIX + name for name in GAMES]


register()
