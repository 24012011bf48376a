"""The Coin Rows terminal view: colours, notes on each action, help and summary."""

from __future__ import annotations

from rich.text import Text

from dicehall.cli.views import get_view
from dicehall.games.coinrows import CoinRows, CoinRowsState

VIEW = get_view("coinrows")
MIXED_ROW_4 = {"a7": 1, "b4": 0, "c4": 1, "d1": 0, "e4": 0, "f1": 0, "g7": 1}


def setup(purses: tuple[int, int], **options: object) -> CoinRowsState:
    return CoinRows(**options).setup(MIXED_ROW_4, purses)


def test_render_colours_the_two_sides() -> None:
    text = VIEW.render(setup((17, 16)), None)
    assert isinstance(text, Text)
    plain = text.plain
    assert "<- capture 4 (3 coins)" in plain
    styles = {plain[span.start : span.end]: str(span.style) for span in text.spans}
    assert styles["X"] == "bold cyan" and styles["O"] == "bold magenta"
    assert any("capture 4" in k and v == "yellow" for k, v in styles.items())


def test_describe_capture_and_refill() -> None:
    before = setup((17, 16))
    after = before.apply_text("capture 4")
    note = VIEW.describe(before, "capture 4", after)
    assert note == (
        "Seat 1 (X) captures 3 coins of row 4 (1 O, 2 X): purse 17 -> 20. Phase C: seat 2 (O) "
        "pays 3 coins onto b7 c7 e7 so that seven coins are in play again (purse 16 -> 13)."
    )


def test_describe_going_broke() -> None:
    before = setup((32, 1))
    after = before.apply_text("capture 4")
    note = VIEW.describe(before, "capture 4", after)
    assert note is not None
    assert "owes 3 coins but can pay only 1 (b7): broke" in note
    assert note.endswith("Game over: seat 2 (O) is broke; totals 37 to 3, seat 1 (X) wins.")
    assert VIEW.summary(after) == "Seat 2 (O) is broke; totals 37 to 3, seat 1 (X) wins."


def test_describe_rolls_and_moves() -> None:
    start = CoinRows().new_initial_state()
    dice = start.apply_text("roll")
    assert VIEW.describe(start, "roll", dice) is None
    seven = dice.apply_text("3-4")
    assert VIEW.describe(dice, "3-4", seven) == "7 ends seat 1 (X)'s turn at once."
    b = dice.apply_text("1-2")
    assert VIEW.describe(dice, "1-2", b) is None
    full = b.apply_text("c1-c4")
    assert VIEW.describe(b, "c1-c4", full) == "All 3 moved: seat 1 (X) is back in Phase A."
    edge = CoinRows().setup(
        {"a7": 1, "b7": 1, "c1": 0, "d7": 1, "e7": 1, "f7": 1, "g7": 1}, (20, 13), roll="5-3"
    )
    note = VIEW.describe(edge, "c1-c7", edge.apply_text("c1-c7"))
    assert note is not None and note.startswith("Only 6 of 8 could be moved")


def test_summary_with_the_coins_payoff() -> None:
    done = setup((17, 16), payoff="coins").apply_text("capture 4").apply_text("leave")
    assert VIEW.summary(done) == (
        "Seat 2 (O) left; totals 22 to 18, seat 1 (X) wins. "
        "Net: seat 1 (X) +2 coins, seat 2 (O) -2 coins."
    )
    assert "capture N" in VIEW.help(done)
