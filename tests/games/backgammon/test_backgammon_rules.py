"""Hand-checked backgammon positions with their exact sets of legal plays."""

from __future__ import annotations

import pytest

from dicehall import CHANCE, TERMINAL, IllegalActionError, load_game
from dicehall.games.backgammon import BAR, OFF, START_SIDE, BackgammonState, Play, Roll

GAME = load_game("backgammon")


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """A side in its owner's numbering; checkers not placed are borne off."""
    counts = [0] * 26
    for p, n in points.items():
        counts[p] = n
    counts[BAR] = bar
    counts[OFF] = 15 - sum(counts)
    return tuple(counts)


def at(
    mine: dict[int, int],
    theirs: dict[int, int],
    dice: tuple[int, int],
    *,
    my_bar: int = 0,
    their_bar: int = 0,
    game=GAME,
) -> BackgammonState:
    """Seat 0 to play ``dice``; ``theirs`` in the opponent's own numbering."""
    return game.setup((side(mine, my_bar), side(theirs, their_bar)), turn=0, dice=dice)


def legal(state: BackgammonState) -> set[str]:
    return set(state.legal_texts())


START = {24: 2, 13: 5, 8: 3, 6: 5}

# Distinct resulting positions per opening roll; the same numbers come out of
# OpenSpiel's independent implementation (see test_backgammon_openspiel.py).
OPENING_COUNTS = {
    (2, 1): 15,
    (3, 1): 16,
    (3, 2): 17,
    (4, 1): 14,
    (4, 2): 18,
    (4, 3): 17,
    (5, 1): 8,
    (5, 2): 8,
    (5, 3): 9,
    (5, 4): 9,
    (6, 1): 10,
    (6, 2): 14,
    (6, 3): 14,
    (6, 4): 14,
    (6, 5): 7,
}


@pytest.mark.parametrize("roll", sorted(OPENING_COUNTS))
def test_opening_rolls(roll: tuple[int, int]) -> None:
    state = GAME.new_initial_state().apply(Roll(*roll))  # seat 0 rolled the higher die
    assert state.current_player() == 0 and state.dice == roll
    texts = state.legal_texts()
    assert len(texts) == len(set(texts)) == OPENING_COUNTS[roll]
    boards = {board for _, board in state.play_results()}
    assert len(boards) == OPENING_COUNTS[roll]


def test_opening_31_exact() -> None:
    state = GAME.new_initial_state().apply(Roll(3, 1))
    assert legal(state) == {
        "24/23 24/21",
        "24/20",
        "24/21 8/7",
        "24/21 6/5",
        "24/23 13/10",
        "13/9",
        "13/10 8/7",
        "13/10 6/5",
        "24/23 8/5",
        "8/7 8/5",
        "8/5 6/5",
        "8/4",
        "24/23 6/3",
        "8/7 6/3",
        "6/5 6/3",
        "6/2",
    }


def test_opening_65_exact() -> None:
    state = GAME.new_initial_state().apply(Roll(6, 5))
    # 13/8 8/2 and 13/2 are one position: listed once
    assert legal(state) == {
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "13/8 13/7",
        "13/7 8/3",
        "13/2",
        "8/3 8/2",
    }


def test_opening_tie_rerolls_and_lower_die_starts_second() -> None:
    s0 = GAME.new_initial_state()
    assert s0.current_player() == CHANCE and len(s0.chance_outcomes()) == 36
    assert s0.apply(Roll(4, 4)) == s0  # tie: roll again
    s = s0.apply(Roll(2, 5))  # seat 1 rolled the 5 and starts with 5-2
    assert s.current_player() == 1 and s.dice == (5, 2)
    assert sum(p for _, p in s.apply_text("13/8 13/11").chance_outcomes()) == 1


def test_doubles_with_blocked_points() -> None:
    # 24/20 is blocked, so the four 4s all come from the 6 point
    s = at({24: 2, 6: 13}, {5: 2, 9: 2, 13: 11}, (4, 4))
    assert legal(s) == {"6/2(4)"}
    # 3-3: 24/21 is open but 21/18 is not; nothing can bear off while 24/21 is out
    s = at({24: 1, 6: 14}, {7: 2, 10: 2, 13: 11}, (3, 3))
    assert legal(s) == {"24/21 6/3(3)", "6/3(4)"}


