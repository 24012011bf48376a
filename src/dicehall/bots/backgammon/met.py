"""Match equity: our own match equity table (MET), computed from a model of the cube.

A match equity table gives the chance of winning a match from each score, written
``(a, b)``: we need ``a`` more points, the opponent ``b`` ("a-away, b-away").
Published tables (Kazaross-XG2, the one GNU Backgammon uses by default) come from
rollouts; ours is computed, in a few milliseconds, by the method below, and the
tests check it against Kazaross-XG2 wherever gnubg is installed: every
pre-Crawford score to 25-away within 0.0045 (0.0017 on average), post-Crawford
within 0.012 (the model gives the leader's free drop no value, so at an even
number away the trailer's chance comes out about 0.01 high).

The model (documented in ``docs/bots/backgammon.md``):

* **A game** is won by either side with chance 1/2; a fixed share ``gammon_rate`` of
  the wins is a gammon (two points times the cube). Backgammons are left out.
* **The cube** is a *live cube* in the sense of Keeler and Spencer: the winning
  chance ``p`` moves continuously during the game, so a double arrives exactly at the
  doubled side's take point, where taking and passing are worth the same. The value
  of the game as a function of ``p`` is then piecewise linear between the points
  ``0`` (lost), the take point, the cash point and ``1`` (won), and the take points
  follow from the values at the doubled cube level (a short recursion on the cube
  value, :func:`cube_levels`). A cube worth at least what a side still needs is dead
  for that side (it never doubles).
* A real cube is not that efficient: the game's value is ``efficiency`` times the
  live value plus the rest times the dead-cube value (no more doubling), as in
  Janowski's cubeful equities for money play. The table uses ``efficiency = 0.80``
  and ``gammon_rate = 0.28``, the pair that fits Kazaross-XG2 best.
* **Crawford** (a side one point short of the match, the first game: no cube):
  single games and gammons with the same rates, into the post-Crawford table.
* **Post-Crawford** the trailer doubles at once; the leader takes or passes, whichever
  is better for him (passing is free when the trailer is an even number away).

>>> met = default_table()
>>> round(met.equity(1, 1), 3), round(met.equity(2, 1, post_crawford=True), 3)
(0.5, 0.5)
>>> 0.6 < met.equity(1, 2) < 0.75   # the Crawford game, one point short against two
True
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

#: the longest match our table covers (longer matches are refused with a clear error)
MAX_AWAY = 25
#: the share of won games that are gammons (fitted to Kazaross-XG2, see the module text)
GAMMON_RATE = 0.28
#: the cube's efficiency in the table (1 = fully live cube, 0 = dead cube)
TABLE_EFFICIENCY = 0.80
#: the gnubg file the tests compare with
KAZAROSS_XG2 = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")

Knots = tuple[tuple[float, ...], tuple[float, ...]]  # (p values, equities), p rising


def value_at(knots: Knots, p: float) -> float:
    """The piecewise-linear function ``knots`` at ``p``."""
    return float(np.interp(p, knots[0], knots[1]))


def solve(knots: Knots, target: float) -> float:
    """The smallest ``p`` in [0, 1] where the rising function ``knots`` reaches ``target``
    (0 when it starts above it, 1 when it never gets there)."""
    xs, ys = knots
    if ys[0] >= target:
        return 0.0
    for k in range(1, len(xs)):
        if ys[k] >= target:
            y0, y1 = ys[k - 1], ys[k]
            if y1 == y0:
                return xs[k]
            return xs[k - 1] + (xs[k] - xs[k - 1]) * (target - y0) / (y1 - y0)
    return 1.0


def _knots(points: list[tuple[float, float]]) -> Knots:
    points.sort()
    return tuple(x for x, _ in points), tuple(y for _, y in points)


@dataclass(frozen=True)
class CubeLevel:
    """The live-cube value functions of ``p`` at one cube value (for the side we value)."""

    value: int
    centred: Knots  # nobody owns the cube (only at value 1 in a real game)
    ours: Knots  # we own it
    theirs: Knots  # the opponent owns it
    take_point: float  # the least p at which we take his double from this value
    cash_point: float  # the p from which he passes our double from this value


def cube_levels(
    win: Callable[[int], float],
    lose: Callable[[int], float],
    cash: Callable[[int], float],
    drop: Callable[[int], float],
    we_can_double: Callable[[int], bool],
    they_can_double: Callable[[int], bool],
    top: int,
) -> dict[int, CubeLevel]:
    """Live-cube value functions at every cube value 1, 2, 4, ... up to ``top``.

    ``win(v)`` and ``lose(v)`` value the game won or lost at cube ``v`` (gammons
    included), ``cash(v)`` the game won when the opponent passes a double from ``v``
    and ``drop(v)`` the game lost when we pass his. A side doubles from ``v`` only if
    ``we_can_double(v)`` (``they_can_double(v)``); at ``top`` nobody does. Values are
    whatever unit the callables use (match winning chances, or points for money).
    """
    levels: dict[int, CubeLevel] = {}
    v = top
    while v >= 1:
        lo, hi = lose(v), win(v)
        dead: Knots = ((0.0, 1.0), (lo, hi))
        up = levels.get(2 * v)
        if up is not None and we_can_double(v):
            cp = solve(up.theirs, cash(v))  # where he is indifferent between take and pass
            ours = _knots([(0.0, lo), (cp, cash(v)), (1.0, max(hi, cash(v)))])
        else:
            cp = 1.0
            ours = dead
        if up is not None and they_can_double(v):
            tp = solve(up.ours, drop(v))  # where we are indifferent
            theirs = _knots([(0.0, min(lo, drop(v))), (tp, drop(v)), (1.0, hi)])
        else:
            tp = 0.0
            theirs = dead
        points = [(0.0, lo), (1.0, hi)]
        if cp < 1.0:
            points.append((cp, cash(v)))
        if tp > 0.0:
            points.append((min(tp, cp), drop(v)))
        centred = _knots(points)
        levels[v] = CubeLevel(v, centred, ours, theirs, tp, cp)
        v //= 2
    return levels


class MatchEquityTable:
    """Match winning chances by score, before and after the Crawford game.

    ``pre[a-1][b-1]`` is the chance of the side ``a``-away against ``b``-away at the
    start of a game before the Crawford game (with ``a`` or ``b`` equal to 1, the
    start of the Crawford game); ``post[b-1]`` the chance of the trailer ``b``-away
    against the leader 1-away after it.
    """

    def __init__(self, pre: Any, post: Any, name: str) -> None:
        self.pre = np.asarray(pre, dtype=float)
        self.post = np.asarray(post, dtype=float)
        self.name = name
        self.length = self.pre.shape[0]

    def equity(self, away: int, opp_away: int, *, post_crawford: bool = False) -> float:
        """Our chance to win the match when we need ``away`` points and the opponent
        ``opp_away`` (0 or less: that side has won). ``post_crawford`` says the
        Crawford game has been played (it only matters when a side is 1-away).

        :raises ValueError: a side needs more points than the table covers.
        """
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        if away > self.length or opp_away > self.length:
            raise ValueError(
                f"the match equity table covers scores up to {self.length}-away, "
                f"not {away}-away against {opp_away}-away"
            )
        if post_crawford and (away == 1) != (opp_away == 1):
            if away == 1:
                return float(1.0 - self.post[opp_away - 1])
            return float(self.post[away - 1])
        return float(self.pre[away - 1, opp_away - 1])

    def __repr__(self) -> str:
        return f"MatchEquityTable({self.name!r}, length={self.length})"


def compute_table(
    length: int = MAX_AWAY,
    gammon_rate: float = GAMMON_RATE,
    efficiency: float = TABLE_EFFICIENCY,
) -> MatchEquityTable:
    """Our match equity table by the model in the module text."""
    g = gammon_rate
    # post-Crawford: post[n-1] = the trailer's chance n-away against 1-away
    post = np.zeros(length + 1)

    def trailer(n: int) -> float:
        return 1.0 if n <= 0 else float(post[n - 1])

    for n in range(1, length + 1):
        if n == 1:
            post[0] = 0.5
            continue
        take = 0.5 * ((1 - g) * trailer(n - 2) + g * trailer(n - 4))
        passed = trailer(n - 1)
        post[n - 1] = min(take, passed)
    pre = np.zeros((length, length))

    def known(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return float(pre[a - 1, b - 1])

    for total in range(2, 2 * length + 1):
        for a in range(max(1, total - length), min(length, total - 1) + 1):
            b = total - a
            if a == 1 and b == 1:
                pre[0, 0] = 0.5
            elif a == 1 or b == 1:  # the Crawford game: no cube
                lead_wins = 0.5
                if a == 1:  # we lead
                    pre[0, b - 1] = lead_wins + 0.5 * (
                        (1 - g) * (1 - trailer(b - 1)) + g * (1 - trailer(b - 2))
                    )
                else:
                    pre[a - 1, 0] = 0.5 * ((1 - g) * trailer(a - 1) + g * trailer(a - 2))
            else:
                pre[a - 1, b - 1] = _game_value(a, b, g, efficiency, known)
    return MatchEquityTable(pre, post[:length], f"dicehall (gammons {g}, efficiency {efficiency})")


def _game_value(
    a: int, b: int, g: float, efficiency: float, known: Callable[[int, int], float]
) -> float:
    """One pre-Crawford game at ``a``-away, ``b``-away with the model's cube, at p = 1/2."""

    def win(v: int) -> float:
        return (1 - g) * known(a - v, b) + g * known(a - 2 * v, b)

    def lose(v: int) -> float:
        return (1 - g) * known(a, b - v) + g * known(a, b - 2 * v)

    top = 1
    while top < max(a, b):
        top *= 2
    levels = cube_levels(
        win,
        lose,
        lambda v: known(a - v, b),
        lambda v: known(a, b - v),
        lambda v: v < a,
        lambda v: v < b,
        top,
    )
    live = value_at(levels[1].centred, 0.5)
    dead = 0.5 * (win(1) + lose(1))
    return efficiency * live + (1 - efficiency) * dead


