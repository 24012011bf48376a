"""Hints and after-game analysis for the browser, as the terminal's ``hint`` and ``analyze``.

- :func:`hint`: the best options of the seat to move with their values (backgammon: equity and
  chances from the bot's search; White Die: exact expected points from the perfect solver;
  Coin Rows: the search bot's expected result). The server gives hints only in games that
  allow them, never in rated ones (``app.py``).
- :func:`analyse`: every decision of a finished game judged the same way: the value lost
  against the best option, backgammon's errors and blunders marked with the thresholds of
  ``dicehall analyze`` (equity lost >= 0.04 and >= 0.08), and per decision the equity of the
  position for the equity graph.

Values are always from the view of the seat that decided ("loss" >= 0), the graph's equity
from seat 0's (positive: seat 0 is ahead).

>>> from dicehall import Match, load_game
>>> from dicehall.bots import make_agent
>>> game = load_game("whitedie")
>>> specs = ["bot:greedy", "random"]
>>> agents = [make_agent("whitedie", spec, seed=i) for i, spec in enumerate(specs)]
>>> report = analyse(Match(game, agents, seed=3).play())
>>> report["game"], report["unit"], all(d["loss"] >= 0 for d in report["decisions"])
('whitedie', 'points', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dicehall.core.game import State
from dicehall.core.record import Record

#: backgammon equity losses from which a play is an error or a blunder (dicehall analyze)
ERROR = 0.04
BLUNDER = 0.08
#: options listed by a hint
HINT_OPTIONS = 5
#: the bot levels that give hints, per game: strong enough to teach, a second or so per hint
LEVELS = {"backgammon": "hard", "coinrows": "advanced", "whitedie": "perfect"}
#: the levels that judge a whole game at once, in the request that asks for it (backgammon
#: 0-ply: a whole game in about a second)
ANALYSIS_LEVELS = {"backgammon": "medium", "coinrows": "intermediate", "whitedie": "perfect"}
#: the levels computed afterwards, in the background, that replace the quick analysis when
#: ready: backgammon at ``dicehall analyze``'s own default (expert, 2-ply: about 40 s a game
#: on a quiet core before the pruning net of 6 Dec 2026 cut the expert's CPU per decision
#: about 2.5 times), so the replay says what the terminal says
DEEP_LEVELS = {"backgammon": "expert"}


class AnalysisError(ValueError):
    """A game or position that cannot be analysed (say which, and what can)."""


def loss_and_mark(loss: float) -> tuple[float, str]:
    """A play's equity lost as the report shows it (4 decimals) and its mark, judged on that
    shown value, so that a loss of 0.039996 reads 0.04 *and* is marked an error, never one
    without the other."""
    shown = round(float(loss), 4)
    return shown, "blunder" if shown >= BLUNDER else "error" if shown >= ERROR else ""


# -- hints ------------------------------------------------------------------------------
def hint(state: State, game: str) -> dict[str, Any]:
    """The best options of the seat to move, best first, with what they are worth."""
    if state.current_player() < 0:
        raise AnalysisError("there is no decision to advise on: nobody is to move")
    if game == "backgammon":
        return _backgammon_hint(state)
    if game == "whitedie":
        return _whitedie_hint(state)
    if game == "coinrows":
        return _coinrows_hint(state)
    raise AnalysisError(f"no hints for {game}: backgammon, coinrows and whitedie have them")


def _backgammon_bot(level: str = LEVELS["backgammon"]) -> Any:
    from dicehall.bots.backgammon import Bot

    return Bot(level)


def _backgammon_hint(state: State) -> dict[str, Any]:
    from dicehall.bots.backgammon.cube import rank_plays
    from dicehall.games.backgammon.rules import BackgammonState

    assert isinstance(state, BackgammonState)
    if state.is_cube_decision():
        return _cube_hint(state)
    if not state.is_checker_play():
        raise AnalysisError("no hint here: hints are for checker plays and cube decisions")
    ranked = rank_plays(_backgammon_bot(), state)
    best = ranked[0].equity
    return {
        "game": "backgammon",
        "seat": state.current_player(),
        "unit": "equity",
        "options": [
            {
                "text": pv.text,
                "value": round(float(pv.equity), 4),
                "loss": round(max(0.0, float(best - pv.equity)), 4),
                "win": round(float(pv.probs[0]), 4),
                "gammon": round(float(pv.probs[1]), 4),
                "lose_gammon": round(float(pv.probs[3]), 4),
                "depth": pv.depth,
            }
            for pv in ranked[:HINT_OPTIONS]
        ],
    }


def _cube_hint(state: Any) -> dict[str, Any]:
    """Each cube action of the decision with the equity it would cost (as gnubg's cube
    hint: normalised to the cube), best first."""
    from dicehall.bots.backgammon.cube import judge_cube
    from dicehall.games.backgammon.rules import CubeAction

    bot = _backgammon_bot()
    judged = []
    for action in state.legal_actions():
        if not isinstance(action, CubeAction):
            continue  # resignation offers are not advised on
        verdict = judge_cube(bot, state, action)
        if verdict is not None:
            judged.append((state.action_to_text(action), verdict))
    if not judged:
        raise AnalysisError("no cube decision to advise on: only rolling is possible")
    judged.sort(key=lambda tv: tv[1].error)
    probs = judged[0][1].probs
    return {
        "game": "backgammon",
        "seat": state.current_player(),
        "unit": "cube",
        "win": round(float(probs[0]), 4),  # the doubler's chances
        "options": [
            {
                "text": text,
                "value": round(-float(v.error), 4) + 0.0,  # never -0.0
                "loss": round(float(v.error), 4),
                "best": v.best,
            }
            for text, v in judged
        ],
    }


def _whitedie_values(state: State) -> tuple[list[tuple[str, float]], int]:
    """Each option with its exact expected points for the player on turn, and the sign (+1:
    the seat to act maximises them, -1: an opponent who minimises them)."""
    from dicehall.bots.whitedie.advisor import POINTS, minimising, options
    from dicehall.games.whitedie.rules import WhiteDieState

    assert isinstance(state, WhiteDieState)
    values = [(state.action_to_text(a), float(v)) for a, v in options(state, POINTS)]
    return values, -1 if minimising(state, POINTS) else 1


def _whitedie_hint(state: State) -> dict[str, Any]:
    values, sign = _whitedie_values(state)
    ranked = sorted(values, key=lambda tv: -sign * tv[1])
    best = sign * ranked[0][1]
    return {
        "game": "whitedie",
        "seat": state.current_player(),
        "unit": "points",
        "minimising": sign < 0,
        "options": [
            {"text": text, "value": round(v, 4), "loss": round(best - sign * v, 4)}
            for text, v in ranked[:HINT_OPTIONS]
        ],
    }


def _coinrows_scored(state: State, level: str = LEVELS["coinrows"]) -> list[tuple[str, float]]:
    from dicehall.bots.coinrows import Bot

    return [(s.text, float(s.value)) for s in Bot(level=level, seed=0).analyse(state)]


def _coinrows_hint(state: State) -> dict[str, Any]:
    scored = _coinrows_scored(state)
    best = scored[0][1]
    return {
        "game": "coinrows",
        "seat": state.current_player(),
        "unit": "result",
        "options": [
            {"text": text, "value": round(v, 4), "loss": round(best - v, 4)}
            for text, v in scored[:HINT_OPTIONS]
        ],
    }


# -- analysis ---------------------------------------------------------------------------
#: called with (decisions judged, decisions in all) while an analysis runs
Progress = Callable[[int, int], None]


def analyse(
    record: Record, level: str | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Every decision of ``record`` judged against the bot's best option, by the bot of
    ``level`` (default: the game's quick level, :data:`ANALYSIS_LEVELS`; backgammon also takes
    any level of ``dicehall.bots.backgammon.LEVELS``). ``progress`` hears how far it is
    (backgammon: after every decision).

    :raises AnalysisError: the game has no analysis, or ``level`` is not one of its levels.
    """
    quick = ANALYSIS_LEVELS.get(record.game)
    if quick is None:
        raise AnalysisError(
            f"no analysis for {record.game}: backgammon, coinrows and whitedie have one"
        )
    level = level or quick
    if level != quick and record.game != "backgammon":
        raise AnalysisError(f"{record.game} is analysed at {quick} only, not {level}")
    states = list(record.states())
    if record.game == "backgammon":
        decisions = _backgammon_decisions(record, states, level, progress)
        unit = "equity"
    elif record.game == "whitedie":
        decisions = _judged(record, states, _whitedie_judge)
        unit = "points"
    elif record.game == "coinrows":
        decisions = _judged(record, states, _coinrows_judge)
        unit = "result"
    totals: dict[int, dict[str, float]] = {}
    for d in decisions:
        t = totals.setdefault(d["seat"], {"decisions": 0, "loss": 0.0, "errors": 0, "blunders": 0})
        t["decisions"] += 1
        t["loss"] += d["loss"]
        t["errors"] += d["mark"] == "error"
        t["blunders"] += d["mark"] == "blunder"
    return {
        "game": record.game,
        "unit": unit,
        "level": level,
        "error": ERROR if record.game == "backgammon" else None,
        "blunder": BLUNDER if record.game == "backgammon" else None,
        "decisions": decisions,
        "totals": [
            {"seat": seat, **{k: round(v, 4) for k, v in t.items()}}
            for seat, t in sorted(totals.items())
        ],
    }


