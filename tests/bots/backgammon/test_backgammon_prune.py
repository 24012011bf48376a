"""The pruning net (``prune.py``): its inputs are the full net's first 200, its compiled
scores are the training's formula, the shipped one keeps the full net's best play,
the search with it changes nothing where it does not apply, and training resumes bit
for bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.bots.backgammon import Bot, prune, race
from dicehall.bots.backgammon import prune_training as pt
from dicehall.bots.backgammon.features import (
    CHEAP_INPUTS,
    NUM_INPUTS,
    encode,
    encode_base,
    is_race,
)
from dicehall.bots.backgammon.network import Network
from dicehall.bots.backgammon.search import PRUNE_COST, _best_reply_0ply, analyse
from dicehall.games.backgammon.fast import plays, start_board, swap


@pytest.fixture(scope="module")
def sample() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """6,000 after-positions of whole decisions from self-play (seed 11, not the
    shipped pruner's seed 1), with the shipped evaluator's targets."""
    return pt.sample_plays(6_000, 11, *Network.load().params())


def test_the_pruners_inputs_are_the_full_nets_first_200(sample) -> None:  # type: ignore[no-untyped-def]
    boards = sample[0]
    full = np.zeros(NUM_INPUTS)
    cheap = np.zeros(CHEAP_INPUTS)
    for board in boards[::37]:
        encode(board, full)
        cheap[:] = 0.0
        encode_base(board, cheap)
        assert np.array_equal(full[:CHEAP_INPUTS], cheap)
        assert np.array_equal(pt.encode_all(board[None])[0], cheap)


def test_compiled_scores_are_the_training_formula(sample) -> None:  # type: ignore[no-untyped-def]
    boards = sample[0][:400]
    weights = list(prune.load()[0])
    expected = pt.predict(pt.encode_all(boards), weights)
    for single, col in ((True, 0), (False, 1)):
        out = np.empty(boards.shape[0])
        prune.prune_scores(boards, boards.shape[0], *weights, single, out)
        assert out == pytest.approx(expected[:, col], abs=1e-6)  # tabulated sigmoid


def test_a_play_that_wins_always_survives_the_cut() -> None:
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 0], board[0, 2] = 14, 1  # the last checker, on the 2-point
    board[1, 0], board[1, 24] = 14, 1
    n, _, boards, _ = plays(board, 6, 2)
    out = np.empty(n)
    prune.prune_scores(boards, n, *prune.load()[0], True, out)
    assert all(out[i] == 1e9 for i in range(n) if boards[i, 0, 0] == 15)


def test_misses_on_hand_made_decisions() -> None:
    # a net that scores every position alike keeps the first k plays of each decision
    weights = [np.zeros((CHEAP_INPUTS, 2)), np.zeros(2), np.zeros((2, 2)), np.zeros(2)]
    x = np.zeros((8, CHEAP_INPUTS))
    group = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    eqs = np.zeros((8, 2))
    eqs[:4, 0] = [0.3, 0.1, 0.0, 0.2]  # the best is first: kept
    eqs[4:, 0] = [0.0, 0.1, -0.2, 0.5]  # the best is last: missed by 0.5 - 0.1
    share, lost = pt.misses(x, eqs, group, weights, keep=2)
    assert share == 0.5 and lost == pytest.approx(0.2)
    assert pt.misses(x, eqs, group, weights, keep=4) == (0.0, 0.0)  # no decision > 4 plays


def test_the_shipped_pruner_keeps_the_full_nets_best_play(sample) -> None:  # type: ignore[no-untyped-def]
    """On decisions it was not fitted on, the full net's best play is among the
    pruner's best 6 in over 90% of them (about 95% measured), and the equity given
    away when it is not averages under 0.005 a decision (0.0007 measured)."""
    boards, targets, group = sample
    x, eqs = pt.encode_all(boards), pt.equities(targets)
    weights = list(prune.load()[0])
    for col in (0, 1):
        share, lost = pt.misses(x, eqs, group, weights, 6, col)
        assert share < 0.10 and lost < 0.005, (col, share, lost)
        assert pt.misses(x, eqs, group, weights, 2, col)[0] > share  # a cut that bites


def test_a_bad_weights_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "race.npz"
    race.save(path, race.create(4, 1), {}, compact=True)
    with pytest.raises(ValueError, match="not pruning weights"):
        prune.load(path)
    with pytest.raises(FileNotFoundError):
        prune.load(tmp_path / "missing.npz")


def _positions(count: int, seed: int) -> list[tuple[np.ndarray, int, int]]:
    rng = np.random.default_rng(seed)
    board, out = start_board(), []
    while len(out) < count:
        d1, d2 = sorted(rng.integers(1, 7, 2), reverse=True)
        n, _, boards, _ = plays(board, d1, d2)
        if n > 1:
            out.append((board.copy(), int(d1), int(d2)))
        board = swap(boards[rng.integers(n)]) if n else swap(board)
        if board[1, 0] == 15 or board[0, 0] == 15:
            board = start_board()
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([(6, 5), (4, 4), (3, 1), (6, 2)]))
def test_the_pruned_reply_is_the_best_of_the_kept_plays(seed: int, roll: tuple[int, int]) -> None:
    w1, b1, w2, b2, ext = Network.load().params()
    opp = _positions(1 + seed % 30, seed)[-1][0]  # some moves into a random game
    n = plays(opp, *roll)[0]
    full, pruned = np.empty(5), np.empty(5)
    assert _best_reply_0ply(opp, *roll, w1, b1, w2, b2, ext, True, full, 0) == n
    cost = _best_reply_0ply(opp, *roll, w1, b1, w2, b2, ext, True, pruned, 4)
    if n <= 4 or is_race(opp):
        assert cost == n and np.array_equal(full, pruned)
    else:
        assert cost == 4 + n // PRUNE_COST
        assert pruned[0] <= full[0]  # the best of a subset is no better than the best


def test_pruning_that_cannot_apply_changes_nothing() -> None:
    """No pruning net, or a cut wider than any roll's plays, gives the unpruned search."""
    net = Network.load()
    bare = Network(net.w1, net.b1, net.w2, net.b2, {}, prune=prune.empty())
    for board, d1, d2 in _positions(6, 3):
        base = analyse(board, d1, d2, *net.params(), True, 2, 6, 0.25, 3, 0.1, 1, 100_000)
        for params, cut in ((bare.params(), 6), (net.params(), 10_000)):
            got = analyse(board, d1, d2, *params, True, 2, 6, 0.25, 3, 0.1, 1, 100_000, prune=cut)
            for a, b in zip(base, got, strict=True):
                assert np.array_equal(a, b)


def test_the_pruned_expert_mostly_agrees_with_the_unpruned() -> None:
    expert, pruned = Bot("expert-unpruned"), Bot("expert")
    assert pruned.settings.prune > 0 and expert.settings.prune == 0
    positions = _positions(30, 8)
    same = sum(expert.choose(*p) == pruned.choose(*p) for p in positions)
    assert same >= 27  # 296 of 300 on the benchmark's positions (seed 1)


def test_training_resumes_bit_for_bit(tmp_path: Path, sample) -> None:  # type: ignore[no-untyped-def]
    boards, targets, group = sample
    cut = 3000
    x, eqs, g = pt.encode_all(boards[:cut]), pt.equities(targets[:cut]), group[:cut]
    kw = {"hidden": 8, "seed": 3, "lr": 3e-3, "groups_per_batch": 16}
    straight = pt.fit(tmp_path / "a", x, eqs, g, epochs=2, **kw)  # type: ignore[arg-type]
    pt.fit(tmp_path / "b", x, eqs, g, epochs=1, **kw)  # type: ignore[arg-type]
    resumed = pt.fit(tmp_path / "b", x, eqs, g, epochs=2, resume=True, **kw)  # type: ignore[arg-type]
    for a, b in zip(straight, resumed, strict=True):
        assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="same --seed and --hidden"):
        pt.fit(tmp_path / "b", x, eqs, g, epochs=3, resume=True, **{**kw, "hidden": 9})  # type: ignore[arg-type]


