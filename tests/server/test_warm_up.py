"""The server's warm-up plays every game through the calls an action makes, so numba
compiles (or loads) the kernels of play at start-up and not while players wait."""

from __future__ import annotations

from typing import Any

import pytest

from dicehall.core.registry import registered_games
from dicehall.server import app as app_module
from dicehall.server import views


def test_warm_up_plays_every_game_past_its_first_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, list[Any]] = {}
    real = views.legal_texts_and_json

    def recording(view: Any, state: Any) -> tuple[list[str], str]:
        seen.setdefault(type(state).__name__, []).append(state)
        return real(view, state)

    monkeypatch.setattr(views, "legal_texts_and_json", recording)
    app_module.warm_up()
    # one state class per game, each listed at many decisions: backgammon's opening roll
    # re-rolls on a tie, and four steps (the old warm-up) were all chance steps there
    assert len(seen) == len(registered_games())
    assert all(len(states) >= 3 for states in seen.values()), {
        name: len(states) for name, states in seen.items()
    }
    # the positions after a play (the kernel of the plays after a play) are among them
    backgammon = seen["BackgammonState"]
    assert any(s.board != backgammon[0].board for s in backgammon[1:])
