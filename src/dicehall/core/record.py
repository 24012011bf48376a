"""Game records: a game is its options, its seats and the actions taken, nothing more.

State is a fold of ``apply`` over the record, so any game can be saved,
replayed, resumed or verified by a third party.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dicehall.core.errors import DicehallError, RecordError
from dicehall.core.game import Game, State
from dicehall.core.registry import load_game

FORMAT = "dicehall-record"
VERSION = 1


@dataclass
class Record:
    """A replayable game record; ``actions`` are canonical action texts, dice included.

    ``date`` is when the game began (ISO 8601, UTC), where the front end that started it
    knows it; it is left None where a record must not depend on the clock (the arena's
    records are reproducible from their seeds). The JSON form opens with a ``header``
    (date, players, result, the dicehall version that wrote it) for people and other
    tools; it is informational, and a record without one (older files) loads the same.

    >>> from dicehall import load_game
    >>> r = Record.new(load_game("backgammon"))
    >>> r.actions += ["5-3", "8/3 6/3"]
    >>> Record.from_json(r.to_json()).final_state() == r.final_state()
    True
    """

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    date: str | None = None

    @classmethod
    def new(cls, game: Game, players: list[str] | None = None, **meta: Any) -> Record:
        """An empty record for ``game`` (options copied) with optional seat names."""
        names = players or [f"player {i + 1}" for i in range(game.num_players)]
        return cls(game.name, dict(game.options), list(names), [], dict(meta))

    def stamp(self) -> None:
        """Set ``date`` to now (UTC, to the second) if it is not set yet."""
        if self.date is None:
            self.date = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")

    def header(self) -> dict[str, Any]:
        """Who played when, how it ended (the returns per seat, None while the game is in
        progress) and which dicehall wrote the record."""
        result = self.meta.get("returns")
        return {
            "date": self.date,
            "players": list(self.players),
            "result": list(result) if isinstance(result, list) else None,
            "dicehall": dicehall_version(),
        }

    def load_game(self) -> Game:
        """The Game this record is played under (an option the record does not name,
        added to the game after records were written, takes the value those records
        were played under: ``Game.record_defaults``)."""
        try:
            return load_recorded_game(self.game, self.options)
        except DicehallError as exc:
            raise RecordError(f"record names a game that cannot be loaded: {exc}") from exc

    def states(self) -> Iterator[State]:
        """Every state of the game in order, the initial one first."""
        state = self.load_game().new_initial_state()
        yield state
        for i, text in enumerate(self.actions):
            try:
                state = state.apply_text(text)
            except DicehallError as exc:
                raise RecordError(f"action {i + 1} ({text!r}) does not replay: {exc}") from exc
            yield state

    def final_state(self) -> State:
        """The state after the last recorded action."""
        state: State | None = None
        for state in self.states():  # noqa: B007
            pass
        assert state is not None
        return state

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with a format tag and version."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "header": self.header(),
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "actions": self.actions,
            "meta": self.meta,
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Read a dict made by ``to_dict``, checking its shape.

        :raises RecordError: if it is not a dicehall record of this version.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a dicehall record (expected "format": "{FORMAT}")')
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not {VERSION}")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record field 'actions' must be a list of strings")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("record field 'options' must be an object")
        if not isinstance(data.get("game"), str):
            raise RecordError("record field 'game' must be a game name")
        header = data.get("header", {})
        date = header.get("date") if isinstance(header, dict) else None
        return cls(
            game=data["game"],
            options=options,
            players=list(data.get("players", [])),
            actions=list(actions),
            meta=dict(data.get("meta", {})),
            date=date if isinstance(date, str) else None,
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        """Parse JSON text made by ``to_json``.

        :raises RecordError: if the text is not JSON or not a record.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` atomically (never leaves a half-written file).

        :raises RecordError: the file cannot be written there (no such folder, a folder
            of that name, no permission ...); nothing is left behind.
        """
        path = Path(path)
        if path.is_dir():
            raise RecordError(f"cannot save the record to {path}: it is a folder")
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(self.to_json() + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            reason = exc.strerror or str(exc)
            raise RecordError(f"cannot save the record to {path}: {reason}") from exc

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file.

        :raises RecordError: if it cannot be read or is not a record.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc.strerror}") from exc
        return cls.from_json(text)


def load_recorded_game(name: str, options: Mapping[str, Any]) -> Game:
    """The game a stored record or log was played under: ``load_game(name, **options)``,
    except that an option the record does not name, added to the game after records
    were written (``Game.record_defaults``), takes the value those records were played
    under rather than its default. Records made by ``Record.new`` name every option.

    >>> load_recorded_game("whitedie", {"players": 2}).options["free_choices"]
    False
    """
    game = load_game(name, **options)
    older = {k: v for k, v in game.record_defaults.items() if k not in options}
    return load_game(name, **options, **older) if older else game


def dicehall_version() -> str:
    """The installed dicehall's version (``unknown`` when run from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dicehall")
    except PackageNotFoundError:
        return "unknown"
