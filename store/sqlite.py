"""The SQLite recorder (the embedded default): one file in WAL mode, ``synchronous=FULL``,
``busy_timeout`` 10 s, appends in ``BEGIN IMMEDIATE`` transactions, global positions from
``AUTOINCREMENT``. The settings are read back and checked when the store opens.

``BEGIN IMMEDIATE`` takes the write lock before anything is read, so a second writer waits in
``busy_timeout`` instead of failing with "database is locked" on a read-then-write upgrade.
Bragbook's own writers queue first on :class:`_Appenders` (threads on a Python lock, processes on
an ``flock``): SQLite's busy handler polls. Readers (``readonly=True``) open the file ``mode=ro``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from typing import Any

from events.errors import DISK_FULL, StoreError, StoreMissing, StoreUnavailable, disk_full
from store.devices import DEVICES_DDL
from store.night import sqlite_night_ddl
from store.port import CatalogueOf
from store.records import Row
from store.register import sqlite_register_ddl
from store.schema import (
    BUSY_TIMEOUT_S,
    CATALOGUE_DDL,
    FACETS_DDL,
    INSERT_COLUMNS,
    SQLITE_MIGRATIONS,
    SQLITE_TRIGGERS,
    SQLITE_TRIGGERS_OF,
    TABLE,
    column_problems,
    create_table_sql,
    sqlite_annotations_ddl,
    sqlite_reference,
    sqlite_shape,
)
from store.sql import SqlRecorder, SqlTx

try:
    import fcntl
except ImportError:  # not on Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]  # the module, or None where there is none

__all__ = ["SqliteRecorder"]


def _journal_mode_wal(conn: sqlite3.Connection) -> str:
    """Sets WAL mode and returns the mode SQLite reports. Turning a new database to WAL takes an
    exclusive lock for which SQLite calls no busy handler, so two processes opening one new store
    at once (two imports) could see "database is locked" here: it is tried again, within the
    store's busy timeout, before it is an error."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


_PROCESS_LOCKS: dict[str, threading.Lock] = {}
_PROCESS_LOCKS_GUARD = threading.Lock()


def _process_lock(path: str) -> threading.Lock:
    key = os.path.realpath(path)
    with _PROCESS_LOCKS_GUARD:
        lock = _PROCESS_LOCKS.get(key)
        if lock is None:
            lock = _PROCESS_LOCKS[key] = threading.Lock()
        return lock


class _Appenders:
    """The queue of Bragbook writers of one SQLite file: threads of a process on a Python lock,
    processes on an ``flock`` of ``FILE-appenders``, polled every 0.1 to 2 ms up to
    ``BUSY_TIMEOUT_S``. SQLite's own busy handler sleeps 1, 2, 5, 10... ms between tries, far
    longer than an append holds the lock; this hands the lock over within a fraction of a
    millisecond. ``BEGIN IMMEDIATE`` and ``busy_timeout`` still guard against other programs.
    The kernel drops the flock of a killed process."""

    def __init__(self, path: str) -> None:
        self.threads = _process_lock(path)
        self.path = path + "-appenders"
        self.fd: int | None = None
        self.pid = os.getpid()

    @contextmanager
    def hold(self) -> Iterator[None]:
        with self.threads:
            fd = self._fd()
            if fd is None:
                yield
                return
            self._lock(fd)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _fd(self) -> int | None:
        if fcntl is None:
            return None
        if self.fd is None or self.pid != os.getpid():
            self.pid = os.getpid()
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:
                self.fd = None  # a read-only directory: SQLite's busy handler alone
        return self.fd

    def _lock(self, fd: int) -> None:
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause = 0.0001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StoreUnavailable(
                        f"SQLite store {self.path[: -len('-appenders')]}: another writer held "
                        f"the store for {BUSY_TIMEOUT_S:g} s; nothing was stored"
                    ) from None
                time.sleep(pause)
                pause = min(pause * 1.5, 0.002)

    def close(self) -> None:
        if self.fd is not None and self.pid == os.getpid():
            with suppress(OSError):
                os.close(self.fd)
        self.fd = None


