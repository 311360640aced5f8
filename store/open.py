"""Opening a SQL store by its URL: the recorder of the backend the URL names (:mod:`store.sqlite`,
:mod:`store.postgres`).

Its own module above the backends, so that :mod:`store.sql`, what they share, imports neither of
them (an import cycle). Each backend is imported when its URL is opened.
"""

from __future__ import annotations

from events.errors import StoreUnavailable
from store.address import shown_address
from store.port import CatalogueOf
from store.sql import SqlRecorder, plain_sqlite_url

__all__ = ["open_sql"]


def open_sql(
    url: str,
    *,
    schema: str | None = None,
    readonly: bool = False,
    catalogue_of: CatalogueOf | None = None,
) -> SqlRecorder:
    """A SQL recorder for a SQLAlchemy URL or a plain SQLite file path (``readonly``: see
    :func:`log.open_store`; ``catalogue_of`` fills the catalogue when a store is migrated)."""
    from store.sqlite import SqliteRecorder

    if "://" not in url:
        return SqliteRecorder(url, url, readonly=readonly, catalogue_of=catalogue_of)
    database = plain_sqlite_url(url)  # the common case, read without SQLAlchemy
    if database and database != ":memory:":
        return SqliteRecorder(url, database, readonly=readonly, catalogue_of=catalogue_of)
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        u = make_url(url)
    except ArgumentError as err:
        raise StoreUnavailable(
            f"cannot read the database URL {shown_address(url)!r}: {shown_address(str(err))}"
        ) from None
    backend = u.get_backend_name()
    if backend == "sqlite":
        if not u.database or u.database == ":memory:" or "mode=memory" in str(u.query):
            raise StoreUnavailable(
                "an SQLite store needs a file (WAL and synchronous=FULL); for a throw-away "
                "store use memory://"
            )
        return SqliteRecorder(url, u.database, readonly=readonly, catalogue_of=catalogue_of)
    if backend in ("postgresql", "postgres"):
        from store.postgres import PostgresRecorder

        return PostgresRecorder(url, schema=schema, readonly=readonly, catalogue_of=catalogue_of)
    raise StoreUnavailable(
        f"unsupported database {backend!r} in {shown_address(url)!r}: use a file path, "
        "sqlite:///FILE, postgresql://USER@HOST/DB or memory://"
    )
