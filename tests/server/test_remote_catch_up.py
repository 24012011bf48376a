"""A process hears another's appends with the actions in the notification and applies them
without reading the log back; anything else (a gap, a change that is no append) is read."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import postgres_store

from dicehall.server.service import GameService, LiveGame, LogEntry
from dicehall.server.storage import Appended, Store


def heard(service: GameService) -> list[Appended]:
    """What the other processes would hear of ``service``'s appends (its listener sees the
    same entries its store notifies)."""
    out: list[Appended] = []

    def listen(live: LiveGame, entries: list[LogEntry]) -> None:
        if entries:
            status = live.row.status if entries[0].seq == 1 or live.state.is_terminal() else None
            actions = tuple((e.actor, e.text) for e in entries)
            hints = tuple(e.hint for e in entries) if any(e.hint >= 0 for e in entries) else ()
            out.append(Appended(entries[0].seq, status, actions, hints))

    service.listeners.append(listen)
    return out


def play(service: GameService, game_id: str, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        live = service.get(game_id)
        if live.row.status != "playing":
            return
        text = rng.choice(live.state.legal_texts())
        service.act(game_id, [live.state.current_player()], text, live.seq)


def pair(tmp_path: Path) -> tuple[GameService, GameService, str]:
    """Two services (two processes' worth) on one SQLite file, a friend game both hold."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    a, b = GameService(Store(url), bot_delay=0), GameService(Store(url), bot_delay=0)
    game_id, _ = a.create("backgammon", {}, opponent="friend", seat=0, name="ann", seed="x")
    a.join(game_id, 1, "bob", "y")
    b.get(game_id)  # cached in the second process too
    return a, b, game_id


def settle(service: GameService) -> None:
    """Wait for the queued catch-ups of ``service``."""
    service._remote.shutdown(wait=True)


def test_heard_actions_are_applied_without_reading_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, game_id = pair(tmp_path)
    notes = heard(a)
    told: list[list[int]] = []
    b.listeners.append(lambda live, entries: told.append([e.seq for e in entries]))

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the log was read back")

    monkeypatch.setattr(b.store, "load_actions", no_reading)
    monkeypatch.setattr(b.store, "get_game", no_reading)
    play(a, game_id, 12, random.Random(5))
    assert len(notes) == 12
    for note in notes:
        b.on_remote(game_id, note.last, note)
    settle(b)
    mine, theirs = a.get(game_id), b.get(game_id)
    assert [e.to_dict() for e in theirs.log] == [e.to_dict() for e in mine.log]
    assert str(theirs.state) == str(mine.state) and theirs.last == mine.last
    assert theirs.dice.counter == mine.dice.counter  # its next roll is the same roll
    assert [s for seqs in told for s in seqs] == list(range(notes[0].first, mine.seq + 1))


def test_heard_plays_are_taken_by_their_place_where_the_text_there_agrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plays chosen from the listing sent to the mover travel with their place in it: the
    other process takes them from there without parsing their texts. A wrong place (another
    version's listing, a bug) is caught by the text and parsed: the state stays the log's."""
    from dicehall.games.backgammon.rules import BackgammonState

    a, b, game_id = pair(tmp_path)
    notes = heard(a)
    rng = random.Random(9)
    for _ in range(12):
        live = a.get(game_id)
        a._legal_json(live)  # what the hub sends the mover
        text = rng.choice(live.cache["legal"])
        a.act(game_id, [live.state.current_player()], text, live.seq)
    played = [
        h
        for note in notes
        for (actor, text), h in zip(note.actions, note.hints or [-1] * 9, strict=False)
        if actor >= 0 and "/" in text
    ]
    assert len(played) >= 10 and all(h >= 0 for h in played)

    parsed: list[str] = []
    parse = BackgammonState.parse_action

    def counted(self: Any, text: str) -> Any:
        if "/" in text:
            parsed.append(text)
        return parse(self, text)

    monkeypatch.setattr(BackgammonState, "parse_action", counted)
    for note in notes:
        b.on_remote(game_id, note.last, note)
    settle(b)
    mine, theirs = a.get(game_id), b.get(game_id)
    assert str(theirs.state) == str(mine.state) and theirs.last == mine.last
    assert parsed == []

    # the same game heard by a third process with every place off by one: parsed, same state
    c = GameService(Store(a.store.url), bot_delay=0)
    c.get(game_id)
    c_live = c.cached(game_id)
    assert c_live is not None
    c_live_seq = c_live.seq
    for note in notes:
        if note.last <= c_live_seq:
            continue
        wrong = tuple(h + 1 if h >= 0 else h for h in note.hints)
        c.on_remote(game_id, note.last, Appended(note.first, note.status, note.actions, wrong))
    settle(c)
    assert str(c.get(game_id).state) == str(mine.state) and c.get(game_id).last == mine.last
    assert len(parsed) == len(played)


def test_an_act_that_finds_the_game_moved_on_tells_what_it_caught_up(tmp_path: Path) -> None:
    """A process that did not hear another's moves (a lost notification) learns of them
    when an act through it is refused as stale: it catches up, plays the act, and tells
    its listeners the moves it missed and the act in one notification, in order (so the
    update that answers the act brings them); its connections see every action once,
    with no gap to resync over."""
    a, b, game_id = pair(tmp_path)
    told: list[list[int]] = []
    b.listeners.append(lambda live, entries: told.append([e.seq for e in entries]))
    play(a, game_id, 9, random.Random(3))  # b hears none of these
    seen = b.get(game_id).seq
    truth = a.get(game_id)
    assert truth.seq > seen
    text = random.Random(4).choice(truth.state.legal_texts())
    seq = b.act(game_id, [truth.state.current_player()], text, truth.seq)
    assert seq > truth.seq  # the act, and the roll that follows it
    assert told == [list(range(seen + 1, seq + 1))]
    stored = [(x.seq, x.text) for x in b.store.load_actions(game_id, after=0)]
    assert [(e.seq, e.text) for e in b.get(game_id).log] == stored


def test_a_gap_or_another_change_reads_the_log(tmp_path: Path) -> None:
    a, b, game_id = pair(tmp_path)
    notes = heard(a)
    play(a, game_id, 6, random.Random(7))
    b.on_remote(game_id, notes[-1].last, notes[-1])  # the earlier ones were not heard
    settle(b)
    assert [e.text for e in b.get(game_id).log] == [e.text for e in a.get(game_id).log]
    b2 = GameService(b.store, bot_delay=0)
    b2.get(game_id)
    play(a, game_id, 2, random.Random(8))
    b2.on_remote(game_id, a.get(game_id).seq, None)  # no actions in it: read the game
    settle(b2)
    assert b2.get(game_id).seq == a.get(game_id).seq


def test_an_undecodable_payload_means_read_the_game() -> None:
    assert Appended.decode([]) is None
    assert Appended.decode(["not json"]) is None
    assert Appended.decode(['[3, null, [[0, "24/18"], [-1, "6-2"]]]']) == Appended(
        3, None, ((0, "24/18"), (-1, "6-2"))
    )
    assert Appended.decode(['[3, null, [[0, "24/18"], [-1, "6-2"]], [7, -1]]']) == Appended(
        3, None, ((0, "24/18"), (-1, "6-2")), (7, -1)
    )
    # places that do not match the actions are dropped (the texts are parsed)
    assert Appended.decode(['[3, null, [[0, "24/18"]], [7, -1]]']) == Appended(
        3, None, ((0, "24/18"),)
    )


@contextmanager
def listening_store() -> Iterator[tuple[Store, Store, list[tuple[str, int, Appended | None]]]]:
    """A PostgreSQL store to write with, a second one on the same tables whose listener
    thread collects every notification it hears, and that list; all torn down after."""
    writer = postgres_store()
    reader = Store(writer.url, prefix=writer.prefix)
    got: list[tuple[str, int, Appended | None]] = []
    stop = threading.Event()
    listener = threading.Thread(
        target=reader.listen, args=(lambda *note: got.append(note), stop), daemon=True
    )
    listener.start()
    try:
        yield writer, reader, got
    finally:
        stop.set()
        listener.join(5)
        reader.close()
        writer.drop_all()


@pytest.mark.postgres
def test_a_postgresql_notification_carries_the_append() -> None:
    with listening_store() as (writer, _, got):
        time.sleep(1.0)  # LISTEN is in place
        from test_server_storage import make_row

        writer.create_game(make_row("pg1"))
        writer.append_actions(
            "pg1", 1, [(-1, "3-1"), (0, "8/5 6/5")], status="playing", hints=[-1, 4]
        )
        deadline = time.time() + 10
        while len(got) < 2 and time.time() < deadline:
            time.sleep(0.05)
        assert got[0] == ("pg1", 0, None)  # a creation: read it
        assert got[1] == (
            "pg1",
            2,
            Appended(1, "playing", ((-1, "3-1"), (0, "8/5 6/5")), (-1, 4)),
        )


@pytest.mark.postgres
def test_the_listener_comes_back_after_its_connection_is_killed() -> None:
    """The listener reads notifications from libpq's socket; when its connection dies (the
    database restarted, or killed it), it connects again and goes on hearing."""

    with listening_store() as (writer, reader, got):

        def listening() -> list[int]:
            with writer.engine.connect() as conn:
                rows = conn.exec_driver_sql(
                    "SELECT pid FROM pg_stat_activity WHERE query = %s",
                    (f'LISTEN "{reader.channel}"',),
                )
                return [r[0] for r in rows]

        def wait_for(what: Any, seconds: float = 20) -> Any:
            deadline = time.time() + seconds
            while time.time() < deadline:
                found = what()
                if found:
                    return found
                time.sleep(0.05)
            pytest.fail("waited in vain")

        first = wait_for(listening)
        from test_server_storage import make_row

        writer.create_game(make_row("pg2"))
        wait_for(lambda: got)
        with writer.engine.connect() as conn:
            conn.exec_driver_sql("SELECT pg_terminate_backend(%s, 10000)", (first[0],))
        wait_for(lambda: [p for p in listening() if p not in first])  # connected again
        writer.append_actions("pg2", 1, [(-1, "3-1")], status="playing")
        wait_for(lambda: len(got) > 1)
        assert got[-1] == ("pg2", 1, Appended(1, "playing", ((-1, "3-1"),)))


def test_serve_freezes_what_start_up_made(tmp_path: Path) -> None:
    """``dicehall serve``'s app warms every game up and freezes the collector's view of it
    (``app.tune_gc``); a plain app (the tests') does not."""
    import gc

    from fastapi.testclient import TestClient

    from dicehall.server.app import create_app

    gc.unfreeze()
    url = f"sqlite:///{tmp_path / 'gc.sqlite3'}"
    with TestClient(create_app(url)):
        assert gc.get_freeze_count() == 0
    try:
        with TestClient(create_app(url, freeze_gc=True)) as client:
            assert gc.get_freeze_count() > 0
            assert client.get("/api/protocol").status_code == 200
    finally:
        gc.unfreeze()


def test_an_append_heard_with_the_game_free_is_applied_at_once_else_by_a_worker(
    tmp_path: Path,
) -> None:
    """The listener applies an append itself when nothing of the game is queued and its lock
    is free (no thread hand-over); while a commit holds the lock, it hands the append to a
    worker and goes on listening, and the worker applies it, in order, once the lock is free."""
    a, b, game_id = pair(tmp_path)
    notes = heard(a)
    play(a, game_id, 4, random.Random(3))
    threads: list[str] = []
    b.listeners.append(lambda live, entries: threads.append(threading.current_thread().name))
    theirs = b.cached(game_id)
    assert theirs is not None
    b.on_remote(game_id, notes[0].last, notes[0])
    assert theirs.seq == notes[0].last  # applied before on_remote returned
    assert threads == [threading.current_thread().name]
    with theirs.lock:  # held as by a commit in another thread (the lock is re-entrant: the
        # listener is another thread here)
        done = threading.Event()

        def listener() -> None:
            for note in notes[1:]:
                b.on_remote(game_id, note.last, note)
            done.set()

        t = threading.Thread(target=listener, name="listener")
        t.start()
        assert done.wait(30)  # the listener did not wait for the lock
        assert theirs.seq == notes[0].last  # nothing applied while the lock is held
    settle(b)
    t.join()
    mine = a.get(game_id)
    assert [e.to_dict() for e in theirs.log] == [e.to_dict() for e in mine.log]
    assert str(theirs.state) == str(mine.state)
    assert "listener" not in threads[1:] and len(threads) >= 2
    assert b._remote_pending == {}
