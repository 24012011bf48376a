"""A Match drives one game: dice from a ``Dice`` source, decisions from agents,
every action appended to the ``Record``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from dicehall.core.dice import Dice, SeededDice, resolve_chance
from dicehall.core.game import Action, Game, State
from dicehall.core.record import Record


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action for the seat to move."""

    name: str

    def act(self, state: State) -> Action:
        """Choose a legal action in ``state`` (whose current player is this agent's seat)."""
        ...


Listener = Callable[[State, str, State], None]


class Match:
    """One game in progress: its current state and the record that produced it.

    >>> from dicehall import load_game
    >>> from dicehall.bots import RandomBot
    >>> m = Match(load_game("backgammon"), [RandomBot(seed=1), RandomBot(seed=2)], seed=3)
    >>> record = m.play()
    >>> record.final_state() == m.state and m.state.is_terminal()
    True
    """

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent | None],
        dice: Dice | None = None,
        *,
        seed: int | None = None,
        record: Record | None = None,
        players: list[str] | None = None,
    ) -> None:
        if len(agents) != game.num_players:
            raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
        self.game = game
        self.agents = list(agents)
        self.dice: Dice = dice if dice is not None else SeededDice(seed)
        names = players or [
            a.name if a is not None else f"seat {i + 1}" for i, a in enumerate(agents)
        ]
        meta: dict[str, Any] = {}
        if isinstance(self.dice, SeededDice):
            meta["seed"] = self.dice.seed
        if record is None:
            self.record = Record.new(game, names, **meta)
            self.state = game.new_initial_state()
        else:
            self.record = record
            self.state = record.final_state()
        self.listeners: list[Listener] = []

    def apply(self, action: Action) -> State:
        """Apply a legal action (decision or outcome) and record it."""
        text = self.state.action_to_text(action)
        before = self.state
        self.state = self.state.apply(action)
        self.record.actions.append(text)
        if self.state.is_terminal():
            self.record.meta["returns"] = self.state.returns()
        for listen in self.listeners:
            listen(before, text, self.state)
        return self.state

    def apply_text(self, text: str) -> State:
        """Parse what a player typed and apply it."""
        return self.apply(self.state.parse_action(text))

    def roll(self) -> State:
        """Resolve the current chance node with the match's dice."""
        return self.apply(resolve_chance(self.state, self.dice))

    def step(self) -> State:
        """Advance by one action: dice at a chance node, else the seat's agent decides."""
        if self.state.is_terminal():
            raise ValueError("the game is over: there is no step to take")
        if self.state.is_chance_node():
            return self.roll()
        seat = self.state.current_player()
        agent = self.agents[seat]
        if agent is None:
            raise ValueError(f"seat {seat} has no agent; apply its actions with Match.apply")
        return self.apply(agent.act(self.state))

    def play(self, max_actions: int | None = None) -> Record:
        """Play until the game ends (or ``max_actions`` more actions) and return the record."""
        n = 0
        while not self.state.is_terminal() and (max_actions is None or n < max_actions):
            self.step()
            n += 1
        return self.record
