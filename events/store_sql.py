"""The SQL backends of the event store: SQLite (embedded default) and PostgreSQL (psycopg 3).

The one table is the SQLModel class :class:`EventRecord`; its DDL is compiled by SQLAlchemy for each
dialect. The hot path (read a session, append a batch) runs on the DBAPI connection itself
(``sqlite3`` / ``psycopg``) with hand-written SQL: it is a handful of statements, and going around
the ORM's unit of work is what keeps a validated append close to a bare ``executemany``.

Append transactions:

- SQLite: ``BEGIN IMMEDIATE`` takes the write lock before anything is read, so a second writer
  waits in ``busy_timeout`` instead of failing with "database is locked" on a read-then-write
  upgrade. Threads of one process queue on a Python lock first (the SQLite busy handler polls).
- PostgreSQL: ``SET LOCAL lock_timeout`` then ``LOCK TABLE events IN EXCLUSIVE MODE``: appends are
  serialised, so positions (a sequence) become visible in order; readers are not blocked.

The store's schema is recognised by its marker, never by column names alone: the table
``brag_meta(key, value)`` holds ``('schema', 'bragbook')`` and ``('version', N)``
(:data:`STORE_VERSION`), and the ``events`` table must have Bragbook's columns, unique constraints
and append-only triggers. A store made before the marker (version 1: our table, our triggers, no
``brag_meta``) is migrated when a writer opens it, and read as it is by a reader. Anything else (a
look-alike ``events`` table of another program, another program's database, a newer version) is
refused with one line. Readers (``readonly=True``) open SQLite read-only (``mode=ro``) and
PostgreSQL in read-only transactions: they create and change nothing.

Version history: 1, the ``events`` table with UPDATE/DELETE (and on PostgreSQL TRUNCATE) refused by
triggers; 2, the marker and, on SQLite, a ``BEFORE INSERT`` trigger refusing a row whose position,
``id`` or ``(session, seq)`` is stored already, so ``INSERT OR REPLACE``, ``REPLACE INTO`` and an
UPSERT cannot rewrite a stored event (SQLite runs no DELETE trigger for REPLACE's implicit delete;
on PostgreSQL an ``ON CONFLICT DO UPDATE`` runs the UPDATE trigger); 3, the session catalogue
``brag_sessions``: one row per session (table, seats, cards mode, first and last ``at``, deals,
resolved and carried pots, finished, winners, last seq, events, first and last position), written
by every append in the same transaction as its events, so that listing sessions reads one small
table instead of every event. The migration to 3 fills it from the events
(:meth:`EventStore.recomputed_sessions`: the same rows as the appends write). A new version adds
its step to :data:`MIGRATIONS`.
"""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import date, datetime
from typing import Any, ClassVar, Final
from uuid import UUID

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.schema import CreateTable
from sqlmodel import Field, SQLModel

from events.store import (
    CorruptSession,
    DuplicateId,
    EventStore,
    Plan,
    Row,
    SeqTaken,
    SessionFilter,
    SessionInfo,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    event_from_row,
    parse_stored_at,
)

try:
    import fcntl
except ImportError:  # not on Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "BUSY_TIMEOUT_S",
    "LOCK_TIMEOUT_S",
    "META",
    "STORE_SCHEMA",
    "STORE_VERSION",
    "EventRecord",
    "PostgresStore",
    "SqliteStore",
]

BUSY_TIMEOUT_S: Final = 10.0
"""SQLite ``busy_timeout``: how long a writer waits for another's transaction (at least 5 s)."""
LOCK_TIMEOUT_S: Final = 10
"""PostgreSQL ``lock_timeout`` of an append's table lock."""
TABLE: Final = "events"
_QUIET: Final = logging.NullHandler()
META: Final = "brag_meta"
"""The schema marker table: ``(key TEXT PRIMARY KEY, value TEXT NOT NULL)``."""
STORE_SCHEMA: Final = "bragbook"
"""``brag_meta`` value of ``schema`` in a Bragbook store."""
STORE_VERSION: Final = 3
"""``brag_meta`` value of ``version`` this code writes (see the module docstring's history)."""
META_DDL: Final = f"CREATE TABLE IF NOT EXISTS {META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
CATALOGUE: Final = "brag_sessions"
"""The session catalogue (store version 3): one row per session, kept by every append."""
CATALOGUE_DDL: Final = (
    f"""CREATE TABLE IF NOT EXISTS {CATALOGUE} (
        session TEXT PRIMARY KEY,
        table_name TEXT,
        seats TEXT NOT NULL,
        cards TEXT NOT NULL,
        first_at TEXT,
        last_at TEXT,
        stored TEXT NOT NULL,
        started_us BIGINT NOT NULL,
        deals INTEGER NOT NULL,
        resolved_pots INTEGER NOT NULL,
        carried_pots INTEGER NOT NULL,
        finished BOOLEAN NOT NULL,
        winners TEXT NOT NULL,
        last_seq INTEGER NOT NULL,
        events INTEGER NOT NULL,
        first_position BIGINT NOT NULL,
        last_position BIGINT NOT NULL
    )""",
    f"CREATE INDEX IF NOT EXISTS {CATALOGUE}_started ON {CATALOGUE} (started_us, first_position)",
    f"CREATE INDEX IF NOT EXISTS {CATALOGUE}_stored ON {CATALOGUE} (first_position)",
)
"""``seats`` and ``winners`` are JSON arrays of names; ``first_at``/``last_at`` the ``at`` texts
as recorded (``NULL`` without times); ``stored`` when the first event was stored (ISO, UTC);
``started_us`` the listing's sort key (``first_at``, else ``stored``, as UTC microseconds)."""
CATALOGUE_COLUMNS: Final = (
    "session, table_name, seats, cards, first_at, last_at, stored, started_us, deals, "
    "resolved_pots, carried_pots, finished, winners, last_seq, events, first_position, "
    "last_position"
)
_UPSERT: Final = (
    f"INSERT INTO {CATALOGUE} ({CATALOGUE_COLUMNS}) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (session) DO UPDATE SET table_name = excluded.table_name, "
    "seats = excluded.seats, cards = excluded.cards, last_at = excluded.last_at, "
    "deals = excluded.deals, resolved_pots = excluded.resolved_pots, "
    "carried_pots = excluded.carried_pots, finished = excluded.finished, "
    "winners = excluded.winners, last_seq = excluded.last_seq, events = excluded.events, "
    "last_position = excluded.last_position"
)

