"""The club night's facts beside the log (store version 9, issue 36 items 1, 4 and 5): check-in,
seats, the night's stake, finalising and reopening, flags on deals and their resolution, kept
in the store, never in the events.

``brag_night(position, night, club, kind, subject, value, undoes, at, by)``, append-only (UPDATE
and DELETE refused by triggers, as the events' and the register's). ``night`` is the date
(``YYYY-MM-DD``), ``club`` the club (``''``: none named), ``value`` JSON text:

- ``present`` / ``absent``: the player ``subject`` checked in (or out); value ``{}``;
- ``seat``: the table ``subject`` seats ``{"table": T, "players": [...]}``;
- ``stake``: the club's money per stake unit, ``{"stake": "1/2", "limit": "5" | null}``
  (exact fractions as text; ``limit``: the house limit on the stake per game);
- ``final``: the director finalised the night, ``{"position": P}`` (the log's last event
  position then: the standings it finalised are those of the events up to ``P``);
- ``reopen``: the final fact at ``undoes`` no longer holds, ``{"reason": R}``;
- ``flag``: a player flags a deal of session ``subject``, ``{"deal": D, "step": "7a" | null,
  "reason": R}``;
- ``dismiss`` / ``corrected``: the flag at ``undoes`` is resolved, ``{"reason": R}``.

Never events: the log, ``brag export`` and a replay never see a row; :mod:`log.night_facts`
folds them. Written only inside the store's write transaction
(:meth:`store.port.Recorder.transaction`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

__all__ = [
    "KINDS",
    "NIGHT",
    "NIGHT_COLUMNS",
    "VERSION",
    "NightFact",
    "NightReads",
    "SqlNight",
    "pg_night_ddl",
    "pg_v9",
    "sqlite_night_ddl",
    "sqlite_v9",
]

NIGHT: Final = "brag_night"
VERSION: Final = 9
"""The store version that made the table (:data:`store.schema.STORE_VERSION` history)."""
KINDS: Final = (
    "present", "absent", "seat", "stake", "final", "reopen", "flag", "dismiss", "corrected",
)  # fmt: skip
NIGHT_COLUMNS: Final = "position, night, club, kind, subject, value, undoes, at, by"
_INSERT: Final = (
    f"INSERT INTO {NIGHT} (night, club, kind, subject, value, undoes, at, by) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING position"
)
_SELECT: Final = (
    f"SELECT {NIGHT_COLUMNS} FROM {NIGHT} WHERE night = ? AND club = ? ORDER BY position"
)
COLUMNS_DDL: Final = (
    "night TEXT NOT NULL, club TEXT NOT NULL, "
    f"kind TEXT NOT NULL CHECK (kind IN ({', '.join(repr(k) for k in KINDS)})), "
    "subject TEXT NOT NULL, value TEXT NOT NULL, undoes BIGINT, at TEXT NOT NULL, "
    "by TEXT NOT NULL)"
)
"""The columns after ``position`` (each backend gives its own ``position``)."""
_INDEX: Final = f"CREATE INDEX IF NOT EXISTS {NIGHT}_night ON {NIGHT} (night, club)"

Kind = Literal[
    "present", "absent", "seat", "stake", "final", "reopen", "flag", "dismiss", "corrected"
]


@dataclass(frozen=True, slots=True)
class NightFact:
    """One row: ``kind`` about ``subject`` on the ``night`` (``YYYY-MM-DD``) of ``club``,
    ``value`` (JSON text), naming the fact at ``undoes`` (a reopen, a dismiss, a corrected),
    written ``at`` (UTC) by ``by`` (who asked)."""

    position: int
    night: str
    club: str
    kind: Kind
    subject: str
    value: str
    undoes: int | None
    at: datetime
    by: str


def fact_of(r: Any) -> NightFact:
    """A row read back (:data:`NIGHT_COLUMNS` order)."""
    position, night, club, kind, subject, value, undoes, at, by = r
    return NightFact(
        int(position),
        str(night),
        str(club),
        kind,
        str(subject),
        str(value),
        None if undoes is None else int(undoes),
        datetime.fromisoformat(str(at)),
        str(by),
    )


def sqlite_night_ddl() -> list[str]:
    """The table, its index and its append-only triggers on SQLite."""
    refuse = "SELECT RAISE(ABORT, 'the night table is append-only')"
    return [
        f"CREATE TABLE IF NOT EXISTS {NIGHT} "
        f"(position INTEGER PRIMARY KEY AUTOINCREMENT, {COLUMNS_DDL}",
        _INDEX,
        f"CREATE TRIGGER IF NOT EXISTS {NIGHT}_no_update BEFORE UPDATE ON {NIGHT} "
        f"BEGIN {refuse}; END",
        f"CREATE TRIGGER IF NOT EXISTS {NIGHT}_no_delete BEFORE DELETE ON {NIGHT} "
        f"BEGIN {refuse}; END",
    ]


def sqlite_v9(recorder: Any, conn: Any) -> None:
    """Version 9 on SQLite: the night's facts, empty."""
    for stmt in sqlite_night_ddl():
        conn.execute(stmt)


