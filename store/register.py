"""The register's facts beside the log (store version 8, issue 35 item 2): the organiser's
``merge A into B``, ``rename A to B`` and their undoing, kept in the store, never in the events.

``brag_register(position, kind, name, target, undoes, at, by)``, append-only (UPDATE and DELETE
refused by triggers, as the events'):

- ``('merge', A, B, NULL)``: the recorded name ``A`` is the player ``B`` (one of the club's
  names) from now on, in the statistics;
- ``('rename', A, B, NULL)``: the player ``A`` is called ``B`` from now on (``B`` a new name);
- ``('undo', A, B, P)``: the fact at position ``P`` (its ``A`` and ``B`` repeated) no longer
  holds. An undo is a fact too: nothing is ever deleted.

Never events: the log, ``brag export`` and a replay never see a row; the projection reads them
(:mod:`log.register` folds them, :mod:`analytics.register` re-keys the statistics). Written only
inside the store's write transaction (:meth:`store.port.Recorder.transaction`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

__all__ = [
    "REGISTER",
    "REGISTER_COLUMNS",
    "VERSION",
    "RegisterFact",
    "RegisterReads",
    "SqlRegister",
    "pg_register_ddl",
    "pg_v8",
    "sqlite_register_ddl",
    "sqlite_v8",
]

REGISTER: Final = "brag_register"
VERSION: Final = 8
"""The store version that made the table (:data:`store.schema.STORE_VERSION` history)."""
REGISTER_COLUMNS: Final = "position, kind, name, target, undoes, at, by"
_INSERT: Final = (
    f"INSERT INTO {REGISTER} (kind, name, target, undoes, at, by) VALUES (?, ?, ?, ?, ?, ?) "
    "RETURNING position"
)
_SELECT: Final = f"SELECT {REGISTER_COLUMNS} FROM {REGISTER} ORDER BY position"
COLUMNS_DDL: Final = (
    "kind TEXT NOT NULL CHECK (kind IN ('merge', 'rename', 'undo')), "
    "name TEXT NOT NULL, target TEXT NOT NULL, undoes BIGINT, at TEXT NOT NULL, by TEXT NOT NULL)"
)
"""The columns after ``position`` (each backend gives its own ``position``)."""

Kind = Literal["merge", "rename", "undo"]


@dataclass(frozen=True, slots=True)
class RegisterFact:
    """One row of the register: ``kind`` of the recorded ``name`` into ``target`` (an ``undo``
    names the fact at ``undoes``), written ``at`` (UTC) by ``by`` (who asked)."""

    position: int
    kind: Kind
    name: str
    target: str
    undoes: int | None
    at: datetime
    by: str


def fact_of(r: Any) -> RegisterFact:
    """A row read back (:data:`REGISTER_COLUMNS` order)."""
    position, kind, name, target, undoes, at, by = r
    return RegisterFact(
        int(position),
        kind,
        str(name),
        str(target),
        None if undoes is None else int(undoes),
        datetime.fromisoformat(str(at)),
        str(by),
    )


def sqlite_register_ddl() -> list[str]:
    """The table and its append-only triggers on SQLite."""
    refuse = "SELECT RAISE(ABORT, 'the register table is append-only')"
    return [
        f"CREATE TABLE IF NOT EXISTS {REGISTER} "
        f"(position INTEGER PRIMARY KEY AUTOINCREMENT, {COLUMNS_DDL}",
        f"CREATE TRIGGER IF NOT EXISTS {REGISTER}_no_update BEFORE UPDATE ON {REGISTER} "
        f"BEGIN {refuse}; END",
        f"CREATE TRIGGER IF NOT EXISTS {REGISTER}_no_delete BEFORE DELETE ON {REGISTER} "
        f"BEGIN {refuse}; END",
    ]


def sqlite_v8(recorder: Any, conn: Any) -> None:
    """Version 8 on SQLite: the register, empty."""
    for stmt in sqlite_register_ddl():
        conn.execute(stmt)


def pg_register_ddl(append_only: Callable[[str, str], list[str]]) -> list[str]:
    """The table and its append-only triggers on PostgreSQL (``append_only``:
    :func:`store.schema.pg_append_only`)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {REGISTER} (position BIGSERIAL PRIMARY KEY, {COLUMNS_DDL}",
        *append_only(REGISTER, "register"),
    ]


def pg_v8(recorder: Any, conn: Any, *, append_only: Callable[[str, str], list[str]]) -> None:
    """Version 8 on PostgreSQL: the register, empty."""
    for stmt in pg_register_ddl(append_only):
        conn.execute(stmt)


class SqlRegister:
    """The register's reads and writes on one DBAPI connection of a SQL store (inside the write
    transaction for the writes); ``sql`` turns ``?`` into the driver's mark."""

    def __init__(self, conn: Any, sql: Any) -> None:
        self.conn = conn
        self.sql = sql

    def facts(self) -> list[RegisterFact]:
        return [fact_of(r) for r in self.conn.execute(self.sql(_SELECT)).fetchall()]

    def add(
        self, kind: Kind, name: str, target: str, undoes: int | None, at: datetime, by: str
    ) -> RegisterFact:
        cur = self.conn.execute(self.sql(_INSERT), (kind, name, target, undoes, at.isoformat(), by))
        return RegisterFact(int(cur.fetchone()[0]), kind, name, target, undoes, at, by)


class RegisterReads:
    """The register's reads of a SQL recorder outside a transaction (mixed into
    :class:`store.sql.SqlRecorder`)."""

    version: int

    def sql(self, text: str) -> str:
        raise NotImplementedError

    def connection(self) -> Any:
        raise NotImplementedError

    def errors(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def register_facts(self) -> list[RegisterFact]:
        """Every fact of the register, oldest first; none in a store older than version 8 read
        as it is (a writer migrates a store before any fact is written). A handle opened on an
        older store looks again at its version (a reader opened before a writer migrated it: a
        dashboard's reading handle, which must see the facts its writer stores)."""
        with self.errors():
            conn = self.connection()
            if self.version < VERSION:
                got = conn.execute("SELECT value FROM brag_meta WHERE key = 'version'").fetchone()
                if got is None or not str(got[0]).isdigit() or int(got[0]) < VERSION:
                    return []
                self.version = int(got[0])  # migrated since this handle looked
            return SqlRegister(conn, self.sql).facts()
