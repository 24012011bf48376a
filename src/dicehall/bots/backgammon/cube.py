"""The doubling cube for the bot: cubeful equities, cube decisions, match-aware plays.

The net gives *cubeless* chances for the player on roll: ``probs = (win, win
gammon, win backgammon, lose gammon, lose backgammon)``. This module turns them
into cubeful values in the style of Rick Janowski ("Take-points in money games",
1993), the model gnubg's 0-ply cube also starts from:

* A *dead* cube (nobody will double again) is worth the cubeless equity; a *live*
  cube (the winning chance moves continuously, so doubles come exactly at the
  take point) is worth a piecewise-linear function of the winning chance, whose
  corners are the take point and the cash point. The cubeful equity is
  ``x * live + (1 - x) * dead`` with the *cube efficiency* ``x``
  (:func:`cube_efficiency`: 0.68 in contact, 0.6 to 0.7 in a race by its length).
* **Money** (:func:`money_equity`): Janowski's closed forms, with the average win
  ``W`` and loss ``L`` in points (gammons included); take point
  ``(L - 1/2) / (W + L + 1/2)``, 20% without gammons at a fully live cube, 25% at a
  dead one. Jacoby: gammons do not count while the cube is centred. Beavers: a
  take that is good for the taker is beavered (the cube goes to four times).
* **Match play** (:func:`match_equity`): the same live-cube model worked out on
  match winning chances (MWC) with our match equity table
  (:mod:`dicehall.bots.backgammon.met`), so take points and doubling windows change
  with the score; no cube in the Crawford game, the trailer's automatic double
  after it, the leader's free drop when the trailer is an even number away.
* :func:`cube_decision` compares *no double*, *double/take* and *double/pass*
  and says what each side should do; equities are normalised as gnubg prints them
  (per cube: double/pass is +1.000; in a match, MWC mapped linearly so that losing
  and winning the cube's points are -1 and +1).
* :func:`play_value` values a checker play's outcome by the score: gammons count
  what they are worth in the match (nothing at DMP, a lot when they win the match:
  gammon-go; losing one costs more when it loses the match: gammon-save).

Known limits (see ``docs/bots/backgammon.md``): the efficiency ``x`` is a fixed
table, not learnt; raccoons are not offered; checker play ignores who owns the cube.

>>> info = CubeInfo()                       # money, cube centred, no Jacoby
>>> d = cube_decision((0.75, 0.0, 0.0, 0.0, 0.0), info)  # 75% to win, no gammons
>>> d.action, round(d.no_double, 3), round(d.double_take, 3), d.double_pass
('Double, take', 0.727, 0.83, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from dicehall.bots.backgammon.met import (
    CubeLevel,
    MatchEquityTable,
    cube_levels,
    default_table,
    value_at,
)

if TYPE_CHECKING:
    from dicehall.bots.backgammon.network import Network

Probs = tuple[float, float, float, float, float] | Any

#: cube efficiency in contact positions (Janowski's x)
CONTACT_EFFICIENCY = 0.68
_EPS = 1e-7


@dataclass(frozen=True)
class CubeInfo:
    """Everything the cube's value depends on, seen from ``player`` (the side on roll).

    ``owner`` is a seat or None (centred); ``score`` holds each seat's points;
    ``match_length`` 0 is money play; ``crawford`` says this game is the Crawford
    game, ``post_crawford`` that it has been played.
    """

    value: int = 1
    owner: int | None = None
    player: int = 0
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 64
    gammons: bool = True  # False: the game's scoring counts every win as one point

    def __post_init__(self) -> None:
        if self.value < 1 or self.value & (self.value - 1):
            raise ValueError(f"the cube's value must be a power of two, not {self.value}")
        if self.player not in (0, 1) or self.owner not in (None, 0, 1):
            raise ValueError(f"seats are 0 and 1: player {self.player}, owner {self.owner}")
        if self.match_length < 0:
            raise ValueError(f"match_length must be 0 (money) or more, not {self.match_length}")
        if self.match_length and any(s >= self.match_length or s < 0 for s in self.score):
            raise ValueError(
                f"score {self.score} is not a score of a {self.match_length}-point match"
            )

    @property
    def money(self) -> bool:
        return self.match_length == 0

    @property
    def away(self) -> tuple[int, int]:
        """Points still needed by the player and by the opponent."""
        me, opp = self.score[self.player], self.score[1 - self.player]
        return self.match_length - me, self.match_length - opp

    @property
    def relative_owner(self) -> str:
        """``"centre"``, ``"us"`` or ``"them"``, for the player."""
        if self.owner is None:
            return "centre"
        return "us" if self.owner == self.player else "them"

    def may_double(self) -> bool:
        """Whether the rules let the player double now."""
        if self.crawford or self.value * 2 > self.max_cube:
            return False
        if self.match_length and self.score[self.player] + self.value >= self.match_length:
            return False  # a dead cube: winning this game already wins the match
        return self.owner is None or self.owner == self.player

    def flipped(self) -> CubeInfo:
        """The same cube seen by the other player."""
        return replace(self, player=1 - self.player)

    @classmethod
    def from_state(cls, state: Any, player: int | None = None) -> CubeInfo:
        """The cube of a backgammon state (the rules' ``cube_value``, ``cube_owner``,
        ``match_length``, ``match_score``, ``crawford``, ``post_crawford``, ``jacoby``,
        ``beavers``; absent ones take the cubeless defaults) seen by ``player`` (by
        default the player to act)."""
        if player is None:
            player = state.current_player()
        options = getattr(getattr(state, "game", None), "options", {}) or {}
        return cls(
            value=int(getattr(state, "cube_value", 1)),
            owner=getattr(state, "cube_owner", None),
            player=int(player),
            match_length=int(getattr(state, "match_length", 0)),
            score=tuple(getattr(state, "match_score", (0, 0))),
            crawford=bool(getattr(state, "crawford", False)),
            post_crawford=bool(getattr(state, "post_crawford", False)),
            jacoby=bool(getattr(state, "jacoby", False)),
            beavers=bool(getattr(state, "beavers", False)),
            max_cube=int(options.get("max_cube", 64)),
            gammons=options.get("scoring", "standard") != "single",
        )


def cube_efficiency(board: Any) -> float:
    """Janowski's cube efficiency for ``board`` (row 0 on roll): 0.68 in contact; in a
    race from 0.6 (short) to 0.7 (100 pips or more), a long race leaving the cube
    more time to be used well."""
    from dicehall.bots.backgammon.features import is_race

    b = np.asarray(board)
    if not is_race(b):
        return CONTACT_EFFICIENCY
    pips = int(sum(i * int(b[0, i]) for i in range(1, 26)))
    return 0.6 + 0.1 * min(pips, 100) / 100.0


def _win_loss(probs: Probs) -> tuple[float, float, float]:
    """``(p, W, L)``: the winning chance, the average points of a win and of a loss."""
    p = float(probs[0])
    w = 1.0 + (float(probs[1]) + float(probs[2])) / p if p > _EPS else 1.0
    lo = 1.0 + (float(probs[3]) + float(probs[4])) / (1.0 - p) if p < 1.0 - _EPS else 1.0
    return p, w, lo


def money_equity(probs: Probs, owner: str, efficiency: float, jacoby: bool = False) -> float:
    """Janowski's cubeful money equity per point of cube, for the side on roll with
    chances ``probs``; ``owner`` is ``"centre"``, ``"us"`` or ``"them"``."""
    p, w, lo = _win_loss(probs)
    if jacoby and owner == "centre":
        w = lo = 1.0  # gammons count only once the cube is turned
    dead = p * w - (1.0 - p) * lo
    tp = (lo - 0.5) / (w + lo + 0.5)  # our take point
    cp = (lo + 1.0) / (w + lo + 0.5)  # our cash point (his take point)
    knots: tuple[tuple[float, ...], tuple[float, ...]]
    if owner == "us":
        knots = ((0.0, cp, 1.0), (-lo, 1.0, w))
    elif owner == "them":
        knots = ((0.0, tp, 1.0), (-lo, -1.0, w))
    else:
        knots = ((0.0, tp, cp, 1.0), (-lo, -1.0, 1.0, w))
    live = value_at(knots, p)
    return efficiency * live + (1.0 - efficiency) * dead


class _MatchModel:
    """The live-cube functions at one score for one position's gammon shares."""

    def __init__(self, probs: Probs, info: CubeInfo, met: MatchEquityTable) -> None:
        p = float(probs[0])
        # shares of wins (losses) that are single, gammon, backgammon
        if p > _EPS:
            self.wins = ((p - probs[1]) / p, (probs[1] - probs[2]) / p, probs[2] / p)
        else:
            self.wins = (1.0, 0.0, 0.0)
        q = 1.0 - p
        if q > _EPS:
            self.losses = ((q - probs[3]) / q, (probs[3] - probs[4]) / q, probs[4] / q)
        else:
            self.losses = (1.0, 0.0, 0.0)
        self.p = p
        self.info = info
        self.met = met
        self.a, self.b = info.away
        # after this game the Crawford game is behind us if it is this one or was earlier
        self.post_after = info.crawford or info.post_crawford
        self._levels: dict[int, CubeLevel] | None = None

    @property
    def levels(self) -> dict[int, CubeLevel]:
        """The live-cube functions from the current cube value up (computed once)."""
        if self._levels is None:
            info = self.info
            top = info.value
            while top < max(self.a, self.b) or top < 2 * info.value:
                top *= 2
            can = not info.crawford
            self._levels = cube_levels(
                self.win,
                self.lose,
                self.cash,
                self.drop,
                lambda v: can and v < self.a and 2 * v <= info.max_cube,
                lambda v: can and v < self.b and 2 * v <= info.max_cube,
                top,
            )
        return self._levels

    def mwc(self, me: int, opp: int) -> float:
        return self.met.equity(me, opp, post_crawford=self.post_after)

    def win(self, v: int) -> float:
        s, g, bg = self.wins
        return float(
            s * self.mwc(self.a - v, self.b)
            + g * self.mwc(self.a - 2 * v, self.b)
            + bg * self.mwc(self.a - 3 * v, self.b)
        )

    def lose(self, v: int) -> float:
        s, g, bg = self.losses
        return float(
            s * self.mwc(self.a, self.b - v)
            + g * self.mwc(self.a, self.b - 2 * v)
            + bg * self.mwc(self.a, self.b - 3 * v)
        )

    def cash(self, v: int) -> float:
        return self.mwc(self.a - v, self.b)

    def drop(self, v: int) -> float:
        return self.mwc(self.a, self.b - v)

    def value(self, v: int, owner: str, efficiency: float) -> float:
        """Cubeful MWC at cube ``v`` owned by ``owner``."""
        level = self.levels[v]
        knots = {"centre": level.centred, "us": level.ours, "them": level.theirs}[owner]
        dead = self.p * self.win(v) + (1.0 - self.p) * self.lose(v)
        return efficiency * value_at(knots, self.p) + (1.0 - efficiency) * dead

    def normalise(self, mwc: float) -> float:
        """MWC as gnubg's normalised equity at the current cube (-1 lose it, +1 win it)."""
        v = self.info.value
        hi, lo = self.cash(v), self.drop(v)
        if hi - lo < _EPS:
            return 0.0
        return 2.0 * (mwc - lo) / (hi - lo) - 1.0


