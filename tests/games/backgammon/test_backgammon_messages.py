"""The reasons given for illegal backgammon plays are true."""

from __future__ import annotations

import pytest

from dicehall import load_game
from dicehall.core.errors import IllegalActionError


def after_opening(roll: str):  # type: ignore[no-untyped-def]
    return load_game("backgammon").new_initial_state().apply_text(roll)


@pytest.mark.parametrize(
    ("roll", "typed", "reason"),
    [
        ("3-2", "8/5 6/5", "6/5 is 1 pip, which the dice 3-2 do not make"),
        ("3-2", "24/20 13/12", "24/20 is 4 pips, which the dice 3-2 do not make"),
        ("6-1", "13/5", "13/5 is 8 pips, which the dice 6-1 do not make"),
    ],
)
def test_a_hop_no_die_makes_is_named(roll: str, typed: str, reason: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        after_opening(roll).parse_action(typed)
    assert info.value.reason == reason
    assert "both dice" not in str(info.value)


def test_using_one_die_only_still_says_both_dice() -> None:
    with pytest.raises(IllegalActionError) as info:
        after_opening("3-2").parse_action("8/5")
    assert info.value.reason == "you must use both dice where possible (3-2)"


def test_combined_hops_are_accepted() -> None:
    state = after_opening("3-2")
    assert state.action_to_text(state.parse_action("13/8")) == "13/8"
    assert state.action_to_text(state.parse_action("13/10/8")) == "13/8"
