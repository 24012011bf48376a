"""Coin Rows rules: every case the issue lists, the options, the parser and the texts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dicehall import CHANCE, TERMINAL, IllegalActionError, OptionError, load_game
from dicehall.games.coinrows import (
    LEAVE,
    ROLL,
    Capture,
    CoinRows,
    CoinRowsState,
    Ending,
    Move,
    Phase,
    Roll,
)

# One coin per column; seat 0's coins are X, seat 1's are O.
MIXED_ROW_4 = {"a7": 1, "b4": 0, "c4": 1, "d1": 0, "e4": 0, "f1": 0, "g7": 1}


def setup(coins: dict[str, int], purses: tuple[int, int], **kw: object) -> CoinRowsState:
    options = kw.pop("options", {})
    assert isinstance(options, dict)
    return CoinRows(**options).setup(coins, purses, **kw)  # type: ignore[arg-type]


def check_conserved(state: CoinRowsState) -> None:
    assert sum(state.purses) + len(state.coins()) == 2 * state.game.purse
    assert sum(state.totals()) == 2 * state.game.purse


# -- the start ------------------------------------------------------------------


def test_registered_as_coinrows() -> None:
    game = load_game("coinrows", purse="25", capture="adjacent")
    assert isinstance(game, CoinRows)
    assert game.options["purse"] == 25 and game.title == "Coin Rows"
    assert repr(game) == "load_game('coinrows', purse=25, capture='adjacent')"


def test_starting_position() -> None:
    state = CoinRows().new_initial_state()
    assert state.board_code() == "7O 7O 1X 1X 1X 1X 1X"
    assert sorted(state.coins(0)) == [(c, 0, 0) for c in range(2, 7)]
    assert sorted(state.coins(1)) == [(0, 6, 1), (1, 6, 1)]
    assert state.purses == (15, 18)
    assert state.totals() == (20, 20)
    assert state.current_player() == 0
    assert state.phase is Phase.A
    assert state.turn_number == 1
    assert state.legal_texts() == ["roll", "leave"]
    assert state.returns() == [0.0, 0.0]
    check_conserved(state)


def test_starting_purse_option() -> None:
    state = CoinRows(purse=30).new_initial_state()
    assert state.purses == (25, 28)
    assert state.totals() == (30, 30)
    with pytest.raises(OptionError):
        CoinRows(purse=4)
    with pytest.raises(OptionError):
        CoinRows(capture="diagonal")
    with pytest.raises(OptionError):
        CoinRows(payoff="points")


def test_chance_node_is_two_dice_with_exact_probabilities() -> None:
    state = CoinRows().new_initial_state().apply(ROLL)
    assert state.current_player() == CHANCE
    assert state.chance_dice() == 2
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == 1
    probs = dict(outcomes)
    assert probs[Roll(4, 4)] == Fraction(1, 36)
    assert probs[Roll(3, 4)] == Fraction(1, 18)
    assert state.outcome_from_dice((4, 3)) == state.outcome_from_dice((3, 4)) == Roll(3, 4)
    assert state.legal_actions() == [r for r, _ in outcomes]
    assert CoinRows().new_initial_state().chance_dice() == 0


# -- phases ---------------------------------------------------------------------


def test_phase_transitions_a_roll_b_and_back() -> None:
    a = CoinRows().new_initial_state()
    dice = a.apply_text("roll")
    assert (dice.phase, dice.current_player()) == (Phase.DICE, CHANCE)
    b = dice.apply_text("1-2")
    assert (b.phase, b.current_player(), b.last_roll) == (Phase.B, 0, Roll(1, 2))
    again = b.apply_text("c1-c4")
    assert (again.phase, again.current_player(), again.turn_number) == (Phase.A, 0, 1)
    assert again.board_code() == "7O 7O 4X 1X 1X 1X 1X"


def test_full_move_returns_to_phase_a_with_two_coins() -> None:
    state = CoinRows().new_initial_state().apply_text("roll").apply_text("2-3")
    after = state.apply_text("c1-c3 e1-e4")
    assert after.phase is Phase.A and after.turn == 0
    assert after.board_code() == "7O 7O 3X 1X 4X 1X 1X"
    # the same player may now roll again
    assert after.legal_texts() == ["roll", "leave"]


@pytest.mark.parametrize("roll", ["3-4", "1-6", "2-5", "5-6", "6-6"])
def test_seven_eleven_twelve_end_the_turn(roll: str) -> None:
    before = CoinRows().new_initial_state().apply_text("roll")
    after = before.apply_text(roll)
    assert after.current_player() == 1
    assert after.phase is Phase.A
    assert after.turn_number == 2
    assert after.board == before.board and after.purses == before.purses
    assert str(after.last_roll) == roll


@pytest.mark.parametrize("roll", ["4-4", "2-6", "3-5", "4-6", "5-5", "1-1"])
def test_other_totals_are_moved(roll: str) -> None:
    after = CoinRows().new_initial_state().apply_text("roll").apply_text(roll)
    assert (after.phase, after.current_player()) == (Phase.B, 0)


def test_partial_move_at_an_edge_ends_the_turn() -> None:
    # seat 0 has a single coin, on his home row: 5-3 can move it only 6 squares up
    coins = {"a7": 1, "b7": 1, "c1": 0, "d7": 1, "e7": 1, "f7": 1, "g7": 1}
    state = setup(coins, (20, 13), roll="5-3")
    assert state.legal_texts() == ["c1-c7"]
    after = state.apply_text("c1-c7")
    assert (after.current_player(), after.phase, after.turn_number) == (1, Phase.A, 2)
    assert after.board_code() == "7O 7O 7X 7O 7O 7O 7O"


def test_partial_moves_of_two_coins_move_as_far_as_possible() -> None:
    coins = {"a7": 1, "b7": 1, "c7": 1, "d4": 0, "e4": 0, "f7": 1, "g7": 1}
    state = setup(coins, (20, 13), roll="5-5")
    assert set(state.legal_texts()) == {
        "d4-d1 e4-e1",
        "d4-d1 e4-e7",
        "d4-d7 e4-e1",
        "d4-d7 e4-e7",
    }
    with pytest.raises(IllegalActionError, match="as far as possible, 6 squares"):
        state.parse_action("d4-d7")
    after = state.apply_text("d4-d7 e4-e1")
    assert after.current_player() == 1  # 6 of 10 moved: the turn is over


def test_maximal_move_obligation() -> None:
    coins = {"a7": 1, "b7": 1, "c7": 1, "d4": 0, "e1": 0, "f7": 1, "g7": 1}
    state = setup(coins, (20, 13), roll="6-2")
    # e1 up 6 and d4 two either way moves the whole 8; nothing else does
    assert set(state.legal_texts()) == {"d4-d2 e1-e7", "d4-d6 e1-e7"}
    with pytest.raises(IllegalActionError, match="full 8 exists") as err:
        state.parse_action("e1-e7")  # one coin by the total: only 6 squares
    assert set(err.value.legal) == {"d4-d2 e1-e7", "d4-d6 e1-e7"}
    with pytest.raises(IllegalActionError, match="full 8 exists"):
        state.parse_action("d4-d1 e1-e3")  # 6 on d4 stops after 3, 2 on e1: 5 in all
    assert state.apply_text("e1-e7 d4-d6").phase is Phase.A


def test_player_with_no_coin_on_the_board_cannot_move() -> None:
    coins = {"a7": 1, "b7": 1, "c7": 1, "d7": 1, "e7": 1, "f7": 1, "g7": 1}
    state = setup(coins, (25, 8)).apply_text("roll")
    after = state.apply_text("1-2")
    assert (after.current_player(), after.phase, after.turn_number) == (1, Phase.A, 2)


def test_coins_stop_at_the_edge_and_never_bounce() -> None:
    coins = {"a7": 1, "b7": 1, "c6": 0, "d7": 1, "e7": 1, "f7": 1, "g7": 1}
    state = setup(coins, (20, 13), roll="1-2")
    # one coin only: 3 up stops at c7 after 1 square; 3 down is the full roll
    assert state.legal_texts() == ["c6-c3"]


# -- captures and refills -----------------------------------------------------------


def test_capture_of_a_mixed_row_and_the_exact_refill() -> None:
    state = setup(MIXED_ROW_4, (17, 16))
    assert state.legal_texts() == ["roll", "capture 4", "leave"]
    after = state.apply_text("capture 4")
    # the capturer takes all three coins, his own two and the opponent's one
    assert after.purses[0] == 17 + 3
    # the opponent pays one coin per emptied column onto his home row, in those columns
    assert after.refilled == (1, 2, 4)
    assert after.purses[1] == 16 - 3
    assert after.board_code() == "7O 7O 7O 1X 7O 1X 7O"
    assert len(after.coins()) == 7
    assert (after.current_player(), after.phase, after.turn_number) == (1, Phase.A, 2)
    assert after.totals() == (22, 18)
    check_conserved(after)


def test_capture_needs_two_coins_and_not_a_home_row() -> None:
    state = setup(MIXED_ROW_4, (17, 16))
    with pytest.raises(IllegalActionError, match="home row") as err:
        state.parse_action("capture 1")
    assert err.value.legal == ["roll", "capture 4", "leave"]
    with pytest.raises(IllegalActionError, match="holds 0 coins"):
        state.parse_action("capture 5")
    with pytest.raises(IllegalActionError, match="whole row"):
        state.parse_action("capture 4 b-c")
    assert state.parse_action("capture 4 a-g") == Capture(3, (1, 2, 4))
    assert state.parse_action("CAPTURE row 4") == state.parse_action("x4") == Capture(3, (1, 2, 4))


def test_broke_mid_refill_ends_the_game() -> None:
    state = setup(MIXED_ROW_4, (32, 1))
    after = state.apply_text("capture 4")
    assert after.is_terminal() and after.current_player() == TERMINAL
    assert after.ending is Ending.BROKE and after.ended_by == 1
    # he pays what he can (one coin, into column b) and no more
    assert after.refilled == (1,)
    assert after.purses == (35, 0)
    assert after.board_code() == "7O 7O - 1X - 1X 7O"
    check_conserved(after)
    assert after.totals() == (37, 3)
    assert after.returns() == [1.0, -1.0]
    assert after.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        after.apply(ROLL)


def test_paying_the_last_coins_is_not_broke() -> None:
    after = setup(MIXED_ROW_4, (30, 3)).apply_text("capture 4")
    assert not after.is_terminal()
    assert after.purses == (33, 0)
    assert len(after.coins()) == 7


def test_adjacent_capture_option() -> None:
    coins = {"a4": 0, "b4": 1, "c1": 0, "d4": 0, "e4": 1, "f4": 0, "g3": 1}
    state = setup(coins, (17, 16), options={"capture": "adjacent"})
    assert state.legal_texts() == ["roll", "capture 4 a-b", "capture 4 d-f", "leave"]
    with pytest.raises(IllegalActionError, match="several runs"):
        state.parse_action("capture 4")
    with pytest.raises(IllegalActionError, match="not a whole run"):
        state.parse_action("capture 4 d-e")
    assert (
        state.parse_action("capture d4-f4") == state.parse_action("4 fd") == Capture(3, (3, 4, 5))
    )
    after = state.apply_text("capture 4 d-f")
    assert after.purses == (20, 13)
    assert after.refilled == (3, 4, 5)
    assert after.board_code() == "4X 4O 1X 7O 7O 7O 3O"
    # under the row rule the same row is taken whole, gaps and all
    row_rule = setup(coins, (17, 16))
    assert row_rule.legal_texts() == ["roll", "capture 4", "leave"]
    assert row_rule.apply_text("capture 4").purses == (22, 11)


def test_adjacent_rule_refuses_scattered_coins() -> None:
    coins = {"a3": 0, "b7": 1, "c3": 1, "d1": 0, "e3": 0, "f1": 0, "g7": 1}
    state = setup(coins, (17, 16), options={"capture": "adjacent"})
    assert state.legal_texts() == ["roll", "leave"]
    with pytest.raises(IllegalActionError, match="neighbouring columns"):
        state.parse_action("capture 3")
    assert setup(coins, (17, 16)).legal_texts() == ["roll", "capture 3", "leave"]


# -- the end --------------------------------------------------------------------------


def test_leaving_ends_the_game_and_totals_decide() -> None:
    start = CoinRows().new_initial_state()
    left = start.apply(LEAVE)
    assert left.is_terminal() and left.ending is Ending.LEFT and left.ended_by == 0
    assert left.returns() == [0.0, 0.0]  # 20 to 20: drawn
    after_capture = setup(MIXED_ROW_4, (17, 16)).apply_text("capture 4")
    done = after_capture.apply_text("leave")
    assert done.ended_by == 1 and done.totals() == (22, 18)
    assert done.returns() == [1.0, -1.0]
    assert done.winner() == 0


def test_leaving_can_be_forbidden() -> None:
    state = CoinRows(leaving=False).new_initial_state()
    assert state.legal_texts() == ["roll"]
    with pytest.raises(IllegalActionError, match="not allowed"):
        state.parse_action("leave")
    with pytest.raises(IllegalActionError, match="not allowed"):
        state.apply(LEAVE)


def test_coins_payoff_is_the_net_gain() -> None:
    done = (
        setup(MIXED_ROW_4, (17, 16), options={"payoff": "coins"})
        .apply_text("capture 4")
        .apply_text("leave")
    )
    assert done.returns() == [2.0, -2.0]
    drawn = CoinRows(payoff="coins").new_initial_state().apply(LEAVE)
    assert drawn.returns() == [0.0, 0.0]


def test_turn_limit_ends_the_game() -> None:
    state = CoinRows(turn_limit=2).new_initial_state()
    state = state.apply_text("roll").apply_text("3-4")
    assert state.turn_number == 2 and not state.is_terminal()
    state = state.apply_text("roll").apply_text("6-6")
    assert state.is_terminal() and state.ending is Ending.TURN_LIMIT
    assert state.returns() == [0.0, 0.0]


def test_a_capture_in_the_last_turn_is_not_refilled() -> None:
    after = setup(MIXED_ROW_4, (17, 16), options={"turn_limit": 1}).apply_text("capture 4")
    assert after.ending is Ending.TURN_LIMIT
    assert after.refilled == () and len(after.coins()) == 4
    assert after.totals() == (22, 18)


# -- action text --------------------------------------------------------------------


def test_parser_is_tolerant() -> None:
    a = CoinRows().new_initial_state()
    for text in ("roll", " ROLL ", "r", "roll dice", "throw"):
        assert a.parse_action(text) is ROLL
    assert a.parse_action("Leave") is LEAVE
    dice = a.apply(ROLL)
    for text in ("3-4", "4-3", "43", "4 3", "4,3"):
        assert dice.parse_action(text) == Roll(3, 4)
    b = dice.apply_text("2-4")
    want = b.parse_action("c1-c3 e1-e5")
    assert isinstance(want, Move)
    for text in ("e1-e5 c1-c3", "C1 C3, E1 E5", "c1c3 e1e5", "c1-3 e1-5", "c1 to c3 and e1 to e5"):
        assert b.parse_action(text) == want
    assert b.parse_action("c1-c3 c3-c7") == b.parse_action("c1-c7") == Move(((2, 0, 6),))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("c1-c9", "squares are a1 to g7"),
        ("c1-d3", "straight along their column"),
        ("c3-c5", "no coin on c3"),
        ("a7-a5", "belongs to seat 2"),
        ("c1-c2", "two different coins"),
        ("c1-c3 c1-c4", "appears twice"),
        ("roll", "move them now"),
        ("pass", "must move"),
        ("hello", "square to square"),
    ],
)
def test_illegal_moves_say_why_and_list_legal(text: str, reason: str) -> None:
    state = CoinRows().new_initial_state().apply(ROLL).apply_text("2-4")
    with pytest.raises(IllegalActionError, match=reason) as err:
        state.parse_action(text)
    assert err.value.legal == state.legal_texts()


def test_phase_a_and_dice_errors() -> None:
    a = CoinRows().new_initial_state()
    with pytest.raises(IllegalActionError, match="must roll first"):
        a.parse_action("c1-c4")
    with pytest.raises(IllegalActionError, match="write roll"):
        a.parse_action("3-4")
    with pytest.raises(IllegalActionError, match="no row can be captured"):
        a.parse_action("capture")
    dice = a.apply(ROLL)
    with pytest.raises(IllegalActionError, match="two dice"):
        dice.parse_action("roll")
    with pytest.raises(IllegalActionError, match="1 to 6"):
        dice.parse_action("3-7")
    with pytest.raises(IllegalActionError, match="dice must be rolled"):
        dice.apply(ROLL)
    with pytest.raises(IllegalActionError, match="capture a row, roll or leave"):
        a.apply(["not", "an", "action"])  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="capture a row, roll or leave"):
        a.apply(Roll(3, 4))


def test_every_legal_action_text_round_trips() -> None:
    states = [
        CoinRows().new_initial_state(),
        setup(MIXED_ROW_4, (17, 16)),
        setup(MIXED_ROW_4, (17, 16), roll="2-4"),
        setup(
            {"a4": 0, "b4": 1, "c1": 0, "d4": 0, "e4": 1, "f4": 0, "g3": 1},
            (17, 16),
            options={"capture": "adjacent"},
        ),
        CoinRows().new_initial_state().apply(ROLL),
    ]
    for state in states:
        for action in state.legal_actions():
            assert state.parse_action(state.action_to_text(action)) == action


def test_setup_validates_positions() -> None:
    g = CoinRows()
    with pytest.raises(ValueError, match="two coins"):
        g.setup({"a1": 0, "a2": 1}, (20, 20))
    with pytest.raises(ValueError, match="seven coins"):
        g.setup({"a1": 0}, (20, 19))
    with pytest.raises(ValueError, match="conserved"):
        g.setup(MIXED_ROW_4, (20, 20))
    with pytest.raises(ValueError, match="nothing to move"):
        g.setup(MIXED_ROW_4, (17, 16), roll="3-4")


# -- values and texts -----------------------------------------------------------------


def test_states_are_values() -> None:
    g = CoinRows()
    a = g.new_initial_state().apply_text("roll").apply_text("1-2").apply_text("c1-c4")
    b = g.new_initial_state().apply_text("roll").apply_text("2-1").apply_text("c1-c4")
    assert a == b and hash(a) == hash(b)
    # the last roll is shown to players but is not part of the position in Phase A
    c = g.new_initial_state().apply_text("roll").apply_text("1-3").apply_text("c1-c2 d1-d4")
    d = g.new_initial_state().apply_text("roll").apply_text("1-3").apply_text("c1-c5")
    assert c != d
    assert a != CoinRows(purse=21).new_initial_state()
    assert "phase A" in repr(a) and "4X" in repr(a)


def test_render_from_each_side() -> None:
    state = setup(MIXED_ROW_4, (17, 16))
    mine = state.render().splitlines()
    assert mine[0].startswith("seat 2 (O)  purse 16")
    assert mine[1].split() == list("abcdefg")
    assert mine[2].split()[:3] == ["7", "O", "."]
    assert "<- capture 4 (3 coins)" in mine[5]
    assert mine[-3].startswith("seat 1 (X)  purse 17  + 4 on board  = 21")
    assert "Phase A" in mine[-2] and mine[-1] == "Last roll: none"
    theirs = state.render(1).splitlines()
    assert theirs[0].startswith("seat 1 (X)")
    assert theirs[1].split() == list("gfedcba")
    assert theirs[2].split()[0] == "1"
    after = state.apply_text("capture 4")
    text = str(after)  # drawn for seat 2, who is now on turn
    assert "Phase C: seat 2 (O) paid coins into b7 c7 e7" in text
    assert text.splitlines()[1].split() == list("gfedcba")
    rolled = state.apply_text("roll").apply_text("2-4")
    assert "Phase B, move 2-4 (one coin 6, or two coins 2 and 4)" in rolled.render()
    over = after.apply_text("leave")
    assert "Game over: seat 2 (O) left; totals 22 to 18, seat 1 (X) wins" in over.render()
