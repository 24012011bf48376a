"""The fast protocol path of White Die (outcomes checked by identity, cached tables)
gives the same states as the same actions made afresh."""

from __future__ import annotations

import random

import pytest

from dicehall import load_game
from dicehall.games.whitedie.board import Place, Reroll, Roll


@pytest.mark.parametrize("players", [2, 4])
def test_interned_and_fresh_actions_lead_to_the_same_states(players: int) -> None:
    game = load_game("whitedie", players=players, target=12)
    rng = random.Random(players)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                faces = [rng.randint(1, 6) for _ in range(state.chance_dice())]
                action = state.outcome_from_dice(faces)
                assert action is state.outcome_from_dice(tuple(faces))
                assert action in [a for a, _ in state.chance_outcomes()]
                fresh = Roll(tuple(action.dice), action.white)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                fresh = {
                    Roll: lambda a: Roll(a.dice, a.white),
                    Place: lambda a: Place(a.value, a.square),
                    Reroll: lambda a: Reroll(tuple(a.values)),
                }.get(type(action), lambda a: a)(action)
            nxt = state.apply(action)
            assert nxt == state.apply(fresh)
            state = nxt


def test_outcome_from_dice_says_what_is_rolled() -> None:
    state = load_game("whitedie").new_initial_state()
    assert state.outcome_from_dice((4, 1, 2, 2, 6)) == Roll((1, 2, 2, 6), 4)
    with pytest.raises(ValueError, match="expected 5 faces 1..6"):
        state.outcome_from_dice((4, 1, 2))
    with pytest.raises(ValueError, match="expected 5 faces 1..6"):
        state.outcome_from_dice((4, 1, 2, 2, 7))
    turn = load_game("whitedie").setup([0, 0], 0)
    assert turn.outcome_from_dice((1, 3, 3, 3, 3)) == Roll((), 1)  # a white 1 at a turn
    decision = load_game("whitedie").setup([0, 0], 0, white=2, dice=[1, 2, 3, 4])
    with pytest.raises(ValueError, match="no chance node"):
        decision.outcome_from_dice((1, 2))
    with pytest.raises(ValueError, match="must be rolled"):
        turn.apply(Roll((1, 2, 3), 4))


def test_the_matching_table_is_the_search_for_every_pair_of_hands() -> None:
    """The rules read Matching points from a committed table: it must be exactly what
    the search (``challenges.matching_score``) gives for all 126 x 126 pairs."""
    from dicehall.games.whitedie import challenges
    from dicehall.games.whitedie.matching_table import POINTS
    from dicehall.games.whitedie.rules import _matching_points

    assert len(challenges.HANDS) == 126 and len(POINTS) == 126 * 126
    assert challenges.matching_points_table() == POINTS
    for mine in challenges.HANDS[::5]:
        for theirs in challenges.HANDS[::7]:
            assert _matching_points(mine, theirs) == challenges.matching_score(mine, theirs)
    assert _matching_points((2, 2, 4, 5), (3, 4, 6, 6)) == 3  # 4 = 4, 5+2+2 = 3+6, bonus


def test_every_replace_names_fields_of_the_state() -> None:
    # _replace skips the dataclass __init__ (and no longer checks its keywords at run
    # time, on the hot path): every call in the rules must name real fields
    import ast
    import inspect

    from dicehall.games.whitedie import rules

    tree = ast.parse(inspect.getsource(rules))
    named: set[str] = set()
    for node in ast.walk(tree):
        called = getattr(node, "func", None)
        if isinstance(node, ast.Call) and getattr(called, "id", None) in ("_replace", "_handover"):
            named |= {k.arg for k in node.keywords if k.arg is not None}
            for k in node.keywords:  # **{...} literals
                if k.arg is None and isinstance(k.value, ast.Dict):
                    for key in k.value.keys:
                        if isinstance(key, ast.Constant):
                            named.add(key.value)
    assert {"phase", "grid", "rolling", "kept"} <= named
    assert named <= rules._FIELDS
