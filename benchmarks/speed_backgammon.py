"""Backgammon engine speed: ours against OpenSpiel's C++ backgammon, in the same run.

    python benchmarks/speed_backgammon.py [--positions 20000] [--games 2000]

Prints, per CPU-second (time.process_time, so other load on the machine counts less):

* positions/s: legal move generation on the *same* positions for both engines:
  turn starts of OpenSpiel random games (chance drawn by its probabilities),
  converted to dicehall states (``openspiel_position``; a test checks the
  conversion against OpenSpiel's own plays)
  - ours, compiled kernel (``fast.plays`` on the compact board)
  - ours, through the protocol (``BackgammonState.legal_actions()`` on states made
    from board tuples, so the conversion to the compact board is counted)
  - OpenSpiel (``state.legal_actions()`` from Python)
  each timed ``--repeats`` times (fresh states for ours, as a state keeps its legal
  actions; OpenSpiel's are not cached), the median printed: one round of 5,000
  positions lasts a twentieth of a second, so a single round swung by a collector
  pass or a scheduler tick (0.84x to 1.28x in consecutive single-round runs)
* games/s: whole games of uniformly random plays, the dice drawn by their
  probabilities (two fair dice: ``outcome_from_dice`` for ours, OpenSpiel's
  ``chance_outcomes()`` weights for OpenSpiel)
  - ours compiled (``fast.random_games``), ours through the protocol
    (``legal_actions()`` / ``apply()``), OpenSpiel's Python loop
* evaluations/s: position evaluations (the neural net at 0-ply; the pruning net,
  whose cost against the full net's is what ``search.PRUNE_COST`` assumes; pubeval)

and the ratio of ours to OpenSpiel. Without OpenSpiel the positions come from our
own random games and only our figures are printed. The first compilation of numba
kernels is done (and cached) before timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np


def timed(fn: Any, *args: Any) -> tuple[float, Any]:
    start = time.process_time()
    out = fn(*args)
    return time.process_time() - start, out


def sample_positions(count: int, seed: int) -> list[tuple[Any, int, int]]:
    """(board array, d1, d2) from random games, as many as ``count``."""
    from dicehall.games.backgammon import fast

    rng = random.Random(seed)
    start = np.zeros((2, 26), dtype=np.int8)
    start[:, 24], start[:, 13], start[:, 8], start[:, 6] = 2, 5, 3, 5
    out = []
    board = start.copy()
    while len(out) < count:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        d1, d2 = max(a, b), min(a, b)
        out.append((board, d1, d2))
        n, _, boards, _ = fast.plays(board, d1, d2)
        after = boards[rng.randrange(n)]
        board = start.copy() if after[0, 0] == 15 else fast.swap(after)
    return out


Sides = tuple[tuple[int, ...], tuple[int, ...]]


def openspiel_position(state: Any) -> tuple[Sides, int, int, int]:
    """``((mine, theirs), turn, d1, d2)`` of an OpenSpiel backgammon state at the start
    of a turn, in dicehall's numbering (each side counts off, points 1..24, bar).

    OpenSpiel's ``board(player, pos)`` has x (seat 0) moving from position 0 up to
    23 and o (seat 1) the other way; bar and borne-off counts and the dice are read
    from its text.
    """
    board, turn, dice = openspiel_position_any(state)
    return board, turn, max(dice[:2]), min(dice[:2])


def openspiel_position_any(state: Any) -> tuple[Sides, int, list[int]]:
    """``((mine, theirs), turn, dice)`` of any OpenSpiel backgammon state (dice may
    be missing or partly used); at a chance node ``mine`` is seat 0's side."""
    text = str(state)
    lines = {line.split(":")[0]: line for line in text.splitlines() if ":" in line}
    bar = lines["Bar"].split(":", 1)[1]
    scores = lines["Scores, X"].replace(",", " ").split()
    off = (int(scores[2]), int(scores[4]))
    dice = [int(c) for c in lines["Dice"].split(":", 1)[1].strip()]
    sides = []
    for seat in (0, 1):
        side = [0] * 26
        for pos in range(24):
            point = 24 - pos if seat == 0 else pos + 1
            side[point] = state.board(seat, pos)
        side[0] = off[seat]
        side[25] = bar.count("x" if seat == 0 else "o")
        sides.append(tuple(side))
    turn = max(state.current_player(), 0)
    return (sides[turn], sides[1 - turn]), turn, dice


def openspiel_positions(count: int, seed: int) -> tuple[list[Any], list[tuple[Any, int, int]]]:
    """OpenSpiel states at the start of turns of random games, and the same positions
    as ``(compact board, d1, d2)``."""
    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    states: list[Any] = []
    ours: list[tuple[Any, int, int]] = []
    s = game.new_initial_state()
    turn_start = False
    while len(states) < count:
        if s.is_terminal():
            s = game.new_initial_state()
        elif s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(outcomes, probs)[0])
            turn_start = True
        else:
            if turn_start:
                board, _, d1, d2 = openspiel_position(s)
                states.append(s.clone())
                ours.append((np.array(board, dtype=np.int8), d1, d2))
            turn_start = False
            acts = s.legal_actions()
            s.apply_action(acts[rng.randrange(len(acts))])
    return states, ours


