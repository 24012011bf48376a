"""Invariants over random White Die games (property-based)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall import CHANCE, Match, Record, load_game
from dicehall.bots import RandomBot
from dicehall.games.whitedie.rules import (
    MATCH_OPPONENT,
    OPPONENT_SIDE,
    TICTACTOE,
    WhiteDieState,
)

MAX_ACTIONS = 20_000


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    target=st.sampled_from([5, 12, 21]),
    chart=st.sampled_from(["standard", "no-straights", "flat"]),
)
def test_random_games(seed: int, players: int, target: int, chart: str) -> None:
    game = load_game("whitedie", players=players, target=target, poker_chart=chart)
    agents = [RandomBot(seed=seed + i) for i in range(players)]
    match = Match(game, agents, seed=seed)
    states: list[WhiteDieState] = [match.state]  # type: ignore[list-item]
    while not match.state.is_terminal():
        before = match.state
        assert isinstance(before, WhiteDieState)
        actor = before.current_player()
        if actor != CHANCE:
            challenge = before.challenge is not None
            assert challenge  # decisions only happen inside challenges
            allowed = {before.turn}
            if before.phase == MATCH_OPPONENT or (
                before.phase == TICTACTOE and before.side == OPPONENT_SIDE
            ):
                allowed = {before.opponent}  # type: ignore[arg-type]
            assert actor in allowed
            for action in before.legal_actions():
                assert before.parse_action(before.action_to_text(action)) == action
        else:
            assert sum(p for _, p in before.chance_outcomes()) == 1
        after = match.step()
        assert isinstance(after, WhiteDieState)
        assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
        assert sum(after.scores) - sum(before.scores) <= 12
        states.append(after)
        assert len(match.record.actions) < MAX_ACTIONS
    final = match.state
    assert isinstance(final, WhiteDieState) and final.winner is not None
    assert final.scores[final.winner] >= target
    assert sorted(final.scores)[-2] < target  # nobody else reached it
    assert abs(sum(final.returns())) < 1e-9
    replayed = list(Record.from_json(match.record.to_json()).states())
    assert replayed == states


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_only_player_and_opponent_act_in_duels(seed: int) -> None:
    """With 3-6 players, from the choice of opponent to the score nobody else acts."""
    game = load_game("whitedie", players=5, target=8)
    match = Match(game, [RandomBot(seed=seed + i) for i in range(5)], seed=seed)
    duel: tuple[int, int] | None = None
    while not match.state.is_terminal():
        s = match.state
        assert isinstance(s, WhiteDieState)
        if s.challenge in ("Tic-tac-toe", "Matching") and s.opponent is not None:
            if duel is None:
                duel = (s.turn, s.opponent)
            assert duel == (s.turn, s.opponent)
            if s.current_player() != CHANCE:
                assert s.current_player() in duel
            else:
                assert s.roller in duel
        elif s.challenge is None:
            duel = None
        match.step()
