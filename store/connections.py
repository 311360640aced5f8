"""The connections of a SQL store, one per live thread (:class:`ThreadConnections`, a base of
:class:`store.sql.SqlRecorder`).

A store's operations on a thread run on that thread's connection, held until the thread has
ended (and a test's ``recorder.connection()`` is the one the thread's next query uses).
SQLAlchemy's pools do not do this: ``QueuePool`` lends a connection per unit of work, and
``SingletonThreadPool`` (one per thread) closes the connections over its size whichever
thread holds them, live or not. PostgreSQL's held connections are lent by a ``QueuePool``
(:mod:`store.postgres`); SQLite's are ``sqlite3`` connections (a reader starts without
importing SQLAlchemy: :mod:`store.sqlite`).
"""

from __future__ import annotations

import os
import threading
from contextlib import suppress
from typing import Any

__all__ = ["ThreadConnections"]


class ThreadConnections:
    """Each thread's connection, held from its first use until the thread has ended (a
    :meth:`keep` on another thread, or :meth:`close_all`, lets go of it); none is shared with a
    forked child."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._all: list[tuple[threading.Thread, Any]] = []
        self._all_guard = threading.Lock()
        self._pid = os.getpid()
        self._parents: list[Any] = []  # a forked child's parents' connections (see held)

    def held(self) -> Any:
        """The calling thread's connection as :meth:`keep` registered it, or ``None`` (none yet,
        or the process was forked since: a child starts its own and never uses nor closes its
        parent's, which stay referenced so that collecting them cannot close them either)."""
        if self._pid != os.getpid():
            self._parents.append(self._all)
            self._local = threading.local()
            self._all = []
            self._pid = os.getpid()
            self.forked()
        return getattr(self._local, "conn", None)

    def forked(self) -> None:
        """Called in a child process the first time it asks for a connection (nothing by
        default; PostgreSQL starts a new pool)."""

    def keep(self, conn: Any) -> None:
        """Registers ``conn`` as the calling thread's connection. A server that runs each request
        on a new thread (Streamlit runs every page run on one) so holds one connection per live
        thread, not one per request ever served: a PostgreSQL server's connection limit is never
        reached by old requests (:meth:`let_go_of_ended` closes or returns the others)."""
        self.let_go_of_ended()
        with self._all_guard:
            self._all.append((threading.current_thread(), conn))
        self._local.conn = conn

    def let_go_of_ended(self) -> None:
        """Closes the connections of threads that have ended (``close()``: a PostgreSQL pool's
        connection goes back to its pool)."""
        with self._all_guard:
            live: list[tuple[threading.Thread, Any]] = []
            dead: list[Any] = []
            for thread, c in self._all:
                (live if thread.is_alive() else dead).append((thread, c))
            self._all = live
        for _, c in dead:
            with suppress(Exception):
                c.close()

    def forget(self) -> Any:
        """Takes the calling thread's connection out of the registry (unclosed) and returns it
        (``None``: it had none)."""
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with self._all_guard:
                self._all = [(t, c) for t, c in self._all if c is not conn]
        return conn

    def close_all(self) -> None:
        """Closes every connection the store opened, in every thread."""
        with self._all_guard:
            conns, self._all = self._all, []
        for _, c in conns:
            with suppress(Exception):
                c.close()
        self._local = threading.local()