_UPDATE: Final = (
    f"UPDATE {CATALOGUE} SET table_name = ?, seats = ?, cards = ?, "
    "last_at = coalesce(?, last_at), deals = ?, resolved_pots = ?, carried_pots = ?, "
    "finished = ?, winners = ?, last_seq = ?, events = ?, last_position = ? WHERE session = ?"
)


def _iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def catalogue_params(info: SessionInfo) -> tuple[Any, ...]:
    """The catalogue row of a :class:`SessionInfo`, in :data:`CATALOGUE_COLUMNS` order."""
    import json

    return (
        info.session,
        info.table,
        json.dumps(list(info.players), ensure_ascii=False),
        info.cards,
        _iso(info.first_at),
        _iso(info.last_at),
        _iso(info.stored),
        info.started_us,
        info.deals,
        info.resolved_pots,
        info.carried_pots,
        bool(info.finished),
        json.dumps(list(info.winners), ensure_ascii=False),
        info.last_seq,
        info.events,
        info.first_position,
        info.last_position,
    )


def catalogue_info(r: Any) -> SessionInfo:
    """A catalogue row read back as a :class:`SessionInfo`."""
    import json

    (session, table, seats, cards, first_at, last_at, stored, _, deals, resolved, carried,
     finished, winners, last_seq, events, first_position, last_position) = r  # fmt: skip
    stored_dt = parse_stored_at(stored)
    first_dt = datetime.fromisoformat(first_at) if first_at else None
    return SessionInfo(
        session=session,
        table=table,
        started=first_dt or stored_dt,
        players=tuple(json.loads(seats)),
        deals=int(deals),
        resolved_pots=int(resolved),
        carried_pots=int(carried),
        finished=bool(finished),
        winners=tuple(json.loads(winners)),
        last_seq=int(last_seq),
        cards=cards,
        last_at=datetime.fromisoformat(last_at) if last_at else None,
        events=int(events),
        first_position=int(first_position),
        last_position=int(last_position),
        stored=stored_dt,
        first_at=first_dt,
    )


def _create_catalogue(store: Any, conn: Any) -> None:
    """Version 3: the catalogue, filled from the events already stored (inside the opening
    transaction: a store being migrated is never listed half-filled)."""
    for stmt in CATALOGUE_DDL:
        conn.execute(stmt)
    infos = store.recomputed_sessions()
    if infos:
        cur = conn.cursor()
        cur.executemany(store._sql(_UPSERT), [catalogue_params(i) for i in infos])