def match_equity(
    probs: Probs,
    info: CubeInfo,
    efficiency: float,
    met: MatchEquityTable | None = None,
) -> float:
    """Cubeful match winning chance of the side on roll with ``probs``, cube as in
    ``info`` (no double now)."""
    model = _MatchModel(probs, info, met or default_table())
    return model.value(info.value, info.relative_owner, efficiency)


@dataclass(frozen=True)
class CubeDecision:
    """The three cubeful equities of a cube decision and what each side should do.

    Equities are for the player on roll, normalised to the current cube (double/pass
    is +1 for money; in a match MWC mapped so that losing and winning the cube's
    points are -1 and +1). ``*_mwc`` are the match winning chances (money: None).
    """

    no_double: float
    double_take: float
    double_pass: float
    should_double: bool
    should_take: bool
    should_beaver: bool
    may_double: bool
    action: str
    mwc: tuple[float, float, float] | None = None

    @property
    def double_value(self) -> float:
        """What doubling is worth when the opponent answers best."""
        if self.should_beaver:
            return 2.0 * self.double_take
        return min(self.double_take, self.double_pass)

    @property
    def best(self) -> float:
        """The equity of the right cube action."""
        if not self.may_double:
            return self.no_double
        return max(self.no_double, self.double_value)

    def double_error(self, doubled: bool) -> float:
        """Equity the doubler gives up by doubling (``doubled``) or not, when wrong."""
        if not self.may_double:
            return 0.0
        chosen = self.double_value if doubled else self.no_double
        return max(0.0, self.best - chosen)

    def take_error(self, took: bool) -> float:
        """Equity the taker gives up by taking (``took``) or passing, when wrong
        (the taker's loss is the doubler's gain, in the doubler's normalised units)."""
        chosen = self.double_take if took else self.double_pass
        best = min(self.double_take, self.double_pass)
        return max(0.0, chosen - best)


