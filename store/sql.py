"""What the SQL recorders share: reading a store's URL, the connections (one per thread:
:mod:`store.connections`), the schema check and migrations on opening, reading rows, the write
transaction's primitives, and the per-session summaries read from the events.

The hot path (read a session, append a batch) runs on the DBAPI connection itself (``sqlite3`` /
``psycopg``) with hand-written SQL: it is a handful of statements, and going around the ORM's unit
of work is what keeps a validated append close to a bare ``executemany``. The backends:
:mod:`store.sqlite` (``BEGIN IMMEDIATE`` appends) and :mod:`store.postgres` (a table lock per
append); the DDL and the migrations: :mod:`store.schema`; the catalogue's reads:
:mod:`store.catalogue`. Opening the backend a URL names: :func:`store.open.open_sql`.

What SQLAlchemy (and SQLModel) do here, and what stays ours (issue 34): SQLModel declares the
``events`` table (:mod:`store.orm`) and SQLAlchemy's dialects write its DDL for SQLite and
PostgreSQL; ``make_url`` reads every URL but a plain path and a plain ``sqlite:///FILE``
(:func:`plain_sqlite_url`, the same reading without the import: importing SQLAlchemy takes a
quarter to half a second, and a read command such as ``brag sessions`` starts without it);
PostgreSQL's connections are lent by SQLAlchemy's ``QueuePool``. SQLite's connections are
``sqlite3``'s (a reader imports no SQLAlchemy), and the statements run on DBAPI cursors, so a
driver's errors are the driver's (``sqlite3.OperationalError``, ``psycopg.errors``...),
translated by each backend's ``errors()`` into the store's one-line errors: ``sqlalchemy.exc``
only wraps the errors of statements run through SQLAlchemy's ``Connection``, whose
``exec_driver_sql`` took 30 to 34 µs for a one-row SQLite query that takes 13 to 18 µs on the
cursor (2026-12-05), several times over on each append.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

from events.errors import CorruptSession, DuplicateId, SeqTaken, StoreError, StoreUnavailable
from store.annotations import (
    INSERT,
    SELECT,
    Annotation,
    AnnotationRow,
    annotation_of,
    insert_params,
)
from store.catalogue import CatalogueReads
from store.connections import ThreadConnections
from store.devices import DeviceReads, SqlDevices
from store.night import NightReads, SqlNight
from store.noted import AnnotationReads
from store.port import CatalogueOf
from store.records import (
    Row,
    SessionInfo,
    SessionSummary,
    StoredEvent,
    event_from_row,
    parse_stored_at,
)
from store.register import RegisterReads, SqlRegister
from store.schema import (
    COLUMNS,
    FACET_INSERT,
    META,
    META_DDL,
    STORE_ID,
    STORE_SCHEMA,
    STORE_VERSION,
    TABLE,
    UPDATE,
    UPSERT,
    catalogue_params,
    info_facets,
)

__all__ = ["SqlRecorder", "SqlTx", "plain_sqlite_url", "sqlite_file"]

_PLAIN_SQLITE = "sqlite:///"


def plain_sqlite_url(url: str) -> str | None:
    """The database of a ``sqlite:///FILE`` URL with nothing to decode (no ``%`` escape, no
    ``?`` query), as SQLAlchemy's ``make_url`` reads it, without importing SQLAlchemy (a quarter
    of a second); ``None`` for any other URL, which ``make_url`` reads."""
    if not url.startswith(_PLAIN_SQLITE):
        return None
    rest = url[len(_PLAIN_SQLITE) :]
    return None if "%" in rest or "?" in rest else rest


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite store named by a plain path or a ``sqlite:///`` URL (query and
    escapes read as :func:`store.open.open_sql` reads them); ``None`` for any other store."""
    if "://" not in url:
        return url if url and url != ":memory:" else None
    database = plain_sqlite_url(url)
    if database is None:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            u = make_url(url)
        except ArgumentError:
            return None
        if u.get_backend_name() != "sqlite":
            return None
        database = u.database
    if not database or database == ":memory:":
        return None
    return database


# --- the shared SQL transaction -----------------------------------------------------------------


