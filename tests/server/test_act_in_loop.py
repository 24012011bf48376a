"""On PostgreSQL an act runs in the event loop, its append awaited on libpq's non-blocking
interface (``GameService.act_in_loop``, ``Store.append_in_loop``), and the other processes'
changes are heard there (``Store.listen_in_loop``); the updates and frames that follow are
delivered from the loop's own thread without a hand-over (``Hub._call``,
``Connection._send_now``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dicehall_server_fixtures import postgres_store

from dicehall.server.app import Connection, Hub
from dicehall.server.limits import Limits
from dicehall.server.service import GameService, ServiceError
from dicehall.server.storage import Appended, Store


@pytest.fixture(name="pg")
def pg_fixture() -> Iterator[Store]:
    store = postgres_store()
    try:
        yield store
    finally:
        store.drop_all()


def friend_game(service: GameService) -> str:
    game_id, _ = service.create("backgammon", {}, opponent="friend", seat=0, name="ann", seed="x")
    service.join(game_id, 1, "bob", "y")  # starts it: the opening roll is appended
    return game_id


def warm(store: Store) -> None:
    """Give ``store`` an idle connection for appends (the loop never makes one itself)."""
    store._raw_give(store._raw_take())


def move(service: GameService, game_id: str) -> tuple[int, str, int]:
    """The seat to move of ``game_id``, a legal move of it and the game's seq."""
    live = service.get(game_id)
    return live.state.current_player(), live.state.legal_texts()[0], live.seq


def logged(store: Store, game_id: str) -> list[tuple[int, int, str]]:
    fresh = Store(store.url, prefix=store.prefix)
    try:
        return [(a.seq, a.actor, a.text) for a in fresh.load_actions(game_id)]
    finally:
        fresh.close()


