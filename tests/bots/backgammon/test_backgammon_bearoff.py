"""Bear-off databases: hand-worked values, consistency with the rules, use by the bots."""

from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest

from dicehall.bots.backgammon import Bot
from dicehall.bots.backgammon import bearoff as bo
from dicehall.games.backgammon import fast
from dicehall.games.backgammon.notation import decode_position_id
from dicehall.games.backgammon.rules import generate_plays_reference

ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
WEIGHT = {r: (1 if r[0] == r[1] else 2) / 36 for r in ROLLS}


@pytest.fixture(scope="module")
def db() -> bo.Databases:
    return bo.load(progress=False)


def home(*points: int) -> list[int]:
    """Counts on points 1..6 from a list of checker points."""
    out = [0] * 6
    for p in points:
        out[p - 1] += 1
    return out


def test_index_is_a_bijection() -> None:
    for total in (6, 15):
        pos = bo.positions(total)
        assert pos.shape[0] == comb(total + 6, 6)
        assert (pos[:, 1:].sum(axis=1) + pos[:, 0] == total).all()
        assert len({tuple(r) for r in pos.tolist()}) == pos.shape[0]
    assert bo.ONE_SIZE == 54_264 and bo.TWO_SIDE == 924


def test_hand_worked_one_sided_values(db: bo.Databases) -> None:
    # one checker on the 1-point (or two): any roll bears it off
    for counts in (home(1), home(1, 1), home(2, 1)):
        d = db.one_sided(counts)
        assert d[1] == pytest.approx(1.0) and db.expected_rolls(counts) == pytest.approx(1.0)
    # one checker on the 6-point: 1-1, 2-1, 3-1, 4-1, 3-2 fail (9 of 36), then any roll
    d = db.one_sided(home(6))
    assert d[1] == pytest.approx(27 / 36) and d[2] == pytest.approx(9 / 36)
    assert db.expected_rolls(home(6)) == pytest.approx(1.25)
    # two checkers on the 6-point: only 3-3, 4-4, 5-5 and 6-6 take both off at once
    assert db.one_sided(home(6, 6))[1] == pytest.approx(4 / 36)
    # five on the 1-point: a double takes four, any other roll two; done in two rolls
    # after a double first (1/6) or a non-double then a double (5/6 * 1/6), else three
    d = db.one_sided(home(1, 1, 1, 1, 1))
    assert d[2] == pytest.approx(11 / 36) and d[3] == pytest.approx(25 / 36)
    # fifteen checkers: every distribution sums to one and starts after 0 rolls only
    # for the empty position
    assert np.allclose(db.one.sum(axis=1), 1.0, atol=1e-5)
    assert db.one[0, 0] == 1.0 and (db.one[1:, 0] == 0).all()


def test_hand_worked_two_sided_values(db: bo.Databases) -> None:
    assert db.win_on_roll(home(6), home(1)) == pytest.approx(27 / 36)
    # both on the 6-point: I win at once 27/36; else he misses 9/36 and I then finish
    assert db.win_on_roll(home(6), home(6)) == pytest.approx(27 / 36 + (9 / 36) ** 2)
    assert db.win_on_roll(home(1, 2), home(1)) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="up to 6 checkers"):
        db.win_on_roll(home(1, 1, 1, 1, 1, 1, 1), home(1))
    with pytest.raises(ValueError, match="not a home-board position"):
        db.one_sided([0, 0, 0, 0, 0, 16])


def successors(counts: tuple[int, ...], roll: tuple[int, int]) -> list[tuple[int, ...]]:
    """Home-board counts after each legal play, from the reference (pure Python) rules."""
    mine = [15 - sum(counts), *counts] + [0] * 19
    theirs = [0] * 26
    theirs[1] = 15
    after = generate_plays_reference((tuple(mine), tuple(theirs)), roll)
    return [tuple(b[0][1:7]) for b in after]


def test_one_sided_entries_are_the_expectation_of_their_best_successor(
    db: bo.Databases,
) -> None:
    """E[rolls](i) = 1 + sum over rolls of min over plays E[rolls](successor), for
    random entries, with plays from the reference rules (not the compiled ones)."""
    pos = bo.positions(15)
    rng = random.Random(16)
    means = (db.one * np.arange(bo.MAX_ROLLS)).sum(axis=1)
    for i in rng.sample(range(1, bo.ONE_SIZE), 150):
        counts = tuple(int(c) for c in pos[i, 1:7])
        expect = 1.0
        for roll in ROLLS:
            best = min(means[bo.rank(np.array([0, *s]), 15)] for s in successors(counts, roll))
            expect += WEIGHT[roll] * best
        assert means[i] == pytest.approx(expect, abs=1e-4), counts


