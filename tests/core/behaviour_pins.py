"""Pinned behaviour: bot decisions on fixed positions and seeded records, per game.

Refactors of the seams (declarations, leaf modules, caches) must not change what the bots
choose or what a seeded match records. ``test_behaviour_pins.py`` compares the live code
with ``behaviour_pins.json``; ``python tests/core/behaviour_pins.py --write`` rewrites the
file (only when a change of behaviour is intended, and say so in the commit).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from dicehall.bots.registry import make_agent
from dicehall.core.match import Match
from dicehall.core.registry import load_game

PINS = Path(__file__).with_name("behaviour_pins.json")

#: (game, agent specs whose decisions are pinned, positions, seeds of the pinned records)
CASES: list[tuple[str, tuple[str, ...], int, tuple[int, ...]]] = [
    ("backgammon", ("bot:beginner", "bot:medium", "expectimax:1"), 12, (1, 2)),
    ("coinrows", ("bot:beginner", "bot:advanced", "expectimax:1", "mcts:60"), 12, (1, 2)),
    ("whitedie", ("bot:greedy", "bot:perfect", "expectimax:1"), 12, (1, 2)),
]


def positions(game_name: str, count: int, seed: int = 13) -> list[Any]:
    """``count`` decision positions reached by seeded random play (restarting at the end)."""
    rng = random.Random(seed)
    game = load_game(game_name)
    state = game.new_initial_state()
    found: list[Any] = []
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            weights = [float(p) for _, p in outcomes]
            state = state.apply(rng.choices(actions, weights)[0])
            continue
        if rng.random() < 0.35:
            found.append(state)
        state = state.apply(rng.choice(list(state.legal_actions())))
    return found


def current() -> dict[str, Any]:
    """What the code does now: decisions (action texts) and records (action texts)."""
    out: dict[str, Any] = {}
    for game_name, specs, count, seeds in CASES:
        states = positions(game_name, count)
        decisions = {}
        for spec in specs:
            texts = []
            for i, state in enumerate(states):
                agent = make_agent(game_name, spec, seed=100 + i)
                assert agent is not None
                texts.append(state.action_to_text(agent.act(state)))
            decisions[spec] = texts
        records = {}
        for seed in seeds:
            game = load_game(game_name)
            agents = [make_agent(game_name, specs[0], seed=seed)] + [
                make_agent(game_name, "random", seed=seed + 1) for _ in range(game.num_players - 1)
            ]
            record = Match(game, agents, seed=seed).play()
            records[str(seed)] = list(record.actions)
        out[game_name] = {"decisions": decisions, "records": records}
    return out


if __name__ == "__main__":
    if "--write" in sys.argv:
        PINS.write_text(json.dumps(current(), indent=1) + "\n")
        print(f"wrote {PINS}")
    else:
        print(json.dumps(current(), indent=1))