@pytest.mark.postgres
def test_an_act_on_postgresql_is_appended_from_the_event_loop(
    pg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(pg, bot_delay=0)
    try:
        game_id = friend_game(service)

        def no_thread(*args: Any, **kwargs: Any) -> None:
            raise AssertionError("the append went through a thread's call")

        for _ in range(3):
            seat, text, seq = move(service, game_id)
            with monkeypatch.context() as m:
                m.setattr(pg, "append_actions", no_thread)
                done = asyncio.run(service.act_in_loop(game_id, [seat], text, seq))
            assert done is not None and done > seq + 1  # the move and the dice after it
            # the thread's way on the same connection (its notification's result is read
            # first), then the loop's again
            seat, text, seq = move(service, game_id)
            service.act(game_id, [seat], text, seq)
        live = service.get(game_id)
        assert logged(pg, game_id) == [(e.seq, e.actor, e.text) for e in live.log]
    finally:
        service.close()


@pytest.mark.postgres
def test_concurrent_acts_in_the_loops_of_two_processes_one_wins(pg: Store) -> None:
    a = GameService(pg, bot_delay=0)
    b = GameService(Store(pg.url, prefix=pg.prefix), bot_delay=0)
    try:
        game_id = friend_game(a)
        b.get(game_id)
        warm(b.store)
        seat, _, seq = move(a, game_id)
        texts = a.get(game_id).state.legal_texts()
        counter = b.get(game_id).dice.counter

        async def both() -> list[int | None]:
            return list(
                await asyncio.gather(
                    a.act_in_loop(game_id, [seat], texts[0], seq),
                    b.act_in_loop(game_id, [seat], texts[-1], seq),
                )
            )

        results = asyncio.run(both())
        assert sum(r is not None for r in results) == 1
        log = logged(pg, game_id)
        assert len([x for x in log if x[0] == seq + 1]) == 1
        winner, loser = (a, b) if results[0] is not None else (b, a)
        assert log[seq] == (seq + 1, seat, texts[0] if winner is a else texts[-1])
        if loser is b:
            assert b.get(game_id).dice.counter == counter  # the dice it drew are put back
        # the loser's act goes to a thread, which reads the game back and says it is stale
        with pytest.raises(ServiceError) as refused:
            loser.act(game_id, [seat], texts[0], seq)
        assert refused.value.code == "stale"
        assert [e.text for e in loser.get(game_id).log] == [x[2] for x in logged(pg, game_id)]
    finally:
        a.close()
        b.close()
        b.store.close()


@pytest.mark.postgres
def test_an_act_awaiting_its_append_keeps_its_game(
    pg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an act awaits its append in the loop (holding the game's lock), another act of
    the game in the loop goes to a thread, and a change heard in the loop is not applied
    there (the lock, an ``RLock``, would let the loop's thread in again)."""
    service = GameService(pg, bot_delay=0)
    try:
        game_id = friend_game(service)
        seat, text, seq = move(service, game_id)
        append = pg.append_in_loop
        release = asyncio.Event()
        seen: dict[str, Any] = {}

        async def held(*args: Any, **kwargs: Any) -> bool:
            await release.wait()
            return await append(*args, **kwargs)

        monkeypatch.setattr(pg, "append_in_loop", held)

        async def main() -> int | None:
            first = asyncio.create_task(service.act_in_loop(game_id, [seat], text, seq))
            await asyncio.sleep(0.05)
            live = service.get(game_id)
            seen["in_loop"] = live.in_loop
            seen["second"] = await service.act_in_loop(game_id, [seat], text, seq)
            service.on_remote(game_id, seq + 5, Appended(seq + 4, None, ((-1, "3-1"),)))
            seen["queued"] = game_id in service._remote_pending
            seen["log"] = live.seq
            release.set()
            return await first

        done = asyncio.run(main())
        assert seen == {"in_loop": True, "second": None, "queued": True, "log": seq}
        assert done is not None and done > seq
        service._remote.shutdown(wait=True)  # the heard change (a gap) read the log back
        live = service.get(game_id)
        assert not live.in_loop
        assert logged(pg, game_id) == [(e.seq, e.actor, e.text) for e in live.log]
    finally:
        service.close()


@pytest.mark.postgres
def test_what_the_loop_leaves_to_a_thread(pg: Store) -> None:
    """A stale act and an act with no idle connection: None (the caller's thread does it,
    with its catch-up, its new connection)."""
    service = GameService(pg, bot_delay=0)
    try:
        game_id = friend_game(service)
        seat, text, seq = move(service, game_id)
        assert asyncio.run(service.act_in_loop(game_id, [seat], text, seq - 1)) is None
        pg._raw_clear()  # no idle connection
        assert asyncio.run(service.act_in_loop(game_id, [seat], text, seq)) is None
        assert service.get(game_id).seq == seq
        warm(pg)
        assert asyncio.run(service.act_in_loop(game_id, [seat], text, seq)) is not None
    finally:
        service.close()


def test_an_act_on_sqlite_is_written_by_the_writer_thread_from_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: the act in the loop, its append handed to the writer thread and awaited; a
    second process's act on the same seat finds the number taken and goes to a thread,
    which reads the game back and says it is stale."""
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    a = GameService(Store(url), bot_delay=0)
    b = GameService(Store(url), bot_delay=0)

    def no_thread(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the append went through a thread's call")

    try:
        game_id = friend_game(a)
        b.get(game_id)
        seat, text, seq = move(a, game_id)
        with monkeypatch.context() as m:
            m.setattr(a.store, "append_actions", no_thread)
            done = asyncio.run(a.act_in_loop(game_id, [seat], text, seq))
        assert done is not None and done > seq + 1
        assert asyncio.run(b.act_in_loop(game_id, [seat], text, seq)) is None
        with pytest.raises(ServiceError) as refused:
            b.act(game_id, [seat], text, seq)
        assert refused.value.code == "stale"
        theirs = [(e.seq, e.actor, e.text) for e in b.get(game_id).log]
        assert theirs == [(e.seq, e.actor, e.text) for e in a.get(game_id).log]
        assert [(x.seq, x.actor, x.text) for x in a.store.load_actions(game_id)] == theirs
    finally:
        a.close()
        b.close()


@pytest.mark.postgres
def test_the_loop_hears_other_processes_and_comes_back_after_its_connection_is_killed(
    pg: Store,
) -> None:
    from test_server_storage import make_row

    reader = Store(pg.url, prefix=pg.prefix)
    got: list[tuple[str, int, Appended | None]] = []

    def listening() -> list[int]:
        with pg.engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT pid FROM pg_stat_activity WHERE query = %s",
                (f'LISTEN "{reader.channel}"',),
            )
            return [r[0] for r in rows]

    async def wait_for(what: Any, seconds: float = 20) -> Any:
        deadline = time.time() + seconds
        while time.time() < deadline:
            found = await asyncio.to_thread(what)
            if found:
                return found
            await asyncio.sleep(0.05)
        pytest.fail("waited in vain")

    async def main() -> None:
        loop_thread = threading.get_ident()
        threads: list[int] = []

        def heard(*note: Any) -> None:
            threads.append(threading.get_ident())
            got.append(note)

        task = asyncio.create_task(reader.listen_in_loop(heard))
        try:
            first = await wait_for(listening)
            await asyncio.to_thread(pg.create_game, make_row("pg3"))
            await wait_for(lambda: got)
            with pg.engine.connect() as conn:
                conn.exec_driver_sql("SELECT pg_terminate_backend(%s, 10000)", (first[0],))
            await wait_for(lambda: [p for p in listening() if p not in first])
            await asyncio.to_thread(pg.append_actions, "pg3", 1, [(-1, "3-1")], status="playing")
            await wait_for(lambda: len(got) > 1)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        assert set(threads) == {loop_thread}  # heard in the loop's own thread

    try:
        asyncio.run(main())
        assert got[0] == ("pg3", 0, None)
        assert got[-1] == ("pg3", 1, Appended(1, "playing", ((-1, "3-1"),)))
    finally:
        reader.close()


class _Service:
    def __init__(self) -> None:
        self.listeners: list[Any] = []


def test_a_call_from_the_loops_own_thread_runs_at_once_unless_others_wait() -> None:
    hub = Hub(_Service())  # type: ignore[arg-type]
    ran: list[Any] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        hub._call(loop, ran.append, 1)
        assert ran == [1]  # no wake-up, no pass of the loop
        # something handed over by another thread waits: this one goes after it
        other = threading.Thread(target=hub._call, args=(loop, ran.append, 2))
        other.start()
        other.join()  # the loop has not run since
        hub._call(loop, ran.append, 3)
        assert ran == [1]
        await asyncio.sleep(0.01)
        assert ran == [1, 2, 3]
        hub._call(loop, ran.append, 4)
        assert ran == [1, 2, 3, 4]

    asyncio.run(main())


class _Protocol:
    """What ``Connection._send_now`` needs of uvicorn's WebSocket protocol: ``writable``
    and the ASGI ``send`` as its bound method."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.fail = False
        self.pause = False  #: the send waits once after all (``_carry_on``)

    async def send(self, message: dict[str, Any]) -> None:
        await self.writable.wait()
        if self.pause:
            await asyncio.sleep(0)
        if self.fail:
            raise RuntimeError("gone")
        self.sent.append(message["text"])


class _WebSocket:
    def __init__(self, proto: _Protocol) -> None:
        from dicehall.server.app import RAW_SEND

        self.scope = {RAW_SEND: proto.send}


def test_a_frame_goes_out_at_once_when_nothing_is_queued_and_the_socket_can_take_it() -> None:
    async def main() -> None:
        proto = _Protocol()
        conn = Connection(_WebSocket(proto), Limits())  # type: ignore[arg-type]
        conn.push("a")
        assert proto.sent == ["a"] and conn.queue.empty()  # no sender task needed
        proto.writable.clear()  # the client reads slowly: queued, in order
        conn.push("b")
        conn.push("c")
        assert proto.sent == ["a"] and conn.queue.qsize() == 2
        proto.writable.set()
        conn.push("d")  # others are queued: this one waits its turn too
        assert conn.queue.qsize() == 3
        while not conn.queue.empty():
            text = conn.queue.get_nowait()
            assert text is not None
            await conn.send(text)
        assert proto.sent == ["a", "b", "c", "d"]
        conn.sending = True  # the sender task is in the middle of a frame
        conn.push("e")
        assert conn.queue.qsize() == 1
        conn.sending = False
        conn.queue.get_nowait()
        proto.pause = True  # a send that waits after all: carried on by a task, in order
        conn.push("e2")
        assert conn.sending and proto.sent[-1] == "d"
        conn.push("e3")
        assert conn.queue.qsize() == 1
        carried = conn.carried
        assert carried is not None
        await carried
        assert proto.sent[-1] == "e2" and not conn.sending
        text = conn.queue.get_nowait()
        assert text == "e3"
        await conn.send(text)
        proto.pause = False
        del proto.sent[-2:]
        proto.fail = True
        conn.push("f")  # the client went away: nothing more is sent or queued
        assert conn.gone
        conn.push("g")
        assert conn.queue.empty() and proto.sent == ["a", "b", "c", "d"]

    asyncio.run(main())
