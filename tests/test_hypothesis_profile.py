"""The suite's property tests do not time out on a slow machine."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st


def test_the_default_profile_has_no_deadline() -> None:
    assert settings.default is not None
    assert settings.default.deadline is None


@settings(max_examples=2)
@given(st.integers(0, 1))
def test_a_slow_example_without_its_own_settings_passes(n: int) -> None:
    # 300 ms per example is over Hypothesis' own 200 ms default deadline
    time.sleep(0.3)