def _judged(record: Record, states: list[State], judge: Any) -> list[dict[str, Any]]:
    out = []
    for n, before in enumerate(states[: len(record.actions)], 1):
        if before.is_chance_node() or before.current_player() < 0:
            continue
        if len(before.legal_actions()) < 2:
            continue  # no choice, nothing to judge
        judged = judge(before, record.actions[n - 1])
        if judged is not None:
            out.append({"n": n, "seat": before.current_player(), **judged})
    return out


def _whitedie_judge(before: State, text: str) -> dict[str, Any] | None:
    values, sign = _whitedie_values(before)
    table = dict(values)
    played = before.action_to_text(before.parse_action(text))
    if played not in table:
        return None
    best_text, best = max(values, key=lambda tv: sign * tv[1])
    loss = max(0.0, sign * (best - table[played]))
    return {
        "played": played,
        "best": best_text,
        "value": round(table[played], 4),
        "best_value": round(best, 4),
        "loss": round(loss, 4),
        "mark": "",
        "equity": None,
    }


def _coinrows_judge(before: State, text: str) -> dict[str, Any] | None:
    scored = _coinrows_scored(before, ANALYSIS_LEVELS["coinrows"])
    table = dict(scored)
    played = before.action_to_text(before.parse_action(text))
    if played not in table:
        return None
    best_text, best = scored[0]
    seat = before.current_player()
    return {
        "played": played,
        "best": best_text,
        "value": round(table[played], 4),
        "best_value": round(best, 4),
        "loss": round(max(0.0, best - table[played]), 4),
        "mark": "",
        # the bot's evaluation of the position for seat 0 (its expected result)
        "equity": round(best if seat == 0 else -best, 4),
    }


