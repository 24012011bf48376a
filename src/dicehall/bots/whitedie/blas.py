"""One BLAS thread while the solvers multiply their small (126 x 126) matrices.

OpenBLAS splits even small products across threads; on a busy machine those threads
mostly wait for each other and the solvers run several times slower than on one
thread. ``one_thread`` sets the thread count of the OpenBLAS bundled with numpy to 1
for the duration of a call and restores it afterwards (the same call threadpoolctl
makes). It only does so while the process runs a single thread (the command line,
benchmarks, tests): changing the count under another thread's running product is
not safe. If the library or its functions cannot be found it does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_NAMES = (
    ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
    ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
    ("openblas_get_num_threads", "openblas_set_num_threads"),
)


@functools.cache
def _controls() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    try:
        import numpy

        libs = Path(numpy.__file__).parent.parent / "numpy.libs"
        candidates = sorted(libs.glob("*openblas*")) if libs.is_dir() else []
        for path in candidates:
            lib = ctypes.CDLL(str(path))
            for get_name, set_name in _NAMES:
                get, put = getattr(lib, get_name, None), getattr(lib, set_name, None)
                if get is not None and put is not None:
                    get.restype = ctypes.c_int
                    put.argtypes = [ctypes.c_int]
                    return get, put
    except OSError:
        return None
    return None


def one_thread(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` with a single BLAS thread (restoring the count afterwards)."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        controls = _controls() if threading.active_count() == 1 else None
        if controls is None:
            return func(*args, **kwargs)
        get, put = controls
        before = get()
        if before == 1:
            return func(*args, **kwargs)
        put(1)
        try:
            return func(*args, **kwargs)
        finally:
            put(before)

    return wrapper