class SqliteRecorder(SqlRecorder):
    """The embedded store: one SQLite file in WAL mode, ``synchronous=FULL``. ``readonly`` opens
    the file read-only (it must exist; nothing is created, changed or migrated)."""

    MIGRATIONS = SQLITE_MIGRATIONS

    def __init__(
        self,
        url: str,
        path: str,
        *,
        readonly: bool = False,
        catalogue_of: CatalogueOf | None = None,
    ) -> None:
        super().__init__(url, catalogue_of)
        self.path = path
        self.readonly = readonly
        self._appenders = _Appenders(path)
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise StoreUnavailable(
                f"cannot open the SQLite store {path!r}: no directory {parent!r}"
            )
        if readonly and not os.path.exists(path):
            raise StoreMissing(
                f"no event store at {path} (store sessions first: brag import FILE...)"
            )
        with self.errors():
            if readonly or (os.path.exists(path) and os.path.getsize(path) > 0):
                # Looked at read-only first: a foreign database is refused before a writer's
                # connection switches it to WAL.
                self.version = self._look()
                if readonly:
                    if self.version == 0:
                        raise StoreMissing(
                            f"no event store at {path} yet (store sessions first: brag import "
                            "FILE...)"
                        )
                    return
            conn = self.connection()
            with self._appenders.hold():
                conn.execute("BEGIN IMMEDIATE")
                try:
                    self.version = self.open_schema(conn, change=True)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise

    def _look(self) -> int:
        """The store's version, seen on a read-only connection (0: an empty database)."""
        conn = self.connection() if self.readonly else self._connect_readonly()
        try:
            conn.execute("BEGIN")  # one snapshot for the checks
            try:
                return self.open_schema(conn, change=False)
            finally:
                conn.execute("ROLLBACK")
        finally:
            if not self.readonly:
                conn.close()

    def tables(self, conn: Any) -> set[str]:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        return {r[0] for r in rows}

    def problems(self, conn: Any, version: int) -> list[str]:
        cols, uniques = sqlite_shape(conn)
        want_cols, want_uniques = sqlite_reference()
        out = column_problems(cols, want_cols)
        for u in sorted(want_uniques - uniques):
            out.append(f"no unique ({', '.join(u)})")
        ddl = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
        ).fetchone()[0]
        if "AUTOINCREMENT" not in str(ddl).upper():
            out.append("its positions are not AUTOINCREMENT")
        triggers = {
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", (TABLE,)
            )
        }
        missing = [t for t in SQLITE_TRIGGERS_OF[version] if t not in triggers]
        if missing:
            out.append(f"no append-only trigger {', '.join(missing)}")
        return out

    def create(self, conn: Any) -> None:
        from sqlalchemy.dialects import sqlite

        conn.execute(create_table_sql(sqlite.dialect()))
        for t in SQLITE_TRIGGERS.values():
            conn.execute(t)
        for stmt in (*CATALOGUE_DDL, FACETS_DDL, DEVICES_DDL, *sqlite_annotations_ddl(),
                     *sqlite_register_ddl(), *sqlite_night_ddl()):  # fmt: skip
            conn.execute(stmt)

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"

    def location(self) -> str:
        return os.path.realpath(self.path)

    @property
    def where(self) -> str:
        """The file's absolute path (a relative ``--db`` depends on the working directory)."""
        return os.path.abspath(self.path)

    @contextmanager
    def errors(self) -> Iterator[None]:
        """SQLite's errors as the store's one line: what stops any reading or writing (a lock
        held too long, a full disk, a file that cannot be opened: ``OperationalError``) is a
        :class:`StoreUnavailable`, a full disk said ``disk full``; the rest a
        :class:`StoreError`."""
        try:
            yield
        except sqlite3.OperationalError as err:
            why = DISK_FULL if self._full(err) else str(err)
            raise StoreUnavailable(f"SQLite store {self.path}: {why}") from None
        except sqlite3.Error as err:
            raise StoreError(f"SQLite store {self.path}: {err}") from None

    def _full(self, err: sqlite3.Error) -> bool:
        """Whether ``err`` comes of a full disk: said so, or SQLite's "disk I/O error" (what a
        reader that cannot grow its ``-shm`` file gets) while the store's folder has no room."""
        if disk_full(err):
            return True
        if "disk i/o error" not in str(err).lower():
            return False
        try:
            st = os.statvfs(os.path.dirname(os.path.abspath(self.path)))
        except OSError:
            return False
        return st.f_bavail * st.f_frsize < 1 << 20

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = self.held()
        if conn is None:
            conn = self._open_connection()
            self.keep(conn)
        return conn

    def _open_connection(self) -> sqlite3.Connection:
        if self.readonly:
            return self._connect_readonly()
        try:
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_S,
                isolation_level=None,  # we issue BEGIN IMMEDIATE / COMMIT ourselves
                check_same_thread=False,
                cached_statements=64,
            )
            mode = _journal_mode_wal(conn)
            conn.execute("PRAGMA synchronous=FULL")
            sync = conn.execute("PRAGMA synchronous").fetchone()[0]
            busy = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        except sqlite3.Error as err:
            why = DISK_FULL if self._full(err) else err
            raise StoreUnavailable(f"cannot open the SQLite store {self.path!r}: {why}") from None
        problems = []
        if str(mode).lower() != "wal":
            problems.append(f"journal_mode is {mode}, not wal")
        if sync != 2:
            problems.append(f"synchronous is {sync}, not 2 (FULL)")
        if busy < 5000:
            problems.append(f"busy_timeout is {busy} ms, under 5000")
        if problems:
            conn.close()
            raise StoreUnavailable(f"SQLite store {self.path}: {'; '.join(problems)}")
        return conn

    def _connect_readonly(self) -> sqlite3.Connection:
        """A ``mode=ro`` connection. A WAL store needs its ``-shm`` file to be read; when neither
        it nor ``-wal`` exists and the reader may not create them (a user who may read but not
        write the store's folder), nothing is being written: the file is read ``immutable``."""
        base = f"file:{urllib.parse.quote(os.path.abspath(self.path))}?mode=ro"
        try:
            try:
                conn = self._uri_connect(base)
            except sqlite3.OperationalError as err:
                gone = not any(os.path.exists(self.path + x) for x in ("-wal", "-shm"))
                if not gone or "readonly" not in str(err):
                    raise
                conn = self._uri_connect(base + "&immutable=1")
        except sqlite3.Error as err:
            why = DISK_FULL if self._full(err) else err
            raise StoreUnavailable(
                f"cannot open the SQLite store {self.path!r} for reading: {why}"
            ) from None
        return conn

    def _uri_connect(self, uri: str) -> sqlite3.Connection:
        conn = sqlite3.connect(
            uri,
            uri=True,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
            check_same_thread=False,
            cached_statements=64,
        )
        try:
            conn.execute("PRAGMA query_only=ON")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            conn.close()
            raise
        return conn

    def settings(self) -> dict[str, Any]:
        """The connection's settings as SQLite reports them (checked when the store opens).
        SQLite only: not on the port (:mod:`store.port`)."""
        c = self.connection()
        return {
            "journal_mode": c.execute("PRAGMA journal_mode").fetchone()[0],
            "synchronous": c.execute("PRAGMA synchronous").fetchone()[0],
            "busy_timeout": c.execute("PRAGMA busy_timeout").fetchone()[0],
        }

    @contextmanager
    def transaction(self) -> Iterator[SqlTx]:
        self.check_writable()
        conn = self.connection()
        with self._appenders.hold(), self.errors():
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqlTx(self, conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # also when COMMIT itself failed (a full disk)
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    def taken(self, err: Exception) -> str | None:
        if not isinstance(err, sqlite3.IntegrityError):
            return None
        text = str(err)
        if f"{TABLE}.session, {TABLE}.seq" in text:
            return "seq"
        if f"{TABLE}.id" in text:
            return "id"
        return None

    def insert(self, conn: sqlite3.Connection, rows: list[Row], stored_at: datetime) -> list[int]:
        at = stored_at.isoformat()
        conn.executemany(
            f"INSERT INTO {TABLE} ({INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.session, r.seq, r.id, r.type, r.v, r.payload, r.at, r.by, at) for r in rows],
        )
        last = conn.execute("SELECT last_insert_rowid()").fetchone()[0]
        # Inside BEGIN IMMEDIATE nobody else inserts: AUTOINCREMENT gave consecutive positions.
        return list(range(last - len(rows) + 1, last + 1))

    def close(self) -> None:
        self.close_all()
        self._appenders.close()

    def reopen(self) -> SqliteRecorder:
        return SqliteRecorder(
            self.url, self.path, readonly=self.readonly, catalogue_of=self._catalogue_of
        )
