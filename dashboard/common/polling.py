"""The live pages' poll of a session's last seq, shared: one background thread per store asks
it, at most once per :data:`FRESH` seconds whoever asks
(:func:`dashboard.common.cache.polled_last_seq`,
:mod:`dashboard.common.live`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["FRESH", "Poller"]

FRESH = 0.25
"""Seconds a polled last seq is shared by every viewer of a session."""


class Poller:
    """The live pages' lookups of a session's last seq, for one store URL: each asked of the store
    at most once per :data:`FRESH` seconds, whoever asks, and always from one thread (the store
    keeps a connection per thread, and every Streamlit run is a new thread: asked from the run's
    thread, each poll would open a connection). ``store_of(url)`` is the store (the server's one
    handle, :func:`dashboard.common.cache.store`'s)."""

    def __init__(self, url: str, store_of: Callable[[str], Any]) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.url = url
        self.store_of = store_of
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brag-poll")
        self.lock = threading.Lock()
        self.known: dict[str, tuple[float, int]] = {}

    def last_seq(self, session: str) -> int:
        import time

        with self.lock:
            now = time.monotonic()  # under the lock: a caller that waited never sees a later time
            got = self.known.get(session)
            if got is not None and now - got[0] < FRESH:
                return got[1]
            last = int(self.thread.submit(self.store_of(self.url).last_seq, session).result() or 0)
            if len(self.known) > 4096:  # sessions no longer followed
                self.known.clear()
            self.known[session] = (now, last)
            return last
