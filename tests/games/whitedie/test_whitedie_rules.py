"""White Die turns, the white die, every challenge's flow, the start and the end."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dicehall import CHANCE, TERMINAL, IllegalActionError, Record, load_game
from dicehall.core.errors import ActionSyntaxError
from dicehall.games.whitedie.rules import (
    ARRANGE,
    CHOOSE,
    CLAIM,
    MATCH_LAST,
    MATCH_OPPONENT,
    MATCH_PLAYER,
    OPPONENT_ROLL,
    OVER,
    REROLL,
    ROLL,
    START,
    TICTACTOE,
    Claim,
    Place,
    Reroll,
    Roll,
    Stand,
    WhiteDieState,
)


def game(**options: object) -> object:
    return load_game("whitedie", **options)


def play(state: WhiteDieState, *texts: str) -> WhiteDieState:
    for text in texts:
        state = state.apply_text(text)
    return state


# -- options and registration -------------------------------------------------
def test_options() -> None:
    g = load_game("whitedie", players=4, target=30, poker_chart="no-straights")
    assert g.num_players == 4 and g.target == 30 and g.poker_chart == "no-straights"
    assert load_game("whitedie").num_players == 2
    with pytest.raises(ValueError):
        load_game("whitedie", players=7)
    with pytest.raises(ValueError):
        load_game("whitedie", poker_chart="yahtzee")


# -- who starts -----------------------------------------------------------------
def test_highest_white_starts() -> None:
    s = load_game("whitedie", players=3).new_initial_state()
    assert s.phase == START and s.chance_dice() == 5 and s.roller == 0
    s = play(s, "white 4: 6 6 6 6", "white 5: 1 1 1 1", "white 2: 6 6 6 6")
    assert s.phase == ROLL and s.turn == 1


def test_start_ties_broken_by_coloured_sum() -> None:
    s = load_game("whitedie", players=3).new_initial_state()
    s = play(s, "white 6: 1 1 1 2", "white 6: 1 1 1 1", "white 6: 1 1 2 2")
    assert s.phase == ROLL and s.turn == 2


def test_players_still_tied_roll_again() -> None:
    s = load_game("whitedie", players=3).new_initial_state()
    s = play(s, "white 6: 1 2 3 4", "white 2: 6 6 6 6", "white 6: 4 3 2 1")
    assert s.phase == START and s.contenders == (0, 2) and s.roller == 0
    s = play(s, "white 3: 1 1 1 1", "white 4: 1 1 1 1")
    assert s.phase == ROLL and s.turn == 2


def test_white_one_counts_at_the_start() -> None:
    s = load_game("whitedie").new_initial_state()
    assert len(s.chance_outcomes()) == 6 * 126
    assert sum(p for _, p in s.chance_outcomes()) == 1
    s = play(s, "white 1: 6 6 6 6", "white 1: 6 6 6 5")
    assert s.turn == 0


# -- white 1 ----------------------------------------------------------------------
def test_white_one_ends_the_turn_of_the_leader() -> None:
    s = game().setup([7, 3], 0)
    after = s.apply_text("white 1")
    assert after.phase == ROLL and after.turn == 1 and after.scores == (7, 3)


def test_white_one_ends_the_turn_of_a_tied_player() -> None:
    s = load_game("whitedie", players=3).setup([5, 2, 5], 0)
    after = s.apply_text("white 1: 2 3 4 5")  # coloured dice are ignored
    assert after.phase == ROLL and after.turn == 1 and after.scores == (5, 2, 5)


def test_white_one_is_rolled_again_by_a_trailing_player() -> None:
    s = load_game("whitedie", players=3).setup([5, 2, 4], 2)
    after = s.apply_text("white 1")
    assert after == s and after.turn == 2 and after.current_player() == CHANCE
    after = after.apply_text("white 6: 6 6 1 1")
    assert after.phase == REROLL and after.turn == 2


def test_turn_roll_outcomes_are_exact() -> None:
    outcomes = game().setup([0, 0], 0).chance_outcomes()
    assert dict(outcomes)[Roll((), 1)] == Fraction(1, 6)
    assert dict(outcomes)[Roll((6, 6, 6, 6), 2)] == Fraction(1, 6 * 1296)
    assert dict(outcomes)[Roll((1, 2, 3, 4), 5)] == Fraction(24, 6 * 1296)
    assert sum(p for _, p in outcomes) == 1
    assert len(outcomes) == 1 + 5 * 126


def test_outcome_from_dice_reads_the_white_die_first() -> None:
    s = game().setup([0, 0], 0)
    assert s.outcome_from_dice([4, 6, 1, 3, 1]) == Roll((1, 1, 3, 6), 4)
    assert s.outcome_from_dice([1, 6, 1, 3, 1]) == Roll((), 1)
    r = game().setup([0, 0], 0, white=2, dice=[1, 2, 3, 4]).apply_text("reroll 1 2")
    assert r.chance_dice() == 2 and r.outcome_from_dice([6, 2]) == Roll((2, 6))


# -- stand or reroll challenges -----------------------------------------------------
def test_poker_rerolls_then_scores() -> None:
    s = game().setup([0, 0], 0, white=2, dice=[1, 3, 5, 6])
    s = s.apply_text("reroll 1 3")
    assert s.current_player() == CHANCE and s.chance_dice() == 2 and s.kept == (5, 6)
    s = s.apply_text("5 6")
    assert s.dice == (5, 5, 6, 6) and s.rerolls_left == 1 and s.current_player() == 0
    s = play(s, "reroll 5 5", "6 6")
    assert s.phase == ROLL and s.turn == 1 and s.scores == (6, 0)
    assert s.last is not None and s.last.dice == (6, 6, 6, 6) and s.last.points == 6


def test_stand_scores_now() -> None:
    s = game().setup([2, 0], 0, white=5, dice=[5, 5, 5, 5]).apply_text("stand")
    assert s.scores == (2, 0) and s.turn == 1
    s = game().setup([2, 0], 0, white=6, dice=[3, 3, 3, 3]).apply_text("s")
    assert s.scores == (8, 0)


def test_reroll_by_position_value_and_keep() -> None:
    s = game().setup([0, 0], 0, white=6, dice=[2, 3, 5, 6])
    assert s.parse_action("reroll 5 2") == Reroll((2, 5))
    assert s.parse_action("#1 #4") == Reroll((2, 6))
    assert s.parse_action("reroll 1 4") == Reroll((2, 6))  # no 1 or 4 showing: positions
    assert s.parse_action("keep 6") == Reroll((2, 3, 5))
    assert s.parse_action("keep 2 3 5 6") == Stand()
    assert s.parse_action("reroll all") == Reroll((2, 3, 5, 6))
    with pytest.raises(IllegalActionError) as err:
        s.parse_action("reroll 4 4")
    assert "stand" in err.value.legal and "reroll 2 5" in err.value.legal


def test_the_second_reroll_scores_automatically() -> None:
    s = game().setup([0, 0], 0, white=6, dice=[1, 1, 1, 1], rerolls_left=1)
    s = play(s, "reroll 1 1 1 1", "3 3 3 3")
    assert s.scores == (6, 0) and s.phase == ROLL


# -- tic-tac-toe ------------------------------------------------------------------
def test_tictactoe_with_two_players_opponent_rolls_then_places_first() -> None:
    s = play(game().setup([0, 0], 1), "white 3: 2 3 3 4")
    assert s.phase == OPPONENT_ROLL and s.opponent == 0 and s.chance_dice() == 4
    s = s.apply_text("2 4 6 6")
    assert s.phase == TICTACTOE and s.current_player() == 0  # the opponent places first
    assert "place 2 b1" in s.legal_texts() and "place 6 b1" not in s.legal_texts()
    s = s.apply_text("place 4 b1")
    assert s.current_player() == 1 and s.grid[1] == -4
    # the player's die may equal its neighbour
    assert "place 4 a1" in s.legal_texts() and "place 3 a2" in s.legal_texts()


def _plus_sign(**options: object) -> WhiteDieState:
    """The seed's example: 3 3 3 3 against 1 1 1 1 (the 1s never fit next to a 3, so the
    opponent always passes), after the player's last placement: a plus sign of 3s."""
    s = game(**options).setup(
        [0, 0], 0, white=3, dice=[3, 3, 3, 3], opponent=1, opponent_dice=[1, 1, 1, 1]
    )
    assert s.current_player() == 0
    s = play(s, "place 3 b1", "place 3 a2", "place 3 c2")
    assert s.phase == TICTACTOE and s.current_player() == 0
    return s.apply_text("place 3 b3")


