"""The SQL schema of a store: the ``events`` table (the SQLModel class :class:`EventRecord`, in
:mod:`store.orm`), the
marker ``brag_meta``, the append-only triggers, the session catalogue ``brag_sessions``, and the
migrations between store versions (see the history below). The backends that use it:
:mod:`store.sqlite`, :mod:`store.postgres`; opening and checking a store: :mod:`store.sql`.

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
(:func:`log.folds.recomputed`: the same rows as the appends write); 4, the annotations beside the
stream ``brag_annotations`` (notes on a step, their hiding, a player's remembered cards:
:mod:`store.annotations`), append-only, created empty; 5, the listing's filter choices
``brag_facets``: every player, table and start date of the catalogue, one row each, written with
a session's catalogue row, so that the Sessions page's filters do not read every session's seats
(issue 22: 0.4 to 11 s at 122,727 sessions); the migration fills it from the catalogue; 6, the
annotations point at an event (issue 32): ``brag_annotations.event``, the id of a note's event or
of the ``dealt`` of a player's remembered cards, so neither moves when steps are numbered again;
the migration (:mod:`store.anchors`) gives each older row its event once, by the numbering it was
written under; 7, the devices beside the log ``brag_devices`` (the organiser's devices'
revocations and the dashboard that holds the store: :mod:`store.devices`, issue 33), created
empty; 8, the register beside the log ``brag_register`` (merges and renames of players' names
and their undoing: :mod:`store.register`, issue 35), append-only, created empty; 9, the club
night's facts ``brag_night`` (check-in, seats, stake, final, flags: :mod:`store.night`, issue 36),
append-only, created empty. A new version adds its step to :data:`SQLITE_MIGRATIONS` and
:data:`PG_MIGRATIONS`.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from store.anchors import pg_v6, sqlite_v6
from store.annotations import ANNOTATIONS
from store.devices import DEVICES_DDL
from store.night import pg_v9, sqlite_v9
from store.records import SessionInfo, parse_stored_at
from store.register import pg_v8, sqlite_v8

if TYPE_CHECKING:
    from store.orm import EventRecord

__all__ = [
    "BUSY_TIMEOUT_S",
    "CATALOGUE",
    "CATALOGUE_COLUMNS",
    "COLUMNS",
    "EVENT_COLUMN_VERSION",
    "FACETS",
    "INSERT_COLUMNS",
    "LOCK_TIMEOUT_S",
    "META",
    "PG_MIGRATIONS",
    "SQLITE_MIGRATIONS",
    "SQLITE_TRIGGERS",
    "STORE_ID",
    "STORE_SCHEMA",
    "STORE_VERSION",
    "TABLE",
    "EventRecord",
    "create_table_sql",
    "pg_annotations_ddl",
    "sqlite_annotations_ddl",
]

BUSY_TIMEOUT_S: Final = 10.0
"""SQLite ``busy_timeout``: how long a writer waits for another's transaction (at least 5 s)."""
LOCK_TIMEOUT_S: Final = 10
"""PostgreSQL ``lock_timeout`` of an append's table lock."""
TABLE: Final = "events"
META: Final = "brag_meta"
"""The schema marker table: ``(key TEXT PRIMARY KEY, value TEXT NOT NULL)``."""
STORE_SCHEMA: Final = "bragbook"
"""``brag_meta`` value of ``schema`` in a Bragbook store."""
STORE_VERSION: Final = 9
"""``brag_meta`` value of ``version`` this code writes (see the module docstring's history)."""
EVENT_COLUMN_VERSION: Final = 6
"""The store version from which ``brag_annotations`` has its ``event`` column (issue 32): an
older store read as it is gives its annotations without it (:mod:`store.noted`)."""
STORE_ID: Final = "store_id"
"""``brag_meta`` key of the store's id: a random UUID written once, when a writer makes the store
or first opens it (no version change: a reader of any version ignores the row). The analytics
projection records it, so the statistics of one store are never read as another's. A store no
writer has opened since (read-only) has none yet: :attr:`store.sql.SqlRecorder.store_id` is then
derived from where it is (``location:...``)."""
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
UPSERT: Final = (
    f"INSERT INTO {CATALOGUE} ({CATALOGUE_COLUMNS}) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (session) DO UPDATE SET table_name = excluded.table_name, "
    "seats = excluded.seats, cards = excluded.cards, last_at = excluded.last_at, "
    "deals = excluded.deals, resolved_pots = excluded.resolved_pots, "
    "carried_pots = excluded.carried_pots, finished = excluded.finished, "
    "winners = excluded.winners, last_seq = excluded.last_seq, events = excluded.events, "
    "last_position = excluded.last_position"
)

