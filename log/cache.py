"""The session log service's timeline cache: each session's latest
:class:`~timeline.Timeline`, for the next append to extend and every reader to share."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from timeline import Timeline

__all__ = ["TimelineCache"]


class TimelineCache:
    """At most ``size`` sessions' latest timelines, the least recently used dropped first.
    Thread-safe. The log's prefix never changes, so a timeline kept is never wrong, only stale
    (:meth:`get` answers only for the very seq asked)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._timelines: OrderedDict[str, Timeline] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session: str, seq: int) -> Timeline | None:
        """The kept timeline of ``session`` if its last seq is ``seq``, else ``None``."""
        with self._lock:
            t = self._timelines.get(session)
            if t is not None and t.last_seq == seq:
                self._timelines.move_to_end(session)
                return t
        return None

    def remember(self, session: str, timeline: Timeline) -> None:
        """Keeps ``timeline`` unless a later one of the session is kept."""
        with self._lock:
            old = self._timelines.get(session)
            if old is not None and old.last_seq > timeline.last_seq:
                return  # keep the newer one
            self._timelines[session] = timeline
            self._timelines.move_to_end(session)
            while len(self._timelines) > self.size:
                self._timelines.popitem(last=False)

    def forget(self, session: str) -> None:
        with self._lock:
            self._timelines.pop(session, None)
