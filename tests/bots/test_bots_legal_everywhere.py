"""Property: no agent ever plays an illegal action, in any registered game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall.bots.registry import game_bots, make_agent
from dicehall.core.dice import SeededDice, resolve_chance
from dicehall.core.registry import load_game, registered_games

#: small options that keep each game short enough for a property test
OPTIONS: dict[str, list[dict[str, object]]] = {
    "backgammon": [{}],
    "coinrows": [{}, {"leaving": False, "capture": "adjacent", "turn_limit": 30}],
    "whitedie": [{}, {"players": 3}],
}
GENERIC = ["random", "expectimax:1", "mcts:3"]


def _specs(game: str) -> list[str]:
    specs = list(GENERIC)
    bots = game_bots(game)
    if bots is not None:
        specs.append(f"bot:{bots.levels[0]}")
    return specs


CASES = [
    (game, options, spec)
    for game in registered_games()
    for options in OPTIONS.get(game, [{}])
    for spec in _specs(game)
]


@pytest.mark.parametrize(("game", "options", "spec"), CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_agents_play_only_legal_actions(
    game: str, options: dict[str, object], spec: str, seed: int
) -> None:
    g = load_game(game, **options)
    agents = [
        make_agent(game, spec if s == 0 else "random", seed=seed + s) for s in range(g.num_players)
    ]
    dice = SeededDice(seed)
    state = g.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 10:
        if state.is_chance_node():
            state = state.apply(resolve_chance(state, dice))
            continue
        seat = state.current_player()
        agent = agents[seat]
        assert agent is not None
        action = agent.act(state)
        assert action in list(state.legal_actions()), (spec, state.action_to_text(action))
        # the action's text parses back to the same action (records replay)
        assert state.parse_action(state.action_to_text(action)) == action
        state = state.apply(action)
        decisions += 1