def test_tictactoe_player_claims_the_empty_squares() -> None:
    s = _plus_sign()
    # nobody can place and he has placed all his dice: he decides the claim
    assert s.phase == CLAIM and s.current_player() == 0 and s.legal_texts() == ["claim", "decline"]
    assert s.grid.count(0) == 4  # the corners are still empty
    claimed = s.apply_text("claim")
    assert claimed.scores == (12, 0)  # he claims the four corners: 8 lines and 4 blocks
    assert claimed.last is not None and claimed.last.grid.count(7) == 4
    assert not claimed.last.claim_declined
    declined = s.apply_text("decline")
    assert declined.scores == (2, 0)  # row 2 and column b; the corners stay empty
    assert declined.last is not None and declined.last.claim_declined
    assert declined.last.grid.count(0) == 4 and declined.phase == ROLL and declined.turn == 1


def test_the_claim_is_taken_for_him_where_it_cannot_matter() -> None:
    # claiming wins the game at once (12 points from 9): no question
    s = game().setup([9, 0], 0, white=3, dice=[3, 3, 3, 3], opponent=1, opponent_dice=[1, 1, 1, 1])
    s = play(s, "place 3 b1", "place 3 a2", "place 3 c2", "place 3 b3")
    assert s.phase == OVER and s.scores == (21, 0) and s.winner == 0
    # without free choices the claim is always made for him (the rules before the choices)
    s = _plus_sign(free_choices=False)
    assert s.phase == ROLL and s.scores == (12, 0)