def test_two_sided_entries_are_the_expectation_of_their_best_successor(
    db: bo.Databases,
) -> None:
    pos = bo.positions(6)
    rng = random.Random(61)
    for _ in range(150):
        i, j = rng.randrange(1, bo.TWO_SIDE), rng.randrange(1, bo.TWO_SIDE)
        mine = tuple(int(c) for c in pos[i, 1:7])
        theirs = tuple(int(c) for c in pos[j, 1:7])
        expect = 0.0
        for roll in ROLLS:
            best = 0.0
            for s in successors(mine, roll):
                best = max(best, 1.0 if sum(s) == 0 else 1.0 - db.win_on_roll(theirs, s))
            expect += WEIGHT[roll] * best
        assert db.win_on_roll(mine, theirs) == pytest.approx(expect, abs=1e-5)


def test_two_sided_symmetry_and_monotony(db: bo.Databases) -> None:
    """Being on roll never hurts in a bear-off: p(i on roll vs j) + p(j on roll vs i) >= 1;
    the same position against itself favours the side on roll; an extra checker for
    the opponent never lowers my chance."""
    two = db.two.reshape(bo.TWO_SIDE, bo.TWO_SIDE)
    assert (two[1:, 1:] + two[1:, 1:].T >= 1.0 - 1e-6).all()
    assert (np.diag(two)[1:] >= 0.5 - 1e-6).all()
    pos = bo.positions(6)
    rng = random.Random(3)
    for _ in range(300):
        i, j = rng.randrange(1, bo.TWO_SIDE), rng.randrange(1, bo.TWO_SIDE)
        theirs = pos[j].copy()
        if theirs[1:].sum() == 6:
            continue
        theirs[rng.randrange(1, 7)] += 1
        assert two[i, bo.rank(theirs, 6)] >= two[i, j] - 1e-6


def test_the_evaluator_uses_the_databases(db: bo.Databases) -> None:
    """The two bear-off errors of the issue are gone at 0-ply; the values are gnubg's."""
    for pid, dice, best_steps, win in (
        ("hQAAoFYAAAAAAA", (6, 3), [[6, 0], [3, 0]], 0.063),
        ("pQsAAN0mAAAAAA", (1, 1), [[2, 1], [2, 1], [1, 0], [1, 0]], 0.512),
    ):
        board = fast.to_array(decode_position_id(pid))
        _n, _, boards, steps = fast.plays(board, *dice)
        bot = Bot("medium")
        i = bot.choose(board, *dice)
        assert [list(s) for s in steps[i].tolist() if s[0] != s[1]] == best_steps, pid
        probs = bot.network.evaluate(boards[i])
        assert probs[0] == pytest.approx(win, abs=0.001)
    # without the databases (and the race net) the net makes the 1.0% play
    from dicehall.bots.backgammon import race
    from dicehall.bots.backgammon.network import Network

    bare = Network.load()
    bare.bearoff = False
    bare.race = race.empty()
    board = fast.to_array(decode_position_id("hQAAoFYAAAAAAA"))
    assert Bot("medium", network=bare).choose(board, 6, 3) != Bot("medium").choose(board, 6, 3)


def test_one_sided_gammon_distribution(db: bo.Databases) -> None:
    """Rolls to take the first checker off, for positions with all 15 still on."""
    fifteen = [0, 0, 0, 0, 0, 15]
    g = db.gammon[bo.rank(np.array([0, *fifteen]), 15)]
    # any 6, or 5-1, 4-2, 3-3 and 2-2 (one checker all the way): 17 of 36
    assert g[1] == pytest.approx(17 / 36)
    assert g.sum() == pytest.approx(1.0, abs=1e-5)
    # one on the 1-point, 14 on the 6-point: any 1 or 6 (20 rolls), 4-2, 3-3, 2-2
    assert db.gammon[bo.rank(np.array([0, 1, 0, 0, 0, 0, 14]), 15)][1] == pytest.approx(24 / 36)
