"""The arena: reproducible across worker counts, fair seating, correct figures, outputs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.arena import arena_tasks, derive_seed, run_arena, run_simulation
from dicehall.arena.summary import (
    elo_difference,
    mean_interval,
    outcome,
    pairwise_score,
    running_score,
    score_summary,
)


def _games(report: object) -> list[tuple[object, ...]]:
    return [
        (r.index, r.seats, r.returns, r.decisions, r.first_player, r.record)
        for r in report.results  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize(
    ("game", "options", "bot_a", "bot_b"),
    [
        ("whitedie", {"players": 3}, "random", "random"),
        ("coinrows", {"leaving": False, "turn_limit": 12}, "expectimax:1", "mcts:4"),
    ],
)
def test_same_seed_same_results_with_one_and_two_workers(
    game: str, options: dict[str, object], bot_a: str, bot_b: str
) -> None:
    one = run_arena(game, bot_a, bot_b, 6, seed=42, workers=1, options=options)
    two = run_arena(game, bot_a, bot_b, 6, seed=42, workers=2, options=options)
    assert _games(one) == _games(two)
    assert one.summary.score == two.summary.score
    other = run_arena(game, bot_a, bot_b, 6, seed=43, workers=1, options=options)
    assert _games(other) != _games(one)


def test_seats_alternate_and_rotate() -> None:
    two = arena_tasks("coinrows", "A", "B", 4, seed=1)
    assert [t.seats for t in two] == [("A", "B"), ("B", "A"), ("A", "B"), ("B", "A")]
    three = arena_tasks("whitedie", "A", "B", 6, seed=1, options={"players": 3})
    assert [t.seats.index("A") for t in three] == [0, 1, 2, 0, 1, 2]
    assert all(t.seats.count("A") == 1 for t in three)
    assert len({t.dice_seed for t in three}) == 6


def test_common_dice_pairs_share_the_rolls() -> None:
    tasks = arena_tasks("backgammon", "A", "B", 4, seed=5, common_dice=True)
    seeds = [t.dice_seed for t in tasks]
    assert seeds[0] == seeds[1] != seeds[2] == seeds[3]
    report = run_arena(
        "coinrows",
        "random",
        "random",
        4,
        seed=5,
        common_dice=True,
        options={"leaving": False, "turn_limit": 6},
    )
    first, second = report.results[0].record, report.results[1].record
    assert first is not None and second is not None
    # the first roll of each game of a pair is the same
    rolls = [[a for a in r["actions"] if "-" in a and len(a) == 3][:1] for r in (first, second)]
    assert rolls[0] == rolls[1]


def test_derived_seeds_are_stable() -> None:
    assert derive_seed(0, "dice", 0) == derive_seed(0, "dice", 0)
    assert derive_seed(0, "dice", 0) != derive_seed(1, "dice", 0)
    assert 0 <= derive_seed(7, "agent", 3, 1) < 2**63


def test_outcomes_scores_and_elo() -> None:
    assert outcome([1.0, -1.0], 0) == "win"
    assert outcome([0.0, 0.0], 1) == "draw"
    assert outcome([-0.5, 1.0, -0.5], 0) == "loss"
    assert pairwise_score([1.0, -0.5, -0.5], 0) == 1.0
    assert pairwise_score([-0.5, 1.0, -0.5], 0) == 0.25  # lost to one, tied with one
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(1.0) == math.inf
    assert math.isfinite(elo_difference(1.0, n=100))
    est = score_summary([1.0] * 30 + [0.0] * 10)
    assert est.mean == 0.75
    assert est.low < 0.75 < est.high <= 1.0
    # the interval of a pair-grouped estimate uses the pair means
    grouped = mean_interval([1.0, 0.0, 1.0, 0.0], groups=[0, 0, 1, 1])
    assert grouped.mean == 0.5 and grouped.low == grouped.high == 0.5
    means, lows, highs = running_score([1.0, 0.0, 1.0, 1.0])
    assert means == [1.0, 0.5, pytest.approx(2 / 3), 0.75]
    assert all(lo <= m <= hi for m, lo, hi in zip(means, lows, highs, strict=True))


def test_summary_counts_and_json(tmp_path: Path) -> None:
    report = run_arena("whitedie", "random", "random", 8, seed=3)
    s = report.summary
    assert s.wins + s.draws + s.losses == 8
    assert s.decisions_per_second > 0
    out = tmp_path / "arena.json"
    report.save(out)
    data = json.loads(out.read_text())
    assert data["format"] == "dicehall-arena" and data["kind"] == "arena"
    assert len(data["results"]) == 8
    # every saved record replays to its result
    from dicehall.core.record import Record

    for game in data["results"]:
        final = Record.from_dict(game["record"]).final_state()
        assert final.returns() == game["returns"]


def test_plot_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report = run_arena("coinrows", "random", "random", 6, seed=1)
    path = report.plot(tmp_path / "a.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulation_statistics_for_every_game() -> None:
    coin = run_simulation("coinrows", 12, seed=2, options={"leaving": False, "turn_limit": 60})
    stats = coin.summary.statistics  # type: ignore[union-attr]
    ends = sum(stats[f"end: {e}"]["mean"] for e in ("broke", "left", "turn limit"))
    assert ends == pytest.approx(1.0)
    assert "coins won by the winner" in stats
    white = run_simulation("whitedie", 4, seed=2)
    assert any(k.startswith("points per 2") for k in white.summary.statistics)  # type: ignore[union-attr]
    bg = run_simulation("backgammon", 2, seed=2, options={"scoring": "standard"})
    bg_stats = bg.summary.statistics  # type: ignore[union-attr]
    assert bg_stats["single rate"]["mean"] + bg_stats["gammon rate (incl. backgammons)"][
        "mean"
    ] == pytest.approx(1.0)
    # points match the kind of win under standard scoring
    for r in bg.results:
        points = max(r.returns)
        assert points == 1 + r.stats["gammon rate (incl. backgammons)"] + r.stats["backgammon rate"]


def test_first_player_is_the_first_to_decide() -> None:
    report = run_simulation("backgammon", 3, seed=9)
    for r in report.results:
        assert r.first_player in (0, 1)
    coin = run_simulation("coinrows", 3, seed=9)
    assert all(r.first_player == 0 for r in coin.results)


def test_cli_arena_and_simulate(tmp_path: Path) -> None:
    from dicehall.cli.main import _load_commands, app

    _load_commands()
    runner = CliRunner()
    out = tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "arena",
            "coinrows",
            "expectimax:1",
            "random",
            "--games",
            "4",
            "--seed",
            "1",
            "-o",
            "turn_limit=30",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "wins / draws / losses" in result.output and "Elo" in result.output
    assert json.loads(out.read_text())["summary"]["games"] == 4
    result = runner.invoke(app, ["simulate", "whitedie", "--games", "3", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "first player's score" in result.output and "Poker" in result.output
    result = runner.invoke(app, ["arena", "coinrows", "nobody", "random", "--games", "2"])
    assert result.exit_code == 2
    assert "unknown opponent" in result.output
