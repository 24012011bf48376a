"""The race net: its inputs and outputs, its use in races only, and training that
resumes bit for bit."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dicehall.bots.backgammon import race
from dicehall.bots.backgammon import race_training as rt
from dicehall.bots.backgammon.features import is_race
from dicehall.bots.backgammon.network import Network
from dicehall.games.backgammon.rules import START_SIDE


def race_positions(count: int, seed: int) -> list[np.ndarray]:
    """Random race positions: each side's checkers on its own side of a random divide."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = np.zeros((2, 26), dtype=np.int8)
        cut = rng.randint(7, 18)
        for side in range(2):
            top = cut if side == 0 else 24 - cut
            on = rng.randint(1, 15)
            for _ in range(on):
                board[side, rng.randint(1, max(1, top))] += 1
            board[side, 0] = 15 - on
        if is_race(board):
            out.append(board)
    return out


def test_race_inputs_of_a_known_position() -> None:
    x = np.zeros(race.RACE_INPUTS)
    race.encode_race(np.array([START_SIDE, START_SIDE], dtype=np.int8), x)
    me = x[: race.SIDE]
    assert me[97] == pytest.approx(1.67)  # pips
    assert me[98] == pytest.approx(10 / 15)  # 2 + 5 + 3 outside the home board
    assert me[99] == pytest.approx((2 * 3 + 5 * 2 + 3 * 1) / 30)  # crossovers
    assert me[100] == pytest.approx(5 / 6)  # only the 6-point is made at home
    assert list(me[20:24]) == [1.0, 1.0, 1.0, 1.0]  # five on the 6-point
    assert x[202] == 0.0  # level race
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 1], board[0, 0] = 1, 14
    board[1, 6], board[1, 0] = 2, 13
    race.encode_race(board, x)
    assert x[96] == pytest.approx(14 / 15) and x[race.SIDE + 97] == pytest.approx(0.12)
    assert x[202] == pytest.approx((12 - 1) / 20)


def test_race_inputs_and_outputs_are_valid() -> None:
    w = race.create(hidden=12, seed=2)
    x = np.zeros(race.RACE_INPUTS)
    y = np.zeros(5)
    for board in race_positions(300, 5):
        race.encode_race(board, x)
        assert np.isfinite(x).all() and (x[:202] >= 0).all() and (x[:202] <= 7.0).all()
        race.race_forward(board, *w, y)
        assert 0 <= y[2] <= y[1] <= y[0] <= 1 and 0 <= y[4] <= y[3] <= 1 - y[0] + 1e-12


def test_the_race_net_is_used_in_races_only() -> None:
    w1, b1, w2, b2 = race.create(hidden=4, seed=1)
    b2[:] = [3.0, -9.0, -9.0, -9.0, -9.0]  # w2 tiny: the race net says about 95% wins
    w2[:] = 0.0
    net = Network.load()
    with_race = Network(net.w1, net.b1, net.w2, net.b2, {}, race=(w1, b1, w2, b2))
    without = Network(net.w1, net.b1, net.w2, net.b2, {}, race=race.empty())
    for board in race_positions(20, 9):
        if (board[:, 7:] == 0).all():
            continue  # both home: the bear-off databases decide
        assert with_race.evaluate(board)[0] == pytest.approx(1 / (1 + np.exp(-3.0)), abs=1e-6)
    start = np.array([START_SIDE, START_SIDE], dtype=np.int8)
    assert (with_race.evaluate(start) == without.evaluate(start)).all()


#: the TD contact net whose 1-ply values the shipped race net learnt (the shipped
#: contact net since 1 Dec 2026 is fitted to gnubg on contact positions only)
TD_NET = Path(__file__).parents[3] / "benchmarks/results/backgammon_supervised/0_td.npz"


@pytest.fixture(scope="module")
def targets() -> tuple[np.ndarray, np.ndarray]:
    w1, b1, w2, b2, ext = Network.load(TD_NET).params()
    return rt._sample_chunk(60, 7, True, w1, b1, w2, b2, race.without(ext))


def test_targets_are_race_positions_valued_at_one_ply(targets) -> None:  # type: ignore[no-untyped-def]
    from dicehall.bots.backgammon.search import evaluate_1ply

    boards, values = targets
    w1, b1, w2, b2, ext = Network.load(TD_NET).params()
    y = np.zeros(5)
    for board, value in zip(boards[:10], values[:10], strict=True):
        assert is_race(board) and not (board[:, 7:] == 0).all()
        evaluate_1ply(board, w1, b1, w2, b2, race.without(ext), True, y)
        assert np.allclose(y, value)