class SqlTx:
    """The write-transaction primitives on one DBAPI connection (see :class:`store.port.Tx`)."""

    def __init__(self, recorder: SqlRecorder, conn: Any) -> None:
        self.recorder = recorder
        self.conn = conn

    def find(self, ids: list[str]) -> list[StoredEvent]:
        if not ids:
            return []
        if self.recorder.MARK == "%s":
            cur = self.conn.execute(
                f"SELECT {COLUMNS} FROM {TABLE} WHERE id = ANY(%s::uuid[])", (ids,)
            )
        else:
            marks = ", ".join("?" * len(ids))
            cur = self.conn.execute(f"SELECT {COLUMNS} FROM {TABLE} WHERE id IN ({marks})", ids)
        return [self.recorder.row(r) for r in cur.fetchall()]

    def last_seq(self, session: str) -> int:
        return self.recorder.last_seq_on(self.conn, session)

    def record(self, info: SessionInfo, *, first: bool) -> None:
        rec = self.recorder
        if not first:
            # A later append: one UPDATE of what moves (the first time, store time and position
            # stay as written), without reading the row first.
            p = catalogue_params(info)
            cur = self.conn.execute(rec.sql(UPDATE), (*p[1:4], p[5], *p[8:15], p[16], p[0]))
            if cur.rowcount == 1:
                return
            # No row although the session has events (written around Bragbook): its first ones.
            info = rec.first_of(self.conn, info)
        self.conn.execute(rec.sql(UPSERT), catalogue_params(info))
        # A new row: its filter choices (version 5), which never change after (seats, table and
        # first time are the session's first event's).
        self.conn.cursor().executemany(rec.sql(FACET_INSERT), info_facets(info))

    def annotations(self, session: str) -> list[Annotation]:
        return self.recorder.annotations_on(self.conn, session)

    def devices(self) -> SqlDevices:
        """The devices beside the log (:mod:`store.devices`), inside this transaction."""
        return SqlDevices(self.conn, self.recorder.sql)

    def register(self) -> SqlRegister:
        """The register beside the log (:mod:`store.register`), inside this transaction."""
        return SqlRegister(self.conn, self.recorder.sql)

    def night(self) -> SqlNight:
        """The club night's facts (:mod:`store.night`), inside this transaction."""
        return SqlNight(self.conn, self.recorder.sql)

    def annotation(self, position: int) -> Annotation | None:
        cur = self.conn.execute(self.recorder.sql(f"{SELECT} WHERE position = ?"), (position,))
        got = cur.fetchone()
        return None if got is None else annotation_of(got)

    def annotate(self, row: AnnotationRow, at: datetime) -> Annotation:
        self.recorder.check_annotated()
        cur = self.conn.execute(self.recorder.sql(INSERT), insert_params(row, at))
        return Annotation.written(row, int(cur.fetchone()[0]), at)

    def insert(self, rows: list[Row], stored_at: datetime) -> list[int]:
        try:
            return self.recorder.insert(self.conn, rows, stored_at)
        except Exception as err:
            taken = self.recorder.taken(err)
            if taken == "id":
                raise DuplicateId(str(err)) from None
            if taken == "seq":
                raise SeqTaken(str(err)) from None
            raise


# --- the recorder ---------------------------------------------------------------------------------


