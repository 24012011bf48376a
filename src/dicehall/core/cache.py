"""Bounded memo tables owned by an object, for the evaluators and solvers.

A ``BoundedCache`` holds at most ``maxsize`` entries and is emptied at once when full
(cheap, and the positions of an old search are rarely wanted again); ``clear()`` frees
it on demand and ``clear_caches()`` frees every cache alive, e.g. between benchmarks.
Caches only ever hold values that do not depend on them, so clearing one changes speed,
never a result. Reads and writes are single dictionary operations, atomic under the GIL,
so the server's bot threads can share one; emptying takes a lock.

>>> memo = BoundedCache[int, int]("squares", maxsize=2)
>>> memo.put(3, 9), memo.get(3), memo.get(4)
(9, 9, None)
>>> _ = memo.put(4, 16); _ = memo.put(5, 25)   # full at 2: emptied, then 5 stored
>>> len(memo), memo.get(3), memo.get(5)
(1, None, 25)
>>> memo.clear(); len(memo)
0
"""

from __future__ import annotations

import threading
import weakref
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_LIVE: weakref.WeakSet[BoundedCache[object, object]] = weakref.WeakSet()


class BoundedCache(Generic[K, V]):
    """A named memo of at most ``maxsize`` entries."""

    def __init__(self, name: str, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"cache {name!r}: maxsize must be at least 1, not {maxsize}")
        self.name = name
        self.maxsize = maxsize
        self._data: dict[K, V] = {}
        self._lock = threading.Lock()
        _LIVE.add(self)  # type: ignore[arg-type]

    def get(self, key: K) -> V | None:
        """The value stored for ``key``, or None."""
        return self._data.get(key)

    def put(self, key: K, value: V) -> V:
        """Store ``value`` for ``key`` (emptying the cache first if it is full); returns it."""
        if len(self._data) >= self.maxsize:
            with self._lock:
                if len(self._data) >= self.maxsize:
                    self._data = {}
        self._data[key] = value
        return value

    def clear(self) -> None:
        """Forget everything (to free memory, or to time a cold start)."""
        with self._lock:
            self._data = {}

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"BoundedCache({self.name!r}, {len(self)}/{self.maxsize})"


def clear_caches() -> None:
    """Empty every ``BoundedCache`` alive."""
    for cache in list(_LIVE):
        cache.clear()