UPDATE: Final = (
    f"UPDATE {CATALOGUE} SET table_name = ?, seats = ?, cards = ?, "
    "last_at = coalesce(?, last_at), deals = ?, resolved_pots = ?, carried_pots = ?, "
    "finished = ?, winners = ?, last_seq = ?, events = ?, last_position = ? WHERE session = ?"
)


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def catalogue_params(info: SessionInfo) -> tuple[Any, ...]:
    """The catalogue row of a :class:`SessionInfo`, in :data:`CATALOGUE_COLUMNS` order."""
    return (
        info.session,
        info.table,
        json.dumps(list(info.players), ensure_ascii=False),
        info.cards,
        iso(info.first_at),
        iso(info.last_at),
        iso(info.stored),
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


FACETS: Final = "brag_facets"
"""The listing's filter choices (store version 5): ``(kind, value)``, one row each, never removed
(a session's seats, table and first time never change once stored): ``player`` (a seat's name),
``table`` (a table's name), ``untabled`` (``''``: some session has no table), ``day`` (a start's
calendar date, ``YYYY-MM-DD``, as the catalogue's date filter reads it)."""
FACETS_DDL: Final = (
    f"CREATE TABLE IF NOT EXISTS {FACETS} "
    "(kind TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, value))"
)
FACET_INSERT: Final = f"INSERT INTO {FACETS} (kind, value) VALUES (?, ?) ON CONFLICT DO NOTHING"


def facet_rows(table: str | None, seats: Sequence[str], day: str) -> list[tuple[str, str]]:
    """The :data:`FACETS` rows of one catalogue row (``day``: the head of its ``first_at``, else
    of its ``stored``, as the catalogue's date filter reads it)."""
    return [
        *(("player", str(p)) for p in seats),
        ("table", table) if table is not None else ("untabled", ""),
        ("day", day[:10]),
    ]


def info_facets(info: SessionInfo) -> list[tuple[str, str]]:
    """The :data:`FACETS` rows of a session's catalogue row."""
    return facet_rows(info.table, info.players, iso(info.first_at) or iso(info.stored) or "")


def fill_facets(recorder: Any, conn: Any) -> None:
    """Writes :data:`FACETS` again from the catalogue's rows (inside the caller's transaction)."""
    conn.execute(recorder.sql(f"DELETE FROM {FACETS}"))
    rows: set[tuple[str, str]] = set()
    got = conn.execute(f"SELECT table_name, seats, coalesce(first_at, stored) FROM {CATALOGUE}")
    for table, seats, day in got.fetchall():
        rows.update(facet_rows(table, json.loads(seats), str(day)))
    if rows:
        conn.cursor().executemany(recorder.sql(FACET_INSERT), sorted(rows))


def create_facets(recorder: Any, conn: Any) -> None:
    """Version 5: the filter choices, filled from the catalogue."""
    conn.execute(FACETS_DDL)
    fill_facets(recorder, conn)


def create_devices(recorder: Any, conn: Any) -> None:
    """Version 6: the devices beside the log (:mod:`store.devices`), empty: no device is revoked
    and no dashboard holds the store until one does."""
    conn.execute(DEVICES_DDL)


def create_catalogue(recorder: Any, conn: Any) -> None:
    """Version 3: the catalogue, filled from the events already stored (inside the opening
    transaction: a store being migrated is never listed half-filled)."""
    for stmt in CATALOGUE_DDL:
        conn.execute(stmt)
    infos = recorder.catalogue_of(recorder)
    if infos:
        cur = conn.cursor()
        cur.executemany(recorder.sql(UPSERT), [catalogue_params(i) for i in infos])


COLUMNS: Final = "position, session, seq, id, type, v, payload, at, by, stored_at"
INSERT_COLUMNS: Final = "session, seq, id, type, v, payload, at, by, stored_at"


def create_table_sql(dialect: Any) -> str:
    """The ``CREATE TABLE IF NOT EXISTS`` of :class:`EventRecord` in ``dialect`` (SQLAlchemy's)."""
    from store.orm import create_table_sql as compiled

    return compiled(dialect)


def __getattr__(name: str) -> Any:
    # ``EventRecord`` lives in :mod:`store.orm` (SQLModel and SQLAlchemy, imported by what makes
    # a table or checks one in full, never by a reader that checks the marker).
    if name == "EventRecord":
        from store.orm import EventRecord

        return EventRecord
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- SQLite ---------------------------------------------------------------------------------------


SQLITE_TRIGGERS: Final = {
    "events_no_update": f"""CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, 'the events table is append-only: UPDATE is refused'); END""",
    "events_no_delete": f"""CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, 'the events table is append-only: DELETE is refused'); END""",
    # Version 2. REPLACE deletes the conflicting row without running the DELETE trigger (unless
    # recursive_triggers is on): a row may only be inserted where none is stored. The messages
    # name the columns as SQLite's own UNIQUE errors do (SqliteRecorder.taken reads them).
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
    **{v: tuple(SQLITE_TRIGGERS) for v in range(2, STORE_VERSION + 1)},
}
"""The triggers a SQLite store of each version has."""


@functools.cache
def sqlite_reference() -> tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]:
    """Bragbook's table as SQLite describes it (``PRAGMA table_info`` rows without the column
    number; the column tuples of the unique indexes), made in a scratch in-memory database."""
    from sqlalchemy.dialects import sqlite

    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(create_table_sql(sqlite.dialect()))
        return sqlite_shape(conn)
    finally:
        conn.close()