def ours(positions: list[tuple[Any, int, int]], games: int, repeats: int) -> dict[str, float]:
    from dicehall import load_game
    from dicehall.bots.backgammon import default_network
    from dicehall.bots.backgammon.pubeval import score
    from dicehall.bots.backgammon.search import rank_0ply
    from dicehall.games.backgammon import fast
    from dicehall.games.backgammon.rules import BackgammonState

    res: dict[str, float] = {}
    fast.plays(positions[0][0], 3, 1)
    fast.random_games(2, 1)

    def kernel() -> int:
        total = 0
        for board, d1, d2 in positions:
            total += fast.plays(board, d1, d2)[0]
        return total

    dt, _ = timed(kernel)
    res["positions/s (compiled kernel)"] = len(positions) / dt

    game = load_game("backgammon")
    boards = [((tuple(b[0].tolist()), tuple(b[1].tolist())), d1, d2) for b, d1, d2 in positions]
    BackgammonState(game, boards[0][0], 0, (3, 1)).legal_actions()  # compile once
    rates = []
    for _ in range(repeats):  # fresh states each round: a state keeps its legal actions
        states = [BackgammonState(game, board, 0, (d1, d2)) for board, d1, d2 in boards]
        dt, _ = timed(lambda fresh=states: sum(len(s.legal_actions()) for s in fresh))
        rates.append(len(states) / dt)
    res["positions/s (protocol legal_actions)"] = statistics.median(rates)

    dt, (plies, _) = timed(fast.random_games, games, 7)
    res["games/s (compiled)"] = games / dt
    res["plies per random game"] = plies / games

    def protocol_games(n: int) -> None:
        rng = random.Random(3)
        for _ in range(n):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    # two fair dice: each roll with its probability (a uniform pick
                    # from legal_actions() would make 6 of 21 rolls doubles)
                    s = s.apply(s.outcome_from_dice((rng.randint(1, 6), rng.randint(1, 6))))
                else:
                    acts = s.legal_actions()
                    s = s.apply(acts[rng.randrange(len(acts))])

    n_proto = max(20, games // 4)
    dt, _ = timed(protocol_games, n_proto)
    res["games/s (protocol)"] = n_proto / dt

    net = default_network()
    after_sets = [fast.plays(b, d1, d2) for b, d1, d2 in positions[:5000]]
    rank_0ply(after_sets[0][2], after_sets[0][0], *net.params(), True)
    count = sum(a[0] for a in after_sets)
    dt, _ = timed(lambda: [rank_0ply(a[2], a[0], *net.params(), True) for a in after_sets])
    res[f"evaluations/s (net {net.hidden} hidden, 0-ply)"] = count / dt
    from dicehall.bots.backgammon.prune import prune_scores

    ext = net.params()[4]
    scores = np.empty(max(a[0] for a in after_sets))

    def pruner() -> None:
        for n, _, boards, _ in after_sets:
            prune_scores(boards, n, ext[7], ext[8], ext[9], ext[10], True, scores)

    pruner()  # compile once
    dt, _ = timed(pruner)
    res["evaluations/s (pruning net, as the search calls it)"] = count / dt
    score(after_sets[0][2][0], False)

    def pub() -> None:
        for n, _, boards, _ in after_sets:
            for i in range(n):
                score(boards[i], False)

    dt, _ = timed(pub)
    res["evaluations/s (pubeval, per call from Python)"] = count / dt
    return res


def openspiel(states: list[Any], games: int, seed: int, repeats: int) -> dict[str, float]:
    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    res: dict[str, float] = {}
    # legal_actions() is not cached by OpenSpiel's backgammon: every call generates
    rates = []
    for _ in range(repeats):
        dt, _ = timed(lambda: sum(len(st.legal_actions()) for st in states))
        rates.append(len(states) / dt)
    res["positions/s"] = statistics.median(rates)

    def play(n: int) -> None:
        for _ in range(n):
            st = game.new_initial_state()
            while not st.is_terminal():
                if st.is_chance_node():
                    outcomes, probs = zip(*st.chance_outcomes(), strict=True)
                    st.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    acts = st.legal_actions()
                    st.apply_action(acts[rng.randrange(len(acts))])

    n = max(20, games // 4)
    dt, _ = timed(play, n)
    res["games/s"] = n / dt
    return res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        help="rounds of the legal_actions() timing on each side; the median is printed",
    )
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        spiel_states, positions = None, sample_positions(args.positions, args.seed)
    else:
        spiel_states, positions = openspiel_positions(args.positions, args.seed)
    mine = ours(positions, args.games, args.repeats)
    theirs = (
        None
        if spiel_states is None
        else openspiel(spiel_states, args.games, args.seed, args.repeats)
    )
    print(
        f"backgammon speed, {args.positions} positions (the same for both), "
        f"{args.games} games, per CPU-second (legal_actions: median of {args.repeats} rounds)"
    )
    for key, value in mine.items():
        print(f"  ours      {key:48} {value:12,.0f}")
    from dicehall.bots.backgammon.search import PRUNE_COST

    full = next(v for k, v in mine.items() if k.startswith("evaluations/s (net"))
    cost = full / mine["evaluations/s (pruning net, as the search calls it)"]
    print(
        f"  a pruning-net evaluation costs 1/{1 / cost:.1f} of a full one "
        f"(search.PRUNE_COST counts 1/{PRUNE_COST})"
    )
    if theirs is None:
        print("  OpenSpiel not installed (pip install open-spiel): no comparison")
        return
    for key, value in theirs.items():
        print(f"  OpenSpiel {key:48} {value:12,.0f}")
    pos = theirs["positions/s"]
    gam = theirs["games/s"]
    print("ratios, ours / OpenSpiel:")
    print(f"  positions, compiled kernel      {mine['positions/s (compiled kernel)'] / pos:6.2f}x")
    print(
        f"  positions, protocol             "
        f"{mine['positions/s (protocol legal_actions)'] / pos:6.2f}x"
    )
    print(f"  random games, compiled          {mine['games/s (compiled)'] / gam:6.2f}x")
    print(f"  random games, protocol          {mine['games/s (protocol)'] / gam:6.2f}x")


if __name__ == "__main__":
    main()
