"""The analytics projection (a DuckDB file) as the dashboard opens it: under one lock.

DuckDB lets one process write a file and nobody else open it meanwhile, and one process may not
hold the same file open twice with different settings. So the dashboard opens the projection for
each use and closes it at once, all under :data:`LOCK` (:func:`opened`): read-only (external
access off) for statistics, read-write only to catch up with the store; the analysts' SQL reads a
private copy (:func:`snapshot`). The CLI can write the file whenever the dashboard is not in the
middle of a query.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dashboard import settings

__all__ = ["LOCK", "opened", "snapshot"]

LOCK = threading.RLock()


@contextmanager
def opened(*, read_only: bool) -> Iterator[Any]:
    """The projection (:func:`dashboard.settings.analytics_path`) open under :data:`LOCK`,
    closed on leaving."""
    import analytics

    with LOCK:
        con = analytics.connect(settings.analytics_path(), read_only=read_only)
        try:
            yield con
        finally:
            con.close()


_SNAPSHOTS: dict[str, tuple[int, str]] = {}
_SNAPSHOT_LOCK = threading.Lock()


def snapshot(path: str, version: int) -> str:
    """A private copy of the projection at ``version`` for the analysts' SQL: nobody writes it,
    so each query attaches it read-only in a database of its own (``analytics.run_limited``: side
    by side, each with its own limits), outside the projection's lock (the statistics and the
    catching up never wait on a slow query, and it never waits on them). One copy per version,
    made under the lock while no connection is open; the previous one is removed (a query still
    reading it keeps its open file)."""
    import shutil
    import tempfile

    with _SNAPSHOT_LOCK:
        have = _SNAPSHOTS.get(path)
        if have is not None and have[0] == version and os.path.exists(have[1]):
            return have[1]
        folder = tempfile.mkdtemp(prefix="brag-explore-")
        copy = os.path.join(folder, "projection.duckdb")
        with LOCK:
            shutil.copyfile(path, copy)
            if os.path.exists(path + ".wal"):
                shutil.copyfile(path + ".wal", copy + ".wal")
        _SNAPSHOTS[path] = (version, copy)
        if have is not None:
            shutil.rmtree(os.path.dirname(have[1]), ignore_errors=True)
        return copy
