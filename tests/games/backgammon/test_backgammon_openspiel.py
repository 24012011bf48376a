"""Cross-check of legal plays against OpenSpiel's independent C++ backgammon.

Random games are played in both engines with the same dice; at every decision
the two must offer exactly the same set of resulting positions.
"""

from __future__ import annotations

import random
import re

import pytest

from dicehall import load_game
from dicehall.games.backgammon import BackgammonState, Roll

pyspiel = pytest.importorskip("pyspiel")

Position = tuple[tuple[int, ...], tuple[int, ...], int, int]  # X points, O points, bars


def os_position(s: object) -> Position:
    """(X checkers on X's points 1..24, O's on O's points 1..24, X bar, O bar)."""
    x = tuple(s.board(0, 24 - p) for p in range(1, 25))  # type: ignore[attr-defined]
    o = tuple(s.board(1, p - 1) for p in range(1, 25))  # type: ignore[attr-defined]
    bar = re.search(r"Bar:[ \t]*(\S*)", str(s))
    bars = bar.group(1) if bar else ""
    return x, o, bars.count("x"), bars.count("o")


def our_position(board: tuple[tuple[int, ...], tuple[int, ...]], turn: int) -> Position:
    """The same tuple for one of our boards (``board[0]`` belongs to seat ``turn``)."""
    sides = (board[0], board[1]) if turn == 0 else (board[1], board[0])
    return tuple(sides[0][1:25]), tuple(sides[1][1:25]), sides[0][25], sides[1][25]


def os_results(s: object, player: int) -> dict[Position, list[int]]:
    """Positions reachable by the player's whole turn in OpenSpiel (doubles may take two
    actions there) with the action path reaching each."""
    out: dict[Position, list[int]] = {}

    def walk(state: object, path: list[int]) -> None:
        for a in state.legal_actions():  # type: ignore[attr-defined]
            child = state.child(a)  # type: ignore[attr-defined]
            if not child.is_terminal() and child.current_player() == player:
                walk(child, [*path, a])
            else:
                out.setdefault(os_position(child), [*path, a])

    walk(s, [])
    return out


def _opening(os_state: object, a: int, b: int) -> None:
    """Apply OpenSpiel's opening outcome where seat 0 (X) rolled ``a`` and O ``b``.

    OpenSpiel names the starter and the two dice; we let the higher die start."""
    starter = "X" if a > b else "O"
    for action, _ in os_state.chance_outcomes():  # type: ignore[attr-defined]
        text = os_state.action_to_string(-1, action)  # type: ignore[attr-defined]
        digits = re.findall(r"roll: (\d)(\d)", text)
        if f"{starter} starts" in text and sorted(map(int, digits[0])) == sorted((a, b)):
            os_state.apply_action(action)  # type: ignore[attr-defined]
            return
    raise AssertionError(f"no OpenSpiel opening outcome for {a}-{b}")


def _roll(os_state: object, a: int, b: int) -> None:
    for action, _ in os_state.chance_outcomes():  # type: ignore[attr-defined]
        text = os_state.action_to_string(-1, action)  # type: ignore[attr-defined]
        digits = re.findall(r"roll: (\d)(\d)", text)
        if digits and sorted(map(int, digits[0])) == sorted((a, b)):
            os_state.apply_action(action)  # type: ignore[attr-defined]
            return
    raise AssertionError(f"no OpenSpiel roll {a}-{b}")


@pytest.mark.parametrize("seed", range(40))
def test_same_legal_positions_as_openspiel(seed: int) -> None:
    rng = random.Random(seed)
    ours: BackgammonState = load_game("backgammon").new_initial_state()
    theirs = pyspiel.load_game("backgammon").new_initial_state()
    a, b = rng.sample(range(1, 7), 2)
    ours = ours.apply(Roll(a, b))
    _opening(theirs, a, b)
    decisions = 0
    while not ours.is_terminal():
        if ours.is_chance_node():
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            ours = ours.apply(Roll(max(d1, d2), min(d1, d2)))
            _roll(theirs, d1, d2)
            continue
        assert theirs.current_player() == ours.turn
        expected = os_results(theirs, ours.turn)
        got = {our_position(board, ours.turn): play for play, board in ours.play_results()}
        assert set(got) == set(expected), (ours.position_id(), ours.dice)
        choice = rng.choice(sorted(got))
        ours = ours.apply(got[choice])
        for action in expected[choice]:
            theirs.apply_action(action)
        decisions += 1
    assert theirs.is_terminal()
    assert decisions > 20