def test_claim_texts_and_errors() -> None:
    s = _plus_sign()
    assert s.parse_action("yes") == Claim(True) and s.parse_action("leave") == Claim(False)
    assert str(Claim(True)) == "claim" and str(Claim(False)) == "decline"
    with pytest.raises(ActionSyntaxError, match="'claim'"):
        s.apply_text("maybe")
    pips = game().setup([0, 0], 0, white=5, dice=[1, 1, 6, 6])
    with pytest.raises(IllegalActionError, match="claim is decided only when"):
        pips.apply_text("claim")
    with pytest.raises(IllegalActionError, match="arranged only at the end of Pips"):
        pips.apply_text("arrange 3")


def test_pips_arrangement_is_chosen_where_it_can_matter() -> None:
    s = game().setup([3, 5], 0, white=5, dice=[1, 1, 6, 6], rerolls_left=1).apply_text("stand")
    # 1 1 6 6 can be arranged for 3 (the 6s turned, in the bottom row), 2 or 0 points
    assert s.phase == ARRANGE and s.current_player() == 0
    assert s.legal_texts() == ["arrange 3", "arrange 2", "arrange 0"]
    assert s.apply_text("arrange 2").scores == (5, 5)
    assert s.apply_text("best").scores == (6, 5)
    low = s.apply_text("0")
    assert low.scores == (3, 5) and low.last is not None and low.last.points == 0
    with pytest.raises(IllegalActionError, match="it can score 3, 2, 0"):
        s.apply_text("arrange 1")
    # the last reroll leads to the arrangement too
    r = game().setup([3, 5], 0, white=5, dice=[1, 1, 6, 6], rerolls_left=1)
    r = r.apply_text("reroll 1").apply_text("1")
    assert r.phase == ARRANGE and r.dice == (1, 1, 6, 6)


def test_pips_is_scored_at_once_where_the_arrangement_cannot_matter() -> None:
    # four 1s: every square scores 8
    s = game().setup([3, 5], 0, white=5, dice=[1, 1, 1, 1], rerolls_left=1).apply_text("stand")
    assert s.phase == ROLL and s.scores == (11, 5)
    # the best square wins the game
    s = game().setup([18, 5], 0, white=5, dice=[1, 1, 6, 6], rerolls_left=1).apply_text("stand")
    assert s.phase == OVER and s.scores == (21, 5)
    # without free choices the best square is always taken
    s = game(free_choices=False).setup([3, 5], 0, white=5, dice=[1, 1, 6, 6], rerolls_left=1)
    assert s.apply_text("stand").scores == (6, 5)
    # Poker and Sixes have nothing to arrange
    s = game().setup([3, 5], 0, white=6, dice=[1, 1, 6, 6], rerolls_left=1).apply_text("stand")
    assert s.phase == ROLL and s.scores == (5, 5)


