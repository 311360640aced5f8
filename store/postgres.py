"""The PostgreSQL recorder (psycopg 3): each append takes ``LOCK TABLE events IN EXCLUSIVE
MODE`` (with a ``lock_timeout``) inside its transaction, so positions (a sequence) become visible in
order and a reader following them never skips one; rolled-back transactions leave holes, which
readers tolerate. Readers are not blocked. ``readonly``: read-only transactions, nothing created.
Each thread's connection is lent by the store's ``sqlalchemy.pool.QueuePool`` until the thread has
ended, then lent again to a new thread; a connection the server cut is invalidated (the pool makes
a new one when next asked).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from typing import Any, Final

from sqlalchemy.engine import make_url
from sqlalchemy.pool import QueuePool

from events.errors import StoreError, StoreMissing, StoreUnavailable
from store.address import shown_address
from store.devices import DEVICES_DDL
from store.night import pg_night_ddl
from store.port import CatalogueOf
from store.records import Row
from store.register import pg_register_ddl
from store.schema import (
    CATALOGUE_DDL,
    FACETS_DDL,
    INSERT_COLUMNS,
    LOCK_TIMEOUT_S,
    META,
    PG_COLUMNS,
    PG_CONSTRAINTS,
    PG_MIGRATIONS,
    PG_TRIGGERS,
    TABLE,
    column_problems,
    pg_annotations_ddl,
    pg_append_only,
    pg_ddl,
)
from store.sql import SqlRecorder, SqlTx

__all__ = ["PostgresRecorder"]

_QUIET: Final = logging.NullHandler()
_IDLE: Final = 5
"""How many connections of ended threads a store's pool keeps open to lend again."""


