"""Which devices record each table now (issue 36, item 2: "a second device recording the same
table is warned within 1 s on both devices"), kept in this dashboard's memory: one dashboard
serves a store (issue 33), and every pad asks it every :data:`dashboard.record.pad_assets.POLL_MS`
(0.5 s) and with every tap.

Each poll or tap of a device (its token's id) on a session is :meth:`Presence.seen` under the
session's table (``normal`` of its name; a session at no table is its own), and answers the
labels of the *other* devices seen on that table within :data:`RECENT_SECONDS`: the device
that comes second is warned at its first poll, the first one at its next (within 0.5 s).
Nothing here is stored, nothing is sent but the other devices' labels (a name each device
chose for itself, shown as text: data, never markup)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from urllib.parse import unquote

from events.text import normal

__all__ = ["PRESENCE", "RECENT_SECONDS", "Presence", "device_label", "table_key", "warning"]

RECENT_SECONDS = 2.0
"""A device is recording a table while it has polled or tapped it within this many seconds
(four polls: a slow answer or a busy phone does not make the warning blink)."""

MAX_DEVICES = 2_000
"""The most (table, device) pairs kept: the oldest are dropped past it."""


def table_key(table: str | None, session: str) -> str:
    """What devices on one table share: the table's name as keyed everywhere
    (:func:`events.text.normal`), or the session itself when it is at no table."""
    return "table:" + normal(table) if table else "session:" + session


def device_label(token_id: str, by: str | None) -> str:
    """How a device is named to the others: who records on it (its *Recorded by*, the
    ``brag_by`` cookie, decoded) and the first four hex digits of its token's id, e.g.
    ``Bob (3f2a)``; ``device 3f2a`` without a name."""
    name = " ".join(unquote(by or "").split())[:64]
    return f"{name} ({token_id[:4]})" if name else f"device {token_id[:4]}"


def warning(table: str | None, others: list[str]) -> str:
    """The sentence a device is shown when ``others`` record the same table too."""
    where = (table if "table" in normal(table).split() else f"table {table}") if table else ""
    where = where or "this session"
    return f"Another device records {where} too: {', '.join(others)}."


class Presence:
    """The devices seen on each table (thread-safe), against ``clock`` (seconds, monotonic)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str, str], tuple[float, str]] = {}

    def seen(self, store: str, table: str, device: str, label: str) -> list[str]:
        """Notes that ``device`` (a token's id), called ``label``, records ``table``
        (:func:`table_key`) of the store ``store`` now; returns the labels of the other devices
        seen there within :data:`RECENT_SECONDS`, sorted."""
        now = self.clock()
        with self._lock:
            self._seen[(store, table, device)] = (now, label)
            if len(self._seen) > MAX_DEVICES:
                for key in sorted(self._seen, key=lambda k: self._seen[k][0])[: MAX_DEVICES // 2]:
                    del self._seen[key]
            return sorted(
                lab
                for (s, t, d), (at, lab) in self._seen.items()
                if s == store and t == table and d != device and now - at <= RECENT_SECONDS
            )

    def forget(self) -> None:
        """Forgets every device (tests)."""
        with self._lock:
            self._seen.clear()


PRESENCE = Presence()
"""This dashboard's devices (:mod:`dashboard.record.routes` notes each poll and tap)."""