def _backgammon_decisions(
    record: Record, states: list[State], level: str, progress: Progress | None
) -> list[dict[str, Any]]:
    from dicehall.bots.backgammon.cube import judge_cube, judge_play
    from dicehall.games.backgammon.rules import BackgammonState

    try:
        bot = _backgammon_bot(level)
    except ValueError as exc:
        raise AnalysisError(str(exc)) from None
    out: list[dict[str, Any]] = []
    todo = [
        n
        for n, before in enumerate(states[: len(record.actions)], 1)
        if isinstance(before, BackgammonState) and not before.is_chance_node()
    ]
    for done, n in enumerate(todo):
        if progress is not None:
            progress(done, len(todo))
        before = states[n - 1]
        assert isinstance(before, BackgammonState)
        text = record.actions[n - 1]
        seat = before.current_player()
        if not before.is_checker_play():
            judged = judge_cube(bot, before, before.parse_action(text))
            if judged is not None:
                out.append(
                    {
                        "n": n,
                        "seat": judged.seat,
                        "kind": "cube",
                        "dice": None,
                        "played": judged.played,
                        "best": judged.best,
                        "loss": round(float(judged.error), 4),
                        "mark": "error" if judged.mark else "",
                        "equity": None,
                    }
                )
            continue
        actions = [a for a, _ in before.play_results()]
        action = before.parse_action(text)
        if len(actions) < 2 or action not in actions:
            continue  # a forced play or a pass: no choice
        played = actions.index(action)
        verdict = judge_play(bot, before, played)
        mine, best, equity = verdict.mine, verdict.best, verdict.equity
        loss, mark = loss_and_mark(verdict.loss)
        out.append(
            {
                "n": n,
                "seat": seat,
                "kind": "play",
                "dice": list(before.dice) if before.dice else None,
                "played": mine.text,
                "best": best.text,
                "value": round(float(equity), 4),
                "best_value": round(float(best.equity), 4),
                "loss": loss,
                "mark": mark,
                # the position's equity (after the best play) for seat 0, for the graph
                "equity": round(float(best.equity) if seat == 0 else -float(best.equity), 4),
            }
        )
    if progress is not None:
        progress(len(todo), len(todo))
    return out
