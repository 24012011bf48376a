"""Settings shared by the whole test suite.

Hypothesis' default deadline (200 ms per example) is a speed assertion in disguise: on
a loaded 2-core CI machine one example of a sound property can take half a second, and
the test fails although nothing is wrong. Every property test therefore runs under the
``dicehall`` profile below, with no deadline; tests that set their own ``@settings``
inherit whatever they leave out from it. Set ``HYPOTHESIS_PROFILE`` to pick another
registered profile.

The commands the tests start at a pseudo-terminal must not start the background
compile of the backgammon engine (``dicehall.cli.engine``): a test run leaves no
process behind.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dicehall",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,  # the same examples on every run: a failure is reproducible
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dicehall"))

os.environ.setdefault("DICEHALL_NO_PRECOMPILE", "1")
