"""End-to-end: ``dicehall play coinrows`` and ``dicehall replay`` as real processes
reading moves from a pipe (stdin is not a terminal, so no confirmation is asked)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dicehall import Match, Record, SeededDice
from dicehall.bots.registry import make_agent
from dicehall.core.game import Action, State
from dicehall.core.match import Agent
from dicehall.games.coinrows import Capture, CoinRows, CoinRowsState, Ending, Phase

DICEHALL = [sys.executable, "-m", "dicehall.cli"]
SEED = 5
# a small purse and no leaving, so the game ends quickly with captures and a broke player
FLAGS = ["--purse", "8", "-o", "leaving=false", "-o", "turn_limit=40"]
OPTIONS = {"purse": 8, "leaving": False, "turn_limit": 40}


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    # a wide console, so that rich does not wrap the lines the test looks for
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*DICEHALL, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


class Capturer:
    """A simple 'person': takes the biggest capture, else the first legal action."""

    name = "capturer"

    def act(self, state: State[Action]) -> Action:
        actions: list[Action] = list(state.legal_actions())
        captures = [a for a in actions if isinstance(a, Capture)]
        if captures:
            return max(captures, key=lambda c: len(c.columns))
        return actions[0]


def scripted_game(seed: int, opponent: str) -> tuple[list[str], Match]:
    """The lines to type, and the match they give, for ``play coinrows --seed seed``.

    The same seeded match is played in-process: the CLI rolls with ``SeededDice(seed)``
    and seeds the agent of seat 2 with ``seed + 2``. With ``--vs human`` both seats
    read from stdin, so every decision is typed.
    """
    game = CoinRows(**OPTIONS)
    bot = make_agent("coinrows", opponent, seed=seed + 2)
    agents: list[Agent | None] = [Capturer(), bot or Capturer()]
    match = Match(game, agents, SeededDice(seed))
    match.play()
    typed: list[str] = []
    state = game.new_initial_state()
    for text in match.record.actions:
        if not state.is_chance_node() and (bot is None or state.current_player() == 0):
            typed.append(text)
        state = state.apply_text(text)
    return typed, match


def first_typed_move(match: Match) -> int:
    """Index in the typed lines of seat 1's first Phase B decision."""
    k = 0
    for state, _ in zip(match.record.states(), match.record.actions, strict=False):
        if state.current_player() == 0:
            if getattr(state, "phase", None) is Phase.B:
                return k
            k += 1
    raise AssertionError("seat 1 never moved")


def test_play_coinrows_through_a_pipe_to_the_end_and_replay(tmp_path: Path) -> None:
    typed, expected = scripted_game(SEED, "random")
    final = expected.state
    assert isinstance(final, CoinRowsState)
    assert final.ending is Ending.BROKE  # the seed gives a game with captures and a broke end
    assert any(t.startswith("capture") for t in typed)
    # a mistyped move at the first Phase B decision and a request for help on the way
    k = first_typed_move(expected)
    lines = [*typed[:k], "c1-c9", "help", *typed[k:]]
    save = tmp_path / "coinrows.json"
    proc = run(
        ["play", "coinrows", "--vs", "random", "--seed", str(SEED), *FLAGS, "--save", str(save)],
        "\n".join(lines) + "\n",
    )
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr + out[-3000:]
    assert "Coin Rows" in out and "seat 1: you, seat 2: random" in out
    assert "illegal action 'c1-c9': squares are a1 to g7" in out
    assert "Phase A: 'roll', 'capture N'" in out  # the game's own help text
    assert "Phase B, move" in out and "Phase A" in out
    assert "Phase C: seat 2 (O) pays" in out  # a capture explained, with its refill
    assert "is broke" in out and "Game over" in out
    assert f"record saved to {save}" in out

    record = Record.load(save)
    assert record.game == "coinrows" and record.options["purse"] == 8
    assert record.actions == expected.record.actions
    assert record.final_state() == final
    assert record.meta["returns"] == final.returns()
    assert json.loads(save.read_text())["meta"]["seed"] == SEED

    replay = run(["replay", str(save)])
    assert replay.returncode == 0, replay.stderr
    assert f"{len(record.actions):4} " in replay.stdout
    assert "captures" in replay.stdout and "Phase C: seat 2 (O) pays" in replay.stdout
    summary = replay.stdout.strip().splitlines()[-1]
    assert summary.startswith("Seat 2 (O) is broke; totals")


def test_play_coinrows_against_a_human_through_a_pipe(tmp_path: Path) -> None:
    typed, expected = scripted_game(SEED + 1, "human")
    save = tmp_path / "two-people.json"
    proc = run(
        ["play", "coinrows", "--vs", "human", "--seed", str(SEED + 1), *FLAGS, "--save", str(save)],
        "moves\n" + "\n".join(typed) + "\n",
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout[-3000:]
    assert "seat 2 (human)> " in proc.stdout
    assert "2 legal: roll, leave" not in proc.stdout  # leaving=false
    assert "1 legal: roll" in proc.stdout
    assert Record.load(save).final_state() == expected.state


def test_play_coinrows_stops_cleanly_when_input_ends(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    proc = run(["play", "coinrows", "--seed", "3", "--save", str(save)], "")
    assert proc.returncode == 0
    assert "game stopped" in proc.stdout
    assert Record.load(save).actions == []
