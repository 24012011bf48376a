"""The bot's cube: equities on hand-worked positions, decisions against the theory,
match play by the score, and the bot's cube actions in real games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.bots.backgammon.cube import (
    CubeInfo,
    cube_decision,
    gammon_values,
    money_equity,
    play_value,
)
from dicehall.bots.backgammon.met import default_table

MONEY = CubeInfo()
chances = st.floats(min_value=0.01, max_value=0.99)


def no_gammons(p: float) -> tuple[float, float, float, float, float]:
    return (p, 0.0, 0.0, 0.0, 0.0)


# -- money: Janowski ------------------------------------------------------------------


def test_dead_cube_take_point_is_25_percent() -> None:
    """Without gammons and with a dead cube, taking at 25% is break-even: the taker
    loses 2 x (2 x 0.75 - 1) = 1 point either way."""
    at = cube_decision(no_gammons(0.75), MONEY, efficiency=0.0)
    assert at.double_take == pytest.approx(at.double_pass)
    assert cube_decision(no_gammons(0.74), MONEY, efficiency=0.0).should_take
    assert not cube_decision(no_gammons(0.76), MONEY, efficiency=0.0).should_take


def test_live_cube_take_point_is_20_percent() -> None:
    """A fully live cube (the taker redoubles at the right time) lowers it to 20%."""
    at = cube_decision(no_gammons(0.80), MONEY, efficiency=1.0)
    assert at.double_take == pytest.approx(1.0)
    assert cube_decision(no_gammons(0.79), MONEY, efficiency=1.0).should_take
    assert not cube_decision(no_gammons(0.81), MONEY, efficiency=1.0).should_take


def test_take_point_with_gammons() -> None:
    """Half of all games ending in gammons: W = L = 1.5, and Janowski's live-cube
    take point is (L - 1/2) / (W + L + 1/2) = 1 / 3.5."""
    tp = 1 / 3.5
    p = 1 - tp
    probs = (p, p / 2, 0.0, (1 - p) / 2, 0.0)
    at = cube_decision(probs, MONEY, efficiency=1.0)
    assert at.double_take == pytest.approx(1.0, abs=1e-9)


def test_hand_worked_no_double_equity() -> None:
    """75% to win, no gammons, x = 0.68: centred, the live equity interpolates from
    -1 at 20% to +1 at 80%, 0.8333; dead 0.5; cubeful 0.68 x 0.8333 + 0.32 x 0.5."""
    d = cube_decision(no_gammons(0.75), MONEY, efficiency=0.68)
    assert d.no_double == pytest.approx(0.68 * (-1 + 2 * 0.55 / 0.6) + 0.32 * 0.5)
    # doubled: he owns the cube; live from -1 at 20% to +1 at 100%; times two
    assert d.double_take == pytest.approx(2 * (0.68 * (-1 + 2 * 0.55 / 0.8) + 0.32 * 0.5))
    assert d.should_double and d.should_take and d.action == "Double, take"


def test_too_good_to_double() -> None:
    """Many gammons and a sure win: playing on is worth more than the cash."""
    d = cube_decision((0.95, 0.6, 0.0, 0.0, 0.0), MONEY)
    assert not d.should_double and not d.should_take
    assert d.action == "Too good to double, pass"


def test_jacoby_ignores_gammons_with_a_centred_cube() -> None:
    probs = (0.6, 0.3, 0.05, 0.1, 0.01)
    assert money_equity(probs, "centre", 0.68, jacoby=True) == pytest.approx(
        money_equity(no_gammons(0.6), "centre", 0.68)
    )
    # once the cube is turned they count again
    assert money_equity(probs, "them", 0.68, jacoby=True) != money_equity(
        no_gammons(0.6), "them", 0.68
    )
    assert play_value(probs, CubeInfo(jacoby=True)) == pytest.approx(2 * 0.6 - 1)
    assert gammon_values(CubeInfo(jacoby=True)) == (0.0, 0.0)
    assert gammon_values(CubeInfo(jacoby=True, value=2, owner=1)) == (0.5, 0.5)


def test_beaver_when_the_double_is_wrong() -> None:
    """Doubled at 40%, the taker is the favourite: with beavers on he beavers."""
    d = cube_decision(no_gammons(0.4), CubeInfo(beavers=True))
    assert d.should_beaver and not d.should_double
    assert d.action == "No double, beaver"
    assert d.double_value == pytest.approx(2 * d.double_take)
    assert not cube_decision(no_gammons(0.4), MONEY).should_beaver


@given(chances, chances)
@settings(deadline=None, max_examples=200)
def test_money_decisions_follow_the_theory(p: float, q: float) -> None:
    lo, hi = sorted((p, q))
    a, b = cube_decision(no_gammons(lo), MONEY), cube_decision(no_gammons(hi), MONEY)
    # more winning chances are worth more, whatever happens to the cube
    assert a.no_double <= b.no_double + 1e-12
    assert a.double_take <= b.double_take + 1e-12
    for d in (a, b):
        assert d.should_take == (d.double_take <= d.double_pass)
        assert d.best >= d.no_double - 1e-12
        assert d.double_error(d.should_double) == pytest.approx(0.0, abs=1e-9)
        assert d.take_error(d.should_take) == pytest.approx(0.0, abs=1e-9)
    # a take at a chance is a take at every lower chance
    if b.should_take:
        assert a.should_take


def test_cube_info_refuses_bad_values() -> None:
    with pytest.raises(ValueError, match="power of two"):
        CubeInfo(value=3)
    with pytest.raises(ValueError, match="score"):
        CubeInfo(match_length=5, score=(5, 0))
    with pytest.raises(ValueError, match="seats"):
        CubeInfo(owner=2)


def test_the_opponents_cube_is_not_ours_to_turn() -> None:
    d = cube_decision(no_gammons(0.9), CubeInfo(value=2, owner=1, player=0))
    assert not d.may_double and not d.should_double
    assert d.best == d.no_double


# -- match play -----------------------------------------------------------------------


def test_two_away_all_take_point_comes_from_the_table() -> None:
    """At 2-away, 2-away a double kills the cube (the game is for the match), so the
    taker's take point is 1 - MET(1-away, 2-away): the doubler's chance at which his
    double/take equals the cash, whatever the efficiency."""
    info = CubeInfo(match_length=7, score=(5, 5))
    cash = default_table().equity(1, 2)
    for x in (0.0, 0.68, 1.0):
        d = cube_decision(no_gammons(cash), info, efficiency=x)
        assert d.mwc is not None
        assert d.mwc[1] == pytest.approx(d.mwc[2])
        assert d.double_take == pytest.approx(1.0)
    assert cube_decision(no_gammons(cash - 0.01), info).action == "Double, take"
    assert cube_decision(no_gammons(cash + 0.01), info).action == "Double, pass"


def test_no_cube_in_the_crawford_game() -> None:
    d = cube_decision(no_gammons(0.9), CubeInfo(match_length=7, score=(3, 6), crawford=True))
    assert not d.may_double and not d.should_double


@given(
    st.floats(min_value=0.05, max_value=0.95),
    st.integers(min_value=0, max_value=4),
    st.floats(min_value=0.0, max_value=0.3),
)
@settings(deadline=None, max_examples=150)
def test_post_crawford_trailer_doubles_at_once(p: float, score: int, g: float) -> None:
    """After the Crawford game the trailer's losses cost him nothing more at a
    higher cube: he doubles at his first chance."""
    probs = (p, g * p, 0.0, g * (1 - p), 0.0)
    info = CubeInfo(match_length=7, score=(score, 6), post_crawford=True)
    assert cube_decision(probs, info).should_double


def test_free_drop_post_crawford() -> None:
    """Trailer 2-away, leader 1-away: passing leaves 1-away all (a coin toss), taking
    plays this game for the match, so the leader takes just when he is the favourite."""
    info = CubeInfo(match_length=7, score=(5, 6), post_crawford=True)
    assert cube_decision(no_gammons(0.45), info).should_take
    assert not cube_decision(no_gammons(0.55), info).should_take


def test_gammons_by_the_score() -> None:
    """DMP: gammons are worth nothing; trailing 4-away against 2-away with the cube on
    2, a gammon wins the match (gammon-go), and the other way round gammon-save."""
    dmp = CubeInfo(match_length=7, score=(6, 6))
    assert gammon_values(dmp) == (0.0, 0.0)
    assert play_value((0.5, 0.4, 0.1, 0.0, 0.0), dmp) == pytest.approx(0.5)
    go, save = gammon_values(CubeInfo(match_length=7, score=(3, 5), value=2, owner=1))
    assert go == pytest.approx(1.0) and save == 0.0
    go, save = gammon_values(CubeInfo(match_length=7, score=(5, 3), value=2, owner=0))
    assert go == 0.0 and save == pytest.approx(1.0)
    # a play that wins more gammons is better when they win the match
    info = CubeInfo(match_length=7, score=(3, 5), value=2, owner=1)
    assert play_value((0.5, 0.3, 0.0, 0.1, 0.0), info) > play_value(
        (0.52, 0.05, 0.0, 0.05, 0.0), info
    )


def test_single_scoring_counts_no_gammons() -> None:
    info = CubeInfo(match_length=5, score=(1, 1), gammons=False)
    with_g = cube_decision((0.7, 0.4, 0.1, 0.1, 0.0), info)
    without = cube_decision(no_gammons(0.7), info)
    assert with_g.no_double == pytest.approx(without.no_double)


# -- the bot in the rules' games -------------------------------------------------------


def _game(**options: object):  # type: ignore[no-untyped-def]
    from dicehall import load_game

    return load_game("backgammon", **options)


def test_bot_passes_a_hopeless_double_and_cashes() -> None:
    """All 15 of the doubler's checkers on his ace and deuce points against a side
    still far from home: double/pass, and the bot on roll doubles."""
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.rules import CubeAction

    game = _game(cube=True, scoring="standard")
    doubler = tuple({0: 11, 1: 2, 2: 2}.get(i, 0) for i in range(26))
    other = tuple({0: 10, 13: 5}.get(i, 0) for i in range(26))
    bot = Bot("medium")
    take = game.setup((doubler, other), turn=0, pending="take")
    assert bot.act(take) == CubeAction("pass")
    on_roll = game.setup((doubler, other), turn=0)
    assert on_roll.is_cube_decision()
    assert bot.act(on_roll) == CubeAction("double")


def test_bot_does_not_double_the_opening_and_takes() -> None:
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.rules import START_SIDE, CubeAction

    game = _game(cube=True, scoring="standard")
    bot = Bot("medium")
    assert bot.act(game.setup((START_SIDE, START_SIDE), turn=1)) == CubeAction("roll")
    assert bot.act(game.setup((START_SIDE, START_SIDE), turn=1, pending="take")) == (
        CubeAction("take")
    )


def test_bot_refuses_a_cheap_resignation_and_accepts_a_fair_one() -> None:
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.rules import Resign, ResignAnswer

    game = _game(cube=True, scoring="standard")
    # seat 0 has borne off 14, seat 1 is still all back: seat 0 will win, maybe a gammon
    winner = tuple({0: 14, 2: 1}.get(i, 0) for i in range(26))
    loser = tuple({13: 15}.get(i, 0) for i in range(26))  # none in his home: no backgammon
    state = game.setup((loser, winner), turn=0)  # the loser is on roll
    offer = state.apply(Resign(1)) if Resign(1) in state.legal_actions() else None
    assert offer is not None and offer.is_resign_decision()
    bot = Bot("expert")  # 2-ply: exact here, the game ends within two rolls
    # a single game conceded where a gammon is all but certain: refused
    assert bot.act(offer) == ResignAnswer(False)
    offer2 = offer.apply(ResignAnswer(False)).apply(Resign(2))
    assert bot.act(offer2) == ResignAnswer(True)


def test_bot_plays_a_whole_match_with_the_cube() -> None:
    """Two bots play 3-point matches: every action legal, every match ends with a
    winner on 3 or more, and within a few seeded matches the bots double, take and
    pass (which seed brings a pass depends on the net: seed 7 brought no double with
    the 219-input net of 2 Dec 2026, seed 9 no pass with the net of 5 Dec 2026)."""
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.rules import CubeAction

    seen: set[str] = set()
    matches = 0
    for seed in range(9, 17):
        state = _game(cube=True, scoring="standard", match_length=3).new_initial_state()
        bots = [Bot("medium", seed=1), Bot("medium", seed=2)]
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                weights = [float(w) for _, w in outcomes]
                action = rng.choices([o for o, _ in outcomes], weights=weights)[0]
            else:
                action = bots[state.current_player()].act(state)
                assert action in state.legal_actions()
                if isinstance(action, CubeAction):
                    seen.add(action.kind)
            state = state.apply(action)
        assert max(state.match_score) >= 3
        matches += 1
        if {"roll", "double", "take", "pass"} <= seen:
            break
    assert {"roll", "double", "take", "pass"} <= seen, (matches, seen)


class _Reckless:
    """Doubles whenever it may and passes every double; plays like the medium bot."""

    name = "reckless"

    def __init__(self) -> None:
        from dicehall.bots.backgammon import Bot

        self.bot = Bot("medium", seed=3)

    def act(self, state):  # type: ignore[no-untyped-def]
        from dicehall.games.backgammon.rules import CubeAction

        legal = state.legal_actions()
        for kind in ("double", "pass"):
            if CubeAction(kind) in legal:
                return CubeAction(kind)
        return self.bot.act(state)


def test_analyze_marks_cube_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A record of a 3-point match where one side doubles at every chance and passes
    every double: analyze lists wrong doubles and passes and counts cube decisions."""
    from typer.testing import CliRunner

    from dicehall.bots.backgammon import Bot
    from dicehall.cli.main import _load_commands, app
    from dicehall.core.match import Match

    game = _game(cube=True, scoring="standard", match_length=3)
    match = Match(game, [_Reckless(), Bot("medium", seed=1)], seed=5)
    match.play(max_actions=400)
    path = tmp_path / "match.json"
    match.record.save(path)
    _load_commands()
    result = CliRunner().invoke(app, ["analyze", str(path), "--level", "medium"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "wrong double" in out or "wrong pass" in out
    assert "cube play per player" in out and "mp/decision" in out and "mp/play" in out


def test_hint_at_a_cube_decision() -> None:
    from rich.console import Console

    from dicehall.cli.views import get_view
    from dicehall.games.backgammon.rules import START_SIDE

    game = _game(cube=True, scoring="standard", match_length=5)
    state = game.setup((START_SIDE, START_SIDE), turn=0, match_score=(2, 1))
    console = Console(width=160, record=True)
    console.print(get_view("backgammon").hint(state))
    text = " ".join(console.export_text().split())
    assert "No double" in text and "Double, take" in text and "Double, pass" in text
    assert "right action: No double, take" in text and "match win" in text


def test_checker_hint_in_a_match_is_by_the_score() -> None:
    from rich.console import Console

    from dicehall.cli.views import get_view
    from dicehall.games.backgammon.rules import START_SIDE

    game = _game(cube=True, scoring="standard", match_length=5)
    state = game.setup((START_SIDE, START_SIDE), turn=0, match_score=(2, 1), dice=(3, 1))
    console = Console(width=160, record=True)
    console.print(get_view("backgammon").hint(state))
    text = console.export_text()
    assert "match, normalised equity" in text and "8/5 6/5" in text


def test_a_dead_cube_is_not_turned() -> None:
    """2-away with the cube on 2: winning this game wins the match, so (as in gnubg
    and the rules) there is no double to make and nothing to judge."""
    from dicehall.bots.backgammon import Bot
    from dicehall.bots.backgammon.cube import judge_cube
    from dicehall.games.backgammon.rules import START_SIDE, CubeAction

    info = CubeInfo(value=2, owner=0, match_length=7, score=(5, 2))
    assert not info.may_double()
    assert not cube_decision(no_gammons(0.9), info).should_double
    game = _game(cube=True, scoring="standard", match_length=7)
    state = game.setup(
        (START_SIDE, START_SIDE), turn=0, cube_value=2, cube_owner=0, match_score=(5, 2)
    )
    assert state.is_cube_decision() and not state.may_double()
    assert Bot("expert").act(state) == CubeAction("roll")
    assert judge_cube(Bot("medium"), state, CubeAction("roll")) is None
    from rich.console import Console

    from dicehall.cli.views import get_view

    console = Console(width=200, record=True)
    console.print(get_view("backgammon").hint(state))
    assert "the cube is dead" in console.export_text()


def test_doubling_windows() -> None:
    from dicehall.bots.backgammon.cube import doubling_window

    dead = doubling_window(MONEY, efficiency=0.0)
    assert dead == pytest.approx((0.5, 0.75), abs=1e-6)
    live = doubling_window(MONEY, efficiency=1.0)
    assert live == pytest.approx((0.8, 0.8), abs=1e-6)
    double, passes = doubling_window(MONEY)
    assert 0.5 < double < passes < 0.8  # a real cube lies between the two
    # 2-away, 2-away: double when ahead at all (the cube dies), pass beyond MET(1, 2)
    d22 = doubling_window(CubeInfo(match_length=7, score=(5, 5)), gammons=0.2)
    assert d22[0] == pytest.approx(0.5, abs=1e-3)
    assert d22[1] == pytest.approx(default_table().equity(1, 2), abs=1e-6)
    # the leader at 2-away against 4-away has less reason to double than the trailer
    assert (
        doubling_window(CubeInfo(match_length=7, score=(5, 3)), 0.2)[0]
        > (doubling_window(CubeInfo(match_length=7, score=(3, 5)), 0.2)[0])
    )
    # no window where the cube may not be turned
    assert doubling_window(CubeInfo(match_length=7, score=(3, 6), crawford=True))[0] == 1.0


def test_raccoon_only_when_the_beaver_was_wrong() -> None:
    from dicehall.bots.backgammon import Bot
    from dicehall.games.backgammon.rules import CubeAction

    game = _game(cube=True, scoring="standard", beavers=True, raccoons=True)
    strong = tuple({0: 11, 1: 2, 2: 2}.get(i, 0) for i in range(26))
    weak = tuple({0: 10, 13: 5}.get(i, 0) for i in range(26))
    bot = Bot("medium")
    good = game.setup((strong, weak), turn=0, pending="take").apply(CubeAction("beaver"))
    assert good.pending == "raccoon" and good.cube_value == 4
    assert bot.act(good) == CubeAction("raccoon")
    bad = game.setup((weak, strong), turn=0, pending="take").apply(CubeAction("beaver"))
    assert bot.act(bad) == CubeAction("take")
    # and the beaver itself: the bot beavers a double from a side this far behind
    assert bot.act(game.setup((weak, strong), turn=0, pending="take")) == CubeAction("beaver")
