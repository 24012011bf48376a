"""The doubling cube, match play and resignations on constructed positions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall import Match, Record, load_game
from dicehall.bots import RandomBot
from dicehall.bots.backgammon import Bot
from dicehall.core.errors import IllegalActionError, OptionError
from dicehall.games.backgammon import START_SIDE
from dicehall.games.backgammon.rules import (
    CubeAction,
    Play,
    Resign,
    ResignAnswer,
)

# seat 0 (on roll) has 14 checkers off and one on his 1-point; seat 1 has none off
RACE_SIDE = (14, 1) + (0,) * 24
LOSER_HOME = (0,) * 19 + (15,) + (0,) * 6  # all 15 on his 19-point: the winner's home
LOSER_OUT = (0,) * 13 + (15,) + (0,) * 12  # all 15 on his 13-point: outside
LOSER_OFF_ONE = (1,) + (0,) * 12 + (14,) + (0,) * 12


def money(**options: object) -> object:
    return load_game("backgammon", cube=True, scoring="standard", **options)


def texts(state: object) -> list[str]:
    return state.legal_texts()  # type: ignore[attr-defined, no-any-return]


def test_the_default_game_has_no_cube_and_no_new_actions() -> None:
    game = load_game("backgammon")
    state = game.new_initial_state().apply_text("3-1").apply_text("8/5 6/5")
    assert state.is_chance_node()  # no stop before the roll
    assert state.cube_value == 1 and state.cube_owner is None and state.match_length == 0
    state = state.apply_text("6-5")
    assert all(isinstance(a, Play) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="without the cube"):
        state.parse_action("double")
    with pytest.raises(IllegalActionError, match="resignations belong to cube or match play"):
        state.apply(Resign(1))


def test_decision_before_the_roll_and_take_doubles_the_cube() -> None:
    state = money().new_initial_state().apply_text("3-1").apply_text("8/5 6/5")
    assert state.is_cube_decision() and state.current_player() == 1
    assert texts(state) == ["roll", "double", "resign single", "resign gammon", "resign backgammon"]
    offered = state.apply_text("double")
    assert offered.current_player() == 0 and texts(offered) == ["take", "pass"]
    taken = offered.apply_text("take")
    assert (taken.cube_value, taken.cube_owner) == (2, 0)
    assert taken.is_chance_node() and taken.turn == 1
    # seat 0 owns the cube: at his next turn he may redouble; seat 1 may not
    after = taken.apply_text("6-5").apply_text("24/13")
    assert after.current_player() == 0 and "double" in texts(after)
    back = after.apply_text("roll").apply_text("2-1").apply_text("13/11 6/5")
    assert back.current_player() == 1 and texts(back)[:2] == ["roll", "resign single"]
    with pytest.raises(IllegalActionError, match="the cube belongs to seat 1; only its owner"):
        back.apply_text("double")


def test_pass_ends_the_game_at_the_cube_value() -> None:
    game = money()
    state = game.setup((START_SIDE, START_SIDE), turn=0, cube_value=4, cube_owner=0)
    dropped = state.apply_text("double").apply_text("drop")
    assert dropped.is_terminal() and dropped.returns() == [4.0, -4.0]
    assert dropped.history == ((0, 4),)


def test_refusals_say_why_and_list_the_legal_choices() -> None:
    game = money()
    state = game.setup((START_SIDE, START_SIDE), turn=0, dice=(3, 1))
    with pytest.raises(IllegalActionError, match="before the roll, not after it") as err:
        state.parse_action("double")
    assert "8/5 6/5" in err.value.legal
    offered = game.setup((START_SIDE, START_SIDE), turn=0).apply_text("double")
    with pytest.raises(IllegalActionError, match="beavers are off") as err:
        offered.parse_action("beaver")
    assert err.value.legal == ["take", "pass"]
    with pytest.raises(IllegalActionError, match="answer the double"):
        offered.parse_action("8/5 6/5")
    capped = load_game("backgammon", cube=True, max_cube=4)
    top = capped.setup((START_SIDE, START_SIDE), turn=0, cube_value=4, cube_owner=0)
    assert texts(top)[:2] == ["roll", "resign single"]
    with pytest.raises(IllegalActionError, match="may not pass max_cube=4"):
        top.parse_action("double")


def test_jacoby_counts_gammons_only_after_a_double() -> None:
    game = money(jacoby=True)
    centred = game.setup((RACE_SIDE, LOSER_OUT), turn=0, dice=(6, 5))
    assert centred.apply_text("1/off").returns() == [1.0, -1.0]
    turned = game.setup((RACE_SIDE, LOSER_OUT), turn=0, dice=(6, 5), cube_value=2, cube_owner=1)
    assert turned.apply_text("1/off").returns() == [4.0, -4.0]
    plain = money().setup((RACE_SIDE, LOSER_OUT), turn=0, dice=(6, 5))
    assert plain.apply_text("1/off").returns() == [2.0, -2.0]
    backgammon = money().setup((RACE_SIDE, LOSER_HOME), turn=0, dice=(6, 5), cube_value=2)
    assert backgammon.apply_text("1/off").returns() == [6.0, -6.0]
    single = money().setup((RACE_SIDE, LOSER_OFF_ONE), turn=0, dice=(6, 5), cube_value=8)
    assert single.apply_text("1/off").returns() == [8.0, -8.0]


def test_beaver_and_raccoon_values_and_owners() -> None:
    game = money(beavers=True, raccoons=True)
    offered = game.setup((START_SIDE, START_SIDE), turn=0, cube_value=2, cube_owner=0)
    offered = offered.apply_text("double")
    assert texts(offered) == ["take", "pass", "beaver"]
    beavered = offered.apply_text("beaver")
    assert (beavered.cube_value, beavered.cube_owner) == (8, 1)
    assert beavered.current_player() == 0 and texts(beavered) == ["take", "raccoon"]
    raccooned = beavered.apply_text("raccoon")
    assert (raccooned.cube_value, raccooned.cube_owner) == (16, 0) and raccooned.is_chance_node()
    played_on = beavered.apply_text("take")
    assert (played_on.cube_value, played_on.cube_owner) == (8, 1) and played_on.is_chance_node()
    no_raccoons = money(beavers=True).setup((START_SIDE, START_SIDE), turn=0).apply_text("d")
    after = no_raccoons.apply_text("beaver")
    assert (after.cube_value, after.cube_owner) == (4, 1) and after.is_chance_node()
    # a beaver that would pass max_cube is not offered
    near_top = money(beavers=True, max_cube=8).setup(
        (START_SIDE, START_SIDE), turn=0, cube_value=4, cube_owner=0
    )
    assert texts(near_top.apply_text("double")) == ["take", "pass"]


def test_options_that_do_not_fit_together_are_refused() -> None:
    with pytest.raises(OptionError, match="beavers=true needs money play with the cube"):
        load_game("backgammon", cube=True, match_length=5, beavers=True)
    with pytest.raises(OptionError, match="jacoby=true needs money play with the cube"):
        load_game("backgammon", jacoby=True)
    with pytest.raises(OptionError, match="raccoons=true needs beavers=true"):
        load_game("backgammon", cube=True, raccoons=True)
    with pytest.raises(OptionError, match="games counts the games of a money session"):
        load_game("backgammon", match_length=3, games=2)
    with pytest.raises(OptionError, match="max_cube=3: expected one of 2, 4"):
        load_game("backgammon", cube=True, max_cube=3)


def test_crawford_game_forbids_doubling_and_post_crawford_allows_it() -> None:
    game = load_game("backgammon", cube=True, match_length=5, scoring="standard")
    # seat 0 at 3 of 5 wins a gammon on a centred cube: 5-? -> match over; a single: 4 -> Crawford
    end = game.setup((RACE_SIDE, LOSER_OFF_ONE), turn=0, dice=(6, 5), match_score=(3, 1))
    crawford = end.apply_text("1/off")
    assert not crawford.is_terminal() and crawford.opening
    assert crawford.match_score == (4, 1) and crawford.crawford and not crawford.post_crawford
    state = crawford.apply_text("1-3").apply_text("8/5 6/5")
    assert state.current_player() == 0
    assert texts(state) == ["roll", "resign single", "resign gammon", "resign backgammon"]
    with pytest.raises(IllegalActionError, match="no doubling in the Crawford game"):
        state.parse_action("double")
    # seat 1 wins the Crawford game: the next game is post-Crawford and the trailer may double
    lost = state.apply_text("resign single").apply_text("accept")
    assert lost.match_score == (4, 2) and lost.post_crawford and not lost.crawford
    post = lost.apply_text("3-1").apply_text("8/5 6/5")
    assert post.current_player() == 1 and "double" in texts(post)
    # the leader's cube is dead: winning this game wins the match anyway
    leader = post.apply_text("roll").apply_text("2-1").apply_text("13/11 6/5")
    assert leader.current_player() == 0 and "double" not in texts(leader)
    with pytest.raises(IllegalActionError, match="the cube is dead"):
        leader.parse_action("double")


def test_match_scoring_to_the_end() -> None:
    game = load_game("backgammon", cube=True, match_length=3, scoring="standard")
    state = game.setup(
        (RACE_SIDE, LOSER_OUT), turn=0, dice=(6, 5), match_score=(0, 2), crawford=True
    )
    over = state.apply_text("1/off")  # a gammon in the Crawford game: 2 points
    assert over.match_score == (2, 2) and not over.is_terminal()
    assert not over.crawford and over.post_crawford
    final = game.setup(
        (RACE_SIDE, LOSER_OFF_ONE), turn=0, dice=(6, 5), match_score=(2, 2), post_crawford=True
    ).apply_text("1/off")
    assert final.is_terminal() and final.match_score == (3, 2) and final.returns() == [1.0, -1.0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        final.apply_text("6-5")


def test_resignation_accept_and_decline() -> None:
    game = money()
    state = game.setup((START_SIDE, START_SIDE), turn=0, dice=(3, 1), cube_value=2, cube_owner=1)
    offer = state.apply_text("resign gammon")
    assert offer.is_resign_decision() and offer.current_player() == 1
    assert texts(offer) == ["accept", "reject"]
    accepted = offer.apply_text("accept")
    assert accepted.is_terminal() and accepted.returns() == [-4.0, 4.0]
    declined = offer.apply_text("reject")
    assert declined.is_checker_play() and declined.dice == (3, 1)
    # after a refusal only a bigger offer may follow this turn
    assert "resign single" not in texts(declined) and "resign backgammon" in texts(declined)
    with pytest.raises(IllegalActionError, match="offer more than a gammon"):
        declined.apply_text("resign")
    assert declined.apply_text("resign bg").apply_text("yes").returns() == [-6.0, 6.0]
    single = load_game("backgammon", cube=True).setup((START_SIDE, START_SIDE), turn=0)
    with pytest.raises(IllegalActionError, match="only a single game can be resigned"):
        single.apply_text("resign gammon")


def test_parser_accepts_what_players_type() -> None:
    game = money(beavers=True)
    state = game.setup((START_SIDE, START_SIDE), turn=0)
    assert state.parse_action(" No Double ") == CubeAction("roll")
    assert state.parse_action("D") == CubeAction("double")
    offered = state.apply(CubeAction("double"))
    for typed, kind in [("accept", "take"), ("t", "take"), ("drop", "pass"), ("reject", "pass")]:
        assert offered.parse_action(typed) == CubeAction(kind)
    assert offered.parse_action("beaver") == CubeAction("beaver")
    assert state.parse_action("resign") == Resign(1)
    assert state.parse_action("resign g") == Resign(2)
    offer = state.apply(Resign(3))
    assert offer.parse_action("decline") == ResignAnswer(False)
    with pytest.raises(IllegalActionError, match="accept or reject"):
        offer.parse_action("take")


def test_bots_answer_cube_questions() -> None:
    # the bot's cube itself is tested in tests/bots/backgammon/test_backgammon_bot_cube.py
    game = load_game("backgammon", cube=True, match_length=3, scoring="standard")
    match = Match(game, [Bot("medium"), Bot("medium")], seed=7)
    record = match.play()
    assert match.state.is_terminal() and max(match.state.match_score) >= 3
    assert "roll" in record.actions
    offered = game.setup((START_SIDE, START_SIDE), turn=0).apply_text("double")
    assert Bot("easy").act(offered) == CubeAction("take")


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seeds,
    st.sampled_from(
        [
            {"match_length": 3},
            {"match_length": 7},
            {"match_length": 5, "crawford": False},
            {"games": 3, "jacoby": True, "beavers": True, "raccoons": True},
            {"max_cube": 8, "beavers": True},
        ]
    ),
)
def test_random_matches_keep_invariants_end_and_replay(seed: int, options: dict) -> None:
    game = load_game("backgammon", cube=True, scoring="standard", **options)
    match = Match(game, [RandomBot(seed=seed), RandomBot(seed=seed + 1)], seed=seed + 2)
    seen = [match.state]
    while not match.state.is_terminal() and len(seen) < 30_000:
        match.step()
        seen.append(match.state)
    final = match.state
    assert final.is_terminal(), "a random match did not end"
    n = game.match_length
    score = [sum(p for w, p in final.history if w == seat) for seat in (0, 1)]
    assert tuple(score) == final.match_score
    if n:
        assert max(final.match_score) >= n and sorted(final.match_score)[0] < n
        assert final.returns() in ([1.0, -1.0], [-1.0, 1.0])
    else:
        assert len(final.history) == game.options["games"]
        assert final.returns()[0] == score[0] - score[1]
    for state in seen:
        assert 1 <= state.cube_value <= game.options["max_cube"]
        assert state.cube_owner in (None, 0, 1)
        if state.crawford and not state.is_terminal():
            assert "double" not in state.legal_texts()
            assert n - 1 in state.match_score
        if state.post_crawford and not state.is_terminal():
            assert n and n - 1 in state.match_score and not state.crawford
        assert sum(state.side(0)) == sum(state.side(1)) == 15
        if not state.is_terminal() and not state.is_chance_node():
            for action in state.legal_actions():
                assert state.parse_action(state.action_to_text(action)) == action
    loaded = Record.from_json(match.record.to_json())
    assert list(loaded.states()) == seen
