"""A clock the test moves (shared by tests/dashboard/test_gate.py and the notes' limits through
tests/notes_limits_helpers.py). Imports none of our packages."""

from __future__ import annotations


class Clock:
    """A monotonic clock, from 1000.0, that only the test moves: by sleeping or by setting
    ``now``."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
