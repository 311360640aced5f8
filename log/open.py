"""Opening a store by URL: the one default store path, and the backends by URL scheme."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # resolve_url (every command) imports nothing
    from log.service import EventStore
    from store.port import Recorder
    from store.records import SessionInfo

__all__ = ["DEFAULT_DB", "beside_store", "open_store", "resolve_url"]

DEFAULT_DB: Final = "brag.db"
"""The SQLite file used when neither ``--db`` nor ``$BRAG_DB`` names a store (the one definition:
the CLI, the dashboard and the analytics take it from here)."""


def resolve_url(url_or_path: str | os.PathLike[str] | None) -> str:
    """``None`` → ``$BRAG_DB`` or ``./brag.db``; otherwise the argument as text."""
    if url_or_path is None:
        return os.environ.get("BRAG_DB") or DEFAULT_DB
    return os.fspath(url_or_path)


def beside_store(url: str, suffix: str, analytics: str) -> str:
    """The path of a small file that belongs with the store at ``url`` (the dashboard's pid file,
    the devices' revocations): beside a SQLite file (``brag.db`` + ``suffix``), else beside the
    analytics projection ``analytics`` (a server or in-memory store has no file of its own)."""
    path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else url
    if "://" in path or not path or path.startswith(":memory:"):
        path = analytics
    return path + suffix


def open_store(
    url_or_path: str | os.PathLike[str] | None = None, *, readonly: bool = False, **options: Any
) -> EventStore:
    """Opens the store named by a URL or a SQLite file path (creating or migrating its schema,
    :mod:`store.schema`, unless ``readonly``).

    ``None`` → ``$BRAG_DB`` or ``./brag.db``; ``memory://`` → a fresh in-memory store;
    ``sqlite:///path`` or a plain path → SQLite; ``postgresql://user@host/db`` → PostgreSQL
    (psycopg 3; ``schema=NAME`` puts the table in that schema, created if needed).
    ``readonly`` (for reading commands): nothing is created or changed (SQLite ``mode=ro``,
    PostgreSQL read-only transactions); a store not made yet is a :class:`StoreUnavailable`, an
    append a :class:`StoreError`. Raises :class:`StoreUnavailable` for a bad URL, an unreachable
    server, wrong settings, or a database that is not a Bragbook store (another program's table
    or database, a newer store version)."""
    # Here: every command imports this module for resolve_url, and `brag verify` opens no store.
    from log.service import EventStore

    url = resolve_url(url_or_path)
    if url.startswith("memory:"):
        from store.memory import MemoryRecorder

        return EventStore(MemoryRecorder(url))
    from store.open import open_sql

    return EventStore(open_sql(url, readonly=readonly, catalogue_of=_recomputed, **options))


def _recomputed(recorder: Recorder) -> list[SessionInfo]:
    """:func:`log.folds.recomputed`, imported (with the engine) only when a store is migrated."""
    from log.folds import recomputed  # the engine: `brag sessions --json` opens a store without it

    return recomputed(recorder)
