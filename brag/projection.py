"""The DuckDB projection as a command opens it: beside the store (``--analytics PATH``, default
``brag.duckdb`` next to ``brag.db``), brought up to date with the store first unless the command
says ``--no-refresh``, and shown only for the store it belongs to. Every fault of it (a busy file,
a full disk, a file of another store, one that is not DuckDB's) is one line
(:class:`~brag.errors.CommandError`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from brag.errors import CommandError

__all__ = [
    "analytics_option",
    "built",
    "close_store",
    "default_analytics",
    "open_projection",
    "projection_problem",
    "say_skipped",
    "store_exists",
]

T = TypeVar("T")


def default_analytics(db: str) -> str:
    """The DuckDB file beside a SQLite store (``x.db`` -> ``x.duckdb``); ``./brag.duckdb`` for a
    server or in-memory store (:func:`analytics.sources.default_projection`)."""
    from analytics.sources import default_projection

    return default_projection(db)


def analytics_option() -> argparse.ArgumentParser:
    """The ``--analytics PATH`` option every command reading the projection takes (a parent
    parser)."""
    opts = argparse.ArgumentParser(add_help=False)
    opts.add_argument(
        "--analytics",
        metavar="PATH",
        help="the DuckDB projection (default: beside the store, e.g. brag.duckdb next to brag.db)",
    )
    return opts


def store_exists(db: str) -> bool:
    """False only for a SQLite store whose file is missing (a server is asked when opened)."""
    from store.sql import sqlite_file

    path = sqlite_file(db)
    return path is None or os.path.exists(path)


def open_projection(
    args: argparse.Namespace, *, refresh: bool, rebuild: bool = False, create: bool = False
) -> Any:
    """The DuckDB projection beside ``--db`` (or ``--analytics``), brought up to date from the
    store when ``refresh``. Reading without refreshing needs the file (``create``: the refresh
    command makes it); nothing is created for a store that does not exist (a mistyped ``--db``)."""
    path = args.analytics or default_analytics(args.db)
    stale = _stale(args.db, path, refresh=refresh, rebuild=rebuild, create=create)
    store = None
    if refresh and not stale:
        from analytics.sources import open_source

        store = open_source(args.db)  # a store it refuses: nothing is made beside it
    try:
        if stale:
            print(f"brag: no event store at {args.db}; showing {path} as it is", file=sys.stderr)
        elif store is not None:
            _caught_up(path, args.db, store, rebuild=rebuild)
        con = _connected(path)
        if refresh:
            say_skipped(con)
        elif store_exists(args.db):
            _same_store(args.db, con, path)
    finally:
        close_store(store)
    return con


def _stale(db: str, path: str, *, refresh: bool, rebuild: bool, create: bool) -> bool:
    """Whether the projection at ``path`` is to be shown as it is, its store ``db`` missing (a
    refresh asked of no store); refused in one line when there is nothing to show: no file to
    read without refreshing (``create``: the refresh command makes it), or no store to refresh
    or rebuild it from (a mistyped ``--db``: said before connecting, which would create the
    file)."""
    if not refresh and not create and not os.path.exists(path):
        raise CommandError(
            f"no statistics file at {path} (leave out --no-refresh to build it from the "
            "store, or run brag analytics refresh)"
        )
    stale = refresh and not store_exists(db)
    if stale and (rebuild or not os.path.exists(path)):
        raise CommandError(f"no event store at {db} (store sessions first: brag import FILE...)")
    return stale


def _caught_up(path: str, db: str, store: Any, *, rebuild: bool) -> None:
    """The projection at ``path`` rebuilt from ``store`` (``rebuild``), or caught up with it
    unless it is already (:func:`_up_to_date`)."""
    import analytics.projector

    if rebuild or not _up_to_date(path, store):
        build = analytics.projector.rebuild if rebuild else analytics.projector.refresh
        built(
            path,
            db,
            lambda con: build(store, con),
            fresh=rebuild,
            rebuild=lambda con: analytics.projector.rebuild(store, con),
        )


def _connected(path: str) -> Any:
    """A connection to the projection at ``path``; another process holding the file (a refresh,
    a reading command) is waited for; what stops it, in one line."""
    import duckdb

    import analytics.tables
    from analytics.building import ProjectionBusy, unlocked

    try:
        return unlocked(path, lambda: analytics.tables.connect(path))
    except ProjectionBusy as err:
        raise CommandError(str(err)) from None
    except duckdb.Error as err:
        raise CommandError(projection_problem(path, err)) from None


def close_store(store: Any) -> None:
    """Closes ``store`` (an event source) if it is one that closes."""
    close = getattr(store, "close", None)
    if close:
        close()


def _up_to_date(path: str, store: Any) -> bool:
    """Whether the projection at ``path`` is of this store, at the current schema version, and
    has applied every event stored (what the dashboard asks before a catch-up): then a refresh
    would apply nothing, and the file is only read, never opened for writing. Anything in doubt
    (no file, an unreadable one): ``False``, and the catch-up decides (and says what is wrong);
    a file another process held for the whole wait is the catch-up's one line at once (it would
    wait again)."""
    import duckdb

    from analytics.building import ProjectionBusy, current_checkpoint

    store_id = getattr(store, "store_id", None)
    if store_id is None:
        return False
    try:
        have = current_checkpoint(path, store_id, store)
    except ProjectionBusy as err:
        raise CommandError(str(err)) from None
    except (duckdb.Error, OSError):
        return False
    return have is not None and have >= store.last_position()


def _same_store(db: str, con: Any, path: str) -> None:
    """``--no-refresh``: the projection is shown as it is, but only for the store it belongs to
    (its recorded id, ``analytics.owner``); a store that cannot be asked now is not checked."""
    from analytics.owner import diverged, recorded_store
    from analytics.sources import open_source
    from events.errors import StoreUnavailable

    have = recorded_store(con)
    if have is None:
        return
    try:
        store = open_source(db)
    except StoreUnavailable:
        return
    try:
        sid, where = getattr(store, "store_id", None), getattr(store, "where", db)
        why = diverged(con, store) if sid == have[0] else None
    finally:
        close_store(store)
    if why is not None:  # a copy of the store that has diverged (issue 33)
        con.close()
        raise CommandError(
            f"the statistics file {path} belongs to the store {have[1]} (id {have[0]}); "
            f"{where} has that id but another log, a copy that has diverged ({why}): its "
            "numbers are not shown for it; name another file with --analytics, or rebuild "
            "this one for this store with brag analytics refresh --rebuild"
        )
    if sid is not None and sid != have[0]:
        con.close()
        raise CommandError(
            f"the statistics file {path} belongs to the store {have[1]} (id {have[0]}), not to "
            f"{where} (id {sid}): its numbers are not shown for it; name another file with "
            "--analytics, or rebuild this one for this store with brag analytics refresh --rebuild"
        )


def projection_problem(path: str, err: BaseException) -> str:
    """What stopped the projection at ``path`` from being opened or written, in one line."""
    from events.errors import DISK_FULL, disk_full

    if disk_full(err):
        return f"{DISK_FULL}: the statistics file {path} was not written (it is as it was)"
    if "not a valid DuckDB database" in str(err):
        return (
            f"{path} is not a statistics file that can be read (brag analytics refresh "
            "--rebuild replaces it)"
        )
    return f"cannot open the analytics file {path}: {err}"


def built(
    path: str,
    db: str,
    build: Callable[[Any], T],
    *,
    fresh: bool = False,
    rebuild: Callable[[Any], T] | None = None,
) -> T:
    """``build(con)`` on the projection at ``path`` (``analytics.building.caught_up``: a
    catch-up in one transaction on the file, a build from nothing beside it and renamed into
    place; either that fails leaves the file as it was, or none); ``fresh`` (``--rebuild``)
    never reads the old file. A projection of another store than ``db``'s is rebuilt
    (``rebuild``) when ``path`` is ``db``'s default file, saying so on stderr, and refused in one
    line naming both stores when the user named it. Its faults in one line."""
    import duckdb

    from analytics.building import ProjectionBusy, caught_up
    from analytics.owner import ForeignProjection
    from events.errors import disk_full

    try:
        done, note = caught_up(path, db, build, fresh=fresh, rebuild=rebuild)
        if note:
            print(f"brag: {note}", file=sys.stderr)
        return done
    except ForeignProjection as err:
        raise CommandError(
            f"the statistics file {path} {err}; name another file with --analytics, or "
            "rebuild this one for this store with brag analytics refresh --rebuild"
        ) from None
    except ProjectionBusy as err:
        raise CommandError(str(err)) from None
    except duckdb.Error as err:
        raise CommandError(projection_problem(path, err)) from None
    except OSError as err:
        if disk_full(err):
            raise CommandError(projection_problem(path, err)) from None
        raise


def say_skipped(con: Any) -> None:
    """One line on stderr for each session left out of the statistics, and why."""
    from analytics.projector import skipped
    from brag.console import shown as inert_text

    for session, position, reason in skipped(con):
        print(
            inert_text(
                f"brag: session {session!r} is not in the statistics (from position {position}): "
                f"{reason}"
            ),
            file=sys.stderr,
        )
