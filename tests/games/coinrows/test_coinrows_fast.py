"""The fast protocol path gives exactly what the rules as written give.

* The compiled move generation (``fast.legal_moves``, integer move codes, lazy ``Move``
  objects) gives the moves of the rules' plain search, in the same order.
* The fast captures (``board_captures``) are ``capture_options``.
* Whole transitions: along seeded random games under several option sets, every
  state's legal actions and every next state equal those of a plain re-statement of
  the rules here (``reference_legal`` / ``reference_apply``, written from
  docs/rules/coinrows.md with ``dataclasses.replace``).
* The lazy moves behave as a sequence, and bad actions are refused as before.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall import load_game
from dicehall.core.errors import GameOverError, IllegalActionError
from dicehall.games.coinrows import fast
from dicehall.games.coinrows.board import (
    ALL_ROLLS,
    HOME_ROWS,
    LEAVE,
    ROLL,
    ROLL_OF,
    START_BOARD,
    Capture,
    Coin,
    Ending,
    LegalMoves,
    Move,
    Phase,
    Roll,
    _candidate_steps,
    board_captures,
    capture_options,
    code_steps,
    legal_moves,
    move_code,
    moves_of,
    own_coins,
)
from dicehall.games.coinrows.rules import CoinRowsState


def reference_moves(board, seat: int, roll: Roll) -> list[Move]:
    """The rule as written: every way to move the whole roll (one coin by the total, or
    two coins one die each, up or down, stopping at the edge); those that move the
    most squares, sorted."""
    candidates = _candidate_steps(own_coins(board, seat), roll, partial=False)
    if not candidates:
        return []
    best = max(pips for _, pips in candidates)
    return [Move(s) for s in sorted({s for s, pips in candidates if pips == best})]


boards = st.lists(
    st.one_of(st.none(), st.builds(Coin, st.integers(0, 6), st.integers(0, 1))),
    min_size=7,
    max_size=7,
).map(tuple)
rolls = st.sampled_from(sorted(set(ROLL_OF.values()), key=lambda r: (r.low, r.high)))


@settings(max_examples=400, deadline=None)
@given(board=boards, seat=st.integers(0, 1), roll=rolls)
def test_fast_moves_equal_the_plain_search(board, seat: int, roll: Roll) -> None:
    expected = reference_moves(board, seat, roll)
    compiled = fast.legal_moves(board, seat, roll.low, roll.high)
    assert compiled == expected and list(compiled) == expected
    assert moves_of(own_coins(board, seat), roll.low, roll.high) == expected
    assert legal_moves(board, seat, roll) == expected
    assert compiled.pips == (expected[0].pips if expected else 0)
    assert all(m.pips == compiled.pips for m in compiled)


def test_compiled_moves_equal_the_plain_search_on_thousands_of_boards() -> None:
    """Seeded sample: 3,000 boards of 1 to 7 coins of one seat (the other seat's coins
    do not matter), each with every one of the 21 rolls."""
    rng = random.Random(19)
    for _ in range(3000):
        columns = rng.sample(range(7), rng.randint(1, 7))
        board = tuple(Coin(rng.randrange(7), 0) if c in columns else None for c in range(7))
        for roll in ROLL_OF.values():
            if roll.low == roll.high or (roll.low, roll.high) == (1, 2) or rng.random() < 0.4:
                expected = reference_moves(board, 0, roll)
                assert list(fast.legal_moves(board, 0, roll.low, roll.high)) == expected


def test_move_codes_sort_as_steps_and_round_trip() -> None:
    steps = [((c, r, t),) for c in range(7) for r in range(7) for t in range(7)]
    steps += [((1, 3, 4), (2, 0, 6)), ((1, 3, 4), (6, 6, 0)), ((0, 0, 1), (6, 6, 5))]
    assert all(code_steps(move_code(s)) == s for s in steps)
    assert sorted(steps) == sorted(steps, key=move_code)


def test_lazy_moves_refuse_lookalikes() -> None:
    """A move whose numbers are out of range, or in the wrong column order, or whose
    from-row is not where the coin stands, is not one of the moves even where its code
    would collide with one (row 7 of column a is row 0 of column b by the formula)."""
    moves = fast.legal_moves(START_BOARD, 0, 1, 1)
    assert Move(((3, 0, 1), (2, 0, 1))) not in moves and Move(((2, 0, 1), (3, 0, 1))) in moves
    assert Move(((1, 7, 1), (3, 0, 1))) not in moves and Move(((2, 0, 1), (3, 0, 1))) in moves
    assert Move(((2, 1, 2),)) not in moves and Move((("c", 0, 2),)) not in moves  # type: ignore[arg-type]
    assert Move(()) not in moves and Move(((2, 0, 1), (3, 0, 1), (4, 0, 1))) not in moves


@settings(max_examples=300, deadline=None)
@given(board=boards, rule=st.sampled_from(["row", "adjacent"]))
def test_fast_captures_equal_capture_options(board, rule: str) -> None:
    assert list(board_captures(board, rule)) == capture_options(board, rule)


# -- whole transitions against a plain re-statement of the rules ---------------------


def reference_legal(state: CoinRowsState) -> list[Any]:
    """The legal actions by the rules: Phase A roll, the captures, leave (if allowed);
    the 21 rolls at the dice; Phase B the longest plays (``reference_moves``)."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.DICE:
        return [roll for roll, _ in ALL_ROLLS]
    if state.phase is Phase.B:
        assert state.last_roll is not None
        return reference_moves(state.board, state.turn, state.last_roll)
    leave = [LEAVE] if state.game.options["leaving"] else []
    return [ROLL, *capture_options(state.board, str(state.game.options["capture"])), *leave]


