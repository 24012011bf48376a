"""``bot:net=PATH``: any net written by ``dicehall train`` plays, in play and the arena."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dicehall import load_game
from dicehall.bots.backgammon import Bot
from dicehall.bots.backgammon.network import Network
from dicehall.bots.registry import AgentSpecError, agent_names, make_agent


@pytest.fixture(scope="module")
def net_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a small net with its own weights, saved as dicehall train saves its exports
    path = tmp_path_factory.mktemp("Nets") / "MyNet.npz"
    Network.create(hidden=8, seed=5).save(path, compact=True, games=0)
    return path


def test_the_spec_loads_that_net(net_file: Path) -> None:
    agent = make_agent("backgammon", f"bot:net={net_file}", seed=1)
    assert isinstance(agent, Bot)
    assert agent.level == "expert"
    assert agent.name == f"bot:expert:net={net_file}"
    assert agent.network.hidden == 8
    np.testing.assert_allclose(agent.network.w1, Network.load(net_file).w1)
    medium = make_agent("backgammon", f"bot:medium:net={net_file}")
    assert isinstance(medium, Bot) and medium.level == "medium" and medium.network.hidden == 8
    # it plays with that net: the same choices as a Bot given the net directly
    state = load_game("backgammon").new_initial_state().apply_text("6-4")
    assert medium.act(state) == Bot("medium", network=Network.load(net_file)).act(state)
    assert "bot:net=PATH" in agent_names("backgammon")


def test_bad_net_specs_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="cannot read the net .*missing.npz"):
        make_agent("backgammon", f"bot:net={tmp_path / 'missing.npz'}")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a net")
    with pytest.raises(AgentSpecError, match="is not a backgammon net"):
        make_agent("backgammon", f"bot:net={junk}")
    with pytest.raises(AgentSpecError, match="after net="):
        make_agent("backgammon", "bot:net=")
    with pytest.raises(AgentSpecError, match="does not play trained nets"):
        make_agent("coinrows", f"bot:net={junk}")


def test_the_arena_and_play_take_a_net(net_file: Path, tmp_path: Path) -> None:
    spec = f"bot:medium:net={net_file}"
    arena = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", "arena", "backgammon", spec, "random", "-n", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert arena.returncode == 0, arena.stderr + arena.stdout
    assert "wins / draws / losses" in arena.stdout
    save = tmp_path / "g.json"
    args = ["play", "backgammon", "--vs", spec, "--seed", "2", "--seat", "2", "--save", str(save)]
    play = subprocess.run(
        [sys.executable, "-m", "dicehall.cli", *args],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert play.returncode == 0, play.stderr + play.stdout
    assert f"seat 1: {spec}" in play.stdout.replace("\n", "")
