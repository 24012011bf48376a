"""White Die bots: levels, the opponent's role, win-probability play, exact evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall import Match, load_game
from dicehall.bots.registry import AgentSpecError, agent_names, make_agent
from dicehall.bots.whitedie import DEFAULT_LEVEL, LEVELS, Bot, hint_lines
from dicehall.bots.whitedie.advisor import POINTS, WIN, options
from dicehall.bots.whitedie.solved import winprob_table
from dicehall.bots.whitedie.tables import load_tables, winprob_key
from dicehall.bots.whitedie.winprob import (
    TurnModel,
    _solve_pair,
    evaluate,
    expected_counts,
    expected_turns,
    greedy_policy,
    perfect_policy,
    solve_two_player,
    utility_for,
)


def test_levels_and_registry() -> None:
    assert LEVELS == ("random", "greedy", "perfect") and DEFAULT_LEVEL == "perfect"
    assert "bot:perfect" in agent_names("whitedie")
    bot = make_agent("whitedie", "bot:greedy", seed=3)
    assert isinstance(bot, Bot) and bot.level == "greedy"
    assert make_agent("whitedie", "bot").level == DEFAULT_LEVEL  # type: ignore[union-attr]
    with pytest.raises(AgentSpecError):
        make_agent("whitedie", "bot:wizard")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_bots_finish_games(level: str, players: int) -> None:
    # the default target: its win table ships with the package
    game = load_game("whitedie", players=players)
    agents = [Bot(level, seed=i) for i in range(players)]
    record = Match(game, agents, seed=players).play()
    assert record.final_state().is_terminal()


def endgame() -> object:
    s = load_game("whitedie").setup(
        [0, 0], 0, white=3, dice=[2, 3, 4, 4], opponent=1, opponent_dice=[2, 3, 4, 5]
    )
    for text in ("place 4 b3", "place 3 a2", "place 2 a3", "place 4 b1", "place 5 c1",
                 "place 2 c2"):  # fmt: skip
        s = s.apply_text(text)
    return s


@pytest.mark.parametrize("level", ["greedy", "perfect"])
def test_bot_as_the_opponent_in_tictactoe_minimises(level: str) -> None:
    s = endgame()
    assert s.current_player() == 1  # type: ignore[attr-defined]
    assert s.action_to_text(Bot(level).act(s)) == "place 3 a1"  # type: ignore[attr-defined,arg-type]


@pytest.mark.parametrize("level", ["greedy", "perfect"])
def test_bot_as_the_opponent_in_matching_minimises(level: str) -> None:
    s = load_game("whitedie", players=3).setup(
        [2, 4, 6], 0, white=4, dice=[1, 2, 5, 6], opponent=2, opponent_dice=[3, 3, 4, 6]
    )
    s = s.apply_text("reroll 1 2").apply_text("3 4")
    assert s.current_player() == 2
    valued = options(s, POINTS)
    lowest = min(v for _, v in valued)
    action = Bot(level).act(s)
    if level == "greedy":
        assert dict(valued)[action] == lowest


def test_perfect_plays_for_the_points_it_needs() -> None:
    # 19 against 20, Sixes with 1 1 1 2: greedy rerolls 1 1 2 for the most points, the
    # perfect bot keeps the 2 and one 1 (1+2+... needs only a set or two to win)
    s = load_game("whitedie").setup([19, 20], 0, white=6, dice=[1, 1, 1, 2])
    win = dict(options(s, WIN))
    points = dict(options(s, POINTS))
    perfect, greedy = Bot("perfect").act(s), Bot("greedy").act(s)
    assert perfect != greedy
    assert win[perfect] == max(win.values()) > win[greedy]
    assert points[greedy] == max(points.values()) > points[perfect]


def test_hint_lines_rank_options() -> None:
    s = load_game("whitedie").setup([0, 0], 0, white=2, dice=[1, 3, 5, 6])
    lines = hint_lines(s)
    assert lines[0][2].endswith("← best")
    assert len(lines) == len(s.legal_actions()) - 0 or len(lines) == 12
    values = [float(v) for _, v, _ in lines]
    assert values[0] == pytest.approx(float(max(v for _, v in options(s, POINTS))), abs=0.05)
    # the opponent's hint ranks the player's lowest value first
    e = endgame()
    assert [a for a, *_ in hint_lines(e)] == ["place 3 a1", "place 3 c3"]  # type: ignore[arg-type]


def test_view_hint_renders() -> None:
    from rich.console import Console

    from dicehall.cli.views import get_view

    view = get_view("whitedie")
    s = load_game("whitedie").setup([3, 5], 1, white=5, dice=[5, 5, 5, 5])
    console = Console(width=100, record=True)
    console.print(view.hint(s))
    out = console.export_text()
    assert "reroll 5 5 5 5" in out and "best" in out and "win" in out
    assert view.hint(load_game("whitedie").new_initial_state()) is None


# -- two players: the table and exact evaluation ----------------------------------------
def test_shipped_table_is_for_the_default_game() -> None:
    assert winprob_key(21, "standard") in load_tables().winprob
    win = winprob_table(21, "standard")
    assert win.shape == (21, 21)
    assert 0.5 < win[0, 0] < 0.6  # the first player's edge
    assert np.all((win > 0) & (win < 1))


@pytest.mark.parametrize(("a", "b"), [(0, 0), (5, 12), (12, 5), (20, 20), (19, 3)])
def test_shipped_table_solves_its_own_equations(a: int, b: int) -> None:
    win = winprob_table(21, "standard")
    model = TurnModel("standard", load_tables())
    u_ab, u_ba = utility_for(win, 21, a, b), utility_for(win, 21, b, a)
    x, y = _solve_pair(
        win, 21, a, b, model.distribution(u_ab, u_ab), model.distribution(u_ba, u_ba)
    )
    assert x == pytest.approx(win[a, b], abs=1e-9)
    assert y == pytest.approx(win[b, a], abs=1e-9)


TARGET = 4  # a short game keeps the exact evaluation quick


@pytest.fixture(scope="module")
def short_game() -> dict[str, np.ndarray]:
    """The perfect table of a game to 4 and exact evaluations of policy pairs."""
    # tic-tac-toe by the score minimax everywhere (exact=False): the order tables this
    # target's few non-increasing pairs need take minutes of search, and the relations
    # checked hold for the model either way, as long as solution and evaluation agree
    win = solve_two_player(TARGET, exact=False).win
    perfect, greedy = perfect_policy(win, TARGET), greedy_policy(TARGET)
    return {
        "win": win,
        "perfect-perfect": evaluate(perfect, perfect, TARGET, exact=False),
        "greedy-perfect": evaluate(greedy, perfect, TARGET, exact=False),
        "perfect-greedy": evaluate(perfect, greedy, TARGET, exact=False),
    }


def test_perfect_never_does_worse_than_greedy(short_game: dict[str, np.ndarray]) -> None:
    """Exact policy evaluation (no sampling) at every score pair of a short game."""
    win = short_game["win"]
    np.testing.assert_allclose(short_game["perfect-perfect"], win, atol=1e-9)
    # against a perfect opponent greedy never wins more often than perfect does ...
    assert np.all(short_game["greedy-perfect"] <= win + 1e-9)
    assert np.any(short_game["greedy-perfect"] < win - 1e-6)
    # ... and perfect keeps at least its guarantee against greedy
    assert np.all(short_game["perfect-greedy"] >= win - 1e-9)
    # so from the start perfect beats greedy more than half of the time
    overall = 0.5 * (short_game["perfect-greedy"][0, 0] + 1 - short_game["greedy-perfect"][0, 0])
    assert overall > 0.5


def test_expected_length_is_finite_and_sensible(short_game: dict[str, np.ndarray]) -> None:
    win = short_game["win"]
    perfect = perfect_policy(win, TARGET)
    counts = expected_counts(perfect, perfect, TARGET, exact=False)
    # more than two turns (nobody scores 4 every turn), fewer than a dozen
    assert 2 < counts["turns"] < 12
    assert counts["rolls"] == pytest.approx(expected_turns(perfect, perfect, TARGET, exact=False))
    # every turn ends with a challenge or a white 1; every roll is one of those or a reroll
    challenges = sum(counts[n] for n in ("Poker", "Tic-tac-toe", "Matching", "Pips", "Sixes"))
    assert counts["turns"] == pytest.approx(challenges + counts["lost to white 1"])
    assert counts["rolls"] == pytest.approx(counts["turns"] + counts["white 1 rerolled"])
    assert counts["Poker"] == pytest.approx(counts["Sixes"])


def test_exact_evaluation_of_the_game_with_free_choices(
    short_game: dict[str, np.ndarray],
) -> None:
    # the perfect policy evaluated in the game with free choices is the solver's table
    # of that game (the Pips arrangement chosen by each policy's own utility) ...
    free = solve_two_player(TARGET, exact=False, free=True).win
    forced = short_game["win"]
    perfect = perfect_policy(free, TARGET)
    np.testing.assert_allclose(
        evaluate(perfect, perfect, TARGET, exact=False, free=True), free, atol=1e-9
    )
    # ... and the freedom is worth something to somebody in a game to 4
    assert np.abs(free - forced).max() > 1e-6
    # greedy wants the most points, so the best square is its free choice: same game
    greedy = greedy_policy(TARGET)
    np.testing.assert_allclose(
        evaluate(greedy, greedy, TARGET, exact=False, free=True),
        evaluate(greedy, greedy, TARGET, exact=False),
        atol=1e-12,
    )
    counts = expected_counts(perfect, perfect, TARGET, exact=False, free=True)
    assert counts["rolls"] == pytest.approx(
        expected_turns(perfect, perfect, TARGET, exact=False, free=True)
    )