class SqlRecorder(
    ThreadConnections, CatalogueReads, AnnotationReads, DeviceReads, RegisterReads, NightReads
):
    """The base of :class:`~store.sqlite.SqliteRecorder` and
    :class:`~store.postgres.PostgresRecorder`: everything but the connection, the transaction, the
    schema's shape and the insert."""

    MARK: ClassVar[str] = "?"
    PAYLOAD_TEXT: ClassVar[str] = "payload"
    MIGRATIONS: ClassVar[dict[int, Callable[[Any, Any], None]]] = {}
    """Version ``n`` → the step to ``n + 1`` (:data:`store.schema.SQLITE_MIGRATIONS`, ...)."""
    readonly: bool = False
    version: int = 0
    _own_id: str | None = None

    def __init__(self, url: str, catalogue_of: CatalogueOf | None) -> None:
        self.url = url
        self._catalogue_of = catalogue_of
        ThreadConnections.__init__(self)

    def catalogue_of(self, recorder: Any) -> list[SessionInfo]:
        """The catalogue's rows computed from the events (a migration to version 3 writes them)."""
        if self._catalogue_of is None:
            raise StoreError(f"{self.where}: this store needs its catalogue filled; open it with "
                             "log.open_store")  # fmt: skip
        return self._catalogue_of(recorder)

    @property
    def where(self) -> str:
        return self.url

    @property
    def store_id(self) -> str:
        """The store's id (``brag_meta`` :data:`~store.schema.STORE_ID`, a UUID), or, for an
        older store opened read-only that no writer has given one yet, ``location:`` and where
        it is (:meth:`location`): stable while the store stays where it is."""
        return self._own_id or f"location:{self.location()}"

    def location(self) -> str:
        """Where the store is, without a password (a SQLite file's real path; a server's host,
        port, database and schema)."""
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[SqlTx]:
        raise NotImplementedError

    def connection(self) -> Any:
        """The calling thread's DBAPI connection (opened on first use)."""
        raise NotImplementedError

    def reopen(self) -> SqlRecorder:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # -- the schema: marker, version, checks, migrations ----------------------------------------

    def tables(self, conn: Any) -> set[str]:
        """The names of the tables where the store's tables live (SQLite's own excluded)."""
        raise NotImplementedError

    def problems(self, conn: Any, version: int) -> list[str]:
        """What makes the ``events`` table other than Bragbook's at ``version`` (empty: ours)."""
        raise NotImplementedError

    def create(self, conn: Any) -> None:
        """Makes a new store at :data:`STORE_VERSION` (inside the caller's transaction)."""
        raise NotImplementedError

    def refuse(self, why: str) -> StoreUnavailable:
        return StoreUnavailable(f"{self.where}: {why}; it was not opened")

    def _set_version(self, conn: Any, version: int) -> None:
        conn.execute(self.sql(f"DELETE FROM {META} WHERE key = 'version'"))
        conn.execute(
            self.sql(f"INSERT INTO {META} (key, value) VALUES ('version', ?)"), (str(version),)
        )

    def _mark(self, conn: Any) -> None:
        """Creates ``brag_meta`` with the schema row (the version row follows)."""
        conn.execute(META_DDL)
        conn.execute(
            self.sql(f"INSERT INTO {META} (key, value) VALUES ('schema', ?)"), (STORE_SCHEMA,)
        )
        self._set_version(conn, STORE_VERSION)

    def _marked_version(self, conn: Any, tables: set[str]) -> int:
        meta = {str(k): str(v) for k, v in conn.execute(f"SELECT key, value FROM {META}")}
        self._own_id = meta.get(STORE_ID) or None
        if meta.get("schema") != STORE_SCHEMA:
            raise self.refuse(
                f"its table {META} does not mark a Bragbook store (schema {meta.get('schema')!r})"
            )
        text = meta.get("version", "")
        if not (text.isascii() and text.isdigit()):
            raise self.refuse(f"its store version {text!r} is not a number")
        version = int(text)
        if version > STORE_VERSION:
            raise self.refuse(
                f"store version {version} was made by a newer Bragbook (this one knows "
                f"versions up to {STORE_VERSION})"
            )
        if TABLE not in tables:
            raise self.refuse(f"it is marked as a Bragbook store but has no {TABLE} table")
        return version

    def open_schema(self, conn: Any, *, change: bool) -> int:
        """Recognises the store inside the caller's transaction (a writer's is exclusive) and,
        with ``change``, creates a new one or migrates an older one; refuses anything else with
        one line (:class:`StoreUnavailable`). A reader (``readonly``) of a marked store checks
        the marker, the version and that the table is there; everyone else also compares the
        table's columns, unique constraints and triggers with Bragbook's. Returns the version of
        the store as it is now (0: nothing there yet, without ``change``)."""
        tables = self.tables(conn)
        marked = META in tables
        if marked:
            version = self._marked_version(conn, tables)
        elif TABLE in tables:
            version = 1  # made before the marker: ours if its table and triggers are
        elif tables:
            shown = ", ".join(sorted(tables)[:4]) + (", ..." if len(tables) > 4 else "")
            raise self.refuse(f"it is another program's database (tables {shown})")
        else:
            if not change:
                return 0
            self.create(conn)
            self._mark(conn)
            self._give_id(conn)
            return STORE_VERSION
        # A reader of a marked store trusts the marker and the version (read above): comparing
        # the table with Bragbook's in full is for writers, which may change it, and for a store
        # made before the marker, whose table alone says whose it is.
        problems = [] if marked and self.readonly else self.problems(conn, version)
        if problems:
            raise self.refuse(
                f"its table {TABLE!r} is not Bragbook's event log ({'; '.join(problems)})"
            )
        if not change:
            return version
        if not marked:
            conn.execute(META_DDL)
            conn.execute(
                self.sql(f"INSERT INTO {META} (key, value) VALUES ('schema', ?)"), (STORE_SCHEMA,)
            )
        while version < STORE_VERSION:
            self.MIGRATIONS[version](self, conn)
            version += 1
            self._set_version(conn, version)
        if self._own_id is None:
            self._give_id(conn)
        return version

    def _give_id(self, conn: Any) -> None:
        """Writes the store's id (a new UUID) inside the opening writer's transaction."""
        self._own_id = str(uuid.uuid4())
        conn.execute(
            self.sql(f"INSERT INTO {META} (key, value) VALUES (?, ?)"), (STORE_ID, self._own_id)
        )

    def check_writable(self) -> None:
        if self.readonly:
            raise StoreError(f"{self.where} was opened for reading: nothing can be stored")

    # -- rows ------------------------------------------------------------------------------------

    def taken(self, err: Exception) -> str | None:
        """``"id"`` or ``"seq"`` when ``err`` is the table's unique id or (session, seq)."""
        raise NotImplementedError

    def insert(self, conn: Any, rows: list[Row], stored_at: datetime) -> list[int]:
        raise NotImplementedError

    def row(self, r: Any) -> StoredEvent:
        position, session, seq, id_, type_, v, payload, at, by, stored_at = r
        try:
            event = event_from_row(type_, v, payload, id_, seq, at, by)
        except (ValueError, TypeError, RecursionError) as err:  # BragError, JSON, UUID
            text = str(err).strip().splitlines()
            raise CorruptSession(
                str(session),
                seq,
                str(type_),
                f"the stored event cannot be read ({text[0] if text else type(err).__name__})",
            ) from None
        return StoredEvent(
            position=position,
            session=session,
            seq=seq,
            id=id_ if isinstance(id_, UUID) else UUID(id_),
            type=type_,
            v=v,
            event=event,
            at=event.at,
            by=by,
            stored_at=parse_stored_at(stored_at),
        )

    def sql(self, text: str) -> str:
        return text if self.MARK == "?" else text.replace("?", self.MARK)

    def query(self, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self.errors():
            return list(self.connection().execute(self.sql(text), params).fetchall())

    @contextmanager
    def errors(self) -> Iterator[None]:
        """Driver errors as the store's one-line errors."""
        yield

    def load(self, session: str, upto: int | None = None) -> list[StoredEvent]:
        if upto is None:
            rows = self.query(
                f"SELECT {COLUMNS} FROM {TABLE} WHERE session = ? ORDER BY seq", (session,)
            )
        else:
            rows = self.query(
                f"SELECT {COLUMNS} FROM {TABLE} WHERE session = ? AND seq <= ? ORDER BY seq",
                (session, upto),
            )
        return [self.row(r) for r in rows]

    def find(self, ids: list[str]) -> list[StoredEvent]:
        with self.errors():
            return SqlTx(self, self.connection()).find(ids)

    def last_seq_on(self, conn: Any, session: str) -> int:
        cur = conn.execute(self.sql(f"SELECT max(seq) FROM {TABLE} WHERE session = ?"), (session,))
        got = cur.fetchone()[0]
        return int(got) if got is not None else 0

    def last_seq(self, session: str) -> int:
        with self.errors():
            return self.last_seq_on(self.connection(), session)

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[StoredEvent]:
        rows = self.query(
            f"SELECT {COLUMNS} FROM {TABLE} WHERE position > ? ORDER BY position LIMIT ?",
            (after, limit),
        )
        return [self.row(r) for r in rows]

    def last_position(self) -> int:
        got = self.query(f"SELECT max(position) FROM {TABLE}")[0][0]
        return int(got) if got is not None else 0

    def summaries(self) -> list[SessionSummary]:
        p = self.PAYLOAD_TEXT
        rows = self.query(
            f"""
            SELECT session, max(seq), min(position), max(position),
                   sum(CASE WHEN type = 'dealt' THEN 1 ELSE 0 END),
                   sum(CASE WHEN type = 'pot_won' THEN 1 ELSE 0 END),
                   sum(CASE WHEN type = 'pot_carried' THEN 1 ELSE 0 END),
                   sum(CASE WHEN type IN ('voided', 'amended') THEN 1 ELSE 0 END),
                   max(CASE WHEN type = 'session_ended' THEN {p} END),
                   max(CASE WHEN seq = 1 THEN {p} END),
                   max(CASE WHEN seq = 1 THEN at END),
                   min(stored_at)
            FROM {TABLE} GROUP BY session ORDER BY min(position)
            """
        )
        last_at = dict(
            self.query(
                f"""SELECT e.session, e.at FROM {TABLE} e JOIN
                    (SELECT session, max(seq) AS seq FROM {TABLE} WHERE at IS NOT NULL
                     GROUP BY session) m ON e.session = m.session AND e.seq = m.seq"""
            )
        )
        out = []
        for session, last, first_pos, last_pos, deals, won, carried, voided, ended, first, at, \
                stored in rows:  # fmt: skip
            try:
                f = json.loads(first) if first else {}
                ended = json.loads(ended) if ended else None
                if not isinstance(f, dict) or not (ended is None or isinstance(ended, dict)):
                    raise ValueError("not a JSON object")
            except ValueError as err:
                raise CorruptSession(
                    str(session), None, None, f"a stored event cannot be read ({err})"
                ) from None
            out.append(
                SessionSummary.of(
                    session,
                    f,
                    ended,
                    last_seq=int(last),
                    deals=int(deals),
                    won=int(won),
                    carried=int(carried),
                    voided=int(voided),
                    first_at=datetime.fromisoformat(at) if at else None,
                    stored_at=parse_stored_at(stored),
                    first_position=int(first_pos),
                    last_position=int(last_pos),
                    last_at=datetime.fromisoformat(last_at[session])
                    if last_at.get(session)
                    else None,
                )
            )
        return out
