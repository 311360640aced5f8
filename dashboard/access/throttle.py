"""Wrong organiser secrets, counted and slowed (issue 24): per client (its address, and its
Streamlit session) and in all, each answer after a delay that grows with the failures before it.

- after :data:`FREE` failures from one client, each further attempt from it waits
  ``BASE * 2 ** (failures - FREE)`` seconds, at most :data:`CAP`; the attempts of one client are
  answered one after another (many sessions of one address do not guess side by side);
- after :data:`GLOBAL_FREE` failures in all (from anyone, within :data:`WINDOW`), every attempt
  also waits ``GLOBAL_BASE * 2 ** (failures - GLOBAL_FREE)``, at most :data:`GLOBAL_CAP`, not
  queued, so that an attack from many addresses cannot keep the organiser out for longer;
- a right secret clears its client's failures (not the total), and failures are forgotten after
  :data:`WINDOW` without another.

So 50 wrong guesses from one client take some twenty minutes (the 50th is answered over 1,000 s
after the first), and the organiser who mistyped waits at most :data:`CAP` + :data:`GLOBAL_CAP`
before the right secret is taken. The delay is slept in the guessing session's own script
thread (:func:`dashboard.access.gate.organiser_unlocked`), never another user's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["CAP", "FREE", "GLOBAL_CAP", "THROTTLE", "Attempt", "Throttle"]

FREE = 3
BASE = 0.5
CAP = 30.0
GLOBAL_FREE = 20
GLOBAL_BASE = 0.25
GLOBAL_CAP = 10.0
WINDOW = 3600.0
MAX_CLIENTS = 10_000


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt's place: ``wait`` seconds before it is answered, and the failures counted
    before it for each of its keys and in all."""

    wait: float
    failures: dict[str, int]
    total: int


def _delay(failures: int, free: int, base: float, cap: float) -> float:
    return 0.0 if failures < free else min(cap, base * 2.0 ** (failures - free))


class Throttle:
    """The failures and the next free answer time of each client key (``"ip:..."``,
    ``"session:..."``) and in all, thread-safe; ``clock`` is monotonic seconds and ``sleep``
    waits that many seconds of it (the pair is replaced together in tests: a fake ``sleep``
    patched onto the ``time`` module would also move every other thread's waits)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}  # key -> (count, last failure)
        self._next: dict[str, float] = {}  # key -> when its next attempt may be answered
        self._total: list[float] = []  # the times of the failures within WINDOW

    def _count(self, key: str, now: float) -> int:
        count, last = self._failures.get(key, (0, now))
        return count if now - last < WINDOW else 0

    def attempt(self, keys: Sequence[str]) -> Attempt:
        """Reserves the next answer for an attempt from ``keys``: how long to wait before
        checking it (the client's queue and the global delay)."""
        with self._lock:
            now = self.clock()
            self._total = [t for t in self._total if now - t < WINDOW]
            counts = {k: self._count(k, now) for k in keys}
            at = now
            for k in keys:
                due = max(now, self._next.get(k, now)) + _delay(counts[k], FREE, BASE, CAP)
                at = max(at, due)
            for k in keys:
                self._next[k] = at
            total = len(self._total)
            extra = _delay(total, GLOBAL_FREE, GLOBAL_BASE, GLOBAL_CAP)
            return Attempt(at - now + extra, counts, total)

    def failed(self, keys: Sequence[str]) -> dict[str, int]:
        """Counts a wrong secret from ``keys``; each key's failures now."""
        with self._lock:
            now = self.clock()
            self._total.append(now)
            out = {}
            for k in keys:
                out[k] = self._count(k, now) + 1
                self._failures[k] = (out[k], now)
            if len(self._failures) > MAX_CLIENTS:  # forget the oldest clients first
                for k, _ in sorted(self._failures.items(), key=lambda kv: kv[1][1])[
                    : len(self._failures) - MAX_CLIENTS
                ]:
                    self._failures.pop(k, None)
                    self._next.pop(k, None)
            return out

    def succeeded(self, keys: Sequence[str]) -> None:
        """The right secret from ``keys``: their failures are forgotten (the total is not)."""
        with self._lock:
            for k in keys:
                self._failures.pop(k, None)
                self._next.pop(k, None)

    def total(self) -> int:
        """The failures within :data:`WINDOW`, from anyone."""
        with self._lock:
            now = self.clock()
            return sum(1 for t in self._total if now - t < WINDOW)


THROTTLE = Throttle()
"""The dashboard process's one throttle, shared by every session."""
