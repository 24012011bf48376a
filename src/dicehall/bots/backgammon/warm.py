"""Compile the backgammon engine's numba kernels before they are needed.

numba compiles each kernel on its first call and keeps the machine code in its
cache (``__pycache__`` beside the sources), so only the very first run of a new
install or a changed source pays for it: 20 s to a minute, against well under a
second to load the cache afterwards. ``warm_up`` makes every call a game, a hint,
an analysis or the arena makes, on a small position, so that cost is paid at a
moment of our choosing (with a notice, or in the background) and not in the
middle of a player's first move.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: the modules whose ``@njit(cache=True)`` kernels a game, a hint or an analysis runs
KERNEL_MODULES = (
    "games/backgammon/fast.py",
    "bots/backgammon/features.py",
    "bots/backgammon/network.py",
    "bots/backgammon/pubeval.py",
    "bots/backgammon/search.py",
)


def sources_key() -> str:
    """A short digest of the kernels' source files: it changes whenever numba would
    recompile them (after an upgrade or an edit). Reads file contents only, so it is
    cheap and imports nothing."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        path = root / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.exists() else b"-")
    return digest.hexdigest()[:16]


def warm_up() -> None:
    """Call every kernel of play, hints and analysis once (compiling or loading it)."""
    from dicehall.bots.backgammon import LEVELS, Bot
    from dicehall.core.registry import load_game
    from dicehall.games.backgammon.rules import BackgammonState

    # one scoring is enough: single or money is a runtime flag of the same kernels
    state = load_game("backgammon").new_initial_state().apply_text("3-1")
    assert isinstance(state, BackgammonState)
    state.legal_actions()
    for level in LEVELS:  # pubeval, 0-ply, noisy 0-ply, 1-ply and 2-ply search
        Bot(level, seed=0).act(state)
    bot = Bot("expert", seed=0)
    bot.rank(state)
    for plies in (0, 1, 2):  # what analyze uses for plays searched less deeply
        bot.value_of(state, 0, plies)
