"""``format_play`` (written for speed: the server formats every legal play it sends) gives
the texts of the straightforward algorithm it replaced: the steps made on a copy of the
board, then the paths joined, on every legal play of many random games."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

from dicehall.core.registry import load_game
from dicehall.games.backgammon.board import OFF, Board, Step, move_step
from dicehall.games.backgammon.notation import format_play, point_text
from dicehall.games.backgammon.rules import BackgammonState


def reference_format_play(board: Board, steps: Sequence[Step]) -> str:
    """The former ``format_play``, kept as the reference."""
    if not steps:
        return "pass"
    mine, theirs = list(board[0]), list(board[1])
    paths: list[list[tuple[int, bool]]] = []
    for src, dst in steps:
        hit = move_step(mine, theirs, src, dst)
        paths.append([(src, False), (dst, hit)])
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(paths):
            end = a[-1][0]
            if end == OFF:
                continue
            for j, b in enumerate(paths):
                if i != j and b[0][0] == end:
                    paths[i] = a + b[1:]
                    del paths[j]
                    merged = True
                    break
            if merged:
                break
    texts: dict[tuple[int, ...], tuple[str, int]] = {}
    for path in paths:
        shown = [path[0]] + [p for p in path[1:-1] if p[1]] + [path[-1]]
        key = tuple(p for p, _ in shown)
        text = "/".join(point_text(p) + ("*" if hit else "") for p, hit in shown)
        if key in texts:
            old, n = texts[key]
            texts[key] = (old if "*" in old else text, n + 1)
        else:
            texts[key] = (text, 1)
    order = sorted(texts, key=lambda k: tuple(-p for p in k))
    return " ".join(t + (f"({n})" if n > 1 else "") for t, n in (texts[k] for k in order))


def checker_plays(seed: int, games: int) -> Iterator[BackgammonState]:
    """Every checker-play state of ``games`` random games (seeded), in order."""
    rng = random.Random(seed)
    for _ in range(games):
        state = load_game("backgammon").new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                assert isinstance(state, BackgammonState)
                if state.is_checker_play():
                    yield state
            state = state.apply(rng.choice(state.legal_actions()))


def test_every_legal_play_of_random_games_reads_as_before() -> None:
    checked = hits = doubles = 0
    for state in checker_plays(seed=7, games=25):
        legal = state._legal
        for i in range(len(legal)):
            steps = legal.steps(i)
            text = format_play(state.board, steps)
            assert text == reference_format_play(state.board, steps), steps
            checked += 1
            hits += "*" in text
            doubles += "(" in text
    assert checked > 10_000 and hits > 500 and doubles > 500


def test_hand_made_plays() -> None:
    mine = [0] * 26
    mine[13], mine[8], mine[6], mine[25] = 5, 3, 5, 1
    theirs = [0] * 26
    theirs[25 - 5] = 1  # a blot on our 5 point
    theirs[25 - 3] = 1  # and on our 3
    board: Board = (tuple(mine), tuple(theirs))
    cases: list[list[Step]] = [
        [],
        [(13, 7), (7, 5)],
        [(8, 5), (8, 5)],
        [(13, 9), (9, 5), (5, 1), (13, 9)],
        [(25, 22), (6, 3), (8, 5), (5, 3)],
        [(6, 0), (6, 0)],
    ]
    for steps in cases:
        assert format_play(board, steps) == reference_format_play(board, steps)
    assert format_play(board, [(13, 7), (7, 5)]) == "13/5*"
    assert format_play(board, [(8, 5), (8, 5)]) == "8/5*(2)"


def test_the_compiled_texts_of_the_keys_are_format_play() -> None:
    """``clickgraph.play_texts`` (what the server formats plays with) writes, from the text
    keys alone, the text ``format_play`` gives every legal play of many random games."""
    import numpy as np

    from dicehall.games.backgammon.clickgraph import play_texts, text_keys

    checked = 0
    for state in checker_plays(seed=11, games=25):
        legal = state._legal
        board = state.board
        start = np.frombuffer(bytes(board[0] + board[1]), dtype=np.int8).reshape(2, 26)
        keys = np.ascontiguousarray(text_keys(start, legal.rows()))
        data, ends = play_texts(keys)
        written = data.tobytes().decode("ascii")
        bounds = [0, *ends.tolist()]
        texts = [written[a:b] for a, b in itertools.pairwise(bounds)]
        assert texts == [format_play(board, legal.steps(i)) for i in range(len(legal))]
        # and any subset of the keys, as the server asks for the ones not cached
        some = np.array([i for i in range(len(legal)) if i % 3 == 0], dtype=np.int64)
        data, ends = play_texts(keys[some])
        written = data.tobytes().decode("ascii")
        bounds = [0, *ends.tolist()]
        assert [written[a:b] for a, b in itertools.pairwise(bounds)] == [
            texts[i] for i in some.tolist()
        ]
        checked += len(legal)
    assert checked > 10_000
