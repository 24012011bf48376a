"""Provably fair dice: commitment, HMAC derivation, rejection sampling, verification."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.core.fairness import (
    FairDice,
    FairnessError,
    check_player_seed,
    commitment,
    new_server_seed,
    verify_record,
)
from dicehall.core.match import Match
from dicehall.core.record import Record
from dicehall.core.registry import load_game

SEED = "0f" * 32


def test_commitment_is_sha256_of_the_seed_text() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()
    assert len(new_server_seed()) == 64 and new_server_seed() != new_server_seed()


def test_dice_follow_the_published_formula() -> None:
    dice = FairDice(SEED, ["alice", "bob"])
    faces = dice.roll(2)
    block = hmac.new(SEED.encode(), b"alice:bob:0", hashlib.sha256).digest()
    expected = [b % 6 + 1 for b in block if b < 252][:2]
    assert list(faces) == expected
    assert dice.counter == 1  # the next roll starts a fresh block
    block1 = hmac.new(SEED.encode(), b"alice:bob:1", hashlib.sha256).digest()
    assert list(dice.roll(5)) == [b % 6 + 1 for b in block1 if b < 252][:5]


def test_bytes_from_252_up_are_skipped() -> None:
    # find a counter whose block starts with a byte >= 252 and check it is not used
    for counter in range(5000):
        block = hmac.new(SEED.encode(), f":{counter}".encode(), hashlib.sha256).digest()
        if block[0] >= 252:
            break
    else:
        pytest.fail("no block starting with a rejected byte found")
    dice = FairDice(SEED, [""], counter=counter)
    kept = [b % 6 + 1 for b in block if b < 252]
    assert list(dice.roll(3)) == kept[:3]


def test_faces_are_uniform_enough() -> None:
    dice = FairDice(SEED, ["x"])
    counts = Counter(f for _ in range(3000) for f in dice.roll(2))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(800 < n < 1200 for n in counts.values())  # 6000 faces, expected 1000 each


def test_choose_draws_with_exact_weights() -> None:
    dice = FairDice(SEED, [])
    outcomes = [("a", Fraction(1, 3)), ("b", Fraction(2, 3))]
    picks = Counter(dice.choose(outcomes) for _ in range(3000))
    assert 850 < picks["a"] < 1150
    assert dice.last_draw is not None and dice.last_draw[1] == 3


def test_player_seeds_are_checked() -> None:
    assert check_player_seed("Abc-1.2_x") == "Abc-1.2_x"
    for bad in ("a:b", "x" * 65, "é", "a b"):
        with pytest.raises(FairnessError):
            check_player_seed(bad)
    with pytest.raises(FairnessError):
        FairDice("not hex", [])


def fair_record(seeds: list[str]) -> Record:
    """A whole backgammon game played with fair dice, with the fairness meta of the server."""
    from dicehall.bots.random import RandomBot

    dice = FairDice(SEED, seeds)
    match = Match(load_game("backgammon"), [RandomBot(seed=1), RandomBot(seed=2)], dice)
    record = match.play()
    record.meta["fairness"] = {
        "scheme": "hmac-sha256-d6-v1",
        "commitment": commitment(SEED),
        "player_seeds": seeds,
        "server_seed": SEED,
    }
    return record


def test_verify_accepts_a_fair_game_and_catches_changes() -> None:
    record = fair_record(["p", ""])
    checks = verify_record(record)
    assert checks and all(c.ok for c in checks)
    # the same game claimed under other player seeds: its dice no longer follow
    tampered = Record.from_dict(json.loads(record.to_json()))
    tampered.meta["fairness"]["player_seeds"] = ["q", ""]
    assert not all(c.ok for c in verify_record(tampered))


def test_verify_needs_the_revealed_matching_seed() -> None:
    record = fair_record([])
    record.meta["fairness"]["server_seed"] = None
    with pytest.raises(FairnessError, match="not revealed"):
        verify_record(record)
    record.meta["fairness"]["server_seed"] = "1f" * 32
    with pytest.raises(FairnessError, match="commitment"):
        verify_record(record)


def test_verify_command(tmp_path: Path) -> None:
    from dicehall.cli.main import _load_commands, app

    _load_commands()
    good = tmp_path / "good.json"
    fair_record(["a"]).save(good)
    result = CliRunner().invoke(app, ["verify", str(good)])
    assert result.exit_code == 0, result.output
    assert "rolls match" in result.output
    data = json.loads(good.read_text())
    data["meta"]["fairness"]["player_seeds"] = ["b"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["verify", str(bad)])
    assert result.exit_code == 1
