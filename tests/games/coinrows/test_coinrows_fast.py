"""The fast move generation (per row-pair tables, lazy ``Move`` objects) gives exactly
the moves of the rules' plain search, and the lazy moves behave as a sequence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall import load_game
from dicehall.games.coinrows.board import (
    ROLL_OF,
    START_BOARD,
    Coin,
    LegalMoves,
    Move,
    Roll,
    _candidate_steps,
    legal_moves,
    moves_of,
    own_coins,
)


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
    fast = moves_of(own_coins(board, seat), roll.low, roll.high)
    assert fast == expected and list(fast) == expected
    assert legal_moves(board, seat, roll) == expected


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