def _counted(probs: Probs, info: CubeInfo) -> Probs:
    """``probs`` with gammons and backgammons dropped when the scoring ignores them."""
    if info.gammons:
        return probs
    return (float(probs[0]), 0.0, 0.0, 0.0, 0.0)


def cube_decision(
    probs: Probs,
    info: CubeInfo,
    efficiency: float = CONTACT_EFFICIENCY,
    met: MatchEquityTable | None = None,
) -> CubeDecision:
    """The cube decision of the player on roll with cubeless chances ``probs``."""
    probs = _counted(probs, info)
    may = info.may_double()
    if info.money:
        own = info.relative_owner
        nd = money_equity(probs, own, efficiency, info.jacoby)
        dt = 2.0 * money_equity(probs, "them", efficiency)
        dp = 1.0
        mwcs = None
    else:
        model = _MatchModel(probs, info, met or default_table())
        v = info.value
        nd_m = model.value(v, info.relative_owner, efficiency)
        dt_m = model.value(2 * v, "them", efficiency) if 2 * v in model.levels else nd_m
        dp_m = model.cash(v)
        nd, dt, dp = model.normalise(nd_m), model.normalise(dt_m), 1.0
        mwcs = (nd_m, dt_m, dp_m)
        a, b = info.away
        if may and info.post_crawford and b == 1 and a > 1 and info.owner is None:
            # post-Crawford the trailer doubles at once: his losses cost nothing more
            nd = min(nd, min(dt, dp) - 1e-9)
    take = dt <= dp
    beaver = info.money and info.beavers and take and dt < 0.0
    double_value = 2.0 * dt if beaver else min(dt, dp)
    double = may and double_value > nd - 1e-9  # a tie: cash rather than play on
    verb = "Redouble" if info.owner is not None else "Double"
    if not may:
        action = "No double (the cube is not available)"
    elif double:
        action = f"{verb}, " + ("beaver" if beaver else "take" if take else "pass")
    elif not take and nd >= dp:
        action = f"Too good to {verb.lower()}, pass"
    else:
        action = f"No {verb.lower()}, " + ("beaver" if beaver else "take" if take else "pass")
    return CubeDecision(nd, dt, dp, double, take, beaver, may, action, mwcs)


