"""The projection file replaced whole: built under a temporary name beside it and renamed into
place (:func:`replacing`), so a refresh or a rebuild that fails (a full disk, a store that stops
answering, Ctrl-C) leaves the projection as it was, or none, never a half-written or empty file
that no later refresh can open.

A catch-up starts from a copy of the projection (taken while a read-only connection holds the
file, so never while another process writes it); ``fresh`` (``--rebuild``) starts from nothing
and never reads the old file, so it also replaces a file that is not a projection at all.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import duckdb

from analytics.projector import SCHEMA_VERSION, checkpoint, connect

__all__ = ["current_checkpoint", "replacing"]


def _has_file(path: str) -> bool:
    """A projection file there (an empty file, what a build killed at its start leaves, is none)."""
    return os.path.exists(path) and os.path.getsize(path) > 0


def current_checkpoint(path: str) -> int | None:
    """The checkpoint of the projection at ``path`` read on a read-only connection; ``None``
    when there is none yet or it is of another schema version (a catch-up rebuilds it)."""
    if not _has_file(path):
        return None
    con = duckdb.connect(path, read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if not {"meta", "checkpoint"} <= tables:
            return None
        found = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
        if not found or found[0][0] != SCHEMA_VERSION:
            return None
        return checkpoint(con)[0]
    finally:
        con.close()


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _seed(target: str, tmp: str) -> None:
    """Copies the projection at ``target`` (and its WAL) to ``tmp``, holding it read-only."""
    held = duckdb.connect(target, read_only=True)  # refused while another process writes it
    try:
        shutil.copyfile(target, tmp)
        if os.path.exists(target + ".wal"):
            shutil.copyfile(target + ".wal", tmp + ".wal")
    finally:
        held.close()


@contextmanager
def replacing(path: str, *, fresh: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection (tables created) to the projection that will replace the one at ``path``:
    a copy of it (``fresh``, or none there: an empty projection) under a temporary name in the
    same folder, checkpointed, closed and renamed over ``path`` when the block ends; when the
    block or the rename fails, the copy is removed and ``path`` is as it was."""
    target = os.path.abspath(path)
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.building")
    try:
        if not fresh and _has_file(target):
            _seed(target, tmp)
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