def test_without_free_choices_no_arrangement_or_claim_is_asked() -> None:
    from dicehall.core.dice import SeededDice
    from dicehall.core.match import resolve_chance

    g = game(free_choices=False)
    rng = __import__("random").Random(5)
    seen: set[str] = set()
    for seed in range(40):
        s, dice = g.new_initial_state(), SeededDice(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s = s.apply(resolve_chance(s, dice))
                continue
            seen.add(s.phase)
            s = s.apply(rng.choice(s.legal_actions()))
    assert ARRANGE not in seen and CLAIM not in seen and TICTACTOE in seen and REROLL in seen


def test_records_without_the_option_replay_under_the_old_rules() -> None:
    # a record written before free choices: the Pips square 1 1 6 6 scored 3 by itself
    old = Record("whitedie", {"players": 2, "target": 21, "poker_chart": "standard"})
    old.actions = ["white 5: 1 1 1 1", "white 2: 1 1 1 1", "white 5: 1 1 6 6", "stand"]
    state = old.final_state()
    assert state.phase == ROLL and state.scores == (3, 0)  # type: ignore[attr-defined]
    assert not state.game.options["free_choices"]
    # a record of today names the option: the same actions now wait for the arrangement
    new = Record.new(game())
    new.actions = list(old.actions)
    assert new.final_state().phase == ARRANGE  # type: ignore[attr-defined]
    assert Record.from_json(new.to_json()).options["free_choices"] is True


def test_tictactoe_opponent_claims_when_the_player_is_stuck() -> None:
    s = game().setup([0, 0], 0, white=3, dice=[6, 6, 6, 6], opponent=1, opponent_dice=[1, 1, 1, 1])
    assert s.phase == ROLL and s.turn == 1 and s.scores == (0, 0)
    assert s.last is not None and s.last.grid.count(-7) == 8


def test_tictactoe_pass_and_full_grid() -> None:
    s = game().setup([0, 0], 0, white=3, dice=[3, 3, 5, 5], opponent=1, opponent_dice=[2, 2, 2, 2])
    s = s.apply_text("place 2 b1")  # opponent
    s = s.apply_text("place 3 a2")  # player
    s = s.apply_text("place 2 c2")  # opponent
    # the player's 3 fits next to the 2s and 3s; 5s fit nowhere yet
    assert {a.value for a in s.legal_actions() if isinstance(a, Place)} == {3}
    s = s.apply_text("place 3 b3")
    s = s.apply_text("place 2 a3")  # next to a 3
    # the player's 5s fit nowhere (every free square touches only 2s and 3s): he passes
    assert s.current_player() == 1 and s.legal_texts() == ["place 2 a1", "place 2 c3"]
    s = s.apply_text("place 2 a1")
    # nobody can place and the player still holds two 5s: the opponent claims c1 and c3
    assert s.phase == ROLL and s.scores == (0, 0)
    assert s.last is not None and s.last.grid == (-2, -2, -7, 3, 3, -2, -2, 3, -7)


def test_tictactoe_only_the_two_sides_act() -> None:
    s = load_game("whitedie", players=4).setup([0, 0, 0, 0], 2, white=3, dice=[2, 3, 3, 4])
    assert s.phase == CHOOSE and s.current_player() == 2
    assert s.legal_texts() == ["opponent 1", "opponent 2", "opponent 4"]
    with pytest.raises(IllegalActionError, match="another player"):
        s.parse_action("opponent 3")
    s = play(s, "opponent 4", "2 2 4 4")
    while s.phase == TICTACTOE:
        assert s.current_player() in (2, 3)
        s = s.apply(s.legal_actions()[0])
    assert s.turn == 3 and s.phase == ROLL


# -- matching ---------------------------------------------------------------------
def test_matching_three_stages() -> None:
    s = load_game("whitedie", players=3).setup([1, 2, 3], 0, white=4, dice=[1, 2, 5, 6])
    assert s.phase == CHOOSE
    s = play(s, "opponent 3", "3 3 4 6")
    assert s.phase == MATCH_PLAYER and s.current_player() == 0
    assert "stand" not in s.legal_texts() and all(len(t.split()) == 3 for t in s.legal_texts())
    s = play(s, "reroll 1 2", "3 4")
    assert s.phase == MATCH_OPPONENT and s.current_player() == 2 and s.dice == (3, 4, 5, 6)
    s = play(s, "reroll 3 3", "1 1")
    assert s.phase == MATCH_LAST and s.current_player() == 0 and s.opponent_dice == (1, 1, 4, 6)
    assert s.legal_texts() == ["stand", "reroll 3", "reroll 4", "reroll 5", "reroll 6"]
    s = play(s, "reroll 5", "2")
    # 2 = 1+1, 4 = 4, 6 = 6, 3 unused -> 3 points
    assert s.scores == (4, 2, 3) and s.turn == 1
    assert s.last is not None and s.last.dice == (2, 3, 4, 6)


def test_matching_stand_at_the_last_stage() -> None:
    s = game().setup([0, 0], 0, white=4, dice=[1, 1, 1, 1], opponent=1, opponent_dice=[1, 1, 1, 1])
    s = play(s, "reroll 1 1", "1 1", "reroll 1 1", "1 1", "stand")
    assert s.scores == (5, 0)


def test_matching_errors_list_what_is_legal() -> None:
    s = game().setup([0, 0], 0, white=4, dice=[1, 2, 5, 6], opponent=1, opponent_dice=[1] * 4)
    with pytest.raises(IllegalActionError, match="exactly two") as err:
        s.parse_action("reroll 5")
    assert "reroll 5 6" in err.value.legal


def test_three_to_six_players_choose_any_opponent() -> None:
    for n in range(3, 7):
        for white in (3, 4):
            s = load_game("whitedie", players=n).setup(
                [0] * n, n - 1, white=white, dice=[3, 3, 3, 3]
            )
            assert [a.seat for a in s.legal_actions()] == list(range(n - 1))  # type: ignore[union-attr]
            s = s.apply_text("opponent 1")
            assert s.opponent == 0 and s.roller == 0


# -- the end ----------------------------------------------------------------------
def test_ending_exactly_at_the_target() -> None:
    s = game().setup([15, 20], 0, white=6, dice=[3, 3, 3, 3]).apply_text("stand")
    assert s.is_terminal() and s.phase == OVER and s.winner == 0 and s.scores == (21, 20)
    assert s.current_player() == TERMINAL and s.returns() == [1.0, -1.0]
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        s.parse_action("stand")


def test_one_short_of_the_target_plays_on() -> None:
    s = game().setup([14, 20], 0, white=6, dice=[3, 3, 3, 3]).apply_text("stand")
    assert not s.is_terminal() and s.scores == (20, 20) and s.turn == 1


def test_over_the_target_and_zero_sum_returns() -> None:
    s = load_game("whitedie", players=4, target=5).setup(
        [4, 0, 0, 0], 0, white=2, dice=[6, 6, 6, 6]
    )
    s = s.apply_text("stand")
    assert s.is_terminal() and s.scores[0] == 10
    assert sum(s.returns()) == pytest.approx(0) and s.returns()[0] == 1.0


# -- text -------------------------------------------------------------------------
def test_action_texts_round_trip() -> None:
    s = game().setup([0, 0], 0, white=2, dice=[1, 2, 2, 6])
    for action in s.legal_actions():
        assert s.parse_action(s.action_to_text(action)) == action
    r = s.apply_text("reroll 2 2")
    for action, _ in r.chance_outcomes():
        assert r.parse_action(r.action_to_text(action)) == action
    t = game().setup([0, 0], 0)
    for action, _ in t.chance_outcomes():
        assert t.parse_action(t.action_to_text(action)) == action


def test_illegal_roll_text() -> None:
    s = game().setup([0, 0], 0)
    with pytest.raises(IllegalActionError):
        s.parse_action("white 7: 1 2 3 4")
    with pytest.raises(IllegalActionError):
        s.parse_action("white 3: 1 2 3")
    with pytest.raises(IllegalActionError):
        s.parse_action("stand")


def test_render_shows_scores_and_grid() -> None:
    s = game().setup([3, 8], 0, white=3, dice=[2, 3, 3, 4], opponent=1, opponent_dice=[2, 4, 6, 6])
    text = str(s)
    assert "seat 1   3" in text and "seat 2   8" in text and "Tic-tac-toe" in text
    assert "[3]" in text and "holds 2 3 3 4" in text


def test_record_replays() -> None:
    g = load_game("whitedie")
    r = Record.new(g)
    r.actions += ["white 5: 1 1 1 1", "white 2: 1 1 1 1", "white 6: 3 3 3 3", "stand"]
    assert Record.from_json(r.to_json()).final_state().scores == (6, 0)  # type: ignore[attr-defined]