def doubling_window(
    info: CubeInfo,
    gammons: float = 0.0,
    efficiency: float = CONTACT_EFFICIENCY,
    met: MatchEquityTable | None = None,
) -> tuple[float, float]:
    """``(double point, pass point)`` at the cube and score of ``info``: the least
    winning chance of the player on roll from which doubling is right, and the chance
    above which the opponent should pass (his take point is one minus it), for
    positions where a share ``gammons`` of each side's wins are gammons. The double
    point is 1.0 when doubling is never right (a cube the player may not turn).

    >>> [round(p, 3) for p in doubling_window(CubeInfo(), efficiency=0.0)]
    [0.5, 0.75]
    """

    def decision(p: float) -> CubeDecision:
        probs = (p, gammons * p, 0.0, gammons * (1 - p), 0.0)
        return cube_decision(probs, info, efficiency, met)

    def first(test: Any) -> float:
        """The least p where ``test`` turns true: a scan by 1/200, then bisection
        (doubling is right in a window: above it the player is too good)."""
        grid = [k / 200 for k in range(201)]
        hit = next((k for k, p in enumerate(grid) if test(p)), None)
        if hit is None:
            return 1.0
        if hit == 0:
            return 0.0
        lo, hi = grid[hit - 1], grid[hit]
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if test(mid) else (mid, hi)
        return hi

    take = first(lambda p: not decision(p).should_take)
    double = first(lambda p: decision(p).should_double) if info.may_double() else 1.0
    return double, take


def play_value(probs: Probs, info: CubeInfo, met: MatchEquityTable | None = None) -> float:
    """Value of the position after a checker play, for its mover (``info.player``),
    whose cubeless chances are ``probs``; what plays are ranked by.

    Money: cubeless points per cube (gammons count unless Jacoby applies to a
    centred cube). Match: cubeless match winning chance at the current cube value,
    so each kind of win and loss counts what it does to the match score.
    """
    probs = _counted(probs, info)
    p = float(probs[0])
    if info.money:
        if info.jacoby and info.owner is None:
            return 2.0 * p - 1.0
        return float(2.0 * p - 1.0 + probs[1] - probs[3] + probs[2] - probs[4])
    model = _MatchModel(probs, info, met or default_table())
    v = info.value
    return p * model.win(v) + (1.0 - p) * model.lose(v)