@lru_cache(maxsize=1)
def default_table() -> MatchEquityTable:
    """The table the bot uses: ours, computed once."""
    return compute_table()


def load_gnubg_table(path: str | Path) -> MatchEquityTable:
    """A match equity table from a GNU Backgammon XML file (``/usr/share/gnubg/met``).

    Only explicit tables are read (Kazaross-XG2, Rockwell-Kazaross and most others).

    :raises ValueError: the file is not an explicit gnubg match equity table.
    """
    root = ET.parse(path).getroot()
    pre_el = root.find("pre-crawford-table")
    post_el = root.find("post-crawford-table")
    if pre_el is None or post_el is None or pre_el.get("type") != "explicit":
        raise ValueError(f"{path}: not an explicit gnubg match equity table")
    pre = [[float(me.text or "nan") for me in row.findall("me")] for row in pre_el.findall("row")]
    row = post_el.find("row")
    if row is None:
        raise ValueError(f"{path}: the post-Crawford table has no row")
    post = [float(me.text or "nan") for me in row.findall("me")]
    n = min(len(pre), len(post))
    table = np.array([r[:n] for r in pre[:n]])
    if table.shape != (n, n) or any(math.isnan(x) for x in table.flat):
        raise ValueError(f"{path}: the pre-Crawford table is not square")
    name_el = root.find("info/name")
    name = name_el.text if name_el is not None and name_el.text else Path(path).stem
    return MatchEquityTable(table, post[:n], name)


__all__ = [
    "GAMMON_RATE",
    "KAZAROSS_XG2",
    "MAX_AWAY",
    "CubeLevel",
    "MatchEquityTable",
    "compute_table",
    "cube_levels",
    "default_table",
    "load_gnubg_table",
    "solve",
    "value_at",
]