def test_training_resumes_bit_for_bit(tmp_path, targets) -> None:  # type: ignore[no-untyped-def]
    boards, values = targets
    kw = {"hidden": 8, "seed": 3, "alpha": 0.1, "holdout": 10}
    straight = rt.fit(tmp_path / "a", boards, values, epochs=3, **kw)  # type: ignore[arg-type]
    rt.fit(tmp_path / "b", boards, values, epochs=3, stop_after=1, **kw)  # type: ignore[arg-type]
    resumed = rt.fit(tmp_path / "b", boards, values, epochs=3, resume=True, **kw)  # type: ignore[arg-type]
    for a, b in zip(straight, resumed, strict=True):
        assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="same --seed"):
        rt.fit(
            tmp_path / "b",
            boards,
            values,
            epochs=4,
            resume=True,
            hidden=8,
            seed=4,
            alpha=0.1,
            holdout=10,
        )


def test_target_generation_skips_chunks_already_made(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rt.generate_targets(tmp_path, chunks=2, per_chunk=5, seed=1, workers=1, progress=False)
    first = (tmp_path / "targets-0000.npz").read_bytes()
    (tmp_path / "targets-0001.npz").unlink()
    rt.generate_targets(tmp_path, chunks=2, per_chunk=5, seed=1, workers=2, progress=False)
    assert (tmp_path / "targets-0000.npz").read_bytes() == first
    again = tmp_path / "again"
    rt.generate_targets(again, chunks=2, per_chunk=5, seed=1, workers=1, progress=False)
    b1, t1 = rt.read_targets(tmp_path, 2)
    b2, t2 = rt.read_targets(again, 2)
    assert np.array_equal(b1, b2) and np.array_equal(t1, t2)


def test_positions_do_not_depend_on_the_teacher(targets) -> None:  # type: ignore[no-untyped-def]
    """Sampling without our 1-ply values (another teacher values them) gives the same
    positions and no values."""
    w1, b1, w2, b2, ext = Network.load(TD_NET).params()
    boards, values = rt._sample_chunk(60, 7, False, w1, b1, w2, b2, race.without(ext))
    assert np.array_equal(boards, targets[0])
    assert not values.any()


@pytest.mark.parametrize("bad", ["gnubg", "gnubg:4", "gnubg:x", "pubeval:1", "Net", ""])
def test_a_bad_teacher_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="expected 'net' or 'gnubg:PLIES'"):
        rt.parse_teacher(bad)
    with pytest.raises(SystemExit):
        rt.main(["--out", "unused", "--teacher", bad])


def test_gnubg_teacher_values_the_same_positions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--teacher gnubg:0``: the positions of ``--teacher net``, each valued by gnubg
    (as ``GnubgTeacher`` values it alone), reproducibly, with valid probabilities."""
    from dicehall.bots.backgammon.supervised import GNUBG, GnubgTeacher

    if not Path(GNUBG).exists():
        pytest.skip(f"{GNUBG} is not installed")
    kw = {"chunks": 2, "per_chunk": 6, "seed": 5, "progress": False}
    rt.generate_targets(tmp_path / "net", workers=1, **kw)  # type: ignore[arg-type]
    rt.generate_targets(tmp_path / "g", workers=2, teacher="gnubg:0", **kw)  # type: ignore[arg-type]
    net_boards, _ = rt.read_targets(tmp_path / "net", 2)
    boards, values = rt.read_targets(tmp_path / "g", 2)
    assert np.array_equal(boards, net_boards)
    teacher = GnubgTeacher(0)
    try:
        assert np.allclose(values, teacher.values(boards), atol=1e-6)
    finally:
        teacher.close()
    assert ((values >= 0) & (values <= 1)).all()
    assert (values[:, 1] <= values[:, 0] + 1e-9).all()  # a gammon is a win
    assert (values[:, 3] <= 1 - values[:, 0] + 1e-9).all()  # a gammon loss is a loss
    again = tmp_path / "again"
    rt.generate_targets(again, workers=1, teacher="gnubg:0", **kw)  # type: ignore[arg-type]
    assert np.array_equal(rt.read_targets(again, 2)[1], values)


def test_the_shipped_race_net_is_closer_to_one_ply_than_the_contact_net(targets) -> None:  # type: ignore[no-untyped-def]
    """On race positions it never saw (another seed), the shipped race net at 0-ply is
    nearer the 1-ply values than the contact net at 0-ply."""
    boards, values = targets
    weights = race.shipped()
    assert weights[0].shape == (race.RACE_INPUTS, weights[1].shape[0])
    ours = rt.race_error(boards, values, *weights)
    theirs = rt.contact_error(boards, values)
    assert ours < 0.5 * theirs


def test_targets_on_ray_equal_targets_in_processes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ray = pytest.importorskip("ray")
    rt.generate_targets(tmp_path / "p", chunks=2, per_chunk=4, seed=2, workers=2, progress=False)
    try:
        rt.generate_targets(
            tmp_path / "r",
            chunks=2,
            per_chunk=4,
            seed=2,
            workers=2,
            progress=False,
            ray_address="local",
        )
    finally:
        ray.shutdown()
    for a, b in zip(
        rt.read_targets(tmp_path / "p", 2), rt.read_targets(tmp_path / "r", 2), strict=True
    ):
        assert np.array_equal(a, b)
