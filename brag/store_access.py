"""The event store of ``--db`` as a command opens it, and the console it prints what it read on.

Reading commands open the store read-only and refuse a SQLite file that does not exist (a typo
in ``--db`` must not silently make an empty store); ``brag import`` creates it; ``brag amend
--yes`` and ``brag notes add|hide`` write a store that exists already.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from brag.console import console
from events.errors import StoreUnavailable
from log.open import open_store, resolve_url
from store.sql import sqlite_file

if TYPE_CHECKING:
    from log.service import EventStore

__all__ = ["open_event_store", "sqlite_path", "store_console"]


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL or plain path; ``None`` for a server or in-memory store."""
    return sqlite_file(url)


def open_event_store(
    args: argparse.Namespace, *, create: bool = False, write: bool = False
) -> EventStore:
    """The store of ``--db``. Reading commands open it read-only (they create, change and migrate
    nothing, and work for a user who may not write it) and refuse a SQLite file that does not
    exist (a typo in ``--db`` must not silently make an empty store); ``brag import`` creates
    it; ``write`` (``brag amend --yes``) writes a store that exists already."""
    db = getattr(args, "db", None)
    url = resolve_url(db)
    if not url.strip():
        raise StoreUnavailable("--db is empty: give a SQLite file path or a database URL")
    if not create:
        path = sqlite_path(url)
        if path and not os.path.exists(path):
            raise StoreUnavailable(
                f"no event store at {path} (store sessions first: brag import FILE...)"
            )
    return open_store(db, readonly=not (create or write))


def store_console(*, stderr: bool = False) -> Any:
    """A rich console showing text from the store inert (:mod:`brag.console`); wide when the
    output is not a terminal (a file, a pipe)."""
    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else int(os.environ.get("COLUMNS") or 160)
    return console(stderr=stderr, width=width, soft_wrap=False)