# -- the full 3-ply that pruning pays for -------------------------------------------------


def _full3(board: np.ndarray, single: bool, prune_: int) -> np.ndarray:
    from dicehall.bots.backgammon.search import _evaluate_3ply

    y = np.zeros(5)
    counter = np.zeros(1, dtype=np.int64)
    params = Network.load().params()
    assert _evaluate_3ply(board, *params, single, y, counter, 0, True, prune_)
    return y


@pytest.mark.parametrize("cut", [0, 6])
def test_full_3ply_known_answers(cut: int) -> None:
    """Positions whose value needs no net, pruned or not: the opponent wins with any
    roll, or cannot finish and we then win with any roll."""
    from test_backgammon_search import _race

    # he has one checker on his 1-point; we have none off: he wins a gammon
    assert np.allclose(_full3(_race({6: 5, 5: 5, 4: 5}, {1: 1}), True, cut), [0, 0, 0, 1, 0])
    home = _race({1: 1}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 3})
    y = _full3(home, True, cut)  # our last checker on our 1-point: we win, whatever he does
    assert np.isclose(y[0], 1.0) and y[3] == y[4] == 0.0
    assert np.allclose(_full3(home, False, cut), [1, 0, 0, 0, 0])  # he saves the gammon


def test_full_3ply_stage_values_the_best_two_2ply_plays() -> None:
    """``expert-full3`` with a wide margin and no budget: the two best plays of the pruned
    2-ply get depth 3 and exactly the full ``_evaluate_3ply``'s values; the rest keep theirs.
    Out of budget, or with margin 0, it is the pruned expert."""
    from dataclasses import replace

    from dicehall.games.backgammon.fast import to_array
    from dicehall.games.backgammon.notation import decode_position_id

    board = to_array(decode_position_id("4HPwATDgc/ABMA"))
    base = Bot("expert").evaluate(board, 5, 2)
    bot = Bot("expert-full3")
    bot.settings = replace(bot.settings, margin3=1.0, budget3=0)
    probs, _, depth = bot.evaluate(board, 5, 2)
    two = np.flatnonzero(base[2] == 2)
    top = two[np.argsort(-base[1][two], kind="stable")][:2]
    assert sorted(np.flatnonzero(depth == 3).tolist()) == sorted(top.tolist())
    _, _, boards, _ = plays(board, 5, 2)
    for i in top:
        assert np.array_equal(probs[i], _full3(boards[i], True, bot.settings.prune))
    rest = np.flatnonzero(depth < 3)
    assert np.array_equal(probs[rest], base[0][rest])
    for changes in ({"margin3": -1.0}, {"budget3": 1}):
        bot.settings = replace(Bot("expert-full3").settings, **changes)
        for x, z in zip(bot.evaluate(board, 5, 2), base, strict=True):
            assert np.array_equal(x, z), changes
