"""The fast protocol path (lazy plays over the kernel, apply by index, rolls checked
by range, compact boards passed along) gives exactly the reference's actions and
states."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dicehall import load_game
from dicehall.core.errors import IllegalActionError
from dicehall.games.backgammon.rules import (
    CHECKERS,
    OFF,
    START_SIDE,
    BackgammonState,
    Play,
    Roll,
    generate_plays_reference,
)


def expected_after(state: BackgammonState, after) -> BackgammonState:
    """The state after a play reaching ``after``, built by hand from the rules."""
    mine, theirs = after
    game = state.game
    if mine[OFF] == CHECKERS:
        won = BackgammonState(game, after, turn=state.turn, dice=None, winner=state.turn, points=1)
        assert state._after_play(after).winner == won.winner
        return state._after_play(after)  # the end of the game (and session) as the rules say
    return BackgammonState(game, (theirs, mine), turn=1 - state.turn, dice=None)


def test_thousands_of_positions_match_the_reference() -> None:
    game = load_game("backgammon")
    rng = random.Random(19)
    positions = 0
    state = game.new_initial_state()
    while positions < 2500:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            state = state.apply(state.outcome_from_dice((rng.randint(1, 6), rng.randint(1, 6))))
            continue
        assert state.dice is not None
        reference = generate_plays_reference(state.board, state.dice)
        # the state reached by apply (compact board passed along) and a fresh one
        fresh = BackgammonState(game, state.board, state.turn, state.dice)
        for s in (state, fresh):
            legal = s.legal_actions()
            assert [p.steps for p in legal] == list(reference.values())
            assert len(legal) == len(reference)
            assert dict(s.play_results()) == {Play(v): k for k, v in reference.items()}
        i = rng.randrange(len(reference))
        after = list(reference)[i]
        chosen = state.legal_actions()[i]
        nxt = state.apply(chosen)
        assert nxt == expected_after(state, after) == fresh.apply(Play(chosen.steps))
        if len(chosen.steps) == 2 and chosen.steps[0] != chosen.steps[1]:
            # the same checkers in the other order, when that order is playable
            other = Play(chosen.steps[::-1])
            if fresh.board_after(other.steps) is not None:
                assert fresh.apply(other) == nxt
        state = nxt
        positions += 1


def test_illegal_plays_are_still_refused_with_the_legal_ones() -> None:
    s = load_game("backgammon").new_initial_state().apply(Roll(3, 1))
    with pytest.raises(IllegalActionError, match="not a legal play") as err:
        s.apply(Play(((24, 20),)))
    assert "8/5 6/5" in str(err.value)
    with pytest.raises(IllegalActionError, match="a play of the dice is expected"):
        s.apply(Roll(3, 1))


def test_rolls_are_checked_by_range() -> None:
    game = load_game("backgammon")
    opening = game.new_initial_state()
    assert opening.chance_outcomes() == [
        (Roll(a, b), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
    ]
    for roll, _ in opening.chance_outcomes():
        opening.apply(roll)
    later = opening.apply(Roll(3, 1)).apply(Play(((8, 5), (6, 5))))
    outcomes = later.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    assert later.legal_actions() == [r for r, _ in outcomes]
    for roll, _ in outcomes:
        assert later.apply(roll).dice == (roll.first, roll.second)
    for bad in (Roll(1, 3), Roll(0, 0), Roll(7, 1), Roll(6, 0)):
        with pytest.raises(IllegalActionError, match="dice must be rolled"):
            later.apply(bad)
    with pytest.raises(IllegalActionError, match="dice must be rolled"):
        opening.apply(Roll(0, 3))


def test_legal_plays_behave_as_an_immutable_sequence() -> None:
    s = load_game("backgammon").setup((START_SIDE, START_SIDE), dice=(6, 5))
    plays = s.legal_actions()
    as_list = list(plays)
    assert plays == as_list and as_list == plays and plays != as_list[:-1]
    assert plays[-1] == as_list[-1] and plays[1:3] == as_list[1:3]
    assert plays[0] is plays[0] and plays.index(as_list[2]) == 2
    assert Play(as_list[3].steps) in plays and Play(((24, 13),)) not in plays
    with pytest.raises(ValueError, match="not one of the legal plays"):
        plays.index(Play(((1, 0),)))
    with pytest.raises(IndexError):
        plays[len(as_list)]
    with pytest.raises(TypeError):
        hash(plays)
    assert repr(plays) == repr(as_list)
    assert s.legal_actions() is plays  # made once per state


def test_a_state_after_a_play_makes_its_board_when_asked() -> None:
    """After a listed play the board is made from the kernel's row only when asked;
    copies, pickles and ``dataclasses.replace`` of such a state are the same value."""
    import copy
    import dataclasses
    import pickle

    game = load_game("backgammon")
    s = game.new_initial_state().apply(Roll(3, 1))
    after = s.apply(s.legal_actions()[0])
    assert "board" not in after.__dict__
    for other in (copy.copy(after), copy.deepcopy(after), pickle.loads(pickle.dumps(after))):
        assert other == after and hash(other) == hash(after)
    # the first play of 3-1 is 8/5 6/5; the board is now the opponent's (the mover's after)
    mover = list(START_SIDE)
    for src, dst in s.legal_actions()[0].steps:
        mover[src] -= 1
        mover[dst] += 1
    assert after.board == (START_SIDE, tuple(mover)) and "board" in after.__dict__
    rolled = after.apply(Roll(6, 5))
    replaced = dataclasses.replace(rolled, dice=(4, 2))
    assert replaced.legal_actions() != rolled.legal_actions()
    assert [p.steps for p in replaced.legal_actions()] == list(
        generate_plays_reference(rolled.board, (4, 2)).values()
    )


def test_outcome_from_dice_refuses_faces_that_are_not_two_dice() -> None:
    later = load_game("backgammon").new_initial_state().apply(Roll(3, 1)).apply_text("8/5 6/5")
    assert later.outcome_from_dice((2, 5)) == Roll(5, 2)
    assert later.outcome_from_dice([5, 2]) is later.outcome_from_dice((2, 5))
    for bad in ((0, 3), (7, 1), (1, 2, 3), (1,)):
        with pytest.raises(ValueError, match="two dice faces 1..6"):
            later.outcome_from_dice(bad)