def reference_apply(state: CoinRowsState, action: Any) -> CoinRowsState:
    """The next state by the rules, with ``dataclasses.replace``."""
    replace = dataclasses.replace
    game, turn = state.game, state.turn

    def end_turn(board: tuple, purses: tuple[int, int], roll: Any, emptied=()) -> CoinRowsState:
        if state.turn_number >= int(game.options["turn_limit"]):
            return replace(state, board=board, purses=purses, last_roll=roll, refilled=(),
                           phase=Phase.OVER, ending=Ending.TURN_LIMIT)  # fmt: skip
        nxt = 1 - turn
        paid = tuple(emptied)[: purses[nxt]]
        cells = list(board)
        for c in paid:
            cells[c] = Coin(HOME_ROWS[nxt], nxt)
        left = list(purses)
        left[nxt] -= len(paid)
        after = replace(state, board=tuple(cells), purses=(left[0], left[1]), last_roll=roll,
                        turn=nxt, turn_number=state.turn_number + 1, refilled=paid,
                        phase=Phase.A)  # fmt: skip
        if len(paid) < len(emptied):
            after = replace(after, phase=Phase.OVER, ending=Ending.BROKE, ended_by=nxt)
        return after

    if action is ROLL:
        return replace(state, phase=Phase.DICE, refilled=())
    if action is LEAVE:
        return replace(state, phase=Phase.OVER, ending=Ending.LEFT, ended_by=turn)
    if isinstance(action, Roll):
        if action.total in (7, 11, 12) or not any(c and c.owner == turn for c in state.board):
            return end_turn(state.board, state.purses, action)
        return replace(state, phase=Phase.B, last_roll=action)
    if isinstance(action, Capture):
        cells = list(state.board)
        for c in action.columns:
            cells[c] = None
        purses = list(state.purses)
        purses[turn] += len(action.columns)
        return end_turn(tuple(cells), (purses[0], purses[1]), state.last_roll, action.columns)
    assert isinstance(action, Move) and state.last_roll is not None
    cells = list(state.board)
    for column, _, to in action.steps:
        cells[column] = Coin(to, turn)
    if action.pips == state.last_roll.total:
        return replace(state, board=tuple(cells), phase=Phase.A, refilled=())
    return end_turn(tuple(cells), state.purses, state.last_roll)