def gammon_values(info: CubeInfo, met: MatchEquityTable | None = None) -> tuple[float, float]:
    """How much a gammon win and a gammon loss are worth beyond a single game, each
    relative to a single game's swing (money without Jacoby: 0.5 and 0.5); what
    makes a score gammon-go (the first large) or gammon-save (the second large)."""
    if not info.gammons:
        return 0.0, 0.0
    if info.money:
        return (0.0, 0.0) if info.jacoby and info.owner is None else (0.5, 0.5)
    table = met or default_table()
    a, b = info.away
    v = info.value
    post = info.crawford or info.post_crawford

    def m(x: int, y: int) -> float:
        return table.equity(x, y, post_crawford=post)

    swing = m(a - v, b) - m(a, b - v)
    if swing < _EPS:
        return 0.0, 0.0
    return (m(a - 2 * v, b) - m(a - v, b)) / swing, (m(a, b - v) - m(a, b - 2 * v)) / swing


# -- the net's side: chances before the roll, decisions, checker play -----------------


def position_probs(board: Any, network: Network, plies: int = 1) -> Any:
    """Cubeless chances of the player on roll in ``board`` (row 0 on roll, before his
    roll): the net sees the position as the opponent's just-played one (0-ply), or
    averages our best reply over our 21 rolls (1-ply), or searches one more ply (2)."""
    from dicehall.bots.backgammon.network import flip
    from dicehall.bots.backgammon.search import evaluate_1ply, evaluate_2ply, evaluate_after
    from dicehall.games.backgammon.fast import swap

    theirs = swap(np.asarray(board, dtype=np.int8))  # the opponent "has just moved"
    y = np.zeros(5)
    params = network.params()
    if plies <= 0:
        evaluate_after(theirs, *params, y)
    elif plies == 1:
        evaluate_1ply(theirs, *params, False, y)
    else:
        evaluate_2ply(theirs, *params, False, 1, 0.1, y)
    out = np.zeros(5)
    flip(y, out)
    # a side that has borne off a checker cannot lose a gammon, whatever the net says
    b = np.asarray(board)
    if b[1, 0] > 0:
        out[1] = out[2] = 0.0
    if b[0, 0] > 0:
        out[3] = out[4] = 0.0
    return out


def decide(board: Any, info: CubeInfo, network: Network, plies: int = 1) -> CubeDecision:
    """The cube decision before the roll in ``board`` (row 0 on roll), by the net's
    chances searched ``plies`` deep; the same object answers the taker (its
    ``should_take`` / ``should_beaver``)."""
    probs = position_probs(board, network, plies)
    return cube_decision(probs, info, cube_efficiency(board))


def choose_play(bot: Any, board: Any, d1: int, d2: int, info: CubeInfo) -> int:
    """Index of the play the bot picks among ``fast.plays(board, d1, d2)`` when gammons
    are worth what the score makes them. Money: the bot's own choice with money
    weights (single-game ones when gammons do not count). Match: the bot's search
    ranks the plays with money weights and the deepest searched are re-ranked by
    :func:`play_value`, each result (backgammons too) valued by the match score."""
    if info.money or bot.settings.evaluator != "net":
        go, save = gammon_values(info)
        return int(bot.choose(board, d1, d2, go < _EPS and save < _EPS))
    probs, _eqs, depth = bot.evaluate(board, d1, d2, False)
    deepest = np.flatnonzero(depth == depth.max())
    values = np.array([play_value(probs[i], info) for i in deepest])
    if bot.settings.noise:  # noise in money-equity units, about twice the MWC swing
        values = values + 0.5 * bot._rng.normal(0.0, bot.settings.noise, values.shape)
    return int(deepest[int(np.argmax(values))])


def _plies(bot: Any) -> int:
    """How deep a level searches its cube decisions (pubeval's level uses the net)."""
    return min(2, int(bot.settings.plies))