def test_doubles_only_part_usable() -> None:
    # 3-3: 6/3 blocked, 8/5 open, 5/2 blocked: one 3 only
    s = at({8: 1, 6: 14}, {22: 2, 23: 2, 13: 11}, (3, 3))
    assert legal(s) == {"8/5"}


def test_bar_entry_with_one_entry_point_blocked() -> None:
    s = at({24: 1, 13: 5, 8: 3, 6: 5}, dict(START), (6, 3), my_bar=1)
    assert legal(s) == {"bar/22 24/18", "bar/16", "bar/22 13/7", "bar/22 8/2"}
    with pytest.raises(IllegalActionError, match="bar must enter"):
        s.parse_action("24/18 13/10")


def test_bar_entry_all_points_blocked() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    s = at({13: 6, 8: 3, 6: 5}, closed, (6, 3), my_bar=1)
    assert legal(s) == {"pass"}
    after = s.apply_text("pass")
    assert after.current_player() == CHANCE and after.turn == 1


def test_two_on_bar_one_can_enter() -> None:
    s = at({24: 0, 13: 5, 8: 3, 6: 5}, {5: 2, 13: 5, 8: 3, 6: 5}, (5, 2), my_bar=2)
    assert legal(s) == {"bar/23"}


def test_forced_larger_die() -> None:
    # either die alone, never both: the 6 (the larger) must be played
    theirs = {11: 2, 10: 2, 6: 11}
    s = at({10: 1, 20: 1, 1: 13}, theirs, (6, 5))
    assert legal(s) == {"10/4"}
    with pytest.raises(IllegalActionError):
        s.parse_action("10/5")
    # when the larger cannot be played at all, the smaller must be
    s = at({10: 1, 20: 1, 1: 13}, {**theirs, 21: 2, 6: 9}, (6, 5))
    assert legal(s) == {"10/5"}


def test_bear_off_with_higher_die() -> None:
    s = at({3: 2, 2: 3}, {13: 15}, (6, 5))
    assert legal(s) == {"3/off(2)"}


def test_bear_off_with_lower_dice_moves_inside() -> None:
    s = at({6: 1, 5: 1}, {13: 15}, (2, 1))
    boards = {tuple(b[0][1:7]) for _, b in s.play_results()}
    assert boards == {(0, 0, 0, 2, 0, 0), (0, 0, 1, 0, 1, 0), (0, 1, 0, 0, 0, 1)}
    assert not any("off" in t for t in s.legal_texts())


def test_no_bear_off_with_a_checker_on_the_bar() -> None:
    s = at({2: 14}, {13: 15}, (6, 1), my_bar=1)
    assert legal(s) == {"bar/18", "bar/19 2/1"}


def test_bear_off_becomes_legal_during_the_turn() -> None:
    # 8/2 brings the last checker home, then the 6 bears off from the 6 point
    s = at({8: 1, 6: 2, 5: 12}, {13: 15}, (6, 6))
    assert legal(s) == {"8/2 6/off(2) 5/off"}


def test_hit_sends_checker_to_bar_and_notation_marks_it() -> None:
    s = at({13: 15}, {20: 1, 6: 14}, (4, 4))  # their 20 is our 5: a blot
    play = s.parse_action("13/5(2)")
    assert s.action_to_text(play) == "13/5*(2)"
    after = s.apply(play)
    assert after.side(1)[BAR] == 1 and after.side(1)[20] == 0
    assert after.current_player() == CHANCE and after.turn == 1


