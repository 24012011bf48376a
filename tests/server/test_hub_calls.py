"""The hand-over of updates from committing threads to the event loop (``app.Hub._call``)."""

from __future__ import annotations

import threading
from typing import Any

from dicehall.server.app import Hub


class _Loop:
    """Records what ``call_soon_threadsafe`` was given, and runs it when told."""

    def __init__(self) -> None:
        self.ready: list[Any] = []
        self.lock = threading.Lock()

    def call_soon_threadsafe(self, fn: Any, *args: Any) -> None:
        with self.lock:
            self.ready.append((fn, args))

    def run(self) -> None:
        with self.lock:
            ready, self.ready = self.ready, []
        for fn, args in ready:
            fn(*args)


class _Service:
    def __init__(self) -> None:
        self.listeners: list[Any] = []


def test_one_wake_up_takes_every_call_handed_over_meanwhile_in_order() -> None:
    hub = Hub(_Service())  # type: ignore[arg-type]
    loop = _Loop()
    ran: list[int] = []
    hub._call(loop, ran.append, 1)  # type: ignore[arg-type]
    # the wake-up is scheduled before _call returns: whatever this thread schedules next
    # (the act's answer) comes after it
    assert len(loop.ready) == 1
    hub._call(loop, ran.append, 2)  # type: ignore[arg-type]
    hub._call(loop, ran.append, 3)  # type: ignore[arg-type]
    assert len(loop.ready) == 1  # one wake-up for the three
    loop.run()
    assert ran == [1, 2, 3]
    hub._call(loop, ran.append, 4)  # type: ignore[arg-type]
    assert len(loop.ready) == 1  # nothing waiting: woken again
    loop.run()
    assert ran == [1, 2, 3, 4]


def test_calls_from_many_threads_each_run_once_before_what_each_thread_scheduled_after() -> None:
    hub = Hub(_Service())  # type: ignore[arg-type]
    loop = _Loop()
    ran: list[tuple[str, int, int]] = []

    def worker(w: int) -> None:
        for i in range(200):
            hub._call(loop, ran.append, ("update", w, i))  # type: ignore[arg-type]
            # what the thread's finished act schedules next: its answer
            loop.call_soon_threadsafe(ran.append, ("ok", w, i))

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    while loop.ready:
        loop.run()
    for w in range(4):
        for i in range(200):
            assert ran.count(("update", w, i)) == 1
            assert ran.index(("update", w, i)) < ran.index(("ok", w, i))


def test_an_acts_outcome_comes_back_through_the_same_hand_over_after_its_update() -> None:
    """``Hub.act_for`` runs the act in the pool and hands its outcome to the loop the way the
    updates go, after the update its commit handed over (one wake-up takes both); an act
    that raises raises in the loop."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    hub = Hub(_Service())  # type: ignore[arg-type]
    hub.pool = ThreadPoolExecutor(max_workers=1)
    order: list[Any] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        wakes = 0
        wake = loop.call_soon_threadsafe

        def counted(*args: Any) -> Any:
            nonlocal wakes
            wakes += 1
            return wake(*args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]

        def act() -> int:
            hub._call(loop, order.append, "update")
            return 5

        task = asyncio.create_task(hub.act_for(object(), 1, act))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # the act is in the pool now
        assert hub.pool is not None
        # the loop kept busy until the act is done (the pool's one thread runs this after
        # it), as under load: what the act handed over waits for one wake-up
        hub.pool.submit(lambda: None).result()
        order.append(await task)
        assert wakes == 1  # the update and the outcome: one wake-up

        def refused() -> int:
            raise ValueError("stale")

        try:
            await hub.act_for(object(), 2, refused)  # type: ignore[arg-type]
        except ValueError as exc:
            order.append(str(exc))

    asyncio.run(main())
    hub.pool.shutdown()
    assert order == ["update", (5, False), "stale"]  # nobody took the ack: the caller sends ok


def test_workers_run_every_job_with_at_most_their_threads() -> None:
    """``app.Workers`` (the acts' threads): every job handed over runs once, however many
    arrive together; no more than ``most`` threads run them; a job that raises is logged
    and the thread goes on; after ``shutdown`` nothing more is taken."""
    import pytest

    from dicehall.server.app import Workers

    workers = Workers(3, name="test-workers")
    ran: list[int] = []
    gate = threading.Event()
    lock = threading.Lock()
    names: set[str] = set()
    done = threading.Semaphore(0)

    def job(i: int) -> None:
        gate.wait(10)
        with lock:
            ran.append(i)
            names.add(threading.current_thread().name)
        done.release()

    def broken() -> None:
        raise ValueError("a bug")

    workers.submit(broken)
    for i in range(50):
        workers.submit(lambda i=i: job(i))
    gate.set()
    for _ in range(50):
        assert done.acquire(timeout=10)
    assert sorted(ran) == list(range(50))
    assert 1 <= len(names) <= 3 and workers._threads <= 3
    # idle threads take the next jobs: no new thread beyond the three
    gate.clear()
    gate.set()
    for i in range(50, 60):
        workers.submit(lambda i=i: job(i))
    for _ in range(10):
        assert done.acquire(timeout=10)
    assert sorted(ran) == list(range(60)) and workers._threads <= 3
    workers.shutdown()
    with pytest.raises(RuntimeError):
        workers.submit(lambda: None)
