"""How often the Replay page's route may add a note (issue 33, class 6): per client (its address)
and per writer's name, each within a sliding window, so one visitor cannot post a session's
:data:`log.annotations.NOTES_MAX` notes in seconds. The organiser's terminal (``brag notes add``)
is not limited: only :mod:`dashboard.replay.notes_routes` asks.

- at most :data:`NOTES_PER_CLIENT` notes from one address in :data:`NOTES_WINDOW_S` seconds;
- at most :data:`NOTES_PER_NAME` notes under one writer's name (one name as
  :func:`events.text.same_name` says: letter case, spacing and look-alike letters aside) in the
  same window, from any address;
- a note refused for a limit is answered 429 with ``Retry-After``: the whole seconds until the
  oldest note counted leaves the window. A note the store then refuses (a bad step, too long)
  gives its place back.

In memory, per dashboard process (the counts are about the last minute, not kept), thread-safe,
at most :data:`MAX_KEYS` addresses and names remembered (the oldest forgotten first).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from typing import Final

from events.text import normal

__all__ = [
    "LIMITS",
    "MAX_KEYS",
    "NOTES_PER_CLIENT",
    "NOTES_PER_NAME",
    "NOTES_WINDOW_S",
    "NoteLimits",
    "keys_of",
]

NOTES_WINDOW_S: Final = 60.0
"""The window both limits count in, in seconds."""
NOTES_PER_CLIENT: Final = 10
"""The most notes one client (address) adds in :data:`NOTES_WINDOW_S`."""
NOTES_PER_NAME: Final = 6
"""The most notes under one writer's name in :data:`NOTES_WINDOW_S`, from any address."""
MAX_KEYS: Final = 10_000
"""The most addresses and names remembered at once."""


def keys_of(address: str, by: str) -> list[tuple[str, int]]:
    """The limited keys of a note from ``address`` written as ``by``, each with its limit."""
    return [(f"ip:{address}", NOTES_PER_CLIENT), (f"by:{normal(by.strip())}", NOTES_PER_NAME)]


class NoteLimits:
    """The times of the notes counted per key; ``clock`` is monotonic seconds (a test's own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def _times(self, key: str, now: float) -> deque[float]:
        times = self._seen.setdefault(key, deque())
        self._seen.move_to_end(key)
        while times and times[0] <= now - NOTES_WINDOW_S:
            times.popleft()
        return times

    def take(self, keys: Sequence[tuple[str, int]]) -> float | None:
        """Counts one note for every key when none is at its limit, and returns ``None``; else
        counts nothing and returns the seconds until a place frees for all of them."""
        with self._lock:
            now = self.clock()
            wait = 0.0
            for key, most in keys:
                times = self._times(key, now)
                if len(times) >= most:
                    wait = max(wait, times[len(times) - most] + NOTES_WINDOW_S - now)
            if wait > 0:
                return wait
            for key, _ in keys:
                self._seen[key].append(now)
            while len(self._seen) > MAX_KEYS:
                self._seen.popitem(last=False)
            return None

    def give_back(self, keys: Sequence[tuple[str, int]]) -> None:
        """Forgets the latest note counted for ``keys`` (one the store then refused)."""
        with self._lock:
            for key, _ in keys:
                times = self._seen.get(key)
                if times:
                    times.pop()


def retry_after(wait: float) -> str:
    """The ``Retry-After`` header's value: whole seconds, at least 1."""
    return str(max(1, math.ceil(wait)))


LIMITS = NoteLimits()
"""The dashboard's one set of counts."""
