"""PNG plots of arena and simulation results (needs the ``plot`` extra: matplotlib)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dicehall.arena.summary import running_score
from dicehall.core.errors import DicehallError


class PlotError(DicehallError, RuntimeError):
    """Plotting is not available (matplotlib missing)."""


def plot_results(
    path: str | Path,
    scores: Sequence[float],
    lengths: Sequence[int],
    *,
    title: str,
    score_label: str,
    fair: float = 0.5,
) -> Path:
    """Draw the running mean of ``scores`` with its 95% band and a histogram of
    ``lengths`` side by side, and save the figure as PNG at ``path``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise PlotError("plots need matplotlib: pip install 'dicehall[plot]'") from exc
    path = Path(path)
    means, lows, highs = running_score(scores)
    games = list(range(1, len(scores) + 1))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(games, means, color="tab:blue", label=score_label)
    left.fill_between(games, lows, highs, color="tab:blue", alpha=0.2, label="95% interval")
    left.axhline(fair, color="grey", linestyle="--", linewidth=1, label="no advantage")
    left.set_xlabel("games")
    left.set_ylabel("score (win 1, draw 1/2)")
    left.set_ylim(0, 1)
    left.legend(loc="lower right", fontsize="small")
    left.set_title("running score")
    if lengths:
        bins = min(40, max(5, len(set(lengths))))
        right.hist(lengths, bins=bins, color="tab:orange", edgecolor="white")
    right.set_xlabel("decisions per game")
    right.set_ylabel("games")
    right.set_title("game length")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
