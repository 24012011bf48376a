"""Property-based invariants over random backgammon games."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall import Match, Record, load_game
from dicehall.bots import RandomBot
from dicehall.games.backgammon import BAR, BackgammonState, decode_position_id

seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, scoring: str = "single") -> Match:
    game = load_game("backgammon", scoring=scoring)
    match = Match(game, [RandomBot(seed=seed), RandomBot(seed=seed + 1)], seed=seed + 2)
    match.play(max_actions=5000)
    return match


def check_invariants(state: BackgammonState) -> None:
    for seat in (0, 1):
        assert sum(state.side(seat)) == 15
        assert all(n >= 0 for n in state.side(seat))
    mine, theirs = state.side(0), state.side(1)
    for p in range(1, 25):
        assert not (mine[p] and theirs[25 - p]), f"point {p} holds both colours"
    assert decode_position_id(state.position_id()) == state.board


@SETTINGS
@given(seeds, st.sampled_from(["single", "standard"]))
def test_random_games_keep_invariants_and_terminate(seed: int, scoring: str) -> None:
    match = random_game(seed, scoring)
    assert match.state.is_terminal(), "a random game did not finish in 5000 actions"
    returns = match.state.returns()
    assert sum(returns) == 0 and max(returns) in (1, 2, 3)
    assert scoring == "standard" or max(returns) == 1
    for state in match.record.states():
        assert isinstance(state, BackgammonState)
        check_invariants(state)


@SETTINGS
@given(seeds)
def test_every_legal_action_reparses_to_itself(seed: int) -> None:
    match = random_game(seed)
    for i, state in enumerate(match.record.states()):
        if i % 3 or state.is_terminal():
            continue
        for action in state.legal_actions():
            text = state.action_to_text(action)
            again = state.parse_action(text)
            assert state.apply(again) == state.apply(action), text
            assert state.action_to_text(again) == text


@SETTINGS
@given(seeds)
def test_record_replays_every_intermediate_state(seed: int) -> None:
    game = load_game("backgammon")
    match = Match(game, [RandomBot(seed=seed), RandomBot(seed=seed + 1)], seed=seed)
    seen = [match.state]
    while not match.state.is_terminal():
        match.step()
        seen.append(match.state)
    loaded = Record.from_json(match.record.to_json())
    assert list(loaded.states()) == seen
    assert loaded.meta["returns"] == match.state.returns()


@SETTINGS
@given(seeds)
def test_chance_outcomes_are_exact(seed: int) -> None:
    match = random_game(seed)
    for state in match.record.states():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            assert len({a for a, _ in outcomes}) == len(outcomes)
        elif not state.is_terminal():
            assert state.side(state.turn)[BAR] >= 0
            break
