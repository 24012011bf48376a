"""``chance_outcome``: the outcome the dice give, applied as drawn (the server no longer
parses its text back), reaches the very positions the log's texts give on replay."""

from __future__ import annotations

import random

import pytest

from dicehall.core.fairness import FairDice, chance_outcome, chance_text
from dicehall.core.registry import load_game, registered_games


@pytest.mark.parametrize("name", registered_games())
def test_outcomes_applied_as_drawn_reach_the_positions_of_their_texts(name: str) -> None:
    rng = random.Random(3)
    for game_no in range(8):
        seed = f"{game_no:064x}"
        dice = FairDice(seed, ["a", "b"])
        twin = FairDice(seed, ["a", "b"])
        state = load_game(name).new_initial_state()
        log: list[str] = []
        for _ in range(2000):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcome, text, faces = chance_outcome(state, dice)
                # chance_text draws the same from the same seeds
                assert chance_text(state, twin) == (text, faces)
                after = state.apply(outcome)
                assert after.render(None) == state.apply_text(text).render(None)
            else:
                text = rng.choice(state.legal_texts())
                after = state.apply_text(text)
            log.append(text)
            state = after
        replay = load_game(name).new_initial_state()
        for text in log:
            replay = replay.apply_text(text)
        assert replay.render(None) == state.render(None)
        assert replay.legal_texts() == state.legal_texts()
        assert replay.is_terminal() == state.is_terminal()
