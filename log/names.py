"""The session ids as people spell them: which stored session is another spelling of a new one
(the same :func:`events.text.normal` form: ``Oak night`` and ``oak  NIGHT``)."""

from __future__ import annotations

import threading

from events.text import normal
from store.port import EventRecorder

__all__ = ["Namesakes"]


class Namesakes:
    """Each stored session id by its normal form, the first stored of such spellings kept; read
    from ``recorder`` by position, only the events stored since it last looked. Thread-safe."""

    def __init__(self, recorder: EventRecorder) -> None:
        self.recorder = recorder
        self._names: dict[str, str] = {}
        self._at = 0
        self._lock = threading.Lock()

    def of(self, session: str) -> str | None:
        """The stored session whose id is another spelling of ``session``, or ``None``."""
        with self._lock:
            if self._at == 0 and getattr(self.recorder, "catalogued", False):
                self._from_catalogue()
            while True:
                rows = self.recorder.read_all(after=self._at, limit=10_000)
                if not rows:
                    break
                for r in rows:
                    if r.seq == 1:
                        self._names.setdefault(normal(r.session), r.session)
                self._at = rows[-1].position
            other = self._names.get(normal(session))
        return other if other is not None and other != session else None

    def _from_catalogue(self) -> None:
        """The ids the store's catalogue lists, first stored first, up to its last position read
        before them (a session stored meanwhile is read again from its events: the first
        spelling stays). A league's store is read in one query, not 33M events."""
        at = self.recorder.last_position()
        listed = self.recorder.first_stored()  # type: ignore[attr-defined]  # catalogued stores
        for stored in listed:
            self._names.setdefault(normal(stored), stored)
        self._at = at