def pg_night_ddl(append_only: Callable[[str, str], list[str]]) -> list[str]:
    """The table, its index and its append-only triggers on PostgreSQL (``append_only``:
    :func:`store.schema.pg_append_only`)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {NIGHT} (position BIGSERIAL PRIMARY KEY, {COLUMNS_DDL}",
        _INDEX,
        *append_only(NIGHT, "night"),
    ]


def pg_v9(recorder: Any, conn: Any, *, append_only: Callable[[str, str], list[str]]) -> None:
    """Version 9 on PostgreSQL: the night's facts, empty."""
    for stmt in pg_night_ddl(append_only):
        conn.execute(stmt)


class SqlNight:
    """The night's facts' reads and writes on one DBAPI connection of a SQL store (inside the
    write transaction for the writes); ``sql`` turns ``?`` into the driver's mark."""

    def __init__(self, conn: Any, sql: Any) -> None:
        self.conn = conn
        self.sql = sql

    def facts(self, night: str, club: str) -> list[NightFact]:
        rows = self.conn.execute(self.sql(_SELECT), (night, club)).fetchall()
        return [fact_of(r) for r in rows]

    def add(
        self,
        night: str,
        club: str,
        kind: Kind,
        subject: str,
        value: str,
        undoes: int | None,
        at: datetime,
        by: str,
    ) -> NightFact:
        params = (night, club, kind, subject, value, undoes, at.isoformat(), by)
        cur = self.conn.execute(self.sql(_INSERT), params)
        position = int(cur.fetchone()[0])
        return NightFact(position, night, club, kind, subject, value, undoes, at, by)


class NightReads:
    """The night's facts read by a SQL recorder outside a transaction (mixed into
    :class:`store.sql.SqlRecorder`)."""

    version: int

    def sql(self, text: str) -> str:
        raise NotImplementedError

    def connection(self) -> Any:
        raise NotImplementedError

    def errors(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def night_facts(self, night: str, club: str = "") -> list[NightFact]:
        """The facts of the ``night`` (``YYYY-MM-DD``) of ``club``, oldest first; none in a
        store older than version 9 read as it is (a writer migrates a store before any fact is
        written). A handle opened on an older store looks at its version again (a reader opened
        before its writer migrated the store)."""
        with self.errors():
            conn = self.connection()
            if self.version < VERSION:
                got = conn.execute("SELECT value FROM brag_meta WHERE key = 'version'").fetchone()
                if got is None or not str(got[0]).isdigit() or int(got[0]) < VERSION:
                    return []
                self.version = int(got[0])  # migrated since this handle looked
            return SqlNight(conn, self.sql).facts(night, club)