def fields(state: CoinRowsState) -> tuple[Any, ...]:
    return tuple(getattr(state, f.name) for f in dataclasses.fields(state))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"leaving": False},
        {"leaving": False, "capture": "adjacent"},
        {"leaving": False, "purse": 7, "turn_limit": 300},
        {"opening": "2-5", "payoff": "coins", "purse": 9, "leaving": False},
        {"opening": "6-1", "turn_limit": 40, "leaving": False},
    ],
)
def test_fast_transitions_equal_the_rules_as_written(options: dict[str, Any]) -> None:
    """Seeded random games (several thousand positions per option set): at every state
    the legal actions equal the reference's, and the state after each action (one picked
    at random, applied as the object ``legal_actions()`` handed out) has the same fields
    as the reference's next state, and compares equal to it."""
    game = load_game("coinrows", **options)
    rng = random.Random(2026)
    positions = 0
    while positions < 4000:
        state = game.new_initial_state()
        while not state.is_terminal():
            positions += 1
            legal = state.legal_actions()
            assert list(legal) == reference_legal(state)
            if state.is_chance_node():
                action = state.outcome_from_dice((rng.randint(1, 6), rng.randint(1, 6)))
            else:
                action = legal[rng.randrange(len(legal))]
            after = state.apply(action)
            expected = reference_apply(state, action)
            assert fields(after) == fields(expected) and after == expected
            assert after.legal_actions() == reference_legal(after)
            state = after
        assert state.legal_actions() == [] and state.returns() == expected.returns()


def test_bad_actions_are_refused_as_before() -> None:
    game = load_game("coinrows", leaving=False)
    start = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="leaving is not allowed"):
        start.apply(LEAVE)
    with pytest.raises(IllegalActionError, match="in Phase A capture a row, roll or leave"):
        start.apply(ROLL_OF[2, 3])
    dice = start.apply(ROLL)
    with pytest.raises(IllegalActionError, match="the dice must be rolled now"):
        dice.apply(ROLL)
    assert dice.apply(Roll(2, 3)) == dice.apply(ROLL_OF[3, 2])  # equal, not the same object
    moving = dice.apply(ROLL_OF[2, 3])
    with pytest.raises(IllegalActionError, match="not a legal play of the roll 2-3"):
        moving.apply(ROLL)
    with pytest.raises(IllegalActionError, match="not a legal play"):
        moving.apply(Move(((2, 0, 4),)))  # 4 of the 5 squares, where all 5 can be moved
    first = moving.legal_actions()[0]
    assert moving.apply(Move(first.steps)) == moving.apply(first)
    assert moving.apply(Move(((2, 0, 5),))).board[2] == Coin(5, 0)
    over = load_game("coinrows").new_initial_state().apply(LEAVE)
    with pytest.raises(GameOverError):
        over.apply(ROLL)


def test_legal_moves_behave_as_an_immutable_sequence() -> None:
    moves = moves_of(own_coins(START_BOARD, 0), 2, 3)
    as_list = list(moves)
    assert isinstance(moves, LegalMoves) and len(moves) == 25 == len(as_list)
    assert moves == as_list and moves != as_list[:-1] and moves[1:3] == as_list[1:3]
    assert moves[0] is moves[0] and moves[-1] == as_list[-1]
    assert Move(as_list[4].steps) in moves and moves.index(Move(as_list[4].steps)) == 4
    assert Move(((0, 6, 5),)) not in moves and "c1-c4" not in moves
    with pytest.raises(ValueError, match="not one of the legal moves"):
        moves.index(Move(((0, 6, 5),)))
    with pytest.raises(IndexError):
        moves[25]
    with pytest.raises(TypeError):
        hash(moves)
    assert repr(moves) == repr(as_list)


def test_a_state_applies_its_own_and_equal_moves_and_refuses_others() -> None:
    state = load_game("coinrows").new_initial_state().apply_text("roll").apply_text("2-3")
    legal = state.legal_actions()
    assert state.apply(legal[3]) == state.apply(Move(legal[3].steps))
    with pytest.raises(ValueError, match="not a legal play of the roll 2-3"):
        state.apply(Move(((2, 0, 1),)))
    chance = load_game("coinrows").new_initial_state().apply_text("roll")
    assert chance.outcome_from_dice((3, 2)) is chance.outcome_from_dice([2, 3]) is ROLL_OF[2, 3]
    for bad in ((0, 2), (7, 1), (1, 2, 3)):
        with pytest.raises(ValueError, match="two dice faces 1..6"):
            chance.outcome_from_dice(bad)
