"""Integer actions, legal-action masks and observation tensors: the interface.

Reinforcement-learning libraries speak in integers and arrays. Each game provides a
module ``dicehall.games.<game>.encoding`` with an ``Encoding(game)`` class, a
subclass of ``ActionEncoding`` here, that gives

* a fixed number of distinct decision ids (``num_actions``) and chance-outcome ids
  (``num_chance_outcomes``), with ``action_to_id`` / ``id_to_action`` per state;
* ``legal_ids`` and the ``legal_mask`` of a decision node, ``chance_ids`` of a
  chance node;
* an ``observation`` tensor (``float32``, shape ``observation_shape``) for a seat.

Encodings are built on demand from a state; play itself never computes them, so
they cost nothing to games, bots or the server that do not use them. Each game's
docstring (and its rules page) says what every id and every tensor entry means.

>>> from dicehall import load_game
>>> enc = encoding_for(load_game("coinrows"))
>>> state = load_game("coinrows").new_initial_state()
>>> [str(enc.id_to_action(state, i)) for i in enc.legal_ids(state)]
['roll', 'leave']
>>> int(enc.legal_mask(state).sum()), enc.num_actions
(2, 1185)
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, Action, Game, State


class ActionEncoding(ABC):
    """Integer ids and tensors of one game with its options (see the module docstring).

    Subclasses set ``num_actions``, ``num_chance_outcomes`` and
    ``observation_shape`` and implement ``action_to_id`` and ``observation``.
    """

    num_actions: int
    num_chance_outcomes: int
    observation_shape: tuple[int, ...]

    def __init__(self, game: Game) -> None:
        self.game = game
        # the id -> action table of the last state asked about: an env or a bridge
        # asks for the mask, then for one id, of the same state
        self._last: tuple[State, dict[int, Action]] | None = None
        # chance nodes with the same outcomes share one table (see ``chance_key``)
        self._chance: dict[Any, tuple[list[tuple[int, float]], dict[int, Action]]] = {}

    def chance_key(self, state: State) -> Any:
        """A hashable key shared by the chance nodes that have the same outcomes with
        the same probabilities, so their ids are listed once; None: do not share."""
        return None

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionEncoding:
        # an encoding holds no game state (only caches): copies of states share it
        return self

    @abstractmethod
    def action_to_id(self, state: State, action: Action) -> int:
        """The id of ``action`` in ``state``: a decision id at a decision node, a
        chance-outcome id at a chance node. Raises ``IllegalActionError`` for an
        action that cannot be one of this state's."""

    @abstractmethod
    def observation(self, state: State, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The observation tensor of ``state`` seen by seat ``player``; raises
        ``ValueError`` for a seat that is not in the game."""

    def id_to_action(self, state: State, action_id: int) -> Action:
        """The legal action of ``state`` whose id is ``action_id``.

        Raises ``IllegalActionError`` for an id out of range or that no legal
        action of ``state`` has.
        """
        player = state.current_player()
        if player == TERMINAL:
            raise IllegalActionError(str(action_id), "the game is over")
        limit = self.num_chance_outcomes if player == CHANCE else self.num_actions
        if not isinstance(action_id, (int, np.integer)) or not 0 <= action_id < limit:
            raise IllegalActionError(str(action_id), f"action ids here are integers 0..{limit - 1}")
        if player == CHANCE:
            action = self._chance_table(state)[1].get(int(action_id))
        else:
            action = self._table(state).get(int(action_id))
        if action is None:
            raise state.illegal(f"id {action_id}", "no legal action has this id here")
        return action

    def _table(self, state: State) -> dict[int, Action]:
        last = self._last
        if last is not None and last[0] is state:
            return last[1]
        table = {self.action_to_id(state, a): a for a in state.legal_actions()}
        self._last = (state, table)
        return table

    def legal_ids(self, state: State) -> list[int]:
        """Sorted ids of the legal actions of ``state`` (chance-outcome ids at a
        chance node, empty at a terminal one)."""
        if state.current_player() == TERMINAL:
            return []
        return sorted(self._table(state))

    def legal_mask(self, state: State) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 for each decision id that is legal in ``state``, 0 elsewhere (``int8``,
        shape ``(num_actions,)``; all zeros at chance and terminal nodes)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if state.current_player() not in (CHANCE, TERMINAL):
            mask[self.legal_ids(state)] = 1
        return mask

    def chance_ids(self, state: State) -> list[tuple[int, float]]:
        """``(chance-outcome id, probability)`` of each outcome of a chance node,
        sorted by id; raises ``IllegalActionError`` elsewhere."""
        return list(self._chance_table(state)[0])

    def _chance_table(self, state: State) -> tuple[list[tuple[int, float]], dict[int, Action]]:
        key = self.chance_key(state)
        found = self._chance.get(key) if key is not None else None
        if found is None:
            outcomes = state.chance_outcomes()
            table = {self.action_to_id(state, a): a for a, _ in outcomes}
            ids = sorted((self.action_to_id(state, a), float(p)) for a, p in outcomes)
            found = (ids, table)
            if key is not None:
                self._chance[key] = found
        return found

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.Encoding of {self.game!r}>"


def encoding_for(game: Game) -> ActionEncoding:
    """The encoding of ``game`` (the class ``dicehall.games.<name>.encoding.Encoding``).

    Raises ``NotImplementedError`` for a game that has none.
    """
    try:
        module = importlib.import_module(f"dicehall.games.{game.name}.encoding")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"dicehall.games.{game.name}"):
            raise NotImplementedError(f"{game.name} has no integer encoding") from exc
        raise
    return module.Encoding(game)  # type: ignore[no-any-return]