def bot_decision(bot: Any, state: Any) -> Any:
    """The bot's action at a cube or resignation decision of a backgammon ``state``:
    double or roll, take, pass or beaver, take or raccoon, accept or reject a
    resignation. The bot itself never offers to resign."""
    from dicehall.games.backgammon.fast import to_array
    from dicehall.games.backgammon.rules import (
        CUBE_DECISION,
        RACCOON_DECISION,
        TAKE_DECISION,
        CubeAction,
        ResignAnswer,
    )

    legal = state.legal_actions()
    board = to_array(state.board)  # row 0: the player on roll (the doubler)
    info = CubeInfo.from_state(state, player=state.turn)
    if state.is_resign_decision():
        return ResignAnswer(accept_resignation(bot, state))
    if state.pending == CUBE_DECISION:
        if not state.may_double():  # nothing to decide but to roll (or resign)
            return CubeAction("roll")
        d = decide(board, info, bot.network, _plies(bot))
        wants = CubeAction("double") if d.should_double else CubeAction("roll")
        return wants if wants in legal else CubeAction("roll")
    if state.pending == TAKE_DECISION:
        # the doubler's view of the cube before his double
        d = decide(board, info, bot.network, _plies(bot))
        if d.should_beaver and CubeAction("beaver") in legal:
            return CubeAction("beaver")
        return CubeAction("take") if d.should_take else CubeAction("pass")
    if state.pending == RACCOON_DECISION:
        # we doubled and were beavered: the cube is the beaverer's; raccoon if owning
        # twice that cube is worth more to us than playing on at it
        probs = _counted(position_probs(board, bot.network, _plies(bot)), info)
        x = cube_efficiency(board)
        keep = money_equity(probs, "them", x)
        raccoon = 2.0 * money_equity(probs, "us", x)
        return CubeAction("raccoon") if raccoon > keep else CubeAction("take")
    raise ValueError(f"no cube or resignation decision in {state!r}")


def accept_resignation(bot: Any, state: Any) -> bool:
    """Whether the bot accepts the resignation offered in ``state``: when the points
    conceded are worth at least what it expects from playing on (cubeless, by the
    score's values of each result)."""
    from dicehall.games.backgammon.fast import to_array

    resigner = state.turn
    info = CubeInfo.from_state(state, player=resigner)
    board = to_array(state.board)
    if state.dice is not None:  # he offers instead of playing his roll: his best play
        probs_all, eqs, depth = bot.evaluate(board, state.dice[0], state.dice[1], False)
        deepest = np.flatnonzero(depth == depth.max())
        probs = probs_all[int(deepest[np.argmax(eqs[deepest])])]
    else:
        probs = position_probs(board, bot.network, _plies(bot))
    probs = _counted(probs, info)
    points = int(state.game_points(state.resign_level))
    if info.money:
        level_points = points / info.value
        single = info.jacoby and info.owner is None
        # the resigner's cubeless points per cube if play goes on
        play_on = 2 * probs[0] - 1 if single else 2 * probs[0] - 1 + probs[1] - probs[3]
        play_on += 0.0 if single else probs[2] - probs[4]
        return bool(-level_points <= play_on + 1e-9)
    table = default_table()
    a, b = info.away
    post = info.crawford or info.post_crawford
    accepted = table.equity(a, b - points, post_crawford=post)  # the resigner's MWC
    return bool(accepted <= play_value(probs, info) + 1e-9)


def bot_play(bot: Any, state: Any) -> int:
    """Index in ``state.play_results()`` of the bot's play in a cube or match game."""
    from dicehall.games.backgammon.fast import to_array

    info = CubeInfo.from_state(state, player=state.turn)
    return choose_play(bot, to_array(state.board), state.dice[0], state.dice[1], info)


@dataclass(frozen=True)
class CubeJudgement:
    """One cube action of a record judged by the bot: who decided, what he did, what
    was right, and the equity it cost him (normalised to the cube, as gnubg counts:
    multiply by 1000 for millipoints)."""

    seat: int
    kind: str  # "double" (the player on roll) or "take" (his opponent)
    played: str
    best: str
    error: float
    mark: str  # "", "missed double", "wrong double", "wrong take", "wrong pass", "wrong beaver"
    decision: CubeDecision
    probs: tuple[float, float, float, float, float]