class EventRecord(SQLModel, table=True):
    """One stored event (the only SQLModel class; events themselves are pydantic models).

    ``position`` is global and never reused (SQLite ``AUTOINCREMENT``, a PostgreSQL sequence);
    ``(session, seq)`` and ``id`` are unique. ``payload`` is the event's content as JSON (without
    ``type`` and envelope; PostgreSQL ``json``, not ``jsonb``, so the text and its key order are
    kept as written, e.g. ``nets`` in seat order); ``at`` is kept as the ISO text recorded (its
    offset is information); ``stored_at`` is UTC."""

    __tablename__ = TABLE
    __table_args__ = (
        UniqueConstraint("session", "seq", name="events_session_seq_key"),
        UniqueConstraint("id", name="events_id_key"),
        CheckConstraint("seq >= 1", name="events_seq_check"),
        CheckConstraint("v >= 1", name="events_v_check"),
        {"sqlite_autoincrement": True},
    )

    position: int | None = Field(
        default=None,
        sa_column=Column(
            "position",
            BigInteger().with_variant(Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
    )
    session: str = Field(sa_column=Column("session", Text(), nullable=False))
    seq: int = Field(sa_column=Column("seq", Integer(), nullable=False))
    id: str = Field(
        sa_column=Column(
            "id",
            String(36).with_variant(postgresql.UUID(as_uuid=True), "postgresql"),
            nullable=False,
        )
    )
    type: str = Field(sa_column=Column("type", Text(), nullable=False))
    v: int = Field(sa_column=Column("v", Integer(), nullable=False))
    payload: str = Field(
        sa_column=Column(
            "payload", Text().with_variant(postgresql.JSON(), "postgresql"), nullable=False
        )
    )
    at: str | None = Field(default=None, sa_column=Column("at", Text(), nullable=True))
    by: str | None = Field(default=None, sa_column=Column("by", Text(), nullable=True))
    stored_at: datetime = Field(
        sa_column=Column(
            "stored_at",
            Text().with_variant(postgresql.TIMESTAMP(timezone=True), "postgresql"),
            nullable=False,
        )
    )


COLUMNS: Final = "position, session, seq, id, type, v, payload, at, by, stored_at"
INSERT_COLUMNS: Final = "session, seq, id, type, v, payload, at, by, stored_at"


def create_table_sql(dialect: Any) -> str:
    return str(CreateTable(EventRecord.__table__, if_not_exists=True).compile(dialect=dialect))  # type: ignore[attr-defined]


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite store named by a plain path or a ``sqlite:///`` URL (query and
    escapes read as :func:`open_sql_store` reads them); ``None`` for any other store."""
    if "://" not in url:
        return url if url and url != ":memory:" else None
    try:
        u = make_url(url)
    except ArgumentError:
        return None
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return u.database


def open_sql_store(url: str, *, schema: str | None = None, readonly: bool = False) -> EventStore:
    """A SQL store for a SQLAlchemy URL or a plain SQLite file path (``readonly``: see
    :func:`events.store.open_store`)."""
    if "://" not in url:
        return SqliteStore(url, url, readonly=readonly)
    try:
        u = make_url(url)
    except ArgumentError as err:
        raise StoreUnavailable(f"cannot read the database URL {url!r}: {err}") from None
    backend = u.get_backend_name()
    if backend == "sqlite":
        if not u.database or u.database == ":memory:" or "mode=memory" in str(u.query):
            raise StoreUnavailable(
                "an SQLite store needs a file (WAL and synchronous=FULL); for a throw-away "
                "store use memory://"
            )
        return SqliteStore(url, u.database, readonly=readonly)
    if backend in ("postgresql", "postgres"):
        return PostgresStore(url, schema=schema, readonly=readonly)
    raise StoreUnavailable(
        f"unsupported database {backend!r} in {url!r}: use a file path, sqlite:///FILE, "
        "postgresql://USER@HOST/DB or memory://"
    )


# --- the shared SQL transaction -----------------------------------------------------------------


class _SqlTx:
    """The write-transaction primitives on one DBAPI connection (see :class:`events.store.Tx`)."""

    def __init__(self, store: _SqlStore, conn: Any) -> None:
        self.store = store
        self.conn = conn

    def find(self, ids: list[str]) -> list[StoredEvent]:
        if not ids:
            return []
        if self.store.MARK == "%s":
            cur = self.conn.execute(
                f"SELECT {COLUMNS} FROM {TABLE} WHERE id = ANY(%s::uuid[])", (ids,)
            )
        else:
            marks = ", ".join("?" * len(ids))
            cur = self.conn.execute(f"SELECT {COLUMNS} FROM {TABLE} WHERE id IN ({marks})", ids)
        return [self.store._row(r) for r in cur.fetchall()]

    def last_seq(self, session: str) -> int:
        return self.store._last_seq_on(self.conn, session)

    def record(self, plan: Plan, positions: list[int], stored_at: datetime) -> None:
        from events.store import session_row

        store = self.store
        info = session_row(plan.session, plan.state, plan.rows, positions, stored_at, None)
        if plan.expected:
            # A later append: one UPDATE of what moves (the first time, store time and position
            # stay as written), without reading the row first.
            p = catalogue_params(info)
            cur = self.conn.execute(store._sql(_UPDATE), (*p[1:4], p[5], *p[8:15], p[16], p[0]))
            if cur.rowcount == 1:
                return
            # No row although the session has events (written around Bragbook): its first ones.
            before = store._first_of(self.conn, plan)
            info = session_row(plan.session, plan.state, plan.rows, positions, stored_at, before)
        self.conn.execute(store._sql(_UPSERT), catalogue_params(info))

    def insert(self, rows: list[Row], stored_at: datetime) -> list[int]:
        try:
            return self.store._insert(self.conn, rows, stored_at)
        except Exception as err:
            taken = self.store._taken(err)
            if taken == "id":
                raise DuplicateId(str(err)) from None
            if taken == "seq":
                raise SeqTaken(str(err)) from None
            raise


def _journal_mode_wal(conn: sqlite3.Connection) -> str:
    """Sets WAL mode and returns the mode SQLite reports. Turning a new database to WAL takes an
    exclusive lock for which SQLite calls no busy handler, so two processes opening one new store
    at once (two imports) could see "database is locked" here: it is tried again, within the
    store's busy timeout, before it is an error."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class _SqlStore(EventStore):
    MARK: ClassVar[str] = "?"
    PAYLOAD_TEXT: ClassVar[str] = "payload"
    readonly: bool = False

    # -- connections: one per thread, closed once its thread has ended ---------------------------

    _all: list[tuple[threading.Thread, Any]]
    _all_guard: threading.Lock

    def _keep(self, conn: Any) -> None:
        """Registers ``conn`` as the calling thread's connection, and closes the connections of
        threads that have ended. A server that runs each request on a new thread (Streamlit runs
        every page run on one) so holds one connection per live thread, not one per request ever
        served: a PostgreSQL server's connection limit is never reached by old requests."""
        with self._all_guard:
            live: list[tuple[threading.Thread, Any]] = []
            dead: list[Any] = []
            for thread, c in self._all:
                (live if thread.is_alive() else dead).append((thread, c))
            live.append((threading.current_thread(), conn))
            self._all = live
        for _, c in dead:
            with suppress(Exception):
                c.close()

    def _close_all(self) -> None:
        """Closes every connection the store opened, in every thread."""
        with self._all_guard:
            conns, self._all = self._all, []
        for _, c in conns:
            with suppress(Exception):
                c.close()
        self._local = threading.local()

    # -- the schema: marker, version, checks, migrations ----------------------------------------

    def _tables(self, conn: Any) -> set[str]:
        """The names of the tables where the store's tables live (SQLite's own excluded)."""
        raise NotImplementedError

    def _problems(self, conn: Any, version: int) -> list[str]:
        """What makes the ``events`` table other than Bragbook's at ``version`` (empty: ours)."""
        raise NotImplementedError

    def _create(self, conn: Any) -> None:
        """Makes a new store at :data:`STORE_VERSION` (inside the caller's transaction)."""
        raise NotImplementedError

    MIGRATIONS: ClassVar[dict[int, Callable[[Any, Any], None]]] = {}
    """Version ``n`` → the step that takes a store from ``n`` to ``n + 1`` (``(store, conn)``,
    inside the opening transaction; the version row is written after each step)."""

    def _refuse(self, why: str) -> StoreUnavailable:
        return StoreUnavailable(f"{self.where}: {why}; it was not opened")

    def _set_version(self, conn: Any, version: int) -> None:
        conn.execute(self._sql(f"DELETE FROM {META} WHERE key = 'version'"))
        conn.execute(
            self._sql(f"INSERT INTO {META} (key, value) VALUES ('version', ?)"), (str(version),)
        )

    def _mark(self, conn: Any) -> None:
        """Creates ``brag_meta`` with the schema row (the version row follows)."""
        conn.execute(META_DDL)
        conn.execute(
            self._sql(f"INSERT INTO {META} (key, value) VALUES ('schema', ?)"), (STORE_SCHEMA,)
        )
        self._set_version(conn, STORE_VERSION)

    def _open_schema(self, conn: Any, *, change: bool) -> int:
        """Recognises the store inside the caller's transaction (a writer's is exclusive) and,
        with ``change``, creates a new one or migrates an older one; refuses anything else with
        one line (:class:`StoreUnavailable`). Returns the version of the store as it is now (0:
        nothing there yet, without ``change``)."""
        tables = self._tables(conn)
        marked = META in tables
        if marked:
            meta = {str(k): str(v) for k, v in conn.execute(f"SELECT key, value FROM {META}")}
            if meta.get("schema") != STORE_SCHEMA:
                raise self._refuse(
                    f"its table {META} does not mark a Bragbook store "
                    f"(schema {meta.get('schema')!r})"
                )
            text = meta.get("version", "")
            if not (text.isascii() and text.isdigit()):
                raise self._refuse(f"its store version {text!r} is not a number")
            version = int(text)
            if version > STORE_VERSION:
                raise self._refuse(
                    f"store version {version} was made by a newer Bragbook (this one knows "
                    f"versions up to {STORE_VERSION})"
                )
            if TABLE not in tables:
                raise self._refuse(f"it is marked as a Bragbook store but has no {TABLE} table")
        elif TABLE in tables:
            version = 1  # made before the marker: ours if its table and triggers are
        elif tables:
            shown = ", ".join(sorted(tables)[:4]) + (", ..." if len(tables) > 4 else "")
            raise self._refuse(f"it is another program's database (tables {shown})")
        else:
            if not change:
                return 0
            self._create(conn)
            self._mark(conn)
            return STORE_VERSION
        problems = self._problems(conn, version)
        if problems:
            raise self._refuse(
                f"its table {TABLE!r} is not Bragbook's event log ({'; '.join(problems)})"
            )
        if not change:
            return version
        if not marked:
            conn.execute(META_DDL)
            conn.execute(
                self._sql(f"INSERT INTO {META} (key, value) VALUES ('schema', ?)"), (STORE_SCHEMA,)
            )
        while version < STORE_VERSION:
            self.MIGRATIONS[version](self, conn)
            version += 1
            self._set_version(conn, version)
        return version

    def _check_writable(self) -> None:
        if self.readonly:
            raise StoreError(f"{self.where} was opened for reading: nothing can be stored")

    def _taken(self, err: Exception) -> str | None:
        """``"id"`` or ``"seq"`` when ``err`` is the table's unique id or (session, seq)."""
        raise NotImplementedError

    def _conn(self) -> Any:
        raise NotImplementedError

    def _insert(self, conn: Any, rows: list[Row], stored_at: datetime) -> list[int]:
        raise NotImplementedError

    def _row(self, r: Any) -> StoredEvent:
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

    def _sql(self, text: str) -> str:
        return text if self.MARK == "?" else text.replace("?", self.MARK)

    def _query(self, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._errors():
            return list(self._conn().execute(self._sql(text), params).fetchall())

    @contextmanager
    def _errors(self) -> Iterator[None]:
        yield

    def _load(self, session: str, upto: int | None = None) -> list[StoredEvent]:
        if upto is None:
            rows = self._query(
                f"SELECT {COLUMNS} FROM {TABLE} WHERE session = ? ORDER BY seq", (session,)
            )
        else:
            rows = self._query(
                f"SELECT {COLUMNS} FROM {TABLE} WHERE session = ? AND seq <= ? ORDER BY seq",
                (session, upto),
            )
        return [self._row(r) for r in rows]

    def _find(self, ids: list[str]) -> list[StoredEvent]:
        with self._errors():
            return _SqlTx(self, self._conn()).find(ids)

    def _last_seq_on(self, conn: Any, session: str) -> int:
        cur = conn.execute(self._sql(f"SELECT max(seq) FROM {TABLE} WHERE session = ?"), (session,))
        got = cur.fetchone()[0]
        return int(got) if got is not None else 0

    def last_seq(self, session: str) -> int:
        with self._errors():
            return self._last_seq_on(self._conn(), session)

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[StoredEvent]:
        rows = self._query(
            f"SELECT {COLUMNS} FROM {TABLE} WHERE position > ? ORDER BY position LIMIT ?",
            (after, limit),
        )
        return [self._row(r) for r in rows]

    def last_position(self) -> int:
        got = self._query(f"SELECT max(position) FROM {TABLE}")[0][0]
        return int(got) if got is not None else 0

    # -- the session catalogue (version 3) --------------------------------------------------------

    def _catalogued(self) -> bool:
        return int(getattr(self, "version", 0)) >= 3

    def _where(self, unfinished: bool, where: SessionFilter | None) -> tuple[str, tuple[Any, ...]]:
        """The catalogue's WHERE clause for a :class:`SessionFilter` (values bound)."""
        import json

        f = where or SessionFilter()
        conds: list[str] = []
        params: list[Any] = []
        if unfinished or f.unfinished:
            conds.append("NOT finished")
        for p in f.players:  # seats is a JSON array: the quoted name, LIKE's wildcards escaped
            text = json.dumps(p, ensure_ascii=False)
            text = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            conds.append("seats LIKE ? ESCAPE '\\'")
            params.append(f"%{text}%")
        if f.tables:
            named = [t for t in f.tables if t is not None]
            alts = [f"table_name IN ({', '.join('?' * len(named))})"] if named else []
            if None in f.tables:
                alts.append("table_name IS NULL")
            conds.append("(" + " OR ".join(alts) + ")")
            params += named
        if f.dates is not None:  # the recorded start's own calendar date: its ISO text's head
            conds.append("substr(coalesce(first_at, stored), 1, 10) BETWEEN ? AND ?")
            params += [f.dates[0].isoformat(), f.dates[1].isoformat()]
        return (" WHERE " + " AND ".join(conds) if conds else ""), tuple(params)

    def sessions(
        self,
        *,
        order: str = "stored",
        limit: int | None = None,
        offset: int = 0,
        unfinished: bool = False,
        where: SessionFilter | None = None,
    ) -> list[SessionInfo]:
        if not self._catalogued():  # a version 2 store opened for reading: not migrated
            return super().sessions(
                order=order, limit=limit, offset=offset, unfinished=unfinished, where=where
            )
        by = {
            "stored": "first_position",
            "oldest": "started_us, first_position",
            "newest": "started_us DESC, first_position DESC",
        }.get(order)
        if by is None:
            raise ValueError(f"order is one of stored, oldest, newest, not {order!r}")
        cond, params = self._where(unfinished, where)
        page = " LIMIT ? OFFSET ?" if limit is not None or offset else ""
        everything = -1 if self.MARK == "?" else None  # SQLite: LIMIT -1; PostgreSQL: NULL
        if page:
            params += (everything if limit is None else limit, offset)
        rows = self._query(
            f"SELECT {CATALOGUE_COLUMNS} FROM {CATALOGUE}{cond} ORDER BY {by}{page}", params
        )
        return [catalogue_info(r) for r in rows]

    def session_info(self, session: str) -> SessionInfo | None:
        if not self._catalogued():
            return super().session_info(session)
        rows = self._query(
            f"SELECT {CATALOGUE_COLUMNS} FROM {CATALOGUE} WHERE session = ?", (session,)
        )
        return catalogue_info(rows[0]) if rows else None

    def session_count(self, *, unfinished: bool = False, where: SessionFilter | None = None) -> int:
        if not self._catalogued():
            return super().session_count(unfinished=unfinished, where=where)
        cond, params = self._where(unfinished, where)
        return int(self._query(f"SELECT count(*) FROM {CATALOGUE}{cond}", params)[0][0])

    def session_facets(self) -> tuple[list[str], list[str | None], tuple[date, date] | None]:
        if not self._catalogued():
            return super().session_facets()
        seats = (
            f"SELECT DISTINCT j.value FROM {CATALOGUE}, json_each({CATALOGUE}.seats) j"
            if self.MARK == "?"
            else f"SELECT DISTINCT jsonb_array_elements_text(seats::jsonb) FROM {CATALOGUE}"
        )
        players = sorted(str(r[0]) for r in self._query(seats))
        names = self._query(f"SELECT DISTINCT table_name FROM {CATALOGUE}")
        named = sorted(str(r[0]) for r in names if r[0] is not None)
        tables: list[str | None] = [*named, *([None] if any(r[0] is None for r in names) else [])]
        day = "substr(coalesce(first_at, stored), 1, 10)"
        lo, hi = self._query(f"SELECT min({day}), max({day}) FROM {CATALOGUE}")[0]
        span = (date.fromisoformat(lo), date.fromisoformat(hi)) if lo and hi else None
        return players, tables, span

    def _first_of(self, conn: Any, plan: Plan) -> SessionInfo | None:
        """The session's first event's time, store time and position, for a session the
        catalogue does not hold yet although it has events (only a row written by a program
        other than Bragbook; the catalogue is filled when a store is migrated)."""
        got = conn.execute(
            self._sql(f"SELECT at, stored_at, position FROM {TABLE} WHERE session = ? AND seq = 1"),
            (plan.session,),
        ).fetchone()
        if got is None:
            return None
        stored = parse_stored_at(got[1])
        first_at = datetime.fromisoformat(got[0]) if got[0] else None
        return SessionInfo(
            session=plan.session, table=None, players=(), deals=0, resolved_pots=0,
            carried_pots=0, finished=False, winners=(), last_seq=0, started=first_at or stored,
            stored=stored, first_position=int(got[2]), first_at=first_at,
        )  # fmt: skip

    def rebuild_catalogue(self) -> int:
        """Writes the catalogue again from the events (one transaction): for rows written
        around Bragbook (a bulk copy). Returns the number of sessions."""
        self._check_writable()
        infos = self.recomputed_sessions()
        with self._transaction() as tx:
            tx.conn.execute(f"DELETE FROM {CATALOGUE}")
            if infos:
                tx.conn.cursor().executemany(
                    self._sql(_UPSERT), [catalogue_params(i) for i in infos]
                )
        return len(infos)

    def _summaries(self) -> list[dict[str, Any]]:
        p = self.PAYLOAD_TEXT
        rows = self._query(
            f"""
            SELECT session, max(seq), min(position), max(position),
                   sum(CASE WHEN type = 'dealt' THEN 1 ELSE 0 END),
                   sum(CASE WHEN type = 'pot_won' THEN 1 ELSE 0 END),
                   sum(CASE WHEN type = 'pot_carried' THEN 1 ELSE 0 END),
                   sum(CASE WHEN type = 'voided' THEN 1 ELSE 0 END),
                   max(CASE WHEN type = 'session_ended' THEN {p} END),
                   max(CASE WHEN seq = 1 THEN {p} END),
                   max(CASE WHEN seq = 1 THEN at END),
                   min(stored_at)
            FROM {TABLE} GROUP BY session ORDER BY min(position)
            """
        )
        import json

        last_at = dict(
            self._query(
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
            f["at_dt"] = datetime.fromisoformat(at) if at else None
            out.append(
                {
                    "session": session,
                    "last_seq": int(last),
                    "deals": int(deals),
                    "won": int(won),
                    "carried": int(carried),
                    "voided": int(voided),
                    "ended": ended,
                    "first": f,
                    "stored_at": parse_stored_at(stored),
                    "first_position": int(first_pos),
                    "last_position": int(last_pos),
                    "last_at": datetime.fromisoformat(last_at[session])
                    if last_at.get(session)
                    else None,
                }
            )
        return out


# --- SQLite ---------------------------------------------------------------------------------------

_PROCESS_LOCKS: dict[str, threading.Lock] = {}
_PROCESS_LOCKS_GUARD = threading.Lock()


def _process_lock(path: str) -> threading.Lock:
    key = os.path.realpath(path)
    with _PROCESS_LOCKS_GUARD:
        lock = _PROCESS_LOCKS.get(key)
        if lock is None:
            lock = _PROCESS_LOCKS[key] = threading.Lock()
        return lock


class _Appenders:
    """The queue of Bragbook writers of one SQLite file: threads of a process on a Python lock,
    processes on an ``flock`` of ``FILE-appenders``, polled every 0.1 to 2 ms up to
    ``BUSY_TIMEOUT_S``. SQLite's own busy handler sleeps 1, 2, 5, 10... ms between tries, far
    longer than an append holds the lock; this hands the lock over within a fraction of a
    millisecond. ``BEGIN IMMEDIATE`` and ``busy_timeout`` still guard against other programs.
    The kernel drops the flock of a killed process."""

    def __init__(self, path: str) -> None:
        self.threads = _process_lock(path)
        self.path = path + "-appenders"
        self.fd: int | None = None
        self.pid = os.getpid()

    @contextmanager
    def hold(self) -> Iterator[None]:
        with self.threads:
            fd = self._fd()
            if fd is None:
                yield
                return
            self._lock(fd)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _fd(self) -> int | None:
        if fcntl is None:
            return None
        if self.fd is None or self.pid != os.getpid():
            self.pid = os.getpid()
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:
                self.fd = None  # a read-only directory: SQLite's busy handler alone
        return self.fd

    def _lock(self, fd: int) -> None:
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause = 0.0001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StoreUnavailable(
                        f"SQLite store {self.path[: -len('-appenders')]}: another writer held "
                        f"the store for {BUSY_TIMEOUT_S:g} s; nothing was stored"
                    ) from None
                time.sleep(pause)
                pause = min(pause * 1.5, 0.002)

    def close(self) -> None:
        if self.fd is not None and self.pid == os.getpid():
            with suppress(OSError):
                os.close(self.fd)
        self.fd = None


SQLITE_TRIGGERS: Final = {
    "events_no_update": f"""CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, 'the events table is append-only: UPDATE is refused'); END""",
    "events_no_delete": f"""CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, 'the events table is append-only: DELETE is refused'); END""",
    # Version 2. REPLACE deletes the conflicting row without running the DELETE trigger (unless
    # recursive_triggers is on): a row may only be inserted where none is stored. The messages
    # name the columns as SQLite's own UNIQUE errors do (SqliteStore._taken reads them).
    "events_no_overwrite": f"""CREATE TRIGGER IF NOT EXISTS events_no_overwrite
    BEFORE INSERT ON {TABLE}
    BEGIN
      SELECT RAISE(ABORT, 'the events table is append-only: {TABLE}.id is stored already')
        WHERE EXISTS (SELECT 1 FROM {TABLE} WHERE id = NEW.id);
      SELECT RAISE(ABORT,
        'the events table is append-only: {TABLE}.session, {TABLE}.seq is stored already')
        WHERE EXISTS (SELECT 1 FROM {TABLE} WHERE session = NEW.session AND seq = NEW.seq);
      SELECT RAISE(ABORT, 'the events table is append-only: {TABLE}.position is stored already')
        WHERE EXISTS (SELECT 1 FROM {TABLE} WHERE position = NEW.position);
    END""",
}
SQLITE_TRIGGERS_OF: Final = {
    1: ("events_no_update", "events_no_delete"),
    2: tuple(SQLITE_TRIGGERS),
    3: tuple(SQLITE_TRIGGERS),
}
"""The triggers a SQLite store of each version has."""


@functools.cache
def _sqlite_reference() -> tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]:
    """Bragbook's table as SQLite describes it (``PRAGMA table_info`` rows without the column
    number; the column tuples of the unique indexes), made in a scratch in-memory database."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(create_table_sql(sqlite.dialect()))
        return _sqlite_shape(conn)
    finally:
        conn.close()


def _sqlite_shape(conn: sqlite3.Connection) -> tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]:
    cols = [tuple(r[1:]) for r in conn.execute(f"PRAGMA table_info({TABLE})")]
    uniques = set()
    for idx in conn.execute(f"PRAGMA index_list({TABLE})").fetchall():
        if idx[2]:  # unique
            name = idx[1].replace('"', '""')
            uniques.add(tuple(r[2] for r in conn.execute(f'PRAGMA index_info("{name}")')))
    return cols, uniques


def _column_problems(cols: Sequence[Sequence[Any]], want: Sequence[Sequence[Any]]) -> list[str]:
    """How a table's columns (name first, then type and constraints) differ from Bragbook's."""
    if list(map(tuple, cols)) == list(map(tuple, want)):
        return []
    names = [c[0] for c in cols]
    wanted = [c[0] for c in want]
    if names != wanted:
        return [f"columns {', '.join(names)}; Bragbook's are {', '.join(wanted)}"]
    return ["its columns' types or constraints differ from Bragbook's"]


def _sqlite_v2(store: Any, conn: sqlite3.Connection) -> None:
    conn.execute(SQLITE_TRIGGERS["events_no_overwrite"])


class SqliteStore(_SqlStore):
    """The embedded store: one SQLite file in WAL mode, ``synchronous=FULL``. ``readonly`` opens
    the file read-only (it must exist; nothing is created, changed or migrated)."""

    MIGRATIONS: ClassVar[dict[int, Callable[[Any, Any], None]]] = {
        1: _sqlite_v2,
        2: _create_catalogue,
    }

    def __init__(self, url: str, path: str, *, readonly: bool = False) -> None:
        super().__init__(url)
        self.path = path
        self.readonly = readonly
        self._local = threading.local()
        self._all = []
        self._all_guard = threading.Lock()
        self._pid = os.getpid()
        self._appenders = _Appenders(path)
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise StoreUnavailable(
                f"cannot open the SQLite store {path!r}: no directory {parent!r}"
            )
        if readonly and not os.path.exists(path):
            raise StoreUnavailable(
                f"no event store at {path} (store sessions first: brag import FILE...)"
            )
        with self._errors():
            if readonly or (os.path.exists(path) and os.path.getsize(path) > 0):
                # Looked at read-only first: a foreign database is refused before a writer's
                # connection switches it to WAL.
                self.version = self._look()
                if readonly:
                    if self.version == 0:
                        raise StoreUnavailable(
                            f"no event store at {path} yet (store sessions first: brag import "
                            "FILE...)"
                        )
                    return
            conn = self._conn()
            with self._appenders.hold():
                conn.execute("BEGIN IMMEDIATE")
                try:
                    self.version = self._open_schema(conn, change=True)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise

    def _look(self) -> int:
        """The store's version, seen on a read-only connection (0: an empty database)."""
        conn = self._conn() if self.readonly else self._connect_readonly()
        try:
            conn.execute("BEGIN")  # one snapshot for the checks
            try:
                return self._open_schema(conn, change=False)
            finally:
                conn.execute("ROLLBACK")
        finally:
            if not self.readonly:
                conn.close()

    def _tables(self, conn: Any) -> set[str]:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        return {r[0] for r in rows}

    def _problems(self, conn: Any, version: int) -> list[str]:
        cols, uniques = _sqlite_shape(conn)
        want_cols, want_uniques = _sqlite_reference()
        out = _column_problems(cols, want_cols)
        for u in sorted(want_uniques - uniques):
            out.append(f"no unique ({', '.join(u)})")
        ddl = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
        ).fetchone()[0]
        if "AUTOINCREMENT" not in str(ddl).upper():
            out.append("its positions are not AUTOINCREMENT")
        triggers = {
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", (TABLE,)
            )
        }
        missing = [t for t in SQLITE_TRIGGERS_OF[version] if t not in triggers]
        if missing:
            out.append(f"no append-only trigger {', '.join(missing)}")
        return out

    def _create(self, conn: Any) -> None:
        conn.execute(create_table_sql(sqlite.dialect()))
        for t in SQLITE_TRIGGERS.values():
            conn.execute(t)
        for stmt in CATALOGUE_DDL:
            conn.execute(stmt)

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"

    @property
    def where(self) -> str:
        """The file's absolute path (a relative ``--db`` depends on the working directory)."""
        return os.path.abspath(self.path)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as err:
            raise StoreError(f"SQLite store {self.path}: {err}") from None

    def _conn(self) -> sqlite3.Connection:
        if self._pid != os.getpid():  # forked: never share the parent's connections
            self._local = threading.local()
            self._all = []
            self._pid = os.getpid()
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open_connection()
            self._local.conn = conn
            self._keep(conn)
        return conn

    def _open_connection(self) -> sqlite3.Connection:
        if self.readonly:
            return self._connect_readonly()
        try:
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_S,
                isolation_level=None,  # we issue BEGIN IMMEDIATE / COMMIT ourselves
                check_same_thread=False,
                cached_statements=64,
            )
            mode = _journal_mode_wal(conn)
            conn.execute("PRAGMA synchronous=FULL")
            sync = conn.execute("PRAGMA synchronous").fetchone()[0]
            busy = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        except sqlite3.Error as err:
            raise StoreUnavailable(f"cannot open the SQLite store {self.path!r}: {err}") from None
        problems = []
        if str(mode).lower() != "wal":
            problems.append(f"journal_mode is {mode}, not wal")
        if sync != 2:
            problems.append(f"synchronous is {sync}, not 2 (FULL)")
        if busy < 5000:
            problems.append(f"busy_timeout is {busy} ms, under 5000")
        if problems:
            conn.close()
            raise StoreUnavailable(f"SQLite store {self.path}: {'; '.join(problems)}")
        return conn

    def _connect_readonly(self) -> sqlite3.Connection:
        """A ``mode=ro`` connection. A WAL store needs its ``-shm`` file to be read; when neither
        it nor ``-wal`` exists and the reader may not create them (a user who may read but not
        write the store's folder), nothing is being written: the file is read ``immutable``."""
        base = f"file:{urllib.parse.quote(os.path.abspath(self.path))}?mode=ro"
        try:
            try:
                conn = self._uri_connect(base)
            except sqlite3.OperationalError as err:
                gone = not any(os.path.exists(self.path + x) for x in ("-wal", "-shm"))
                if not gone or "readonly" not in str(err):
                    raise
                conn = self._uri_connect(base + "&immutable=1")
        except sqlite3.Error as err:
            raise StoreUnavailable(
                f"cannot open the SQLite store {self.path!r} for reading: {err}"
            ) from None
        return conn

    def _uri_connect(self, uri: str) -> sqlite3.Connection:
        conn = sqlite3.connect(
            uri,
            uri=True,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
            check_same_thread=False,
            cached_statements=64,
        )
        try:
            conn.execute("PRAGMA query_only=ON")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            conn.close()
            raise
        return conn

    def settings(self) -> dict[str, Any]:
        """The connection's settings as SQLite reports them (checked when the store opens)."""
        c = self._conn()
        return {
            "journal_mode": c.execute("PRAGMA journal_mode").fetchone()[0],
            "synchronous": c.execute("PRAGMA synchronous").fetchone()[0],
            "busy_timeout": c.execute("PRAGMA busy_timeout").fetchone()[0],
        }

    @contextmanager
    def _transaction(self) -> Iterator[_SqlTx]:
        self._check_writable()
        conn = self._conn()
        with self._appenders.hold(), self._errors():
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield _SqlTx(self, conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # also when COMMIT itself failed (a full disk)
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    def _taken(self, err: Exception) -> str | None:
        if not isinstance(err, sqlite3.IntegrityError):
            return None
        text = str(err)
        if f"{TABLE}.session, {TABLE}.seq" in text:
            return "seq"
        if f"{TABLE}.id" in text:
            return "id"
        return None

    def _insert(self, conn: sqlite3.Connection, rows: list[Row], stored_at: datetime) -> list[int]:
        at = stored_at.isoformat()
        conn.executemany(
            f"INSERT INTO {TABLE} ({INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.session, r.seq, r.id, r.type, r.v, r.payload, r.at, r.by, at) for r in rows],
        )
        last = conn.execute("SELECT last_insert_rowid()").fetchone()[0]
        # Inside BEGIN IMMEDIATE nobody else inserts: AUTOINCREMENT gave consecutive positions.
        return list(range(last - len(rows) + 1, last + 1))

    def close(self) -> None:
        self._close_all()
        self._appenders.close()

    def reopen(self) -> SqliteStore:
        return SqliteStore(self.url, self.path, readonly=self.readonly)


# --- PostgreSQL -----------------------------------------------------------------------------------


def _pg_ddl() -> list[str]:
    return [
        create_table_sql(postgresql.psycopg.dialect()),  # type: ignore[no-untyped-call]
        f"""CREATE OR REPLACE FUNCTION {TABLE}_append_only() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION 'the events table is append-only: % is refused', TG_OP
                USING ERRCODE = 'restrict_violation';
            END $$""",
        f"""CREATE OR REPLACE TRIGGER {TABLE}_no_update_delete
            BEFORE UPDATE OR DELETE ON {TABLE}
            FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_append_only()""",
        f"""CREATE OR REPLACE TRIGGER {TABLE}_no_truncate
            BEFORE TRUNCATE ON {TABLE}
            FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_append_only()""",
    ]


PG_COLUMNS: Final = [
    ("position", "bigint", True),
    ("session", "text", True),
    ("seq", "integer", True),
    ("id", "uuid", True),
    ("type", "text", True),
    ("v", "integer", True),
    ("payload", "json", True),
    ("at", "text", False),
    ("by", "text", False),
    ("stored_at", "timestamp with time zone", True),
]
"""Bragbook's table as PostgreSQL describes it: (name, ``format_type``, not null)."""
PG_CONSTRAINTS: Final = {
    "events_session_seq_key": ("u", ["session", "seq"]),
    "events_id_key": ("u", ["id"]),
}
PG_TRIGGERS: Final = (f"{TABLE}_no_update_delete", f"{TABLE}_no_truncate")


def _pg_v2(store: Any, conn: Any) -> None:
    """Version 2 on PostgreSQL is the marker alone: an ``ON CONFLICT DO UPDATE`` already runs the
    statement-level UPDATE trigger, and there is no REPLACE."""


class PostgresStore(_SqlStore):
    """The server store (psycopg 3). ``schema`` puts the table in that schema (created if needed);
    otherwise the connection's ``search_path`` decides. ``readonly``: every transaction is read
    only and nothing is created or migrated."""

    MARK = "%s"
    PAYLOAD_TEXT = "payload::text"
    MIGRATIONS: ClassVar[dict[int, Callable[[Any, Any], None]]] = {
        1: _pg_v2,
        2: _create_catalogue,
    }

    def __init__(self, url: str, *, schema: str | None = None, readonly: bool = False) -> None:
        super().__init__(url)
        import psycopg

        # psycopg logs "error ignored terminating <psycopg.Pipeline ...>" when an insert meets a
        # unique constraint inside executemany's pipeline: the store handles that refusal (it
        # looks at what is stored), so the line is not for the user's terminal.
        logging.getLogger("psycopg").addHandler(_QUIET)
        self._psycopg = psycopg
        u = make_url(url)
        self.schema = schema
        self.readonly = readonly
        self._conninfo = u.set(drivername="postgresql").render_as_string(hide_password=False)
        self._shown = u.render_as_string(hide_password=True)
        self._local = threading.local()
        self._all = []
        self._all_guard = threading.Lock()
        self._pid = os.getpid()
        conn = self._conn()
        with self._errors(), conn.transaction():
            if not readonly:
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('bragbook.events.ddl'))")
                if schema:
                    from psycopg import sql

                    conn.execute(
                        sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema))
                    )
            self.version = self._open_schema(conn, change=not readonly)
            if self.version == 0:
                raise StoreUnavailable(
                    f"no event store in {self.where} yet (store sessions first: brag import "
                    "FILE...)"
                )

    def _tables(self, conn: Any) -> set[str]:
        # A server database is shared: only our two names in the store's schema matter.
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename IN (%s, %s)",
            (TABLE, META),
        )
        return {r[0] for r in rows}

    def _problems(self, conn: Any, version: int) -> list[str]:
        rel = "to_regclass(quote_ident(current_schema()) || '.' || %s)"
        cols = [
            (r[0], r[1], bool(r[2]))
            for r in conn.execute(
                "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute "
                f"WHERE attrelid = {rel} AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                (TABLE,),
            )
        ]
        out = _column_problems(cols, PG_COLUMNS)
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

    def _create(self, conn: Any) -> None:
        for stmt in (*_pg_ddl(), *CATALOGUE_DDL):
            conn.execute(stmt)

    def __repr__(self) -> str:
        return f"PostgresStore({self._shown!r})"

    @property
    def where(self) -> str:
        return self._shown + (f" (schema {self.schema})" if self.schema else "")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        pg = self._psycopg
        try:
            yield
        except pg.errors.LockNotAvailable:
            raise StoreUnavailable(
                f"{self._shown}: the event table stayed locked by another writer for "
                f"{LOCK_TIMEOUT_S} s; nothing was stored"
            ) from None
        except pg.OperationalError as err:
            msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreUnavailable(f"PostgreSQL store {self._shown}: {msg}") from None
        except pg.Error as err:
            msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreError(f"PostgreSQL store {self._shown}: {msg}") from None

    def _conn(self) -> Any:
        if self._pid != os.getpid():
            self._local = threading.local()
            self._all = []
            self._pid = os.getpid()
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            pg = self._psycopg
            try:
                conn = pg.connect(self._conninfo, autocommit=True, connect_timeout=5)
                if self.readonly:
                    conn.execute("SET default_transaction_read_only = on")
                if self.schema:
                    conn.execute(
                        pg.sql.SQL("SET search_path TO {}").format(pg.sql.Identifier(self.schema))
                    )
            except pg.Error as err:
                msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise StoreUnavailable(
                    f"cannot connect to the PostgreSQL store {self._shown}: {msg}"
                ) from None
            self._local.conn = conn
            self._keep(conn)
        return conn

    @contextmanager
    def _transaction(self) -> Iterator[_SqlTx]:
        self._check_writable()
        conn = self._conn()
        pg = self._psycopg
        with self._errors():
            try:
                with conn.transaction():
                    conn.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT_S}s'")
                    conn.execute(f"LOCK TABLE {TABLE} IN EXCLUSIVE MODE")
                    yield _SqlTx(self, conn)
            except pg.errors.UniqueViolation as err:
                # Only a writer that bypasses the lock could get here; still never a driver error.
                raise StoreError(f"PostgreSQL store {self._shown}: {err}") from None

    def _taken(self, err: Exception) -> str | None:
        if not isinstance(err, self._psycopg.errors.UniqueViolation):
            return None
        return {"events_id_key": "id", "events_session_seq_key": "seq"}.get(
            err.diag.constraint_name or ""
        )

    def _insert(self, conn: Any, rows: list[Row], stored_at: datetime) -> list[int]:
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
        self._close_all()

    def reopen(self) -> PostgresStore:
        return PostgresStore(self.url, schema=self.schema, readonly=self.readonly)
