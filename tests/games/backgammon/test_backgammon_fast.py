"""The compiled move generator equals the reference ``generate_plays`` exactly:
same positions, same order, same representative steps."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicehall.games.backgammon import fast, rules
from dicehall.games.backgammon.rules import START_SIDE, Board

reference = getattr(rules, "generate_plays_reference", rules.generate_plays)


def random_board(rng: random.Random, kind: str) -> Board:
    """A legal random position; ``kind`` biases it towards bar entries or bear-offs."""
    while True:
        sides = [[0] * 26 for _ in range(2)]
        owner = [-1] * 25  # owner of each point, in seat 0's numbering
        for p in range(2):
            for _ in range(15):
                r = rng.random()
                if r < {"bar": 0.2, "any": 0.05}.get(kind, 0.0):
                    sides[p][25] += 1
                elif r < 0.1 + (0.15 if kind == "bearoff" else 0.0):
                    sides[p][0] += 1
                else:
                    home = (kind == "bearoff" and p == 0) or rng.random() < 0.3
                    for _ in range(50):
                        point = rng.randint(1, 6) if home else rng.randint(1, 24)
                        absolute = point if p == 0 else 25 - point
                        if owner[absolute] in (-1, p):
                            break
                    else:
                        sides[p][25] += 1
                        continue
                    owner[absolute] = p
                    sides[p][point] += 1
        if sides[0][0] < 15 and sides[1][0] < 15:
            return (tuple(sides[0]), tuple(sides[1]))


def test_fast_equals_reference_on_random_positions() -> None:
    rng = random.Random(2024)
    seen = {"bar": 0, "bearoff": 0, "larger_die": 0, "pass": 0, "double": 0}
    total = 0
    for kind, count in (("any", 1500), ("bar", 600), ("bearoff", 600)):
        for _ in range(count):
            board = random_board(rng, kind)
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            dice = (max(a, b), min(a, b))
            ref = reference(board, dice)
            got = fast.generate_plays(board, dice)
            assert list(got.items()) == list(ref.items()), (board, dice)
            total += 1
            steps = [s for play in ref.values() for s in play]
            seen["bar"] += any(src == 25 for src, _ in steps)
            seen["bearoff"] += any(dst == 0 for _, dst in steps)
            seen["pass"] += ref == {board: ()}
            seen["double"] += a == b and len(ref) > 1
            if a != b and all(len(p) == 1 for p in ref.values()) and ref != {board: ()}:
                seen["larger_die"] += 1
    assert total == 2700
    # every rule the fast path must get right came up many times
    assert min(seen.values()) >= 20, seen


def test_larger_die_must_be_played() -> None:
    # one checker on 24 (seat 0), the opponent's points block 24-5=19 after 24-6=18 ...
    mine = [0] * 26
    mine[24] = 1
    mine[0] = 14
    theirs = [0] * 26
    for point in (25 - 13, 25 - 14):  # seat 0's 13 and 14 held by the opponent
        theirs[point] = 2
    theirs[1] = 11
    board = (tuple(mine), tuple(theirs))
    # 6-5: 24/18 then 18/13 blocked; 24/19 then 19/13 blocked: one die only -> the 6
    plays = fast.generate_plays(board, (6, 5))
    assert list(plays.values()) == [((24, 18),)]
    assert plays == reference(board, (6, 5))


def test_bar_entry_and_blocked_bar() -> None:
    mine = list(START_SIDE)
    mine[6] -= 1
    mine[25] = 1
    theirs = list(START_SIDE)
    board = (tuple(mine), tuple(theirs))
    # the opponent holds his 6 point = our entry point for a 6 (25-6=19? no: bar/19)
    for dice in ((6, 6), (6, 5), (4, 2), (1, 1)):
        assert fast.generate_plays(board, dice) == reference(board, dice)
    closed = [0] * 26
    for p in range(1, 7):
        closed[p] = 2
    closed[13] = 3
    board = (tuple(mine), tuple(closed))
    assert fast.generate_plays(board, (5, 3)) == {board: ()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_random_games_agree(seed: int) -> None:
    rng = random.Random(seed)
    board: Board = (START_SIDE, START_SIDE)
    for _ in range(400):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        dice = (max(a, b), min(a, b))
        ref = reference(board, dice)
        assert list(fast.generate_plays(board, dice).items()) == list(ref.items())
        after = rng.choice(list(ref))
        board = (START_SIDE, START_SIDE) if after[0][0] == 15 else (after[1], after[0])


def test_random_games_kernel_runs() -> None:
    plies, total = fast.random_games(5, 7)
    assert plies > 0 and total >= plies
    n, used, boards, steps = fast.plays(np.array([START_SIDE, START_SIDE], np.int8), 6, 6)
    assert used == 4 and boards.shape == (n, 2, 26) and steps.shape == (n, 4, 2)


def test_categories_are_counted() -> None:
    # the generator above really produces every kind of position
    rng = random.Random(5)
    boards = [random_board(rng, "bearoff") for _ in range(50)]
    assert any(all(b[0][i] == 0 for i in range(7, 26)) for b in boards)