def judge_cube(bot: Any, state: Any, action: Any) -> CubeJudgement | None:
    """Judge ``action`` taken at the cube decision ``state`` (None for anything else:
    a resignation offered instead, a raccoon). The doubler's chances come from the
    bot's search, as :func:`decide` computes them."""
    from dicehall.games.backgammon.fast import to_array
    from dicehall.games.backgammon.rules import CUBE_DECISION, TAKE_DECISION, CubeAction

    if not isinstance(action, CubeAction) or state.pending not in (CUBE_DECISION, TAKE_DECISION):
        return None
    if state.pending == CUBE_DECISION and not state.may_double():
        return None  # rolling was the only cube action
    board = to_array(state.board)
    info = CubeInfo.from_state(state, player=state.turn)
    probs = _counted(position_probs(board, bot.network, _plies(bot)), info)
    d = cube_decision(probs, info, cube_efficiency(board))
    verb = "redouble" if info.owner is not None else "double"
    p5 = (float(probs[0]), float(probs[1]), float(probs[2]), float(probs[3]), float(probs[4]))
    if state.pending == CUBE_DECISION:
        doubled = action.kind == "double"
        error = d.double_error(doubled)
        best = verb if d.should_double else "roll"
        mark = "" if error <= 0 else ("wrong " if doubled else "missed ") + verb
        return CubeJudgement(state.turn, "double", action.kind, best, error, mark, d, p5)
    # the taker's answer, valued from the doubler's side: what the taker chose costs
    # him its excess over the best answer
    options = {"take": d.double_take, "pass": d.double_pass}
    if state.may_beaver():
        options["beaver"] = 2.0 * d.double_take
    best = min(options, key=lambda k: options[k])
    chosen = options.get(action.kind, d.double_take)
    error = max(0.0, chosen - options[best])
    mark = f"wrong {action.kind}" if error > 0 else ""
    return CubeJudgement(1 - state.turn, "take", action.kind, best, error, mark, d, p5)


def play_equity(probs: Probs, info: CubeInfo) -> float:
    """:func:`play_value` in equity units: money points per cube, or in a match the
    match winning chance normalised as gnubg does (losing the cube's points -1,
    winning them +1), so that checker errors read the same in money and match play."""
    value = play_value(probs, info)
    if info.money:
        return value
    return _MatchModel((0.5, 0.0, 0.0, 0.0, 0.0), info, default_table()).normalise(value)


def rank_plays(bot: Any, state: Any, plies: int | None = None) -> list[Any]:
    """``bot.rank(state)`` with every play's equity valued by the score
    (:func:`play_equity`) in cube and match games, best first among the deepest."""
    ranked = bot.rank(state, plies)
    if not state.game.extended:
        return list(ranked)
    info = CubeInfo.from_state(state, player=state.turn)
    valued = [replace(pv, equity=play_equity(pv.probs, info)) for pv in ranked]
    return sorted(valued, key=lambda pv: (-pv.depth, -pv.equity))


@dataclass(frozen=True)
class PlayJudgement:
    """A play made, judged against the bot's best: ``mine`` and ``best`` are the bot's
    ranked entries, ``equity`` the play's equity at the best's depth, ``loss`` the equity
    it gives away (0 for the best play)."""

    mine: Any
    best: Any
    equity: float
    loss: float


def judge_play(bot: Any, state: Any, played: int) -> PlayJudgement:
    """The play of index ``played`` (in ``state.play_results()``) against ``bot``'s best,
    valued by the score in cube and match games: what ``dicehall analyze`` and the web
    replay's analysis report, so both say the same. A play ranked at a shallower depth
    than the best (a filter dropped it) is valued again at the best's depth."""
    ranked = rank_plays(bot, state)
    best = ranked[0]
    mine = next(pv for pv in ranked if pv.index == played)
    equity = mine.equity
    if mine.depth < best.depth:
        probs, equity = bot.value_of(state, played, best.depth)
        if state.game.extended:
            equity = play_equity(probs, CubeInfo.from_state(state))
    loss = max(0.0, float(best.equity - equity)) if played != best.index else 0.0
    return PlayJudgement(mine, best, float(equity), loss)


__all__ = [
    "CONTACT_EFFICIENCY",
    "CubeDecision",
    "CubeInfo",
    "CubeJudgement",
    "PlayJudgement",
    "accept_resignation",
    "bot_decision",
    "bot_play",
    "choose_play",
    "cube_decision",
    "cube_efficiency",
    "decide",
    "doubling_window",
    "gammon_values",
    "judge_cube",
    "judge_play",
    "match_equity",
    "money_equity",
    "play_equity",
    "play_value",
    "position_probs",
    "rank_plays",
]
