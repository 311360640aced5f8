"""The analytics projection (a DuckDB file) as the dashboard opens it: under one lock.

DuckDB lets one process write a file and nobody else open it meanwhile, and one process may not
hold the same file open twice with different settings. So the dashboard opens the projection for
each use and closes it at once, all under :data:`LOCK`: the pages read-only (external access
off, :func:`opened`), its one writer read-write to catch up with the store
(``dashboard.stats.stats_cache._Writer``); the analysts' SQL reads a private copy
(:func:`snapshot`). The CLI can write the file whenever the dashboard is not in the middle of a
query or a catch-up.
"""

from __future__ import annotations

import atexit
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dashboard.common import settings

__all__ = ["LOCK", "OURS", "opened", "remove_leftovers", "snapshot"]

LOCK = threading.RLock()


@contextmanager
def opened() -> Iterator[Any]:
    """The projection (:func:`dashboard.common.settings.analytics_path`) open read-only under
    :data:`LOCK`, closed on leaving."""
    import analytics.tables

    with LOCK:
        con = analytics.tables.connect(settings.analytics_path(), read_only=True)
        try:
            yield con
        finally:
            con.close()


_SNAPSHOTS: dict[str, tuple[Any, str]] = {}
_SNAPSHOT_LOCK = threading.Lock()

SNAPSHOT_PREFIX = "brag-explore-"
"""The snapshot's folder in the system's temporary folder: ``brag-explore-<pid>-<random>`` (a
query's spill folder is named the same way: ``analytics.explore.SPILL_PREFIX``)."""

OURS = re.compile(rf"{SNAPSHOT_PREFIX}(?P<pid>\d+)-[A-Za-z0-9_]+")
"""The folders a dashboard (its snapshots) or an Explore query (its spill files) makes in the
system's temporary folder, named with the id of the process."""


def remove_leftovers() -> list[str]:
    """Removes the snapshots and spill folders that dashboards no longer running left in the
    system's temporary folder (:data:`OURS` of a process that is gone; never those of a
    running one: :func:`log.children.remove_stale`); the paths removed. Called once as the
    dashboard starts (and before its first snapshot)."""
    import tempfile

    from log.children import remove_stale

    return remove_stale(tempfile.gettempdir(), OURS)


def _forget_snapshots() -> None:
    """Removes this process's snapshots (the dashboard stops)."""
    import shutil

    with _SNAPSHOT_LOCK:
        for _, copy in _SNAPSHOTS.values():
            shutil.rmtree(os.path.dirname(copy), ignore_errors=True)
        _SNAPSHOTS.clear()


def _without_addresses(copy: str) -> None:
    """The copy's ``meta`` without the store's address (a file's path on the server, a server's
    address): an analyst's SQL sees the schema version and the store's id only."""
    import duckdb

    from analytics.owner import WHERE_KEY

    con = duckdb.connect(copy)
    try:
        con.execute("DELETE FROM meta WHERE key = $k", {"k": WHERE_KEY})
        con.execute("CHECKPOINT")
    except duckdb.CatalogException:  # no meta table: nothing to take out
        pass
    finally:
        con.close()


def snapshot(path: str, version: Any) -> str:
    """A private copy of the projection at ``version`` for the analysts' SQL: nobody writes it,
    so each query attaches it read-only in a database of its own
    (``analytics.explore.run_limited``: side
    by side, each with its own limits), outside the projection's lock (the statistics and the
    catching up never wait on a slow query, and it never waits on them). One copy per version,
    made under the lock while no connection is open, without the store's address
    (:func:`_without_addresses`), in a folder named with this process's id (removed when the
    dashboard stops, or by the next one when it was killed: :func:`remove_leftovers`); the
    previous one is removed (a query still reading it keeps its open file)."""
    import shutil
    import tempfile

    with _SNAPSHOT_LOCK:
        have = _SNAPSHOTS.get(path)
        if have is not None and have[0] == version and os.path.exists(have[1]):
            return have[1]
        if not _SNAPSHOTS:
            remove_leftovers()
            atexit.register(_forget_snapshots)
        folder = tempfile.mkdtemp(prefix=f"{SNAPSHOT_PREFIX}{os.getpid()}-")
        copy = os.path.join(folder, "projection.duckdb")
        with LOCK:
            shutil.copyfile(path, copy)
            if os.path.exists(path + ".wal"):
                shutil.copyfile(path + ".wal", copy + ".wal")
        _without_addresses(copy)
        _SNAPSHOTS[path] = (version, copy)
        if have is not None:
            shutil.rmtree(os.path.dirname(have[1]), ignore_errors=True)
        return copy
