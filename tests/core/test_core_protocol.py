"""The game-agnostic core: options, registry, dice, records and matches."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

import dicehall
from dicehall import (
    Match,
    OptionError,
    Record,
    RecordError,
    ScriptedDice,
    SeededDice,
    UnknownGameError,
    load_game,
)
from dicehall.bots import RandomBot, make_agent
from dicehall.bots.registry import AgentSpecError
from dicehall.core.options import Option, parse_option_pairs


def test_load_game_with_typed_options() -> None:
    game = load_game("backgammon", scoring="standard")
    assert game.options["scoring"] == "standard"
    assert repr(game) == "load_game('backgammon', scoring='standard')"
    assert load_game("Backgammon") == load_game("backgammon", scoring="single")
    assert "backgammon" in dicehall.registered_games()


def test_unknown_game_and_bad_options_say_what_is_allowed() -> None:
    with pytest.raises(UnknownGameError, match="known games: backgammon"):
        load_game("chess")
    with pytest.raises(OptionError, match="one of single, standard"):
        load_game("backgammon", scoring="double")
    with pytest.raises(OptionError, match="no option 'doubling'.*scoring"):
        load_game("backgammon", doubling=True)


def test_option_parsing_and_validation() -> None:
    purse = Option("purse", int, 20, minimum=1, maximum=1000)
    assert purse.parse(" 35 ") == 35
    with pytest.raises(OptionError, match="an integer >= 1 and <= 1000"):
        purse.parse("0")
    with pytest.raises(OptionError, match="an integer"):
        purse.parse("lots")
    with pytest.raises(OptionError, match="an integer"):
        purse.validate(True)
    flag = Option("leaving", bool, True)
    assert flag.parse("no") is False and flag.parse("allowed") is True
    with pytest.raises(OptionError, match="true or false"):
        flag.parse("maybe")
    assert parse_option_pairs(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="name=value"):
        parse_option_pairs(["purse"])


def test_seeded_dice_are_reproducible_and_fair() -> None:
    a, b = SeededDice(42), SeededDice(42)
    assert [a.roll(2) for _ in range(50)] == [b.roll(2) for _ in range(50)]
    faces = Counter(f for _ in range(6000) for f in SeededDice(7).roll(1))
    assert set(faces) <= set(range(1, 7))
    dice = SeededDice(1)
    counts = Counter(f for _ in range(12000) for f in dice.roll(1))
    assert all(1700 < counts[f] < 2300 for f in range(1, 7))


def test_seeded_choose_follows_exact_probabilities() -> None:
    dice = SeededDice(3)
    outcomes = [("a", Fraction(1, 6)), ("b", Fraction(1, 3)), ("c", Fraction(1, 2))]
    counts = Counter(dice.choose(outcomes) for _ in range(12000))
    assert 1700 < counts["a"] < 2300 and 3600 < counts["b"] < 4400 and 5600 < counts["c"] < 6400


def test_scripted_dice() -> None:
    dice = ScriptedDice([6, 5, 1])
    assert dice.roll(2) == (6, 5)
    with pytest.raises(ValueError, match="ran out"):
        dice.roll(2)
    with pytest.raises(ValueError, match="1..6"):
        ScriptedDice([7])


def test_match_with_scripted_dice_and_record_round_trip(tmp_path) -> None:
    game = load_game("backgammon")
    match = Match(game, [None, RandomBot(seed=1)], ScriptedDice([3, 1]))
    match.roll()
    assert match.record.actions == ["3-1"]
    match.apply_text("8/5 6/5")
    assert match.record.actions == ["3-1", "8/5 6/5"]
    path = tmp_path / "r.json"
    match.record.save(path)
    loaded = Record.load(path)
    assert loaded == match.record
    assert loaded.final_state() == match.state
    with pytest.raises(ValueError, match="no agent"):
        Match(game, [None, None], ScriptedDice([3, 1])).play()


def test_bad_records_are_rejected_clearly() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.from_json("{")
    with pytest.raises(RecordError, match="not a dicehall record"):
        Record.from_json('{"game": "backgammon"}')
    good = Record.new(load_game("backgammon")).to_dict()
    with pytest.raises(RecordError, match="version"):
        Record.from_dict({**good, "version": 99})
    with pytest.raises(RecordError, match="list of strings"):
        Record.from_dict({**good, "actions": [1, 2]})
    bad = Record.from_dict({**good, "actions": ["3-1", "24/10"]})
    with pytest.raises(RecordError, match="action 2 .*24/10.* does not replay"):
        bad.final_state()
    with pytest.raises(RecordError, match="cannot be loaded"):
        Record.from_dict({**good, "game": "chess"}).final_state()


def test_match_needs_one_agent_per_seat() -> None:
    with pytest.raises(ValueError, match="needs 2 agents"):
        Match(load_game("backgammon"), [RandomBot()])


def test_resumed_dice_continue_the_same_stream() -> None:
    game = load_game("backgammon")
    full = Match(game, [RandomBot(seed=1), RandomBot(seed=2)], SeededDice(9))
    full.play(max_actions=30)
    partial = Record.from_dict({**full.record.to_dict(), "actions": full.record.actions[:11]})
    dice = SeededDice(9)
    dice.skip(list(partial.states())[:-1])
    resumed = Match(game, [RandomBot(seed=1), RandomBot(seed=2)], dice, record=partial)
    while not resumed.state.is_chance_node():
        resumed.apply_text(full.record.actions[len(resumed.record.actions)])
    resumed.roll()
    assert resumed.record.actions[-1] == full.record.actions[len(resumed.record.actions) - 1]


def test_make_agent_specs() -> None:
    assert make_agent("backgammon", "human") is None
    assert isinstance(make_agent("backgammon", "random", seed=3), RandomBot)
    with pytest.raises(AgentSpecError, match="unknown opponent 'martian'.*random"):
        make_agent("backgammon", "martian")
