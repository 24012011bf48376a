"""The exact Coin Rows solver: its model agrees with the rules engine, its values
satisfy the Bellman equations, and a tiny board agrees with a brute-force solver."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.coinrows import solver
from dicehall.games.coinrows import Coin, CoinRowsState, Roll, legal_moves
from dicehall.games.coinrows.rules import apply_move, capture_options


def random_state(rng: random.Random, purse: int = 20) -> CoinRowsState:
    board = tuple(Coin(rng.randrange(7), rng.randrange(2)) for _ in range(7))
    turn = rng.randrange(2)
    game = load_game("coinrows", purse=purse)
    off = 2 * purse - 7
    mine = rng.randrange(off + 1)
    purses = (mine, off - mine) if turn == 0 else (off - mine, mine)
    return CoinRowsState(game, board, purses, turn, game.new_initial_state().phase)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def model() -> solver.Model:
    return solver.model_for(7, 7)


def test_plays_match_the_rules_engine(model: solver.Model) -> None:
    rng = random.Random(20)
    for _ in range(400):
        state = random_state(rng)
        codes, _ = solver.codes_of(state)
        b = model.rank(codes)
        for lo, hi in solver.ROLLS:
            roll = Roll(lo, hi)
            if roll.ends_turn:
                continue
            moves = legal_moves(state.board, state.turn, roll)
            full, boards = model.plays(b, (lo, hi))
            expected = set()
            for move in moves:
                after = state._replace(board=apply_move(state.board, move))
                expected.add(model.rank(solver.codes_of(after)[0]))
                assert (move.pips == lo + hi) == full
            assert set(boards) == expected, (state, roll)


def test_captures_and_mirror_match_the_rules_engine(model: solver.Model) -> None:
    rng = random.Random(21)
    for _ in range(300):
        state = random_state(rng)
        codes, _ = solver.codes_of(state)
        b = model.rank(codes)
        other = state._replace(turn=1 - state.turn)
        assert model.mirror[b] == model.rank(solver.codes_of(other)[0])
        rows = {c.row for c in capture_options(state.board, "row")}
        own_rows = {r if state.turn == 0 else 6 - r for r in rows}
        assert {r + 1 for r in range(5) if model.cap_k[b, r]} == own_rows
        for capture in capture_options(state.board, "row"):
            after = state.apply(capture)
            r = capture.row if state.turn == 0 else 6 - capture.row
            if after.phase.value == "A":
                assert model.cap_next[b, r - 1] == model.rank(solver.codes_of(after)[0])


# -- a brute-force solver over explicit positions (columns kept apart, seats absolute) ----
def brute_force(rows: int, columns: int, purse: int, leaving: bool) -> dict[tuple, float]:
    """Value iteration over (board, purses, turn) with the rules written out plainly:
    no multisets, no mirroring, no shared code with the solver."""
    import itertools

    cells = [(o, r) for o in (0, 1) for r in range(rows)]
    off = 2 * purse - columns
    home = (0, rows - 1)
    states = [
        (board, (p, off - p), turn)
        for board in itertools.product(cells, repeat=columns)
        for p in range(off + 1)
        for turn in (0, 1)
    ]

    def totals(board: tuple, purses: tuple[int, int]) -> tuple[int, int]:
        return tuple(purses[s] + sum(1 for o, _ in board if o == s) for s in (0, 1))  # type: ignore[return-value]

    def result(board: tuple, purses: tuple[int, int], seat: int) -> float:
        t = totals(board, purses)
        return float((t[seat] > t[1 - seat]) - (t[seat] < t[1 - seat]))

    def moves(board: tuple, turn: int, a: int, b: int) -> tuple[int, list[tuple]]:
        def dests(row: int, d: int) -> list[int]:
            return [x for x in (min(rows - 1, row + d), max(0, row - d)) if x != row]

        plays: list[tuple[int, tuple]] = []
        mine = [i for i, (o, _) in enumerate(board) if o == turn]
        for i in mine:
            for to in dests(board[i][1], a + b):
                nb = list(board)
                nb[i] = (turn, to)
                plays.append((abs(to - board[i][1]), tuple(nb)))
        for i in mine:
            for j in mine:
                if i == j:
                    continue
                for ti in dests(board[i][1], a):
                    for tj in dests(board[j][1], b):
                        nb = list(board)
                        nb[i], nb[j] = (turn, ti), (turn, tj)
                        pips = abs(ti - board[i][1]) + abs(tj - board[j][1])
                        plays.append((pips, tuple(nb)))
        if not plays:
            return 0, []
        best = max(p for p, _ in plays)
        return best, [nb for p, nb in plays if p == best]

    value = {s: result(s[0], s[1], s[2]) for s in states}
    for _ in range(100_000):
        delta = 0.0
        for board, purses, turn in states:
            other = 1 - turn
            options = []
            if leaving:
                options.append(result(board, purses, turn))
            for r in range(1, rows - 1):
                taken = [i for i, (_, row) in enumerate(board) if row == r]
                if len(taken) < 2:
                    continue
                ps = list(purses)
                ps[turn] += len(taken)
                nb = list(board)
                if ps[other] < len(taken):  # broke: pays what he can, the game ends
                    kept = [c for i, c in enumerate(board) if i not in taken]
                    t_me = ps[turn] + sum(1 for o, _ in kept if o == turn)
                    t_them = purses[other] + sum(1 for o, _ in kept if o == other)
                    options.append(float((t_me > t_them) - (t_me < t_them)))
                    continue
                for i in taken:
                    nb[i] = (other, home[other])
                ps[other] -= len(taken)
                options.append(-value[(tuple(nb), (ps[0], ps[1]), other)])
            roll = 0.0
            for a in range(1, 7):
                for b in range(1, 7):
                    p = 1 / 36
                    if a + b in (7, 11, 12):
                        roll -= p * value[(board, purses, other)]
                        continue
                    pips, outcomes = moves(board, turn, a, b)
                    if not outcomes:
                        roll -= p * value[(board, purses, other)]
                        continue
                    if pips == a + b:
                        roll += p * max(value[(nb, purses, turn)] for nb in outcomes)
                    else:
                        roll += p * max(-value[(nb, purses, other)] for nb in outcomes)
            options.append(roll)
            new = max(options)
            delta = max(delta, abs(new - value[(board, purses, turn)]))
            value[(board, purses, turn)] = new
        if delta < 1e-13:
            return value
    raise AssertionError("brute force did not converge")


@pytest.mark.parametrize(
    ("rows", "columns", "purse", "leaving"),
    [(3, 3, 2, False), (3, 3, 3, True), (4, 3, 3, False), (4, 2, 2, False)],
)
def test_tiny_variants_agree_with_brute_force(
    rows: int, columns: int, purse: int, leaving: bool
) -> None:
    sol = solver.solve(purse, leaving, rows=rows, columns=columns, tolerance=1e-13)
    brute = brute_force(rows, columns, purse, leaving)
    assert sol.bellman_residual < 1e-12
    checked = 0
    for (board, purses, turn), expected in brute.items():
        codes = [
            (0 if owner == turn else 1) * rows + (row if turn == 0 else rows - 1 - row)
            for owner, row in board
        ]
        assert sol.value(codes, purses[turn]) == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked == len(brute) > 100
    # the values are not all decided by the totals: the game matters
    assert len({round(v, 6) for v in brute.values()}) >= 4


def test_the_seed_board_with_the_smallest_purse_is_bellman_consistent() -> None:
    sol = solver.solve(5, False, tolerance=1e-7)
    assert sol.bellman_residual < 1e-6
    assert np.all(np.abs(sol.values) <= 1.0 + 1e-12)
    # the figures published in docs/rules/coinrows.md
    assert sol.start_value() == pytest.approx(-0.05981, abs=1e-4)
    assert sol.start_value((3, 4)) == pytest.approx(-0.03091, abs=1e-4)
    # the engine's states read the same table, the fair-start option included
    for opening in ("5-2", "3-4", "2-5"):
        state = load_game("coinrows", purse=5, leaving=False, opening=opening).new_initial_state()
        first, second = map(int, opening.split("-"))
        assert solver.state_value(sol, state, 0) == pytest.approx(sol.start_value((first, second)))
        assert solver.state_value(sol, state, 1) == pytest.approx(-sol.start_value((first, second)))
    # a decision's exact values: the best action's value is the position's value
    state = load_game("coinrows", purse=5, leaving=False).new_initial_state().apply_text("roll")
    state = state.apply_text("2-3")
    values = solver.action_values(sol, state)
    assert max(v for _, v in values) == pytest.approx(solver.state_value(sol, state, 0))


def test_the_opening_option() -> None:
    state = load_game("coinrows", opening="4-3").new_initial_state()
    assert state.board_code() == "7O 7O 7O 1X 1X 1X 1X"
    assert state.purses == (16, 17) and state.totals() == (20, 20)
    assert load_game("coinrows").new_initial_state().board_code() == "7O 7O 1X 1X 1X 1X 1X"
    with pytest.raises(ValueError, match="opening"):
        load_game("coinrows", opening="7-0")
    with pytest.raises(ValueError, match="purse must be at least 6"):
        load_game("coinrows", purse=5, opening="6-1").new_initial_state()