def test_hit_on_the_way_is_written_and_disambiguated() -> None:
    s = at({24: 1, 6: 14}, {7: 1, 13: 14}, (6, 5))  # their 7 is our 18: a blot
    texts = legal(s)
    assert "24/18*/13" in texts and "24/13" in texts
    assert s.action_to_text(s.parse_action("24/13")) == "24/13"
    assert s.action_to_text(s.parse_action("24/18/13")) == "24/18*/13"
    assert s.action_to_text(s.parse_action("24/18* 18/13")) == "24/18*/13"


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("13/11 24/18", "24/18 13/11"),
        ("24-18 13-11", "24/18 13/11"),
        ("  24/18,13/11 ", "24/18 13/11"),
        ("13/11, 24/18", "24/18 13/11"),
    ],
)
def test_parser_accepts_what_players_type(typed: str, canonical: str) -> None:
    s = GAME.new_initial_state().apply(Roll(6, 2))
    assert s.action_to_text(s.parse_action(typed)) == canonical


def test_parser_forms_for_bar_off_and_counts() -> None:
    s = at({24: 1, 13: 5, 8: 3, 6: 5}, dict(START), (6, 3), my_bar=1)
    assert s.action_to_text(s.parse_action("25/22 24/18")) == "bar/22 24/18"
    assert s.action_to_text(s.parse_action("b/22/16")) == "bar/16"
    s = at({6: 4, 5: 2}, {13: 15}, (6, 6))
    assert s.action_to_text(s.parse_action("6/off 6/off 6/off 6/off")) == "6/off(4)"
    assert s.action_to_text(s.parse_action("6/0(4)")) == "6/off(4)"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("24/18 13/x", "cannot read"),
        ("18/24 13/11", "higher to lower"),
        ("20/14 13/11", "you have 0 checkers on point 20"),
        ("24/18", "both dice"),
        ("6/off 6/off", "bear off"),
        ("pass", "legal play"),
        ("30/24", "no point 30"),
    ],
)
def test_illegal_plays_say_why_and_list_legal(typed: str, reason: str) -> None:
    s = GAME.new_initial_state().apply(Roll(6, 2))
    with pytest.raises(IllegalActionError, match=reason) as info:
        s.parse_action(typed)
    assert "24/18 13/11" in info.value.legal
    assert isinstance(info.value, ValueError)


def test_apply_rejects_illegal_play_objects() -> None:
    s = GAME.new_initial_state().apply(Roll(6, 2))
    with pytest.raises(IllegalActionError):
        s.apply(Play(((24, 18),)))
    with pytest.raises(IllegalActionError):
        s.apply(Roll(3, 1))
    # the same position reached in another order is the same legal play
    assert s.apply(Play(((13, 11), (24, 18)))) == s.apply_text("24/18 13/11")


@pytest.mark.parametrize(
    ("loser", "loser_bar", "scoring", "points"),
    [
        ({19: 1}, 0, "single", 1),
        ({12: 14}, 0, "standard", 1),  # loser has borne off one: single game
        ({12: 15}, 0, "standard", 2),  # none off: gammon
        ({12: 14, 22: 1}, 0, "standard", 3),  # one in the winner's home board: backgammon
        ({12: 14}, 1, "standard", 3),  # one on the bar: backgammon
    ],
)
def test_game_end_and_scoring(
    loser: dict[int, int], loser_bar: int, scoring: str, points: int
) -> None:
    game = load_game("backgammon", scoring=scoring)
    theirs = side(loser, loser_bar)
    if scoring == "single":
        theirs = side({19: 1})
    s = game.setup((side({1: 1}), theirs), turn=0, dice=(2, 1))
    end = s.apply_text("1/off")
    assert end.current_player() == TERMINAL and end.is_terminal()
    assert end.returns() == [float(points), -float(points)]
    assert end.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        end.parse_action("1/off")


def test_setup_validates() -> None:
    with pytest.raises(ValueError, match="26 non-negative"):
        GAME.setup(((0,) * 26, START_SIDE))
    bad = side({24: 2, 13: 5, 8: 3, 6: 5})
    with pytest.raises(ValueError, match="both colours"):
        GAME.setup((bad, side({1: 1, 13: 14})))  # their 1 is our 24
    s = GAME.setup((START_SIDE, START_SIDE), turn=1)
    assert s.current_player() == CHANCE and s.turn == 1


def test_returns_are_zero_until_the_end() -> None:
    s = GAME.new_initial_state()
    assert s.returns() == [0.0, 0.0]