def _line(err: Exception) -> str:
    """The first line of a driver error (its class name when it says nothing)."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class PostgresRecorder(SqlRecorder):
    """The server store (psycopg 3). ``schema`` puts the table in that schema (created if needed);
    otherwise the connection's ``search_path`` decides. ``readonly``: every transaction is read
    only and nothing is created or migrated."""

    MARK = "%s"
    PAYLOAD_TEXT = "payload::text"
    MIGRATIONS = PG_MIGRATIONS
    schema: str | None
    """The PostgreSQL schema the tables live in (``None``: the connection's ``search_path``
    decides). PostgreSQL only: not on the port (:mod:`store.port`)."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        readonly: bool = False,
        catalogue_of: CatalogueOf | None = None,
    ) -> None:
        super().__init__(url, catalogue_of)
        import psycopg

        # psycopg logs "error ignored terminating <psycopg.Pipeline ...>" when an insert meets a
        # unique constraint inside executemany's pipeline: the store handles that refusal (it
        # looks at what is stored), so the line is not for the user's terminal.
        logging.getLogger("psycopg").addHandler(_QUIET)
        self._psycopg = psycopg
        self._url = make_url(url).set(drivername="postgresql")
        self.schema = schema
        self.readonly = readonly
        self._conninfo = self._url.render_as_string(hide_password=False)
        self._shown = shown_address(self._url.render_as_string(hide_password=True))
        self._pool = self._new_pool()
        conn = self.connection()
        with self.errors(), conn.transaction():
            if not readonly:
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('bragbook.events.ddl'))")
                if schema:
                    from psycopg import sql

                    conn.execute(
                        sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema))
                    )
            self.version = self.open_schema(conn, change=not readonly)
            if self.version == 0:
                raise StoreMissing(
                    f"no event store in {self.where} yet (store sessions first: brag import "
                    "FILE...)"
                )

    def tables(self, conn: Any) -> set[str]:
        # A server database is shared: only our two names in the store's schema matter.
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename IN (%s, %s)",
            (TABLE, META),
        )
        return {r[0] for r in rows}

    def problems(self, conn: Any, version: int) -> list[str]:
        rel = "to_regclass(quote_ident(current_schema()) || '.' || %s)"
        cols = [
            (r[0], r[1], bool(r[2]))
            for r in conn.execute(
                "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute "
                f"WHERE attrelid = {rel} AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                (TABLE,),
            )
        ]
        out = column_problems(cols, PG_COLUMNS)
        found = {
            r[0]: (r[1], list(r[2]))
            for r in conn.execute(
                "SELECT c.conname, c.contype::text, array_agg(a.attname::text ORDER BY k.ord) "
                "FROM pg_constraint c "
                "CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord) "
                "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum "
                f"WHERE c.conrelid = {rel} GROUP BY c.conname, c.contype",
                (TABLE,),
            )
        }
        for name, want_con in PG_CONSTRAINTS.items():
            if found.get(name) != want_con:
                out.append(f"no unique ({', '.join(want_con[1])}) named {name}")
        triggers = {
            r[0]
            for r in conn.execute(
                f"SELECT tgname FROM pg_trigger WHERE tgrelid = {rel} AND NOT tgisinternal",
                (TABLE,),
            )
        }
        missing = [t for t in PG_TRIGGERS if t not in triggers]
        if missing:
            out.append(f"no append-only trigger {', '.join(missing)}")
        return out

    def create(self, conn: Any) -> None:
        for stmt in (*pg_ddl(), *CATALOGUE_DDL, FACETS_DDL, DEVICES_DDL, *pg_annotations_ddl(),
                     *pg_register_ddl(pg_append_only),
                     *pg_night_ddl(pg_append_only)):  # fmt: skip
            conn.execute(stmt)

    def __repr__(self) -> str:
        return f"PostgresStore({self._shown!r})"

    @property
    def where(self) -> str:
        return self._shown + (f" (schema {self.schema})" if self.schema else "")

    def location(self) -> str:
        u = self._url
        at = f"postgresql://{u.host or ''}:{u.port or 5432}/{u.database or ''}"
        return at + (f"#{self.schema}" if self.schema else "")

    @contextmanager
    def errors(self) -> Iterator[None]:
        pg = self._psycopg
        try:
            yield
        except pg.errors.LockNotAvailable:
            raise StoreUnavailable(
                f"{self._shown}: the event table stayed locked by another writer for "
                f"{LOCK_TIMEOUT_S} s; nothing was stored"
            ) from None
        except pg.OperationalError as err:
            self._forget()  # a cut connection: the thread's next query connects again
            raise StoreUnavailable(f"PostgreSQL store {self._shown}: {_line(err)}") from None
        except pg.Error as err:
            raise StoreError(f"PostgreSQL store {self._shown}: {_line(err)}") from None

    def _forget(self) -> None:
        """Invalidates the calling thread's connection (after the server went away or cut it):
        the pool closes it and connects again when next asked, so a store handle kept by a
        server recovers when the server is back."""
        fairy = self.forget()
        if fairy is not None and fairy.is_valid:
            with suppress(Exception):
                fairy.invalidate()

    def _new_pool(self) -> QueuePool:
        """The store's pool: a thread's connection is lent until the thread has ended (see
        :mod:`store.connections`), then lent again to a new thread instead of a new one being
        made (up to :data:`_IDLE` kept idle; no limit on how many are lent)."""
        return QueuePool(self._connect, pool_size=_IDLE, max_overflow=-1, use_lifo=True)

    def _connect(self) -> Any:
        pg = self._psycopg
        conn = pg.connect(self._conninfo, autocommit=True, connect_timeout=5)
        try:
            if self.readonly:
                conn.execute("SET default_transaction_read_only = on")
            if self.schema:
                conn.execute(
                    pg.sql.SQL("SET search_path TO {}").format(pg.sql.Identifier(self.schema))
                )
        except BaseException:
            conn.close()
            raise
        return conn

    def forked(self) -> None:
        # The parent's pool (and the connections it lends) stays the parent's, untouched.
        self._parents.append(self._pool)  # kept referenced, never used
        self._pool = self._new_pool()

    def connection(self) -> Any:
        fairy = self.held()
        if fairy is not None and (not fairy.is_valid or fairy.dbapi_connection.closed):
            self._forget()
            fairy = None
        if fairy is None:
            self.let_go_of_ended()  # their connections back in the pool first, to be lent again
            try:
                fairy = self._pool.connect()
            except self._psycopg.Error as err:
                raise StoreUnavailable(
                    f"cannot connect to the PostgreSQL store {self._shown}: {_line(err)}"
                ) from None
            self.keep(fairy)
        return fairy.dbapi_connection

    @contextmanager
    def transaction(self) -> Iterator[SqlTx]:
        self.check_writable()
        conn = self.connection()
        pg = self._psycopg
        with self.errors():
            try:
                with conn.transaction():
                    conn.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT_S}s'")
                    conn.execute(f"LOCK TABLE {TABLE} IN EXCLUSIVE MODE")
                    yield SqlTx(self, conn)
            except pg.errors.UniqueViolation as err:
                # Only a writer that bypasses the lock could get here; still never a driver error.
                raise StoreError(f"PostgreSQL store {self._shown}: {err}") from None

    def taken(self, err: Exception) -> str | None:
        if not isinstance(err, self._psycopg.errors.UniqueViolation):
            return None
        return {"events_id_key": "id", "events_session_seq_key": "seq"}.get(
            err.diag.constraint_name or ""
        )

    def insert(self, conn: Any, rows: list[Row], stored_at: datetime) -> list[int]:
        cur = conn.cursor()
        cur.executemany(
            f"INSERT INTO {TABLE} ({INSERT_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s::json, %s, %s, %s) RETURNING position",
            [(r.session, r.seq, r.id, r.type, r.v, r.payload, r.at, r.by, stored_at) for r in rows],
            returning=True,
        )
        out: list[int] = []
        while True:
            got = cur.fetchone()
            if got is not None:
                out.append(int(got[0]))
            if not cur.nextset():
                break
        return out

    def close(self) -> None:
        self.close_all()
        self._pool.dispose()

    def reopen(self) -> PostgresRecorder:
        return PostgresRecorder(
            self.url, schema=self.schema, readonly=self.readonly, catalogue_of=self._catalogue_of
        )
