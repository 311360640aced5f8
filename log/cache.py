"""The session log service's state cache: each session's latest folded state, without its undo
chain (:func:`engine.state.without_history`), for the next append to fold onto."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.state import State

__all__ = ["StateCache"]


class StateCache:
    """At most ``size`` sessions' latest states, the least recently used dropped first.
    Thread-safe. The stream's prefix never changes, so a state kept is never wrong, only stale
    (:meth:`get` answers only for the very seq asked)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._states: OrderedDict[str, State] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session: str, seq: int) -> State | None:
        """The kept state of ``session`` if it is the one after seq ``seq``, else ``None``."""
        with self._lock:
            st = self._states.get(session)
            if st is not None and st.seq == seq:
                self._states.move_to_end(session)
                return st
        return None

    def remember(self, session: str, state: State) -> None:
        """Keeps ``state`` (without its undo chain) unless a later one of the session is kept."""
        from engine.state import without_history

        state = without_history(state)
        with self._lock:
            old = self._states.get(session)
            if old is not None and old.seq > state.seq:
                return  # keep the newer one
            self._states[session] = state
            self._states.move_to_end(session)
            while len(self._states) > self.size:
                self._states.popitem(last=False)