def sqlite_shape(conn: sqlite3.Connection) -> tuple[list[tuple[Any, ...]], set[tuple[str, ...]]]:
    cols = [tuple(r[1:]) for r in conn.execute(f"PRAGMA table_info({TABLE})")]
    uniques = set()
    for idx in conn.execute(f"PRAGMA index_list({TABLE})").fetchall():
        if idx[2]:  # unique
            name = idx[1].replace('"', '""')
            uniques.add(tuple(r[2] for r in conn.execute(f'PRAGMA index_info("{name}")')))
    return cols, uniques


def column_problems(cols: Sequence[Sequence[Any]], want: Sequence[Sequence[Any]]) -> list[str]:
    """How a table's columns (name first, then type and constraints) differ from Bragbook's."""
    if list(map(tuple, cols)) == list(map(tuple, want)):
        return []
    names = [c[0] for c in cols]
    wanted = [c[0] for c in want]
    if names != wanted:
        return [f"columns {', '.join(names)}; Bragbook's are {', '.join(wanted)}"]
    return ["its columns' types or constraints differ from Bragbook's"]


def sqlite_v2(store: Any, conn: sqlite3.Connection) -> None:
    conn.execute(SQLITE_TRIGGERS["events_no_overwrite"])


_ANNOTATION_COLUMNS_DDL: Final = """
        session TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('note', 'hide', 'cards')),
        deal INTEGER,
        step INTEGER,
        target BIGINT,
        who TEXT NOT NULL,
        body TEXT NOT NULL,
        at TEXT NOT NULL,
        event TEXT
    )"""
_ANNOTATIONS_INDEX: Final = (
    f"CREATE INDEX IF NOT EXISTS {ANNOTATIONS}_session ON {ANNOTATIONS} (session)"
)


