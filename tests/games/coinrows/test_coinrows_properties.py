"""Property tests over random Coin Rows games: the invariants of the rules and replay."""

from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall import Match, Record, SeededDice
from dicehall.core.game import Action, State
from dicehall.games.coinrows import (
    COLUMNS,
    LEAVE,
    CoinRows,
    CoinRowsState,
    Move,
    Phase,
    Roll,
    legal_moves,
)

MAX_ACTIONS = 20_000  # far beyond what a game within its turn limit needs


class Wanderer:
    """Random decisions that rarely leave, so that games run for a while."""

    name = "wanderer"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, state: State[Action]) -> Action:
        actions: list[Action] = list(state.legal_actions())
        if LEAVE in actions and self._rng.random() > 0.01:
            actions = [a for a in actions if a is not LEAVE]
        return actions[self._rng.randrange(len(actions))]


games = st.builds(
    lambda purse, leaving, capture, limit, payoff: CoinRows(
        purse=purse,
        leaving=leaving,
        capture=capture,
        turn_limit=limit,
        payoff=payoff,
    ),
    st.integers(5, 30),
    st.booleans(),
    st.sampled_from(["row", "adjacent"]),
    st.integers(1, 40),
    st.sampled_from(["result", "coins"]),
)


def check_invariants(state: CoinRowsState) -> None:
    game = state.game
    coins = state.coins()
    # never two coins in one column (the board has one entry per column, checked anyway)
    assert len(state.board) == 7
    assert len({c for c, _, _ in coins}) == len(coins)
    # coins are conserved: purses plus the board make the two starting purses
    assert sum(state.purses) + len(coins) == 2 * game.purse
    assert min(state.purses) >= 0
    assert 1 <= state.turn_number <= int(game.options["turn_limit"])
    if state.is_terminal():
        assert state.legal_actions() == []
        returns = state.returns()
        assert sum(returns) == 0
        if game.options["payoff"] == "result":
            assert set(returns) <= {-1.0, 0.0, 1.0}
        return
    # seven coins are in play whenever dice may be rolled (at every live state)
    assert len(coins) == 7
    assert state.legal_actions()
    if state.is_chance_node():
        assert len(state.chance_outcomes()) == 21
    if state.phase is Phase.B:
        roll = state.last_roll
        assert roll is not None and not roll.ends_turn
        pips = {m.pips for m in state.legal_actions() if isinstance(m, Move)}
        assert len(pips) == 1


@settings(max_examples=60, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants_and_replay(game: CoinRows, seed: int) -> None:
    match = Match(game, [Wanderer(seed), Wanderer(seed + 1)], SeededDice(seed))
    states = [match.state]
    while not match.state.is_terminal():
        assert len(states) < MAX_ACTIONS, "the game did not end within its turn limit"
        before = match.state
        match.step()
        text = match.record.actions[-1]
        assert before.apply_text(text) == match.state
        states.append(match.state)
    for state in states:
        assert isinstance(state, CoinRowsState)
        check_invariants(state)
    # every record replays, through JSON, to the same states, drawn the same way
    replayed = list(Record.from_json(match.record.to_json()).states())
    assert replayed == states
    assert [s.render() for s in replayed] == [s.render() for s in states]
    assert match.record.meta["returns"] == states[-1].returns()


# An independent statement of the movement rules: enumerate end squares, not dice.


def reachable(row: int, to: int, die: int) -> bool:
    """A coin on ``row`` moving ``die`` in the direction of ``to`` ends on ``to``."""
    if to > row:
        return to == min(6, row + die)
    return to < row and to == max(0, row - die)


def brute_force_plays(state: CoinRowsState, roll: Roll) -> set[tuple[tuple[int, int, int], ...]]:
    own = [(c, r) for c, r, _ in state.coins(state.turn)]
    plays: dict[tuple[tuple[int, int, int], ...], int] = {}
    for c, r in own:
        for t in range(7):
            if any(reachable(r, t, d) for d in (roll.total, roll.low, roll.high)):
                plays[((c, r, t),)] = abs(t - r)
    for (c1, r1), (c2, r2) in permutations(own, 2):
        if c1 > c2:
            continue
        for t1 in range(7):
            for t2 in range(7):
                if any(
                    reachable(r1, t1, d1) and reachable(r2, t2, d2)
                    for d1, d2 in ((roll.low, roll.high), (roll.high, roll.low))
                ):
                    plays[((c1, r1, t1), (c2, r2, t2))] = abs(t1 - r1) + abs(t2 - r2)
    if not plays:
        return set()
    best = max(plays.values())
    return {steps for steps, pips in plays.items() if pips == best}


def steps_of(action: Action) -> object:
    assert isinstance(action, Move)
    return action.steps


positions = st.tuples(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 1)), min_size=7, max_size=7),
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(0, 1),
)


@settings(max_examples=200, deadline=None)
@given(position=positions)
def test_legal_moves_are_the_longest_plays(
    position: tuple[list[tuple[int, int]], int, int, int],
) -> None:
    cells, a, b, turn = position
    coins = {f"{COLUMNS[c]}{row + 1}": owner for c, (row, owner) in enumerate(cells)}
    state = CoinRows().setup(coins, (16, 17), turn=turn)
    roll = Roll.of(a, b)
    got = {m.steps for m in legal_moves(state.board, turn, roll)}
    assert got == brute_force_plays(state, roll)
    after_roll = state.as_chance().apply(roll)
    if roll.ends_turn or not state.on_board(turn):
        assert after_roll.turn == 1 - turn
    else:
        moves = after_roll.legal_actions()
        assert {m.steps for m in moves if isinstance(m, Move)} == got == set(map(steps_of, moves))
