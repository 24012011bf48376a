"""Integer ids, masks and observations of every game, checked along random games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall import load_game
from dicehall.core.encoding import encoding_for
from dicehall.core.errors import IllegalActionError
from dicehall.games.backgammon import encoding as bg_encoding
from dicehall.games.backgammon.encoding import play_id
from dicehall.games.backgammon.rules import (
    START_SIDE,
    CubeAction,
    Resign,
    ResignAnswer,
)

GAMES = [
    ("backgammon", {}),
    ("backgammon", {"scoring": "standard"}),
    (
        "backgammon",
        {"cube": True, "scoring": "standard", "beavers": True, "raccoons": True, "games": 3},
    ),
    ("backgammon", {"match_length": 3, "scoring": "standard"}),
    ("coinrows", {"leaving": False, "turn_limit": 120}),
    ("coinrows", {"leaving": False, "capture": "adjacent", "turn_limit": 120}),
    ("whitedie", {}),
    ("whitedie", {"players": 4}),
    ("whitedie", {"players": 6, "target": 10}),
]


def random_states(name: str, options: dict, games: int, seed: int):
    """Every state of ``games`` random games (chance by its probabilities)."""
    game = load_game(name, **options)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        for _ply in range(3000):
            yield state
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
            state = state.apply(action)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_round_trip_mask_and_observation_along_random_games(name: str, options: dict) -> None:
    game = load_game(name, **options)
    enc = encoding_for(game)
    checked = 0
    for state in random_states(name, options, games=4 if name == "backgammon" else 8, seed=5):
        for seat in range(game.num_players):
            obs = enc.observation(state, seat)
            assert obs.dtype == np.float32 and obs.shape == enc.observation_shape
            assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 8.0
        if state.is_terminal():
            assert enc.legal_ids(state) == []
            assert not enc.legal_mask(state).any()
            continue
        legal = state.legal_actions()
        ids = [enc.action_to_id(state, a) for a in legal]
        assert len(set(ids)) == len(ids), "two legal actions share an id"
        limit = enc.num_chance_outcomes if state.is_chance_node() else enc.num_actions
        assert all(0 <= i < limit for i in ids)
        for action, i in zip(legal, ids, strict=True):
            assert enc.id_to_action(state, i) == action
            checked += 1
        mask = enc.legal_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,)
        if state.is_chance_node():
            assert not mask.any()
            chance = enc.chance_ids(state)
            assert [i for i, _ in chance] == sorted(ids)
            assert abs(sum(p for _, p in chance) - 1.0) < 1e-12
        else:
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
    assert checked > 200


@pytest.mark.parametrize(("name", "options"), GAMES[::2])
def test_ids_off_the_legal_set_are_refused_with_the_allowed_range(name, options) -> None:
    game = load_game(name, **options)
    enc = encoding_for(game)
    state = next(s for s in random_states(name, options, 1, 2) if not s.is_chance_node())
    bad = next(i for i in range(enc.num_actions) if not enc.legal_mask(state)[i])
    with pytest.raises(IllegalActionError, match="no legal action has this id"):
        enc.id_to_action(state, bad)
    with pytest.raises(IllegalActionError, match=f"0..{enc.num_actions - 1}"):
        enc.id_to_action(state, enc.num_actions)
    with pytest.raises(IllegalActionError, match="integers"):
        enc.id_to_action(state, "3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        enc.observation(state, game.num_players)


def test_backgammon_ids_of_known_plays() -> None:
    assert play_id((6, 3), ((24, 18), (13, 10))) == 26 * 24 + 13
    assert play_id((6, 3), ((13, 10), (24, 18))) == 26 * 24 + 13  # order of checkers
    assert play_id((6, 3), ((24, 21), (21, 15))) == 26 * 21 + 24  # low die first
    assert play_id((6, 3), ((2, 0),)) == 26 * 2  # bears off with the 6
    assert play_id((6, 3), ()) == 0
    assert play_id((2, 2), ((8, 6), (6, 4))) == play_id((2, 2), ((6, 4), (8, 6)))
    with pytest.raises(ValueError, match="not moves of the dice"):
        play_id((6, 3), ((24, 20),))


def test_backgammon_observation_is_tesauro_units_then_dice() -> None:
    game = load_game("backgammon")
    state = game.new_initial_state().apply_text("6-1")  # seat 0 won the opening roll
    enc = encoding_for(game)
    obs = enc.observation(state, 0)
    # two checkers on the 24 point: units "at least one", "at least two"
    assert obs[4 * 23 : 4 * 24].tolist() == [1, 1, 0, 0]
    # five on the 6 point: 1, 1, 1, (5 - 3) / 2
    assert obs[4 * 5 : 4 * 6].tolist() == [1, 1, 1, 1]
    assert obs[196:198].tolist() == [1, 0]
    assert obs[198 + 5] == 1 and obs[204 + 0] == 1 and obs[198:].sum() == 2
    other = enc.observation(state, 1)
    assert other[196:198].tolist() == [0, 1]
    assert np.array_equal(other[:98], obs[98:196])  # the start is symmetric


def test_whitedie_observation_puts_the_observer_first() -> None:
    game = load_game("whitedie", players=3)
    state = game.setup([4, 7, 9], 1)
    enc = encoding_for(game)
    obs = enc.observation(state, 2)
    assert obs[:3].tolist() == pytest.approx([9 / 21, 4 / 21, 7 / 21])
    assert obs[6:12].tolist() == [1, 1, 1, 0, 0, 0]
    assert obs[18:24].tolist() == [0, 0, 1, 0, 0, 0]  # seat 1 is two seats after seat 2


def test_backgammon_cube_and_resign_actions_have_their_own_ids() -> None:
    """Every cube action, resignation offer and answer has one fixed id, after the
    plays; each is legal exactly where the rules offer it."""
    game = load_game("backgammon", cube=True, scoring="standard", beavers=True, raccoons=True)
    enc = encoding_for(game)
    assert enc.num_actions == bg_encoding.NUM_ACTIONS == bg_encoding.PLAY_IDS + 11
    before = game.setup((START_SIDE, START_SIDE))  # seat 0 to roll, may double or resign
    base, resign, answer = bg_encoding.CUBE_BASE, bg_encoding.RESIGN_BASE, bg_encoding.ANSWER_BASE
    assert enc.legal_ids(before) == [base, base + 1, resign, resign + 1, resign + 2]
    assert enc.id_to_action(before, base + 1) == CubeAction("double")
    doubled = before.apply(CubeAction("double"))
    assert [enc.id_to_action(doubled, i) for i in enc.legal_ids(doubled)] == [
        CubeAction("take"),
        CubeAction("pass"),
        CubeAction("beaver"),
    ]
    beavered = doubled.apply(CubeAction("beaver"))
    assert enc.legal_ids(beavered) == [base + 2, base + 5]  # take (play on) or raccoon
    offered = before.apply(Resign(2))
    assert enc.legal_ids(offered) == [answer, answer + 1]
    assert enc.id_to_action(offered, answer) == ResignAnswer(True)
    assert enc.action_to_id(offered, ResignAnswer(False)) == answer + 1
    mask = enc.legal_mask(offered)
    assert mask.sum() == 2 and mask[answer] == mask[answer + 1] == 1
    # without the cube none of them is legal, and the action space is the same
    plain = load_game("backgammon")
    assert encoding_for(plain).num_actions == enc.num_actions
    with pytest.raises(IllegalActionError, match="no legal action"):
        encoding_for(plain).id_to_action(plain.new_initial_state().apply_text("3-1"), base)


def test_backgammon_observation_shows_the_cube_question_and_score() -> None:
    game = load_game("backgammon", match_length=7, cube=True)
    enc = encoding_for(game)
    assert enc.observation_shape == (bg_encoding.EXTENDED_OBSERVATION_SIZE,)
    state = game.setup(
        (START_SIDE, START_SIDE), turn=1, cube_value=2, cube_owner=1, match_score=(2, 4),
        pending="take",
    )  # fmt: skip
    obs = enc.observation(state, 0)  # seat 0 answers seat 1's redouble to 4
    plain = encoding_for(load_game("backgammon")).observation(state, 0)
    assert obs.shape == (227,) and obs[:210].tolist() == plain.tolist()
    assert obs[210] == pytest.approx(1 / 12) and obs[211:214].tolist() == [0, 0, 1]
    assert obs[214:216].tolist() == [0, 1]  # only the owner of the cube may redouble
    assert obs[216:220].tolist() == [0, 1, 0, 0] and obs[220] == 0
    assert obs[221] == 1 and obs[222:224].tolist() == pytest.approx([2 / 7, 4 / 7])
    assert obs[224:226].tolist() == [0, 0] and obs[226] == 1
    assert enc.observation(state, 1)[226] == 0 and enc.observation(state, 1)[212] == 1
    assert encoding_for(load_game("backgammon")).observation_shape == (210,)


@pytest.mark.parametrize(("name", "options"), GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_ids_round_trip_and_masks_equal_legal_actions_property(name, options, seed) -> None:
    """Along a random game of any seed: each legal action's id maps back to it, the
    ids are distinct and in range, and the mask is exactly the legal ids."""
    game = load_game(name, **options)
    enc = encoding_for(game)
    for ply, state in enumerate(random_states(name, options, 1, seed)):
        if state.is_terminal() or ply > 400:
            break
        legal = state.legal_actions()
        ids = [enc.action_to_id(state, a) for a in legal]
        assert len(set(ids)) == len(ids)
        assert [enc.id_to_action(state, i) for i in ids] == list(legal)
        if state.is_chance_node():
            assert all(0 <= i < enc.num_chance_outcomes for i in ids)
        else:
            assert np.flatnonzero(enc.legal_mask(state)).tolist() == sorted(ids)
