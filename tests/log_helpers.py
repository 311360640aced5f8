"""A store on every backend (shared by tests/log/test_store_contract.py and
tests/log/test_append_state.py): log layer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from store_helpers import pg_store, require_pg

from log.open import open_store
from log.service import EventStore

BACKENDS = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@contextmanager
def opened_store(kind: str, sqlite_url: str) -> Iterator[EventStore]:
    """A new store of ``kind`` ("memory", "sqlite" at ``sqlite_url``, "postgres" in a schema of
    its own, skipping without a server); a SQLite store is closed after use."""
    if kind == "memory":
        yield open_store("memory://")
    elif kind == "sqlite":
        s = open_store(sqlite_url)
        yield s
        s.close()
    else:
        require_pg()
        with pg_store() as s:
            yield s


@pytest.fixture(name="store", params=BACKENDS)
def backend_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A new store on each backend (SQLite: a file)."""
    with opened_store(request.param, str(tmp_path / "brag.db")) as s:
        yield s
