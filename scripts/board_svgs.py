"""Write the SVG boards shown in the docs (docs/boards/*.svg) from fixed positions.

    python scripts/board_svgs.py          # rewrites docs/boards/

Each picture is ``dicehall.svg.board_svg`` of a position reached by the moves listed here,
with the last move marked, so the docs show what the library draws.
"""

from __future__ import annotations

from pathlib import Path

from dicehall import load_game
from dicehall.svg import board_svg

OUT = Path(__file__).resolve().parents[1] / "docs" / "boards"

POSITIONS = {
    "backgammon": ["3-1", "8/5 6/5", "6-4", "24/18 13/9"],
    "coinrows": ["roll", "2-3", "c1-c3 e1-e4", "roll", "3-4", "roll", "4-1", "a7-a3 b7-b6"],
    "whitedie": [
        "white 5: 1 2 3 4",
        "white 2: 6 6 6 6",
        "white 3: 2 4 4 1",
        "6 5 5 1",
        "place 4 b1",
    ],
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game, moves in POSITIONS.items():
        state = load_game(game).new_initial_state()
        for move in moves:
            state = state.apply_text(move)
        path = OUT / f"{game}.svg"
        path.write_text(board_svg(state, last_move=moves[-1], size=480) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