def sqlite_annotations_ddl() -> list[str]:
    """Version 4's annotations table (:mod:`store.annotations`), its index and its append-only
    triggers on SQLite."""
    return [
        f"CREATE TABLE IF NOT EXISTS {ANNOTATIONS} (\n"
        f"        position INTEGER PRIMARY KEY AUTOINCREMENT,{_ANNOTATION_COLUMNS_DDL}",
        _ANNOTATIONS_INDEX,
        *(
            f"""CREATE TRIGGER IF NOT EXISTS {ANNOTATIONS}_no_{op.lower()}
            BEFORE {op} ON {ANNOTATIONS}
            BEGIN SELECT RAISE(ABORT, 'the annotations table is append-only: {op} is refused');
            END"""
            for op in ("UPDATE", "DELETE")
        ),
    ]


def sqlite_v4(store: Any, conn: Any) -> None:
    """Version 4: the annotations table, empty (:mod:`store.annotations`)."""
    for stmt in sqlite_annotations_ddl():
        conn.execute(stmt)


SQLITE_MIGRATIONS: Final[dict[int, Callable[[Any, Any], None]]] = {
    1: sqlite_v2,
    2: create_catalogue,
    3: sqlite_v4,
    4: create_facets,
    5: functools.partial(sqlite_v6, table=TABLE, annotations_ddl=sqlite_annotations_ddl),
    6: create_devices,
    7: sqlite_v8,
    8: sqlite_v9,
}
"""Version ``n`` → the step that takes a store from ``n`` to ``n + 1`` (``(recorder, conn)``,
inside the opening transaction; the version row is written after each step)."""


# --- PostgreSQL -----------------------------------------------------------------------------------


def pg_append_only(table: str, words: str) -> list[str]:
    """The function and triggers that refuse UPDATE, DELETE and TRUNCATE on ``table`` (the
    message names ``words``)."""
    return [
        f"""CREATE OR REPLACE FUNCTION {table}_append_only() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION 'the {words} table is append-only: % is refused', TG_OP
                USING ERRCODE = 'restrict_violation';
            END $$""",
        f"""CREATE OR REPLACE TRIGGER {table}_no_update_delete
            BEFORE UPDATE OR DELETE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION {table}_append_only()""",
        f"""CREATE OR REPLACE TRIGGER {table}_no_truncate
            BEFORE TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION {table}_append_only()""",
    ]


def pg_ddl() -> list[str]:
    from sqlalchemy.dialects import postgresql

    return [
        create_table_sql(postgresql.psycopg.dialect()),  # type: ignore[no-untyped-call]  # SQLAlchemy's dialect __init__ is untyped
        *pg_append_only(TABLE, "events"),
    ]


def pg_annotations_ddl() -> list[str]:
    """Version 4's annotations table, its index and its append-only triggers on PostgreSQL."""
    return [
        f"CREATE TABLE IF NOT EXISTS {ANNOTATIONS} (\n"
        f"        position BIGSERIAL PRIMARY KEY,{_ANNOTATION_COLUMNS_DDL}",
        _ANNOTATIONS_INDEX,
        *pg_append_only(ANNOTATIONS, "annotations"),
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


def pg_v2(store: Any, conn: Any) -> None:
    """Version 2 on PostgreSQL is the marker alone: an ``ON CONFLICT DO UPDATE`` already runs the
    statement-level UPDATE trigger, and there is no REPLACE."""


def pg_v4(store: Any, conn: Any) -> None:
    """Version 4: the annotations table, empty (:mod:`store.annotations`)."""
    for stmt in pg_annotations_ddl():
        conn.execute(stmt)


PG_MIGRATIONS: Final[dict[int, Callable[[Any, Any], None]]] = {
    1: pg_v2,
    2: create_catalogue,
    3: pg_v4,
    4: create_facets,
    5: functools.partial(pg_v6, table=TABLE),
    6: create_devices,
    7: functools.partial(pg_v8, append_only=pg_append_only),
    8: functools.partial(pg_v9, append_only=pg_append_only),
}
