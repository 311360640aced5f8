"""The projection file written so that a refresh or a rebuild that fails (a full disk, a store
that stops answering, Ctrl-C) leaves it as it was, or none, never a half-written or empty file
that no later refresh can open.

A catch-up of a projection of this store (:func:`caught_up`) writes the file itself in ONE
DuckDB transaction (:func:`analytics.projector.one_transaction`): DuckDB's own atomicity and
write-ahead log keep the old checkpoint and rows when it fails, and nothing is copied. What
starts from nothing (``fresh``, ``--rebuild``; no projection there yet; one of another schema
version; a projection of another store rebuilt for this one) is built beside it under a
temporary name and renamed into place (:func:`replacing`), so it also replaces a file that is
not a projection at all.

The writer opens the file, writes and closes it: between two catch-ups nothing holds it, and
another process (``brag stats``, a second dashboard) reads it; a process holding it is waited
for (:func:`unlocked`, :class:`ProjectionBusy`).

What a rebuild makes while it works is named with its process's id (the new file
``.NAME.<pid>-<random>.building``, a parallel rebuild's ``brag-rebuild-<pid>-...`` folder); a
process killed mid-way (``kill -9``, a power cut) leaves them, and the next :func:`caught_up` in
that folder removes those of processes that are gone (:func:`remove_leftovers`), never a running
build's (issue 33, class 7).
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

import duckdb

from analytics.owner import ForeignProjection, diverged, recorded_store
from analytics.register import recorded_version, register_of_source
from analytics.sources import is_default_projection
from analytics.tables import SCHEMA_VERSION, checkpoint, connect

__all__ = [
    "LEFTOVERS",
    "LOCK_WAIT",
    "REBUILD_PREFIX",
    "ProjectionBusy",
    "caught_up",
    "current_checkpoint",
    "remove_leftovers",
    "replacing",
    "unlocked",
]

T = TypeVar("T")

LOCK_WAIT = 15.0
"""Seconds a command waits for another process's hold on the projection file (a refresh or a
reading command of another ``brag``) before giving up with :class:`ProjectionBusy`."""


REBUILD_PREFIX = "brag-rebuild-"
"""A parallel rebuild's workers' folder beside the projection: ``brag-rebuild-<pid>-<random>``
(:mod:`analytics.parallel`)."""

LEFTOVERS = (
    re.compile(r"\..+\.(?P<pid>\d+)-[0-9a-f]{8}\.building(?:\.wal)?"),
    re.compile(rf"{REBUILD_PREFIX}(?P<pid>\d+)-[A-Za-z0-9_]+"),
)
"""What a rebuild makes beside the projection while it works (:func:`replacing`'s new file and
its log, the parallel rebuild's workers' folder), each named with the id of the process that
made it."""


def remove_leftovers(folder: str) -> list[str]:
    """Removes from ``folder`` what a refresh or a rebuild killed there left (:data:`LEFTOVERS`
    whose process is gone, :func:`log.children.remove_stale`: a running build's files are never
    touched); returns the paths removed. Every :func:`caught_up` and :func:`replacing` calls it
    first."""
    from log.children import remove_stale

    return [path for pattern in LEFTOVERS for path in remove_stale(folder, pattern)]


class ProjectionBusy(Exception):
    """The projection at ``path`` stayed held by another process (``pid``, when DuckDB names it)
    for the whole :data:`LOCK_WAIT`."""

    def __init__(self, path: str, pid: int | None) -> None:
        who = f"another brag command (pid {pid})" if pid is not None else "another brag command"
        super().__init__(
            f"{who} is bringing the statistics in {path} up to date or reading them; try again"
        )
        self.path, self.pid = path, pid


def _lock_held(err: duckdb.Error) -> bool:
    return isinstance(err, duckdb.IOException) and "Could not set lock" in str(err)


def unlocked(path: str, open_: Callable[[], T], *, wait: float | None = None) -> T:
    """``open_()`` (a DuckDB connection to the file at ``path``), tried again while another
    process holds the file's lock (DuckDB lets one process write a file, or several read it),
    for up to ``wait`` seconds (default :data:`LOCK_WAIT`); then raises :class:`ProjectionBusy`
    naming that process. Any other DuckDB error is raised as it is."""
    limit = time.monotonic() + (LOCK_WAIT if wait is None else wait)
    pause = 0.02
    while True:
        try:
            return open_()
        except duckdb.Error as err:
            if not _lock_held(err):
                raise
            left = limit - time.monotonic()
            if left <= 0:
                found = re.search(r"\(PID (\d+)\)", str(err))
                raise ProjectionBusy(path, int(found.group(1)) if found else None) from None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.25)


def _has_file(path: str) -> bool:
    """A projection file there (an empty file, what a build killed at its start leaves, is none)."""
    return os.path.exists(path) and os.path.getsize(path) > 0


def _schema_version(con: duckdb.DuckDBPyConnection) -> str | None:
    """The schema version the projection ``con`` records; ``None`` when it records none."""
    tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if not {"meta", "checkpoint"} <= tables:
        return None
    found = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    return str(found[0][0]) if found else None


def current_checkpoint(path: str, store_id: str | None = None, source: Any = None) -> int | None:
    """The checkpoint of the projection at ``path`` read on a read-only connection; ``None``
    when there is none yet, it is of another schema version (a catch-up rebuilds it) or, given
    ``store_id``, it does not record that store, or, given the ``source`` store, that store is
    a copy that has diverged from the one it was built from (a catch-up refuses or rebuilds it:
    :mod:`analytics.owner`), or whose players' register has moved since the projection followed
    it (a catch-up re-keys it: :mod:`analytics.register`)."""
    if not _has_file(path):
        return None
    con = unlocked(path, lambda: duckdb.connect(path, read_only=True))
    try:
        if _schema_version(con) != SCHEMA_VERSION:
            return None
        if store_id is not None and (recorded_store(con) or ("",))[0] != store_id:
            return None
        if source is not None and diverged(con, source) is not None:
            return None
        if source is not None and recorded_version(con) != register_of_source(source).version:
            return None  # the club's register moved (a merge, an undo): the keys follow it
        return checkpoint(con)[0]
    finally:
        con.close()


def caught_up(
    path: str,
    url: str,
    build: Callable[[duckdb.DuckDBPyConnection], T],
    *,
    fresh: bool = False,
    rebuild: Callable[[duckdb.DuckDBPyConnection], T] | None = None,
) -> tuple[T, str | None]:
    """``build(con)`` on the projection at ``path`` for the store at ``url``; returns its result
    and ``None``, or, when the projection there belongs to another store
    (:class:`~analytics.owner.ForeignProjection`) and ``path`` is that store's default file
    (:func:`~analytics.sources.is_default_projection`), the result of ``rebuild`` (default:
    ``build``) on a fresh projection and one sentence saying so. A projection the user named is
    never rebuilt for another store: the error is raised, the file left as it was.

    A projection of the current schema version is written in place, ``build`` in ONE
    transaction (:func:`_in_place`); ``fresh``, no projection there or one of another version:
    built beside and renamed into place (:func:`replacing`). Either way a ``build`` that fails
    leaves the file as it was."""
    remove_leftovers(os.path.dirname(os.path.abspath(path)))
    try:
        if not fresh and _has_file(path):
            done = _in_place(path, build)
            if done is not None:
                return done[0], None
        with replacing(path) as con:
            return build(con), None
    except ForeignProjection as err:
        if not is_default_projection(path, url):
            raise
        with replacing(path) as con:
            done_again = (rebuild or build)(con)
        return done_again, f"{path} {err}; rebuilt for {err.wanted[1]}"


def _in_place(path: str, build: Callable[[duckdb.DuckDBPyConnection], T]) -> tuple[T] | None:
    """``(build(con),)`` on the projection at ``path`` itself, every batch the projector writes
    in ONE transaction (:func:`analytics.projector.one_transaction`: committed when ``build``
    returns, rolled back whole when it raises); ``None``, nothing written, when the file records
    another schema version or none (a catch-up then starts from nothing: :func:`replacing`). The
    file is opened for writing (another process holding it waited for: :func:`unlocked`) and
    closed on leaving."""
    from analytics.projector import one_transaction

    con = unlocked(path, lambda: duckdb.connect(path))
    try:
        if _schema_version(con) != SCHEMA_VERSION:
            return None
        with one_transaction(con):
            return (build(con),)
    finally:
        con.close()


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def replacing(path: str) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to an empty projection (tables created) that will replace the one at
    ``path``, under a temporary name in the same folder, checkpointed, closed and renamed over
    ``path`` when the block ends; when the block or the rename fails, the new file is removed
    and ``path`` is as it was. The old file is never read, so a file that is not a projection
    is replaced too."""
    target = os.path.abspath(path)
    folder, name = os.path.split(target)
    remove_leftovers(folder)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.building")
    try:
        con = connect(tmp)
        try:
            yield con
            con.execute("CHECKPOINT")
        finally:
            con.close()
        _fsync(tmp)
        with suppress(FileNotFoundError):  # the old file's log must not be read with the new
            os.remove(target + ".wal")
        os.replace(tmp, target)
        with suppress(OSError):
            _fsync(folder)
    finally:
        for leftover in (tmp, tmp + ".wal"):
            with suppress(OSError):
                os.remove(leftover)
