"""The append-only event store: one stream per session, validated by the engine before any write.

``open_store(url)`` gives an :class:`EventStore` on one of three backends:

- SQLite (the default: a file path, ``sqlite:///file.db``, ``$BRAG_DB`` or ``./brag.db``): WAL,
  ``synchronous=FULL``, ``busy_timeout`` 10 s, appends in ``BEGIN IMMEDIATE`` transactions, global
  positions from ``AUTOINCREMENT``. The settings are read back and checked when the store opens.
- PostgreSQL (``postgresql://user@host/db``, through psycopg 3): each append takes
  ``LOCK TABLE events IN EXCLUSIVE MODE`` (with a ``lock_timeout``) inside its transaction, so
  positions become visible in order and a reader following them never skips one; rolled-back
  transactions leave holes, which readers tolerate.
- memory (``memory://``): the same contract in a Python list, for tests.

UPDATE and DELETE on the table are refused by the database (triggers on both SQL backends).

``append(session, events, expected_seq)``: ``expected_seq`` is the seq of the last event the caller
saw (0 for a new session). The store takes the state at that seq (cached per session, else rebuilt
from the stream), folds the batch through :func:`engine.apply.apply`, inserts the engine's derived
events right after their cause, and writes the whole batch in one transaction, or nothing:

- another writer got there first: :class:`ConcurrencyConflict` (``session``, ``expected``,
  ``actual``), never a driver error and never an append at a later seq;
- a rule is broken anywhere in the batch: the :class:`~events.errors.RuleViolation` (or
  :class:`~events.errors.FormatError`) of the engine, with ``line`` = 1-based index in the batch;
- every event of the batch that carries an ``id`` is already stored with the same content: a no-op
  returning the stored rows (their original seqs), also after a restart; the same ``id`` with other
  content: :class:`IdConflict`.

Only the table is a SQLModel class (:mod:`events.store_sql`); events stay plain pydantic models.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final, Protocol
from uuid import UUID

from uuid_utils.compat import uuid7

from engine.apply import apply
from engine.fold import Step, complete, conclude
from engine.state import State, initial_state, without_history
from events.codec import dumps, parse_raw, read_events, read_file
from events.errors import (
    BragError,
    ConcurrencyConflict,
    CorruptSession,
    DuplicateId,
    FormatError,
    IdConflict,
    ImportConflict,
    SeqTaken,
    StoreError,
    StoreUnavailable,
    UnknownSession,
)
from events.model import (
    DERIVED_TYPES,
    AnyEvent,
    PotCarried,
    PotWon,
    SessionEnded,
    SessionStarted,
    Voided,
)

__all__ = [
    "DEFAULT_DB",
    "ORDERS",
    "ConcurrencyConflict",
    "CorruptSession",
    "EventStore",
    "IdConflict",
    "ImportConflict",
    "ImportResult",
    "SessionFilter",
    "SessionInfo",
    "StoreError",
    "StoreUnavailable",
    "StoredEvent",
    "UnknownSession",
    "checked_log",
    "facets_of",
    "listed",
    "open_store",
    "resolve_url",
    "stored_states",
]

DEFAULT_DB: Final = "brag.db"
"""The SQLite file used when neither ``--db`` nor ``$BRAG_DB`` names a store."""

_ENVELOPE: Final = frozenset({"v", "id", "seq", "at", "by", "type"})
_ENVELOPE_VOIDED: Final = frozenset({"v", "id", "at", "by", "type"})  # its ``seq`` is content
_DERIVED: Final = (PotWon, PotCarried, SessionEnded)
_DERIVED_CLASSES: Final = frozenset(_DERIVED)


# --- values ---------------------------------------------------------------------------------------


class StoredEvent:
    """One row of the store: the global ``position`` (never reused; may have holes), the session
    and its ``seq`` (1-based, contiguous), the event ``id``, ``type``, schema version ``v``, the
    event itself (envelope filled in: ``id``, ``seq`` (not for ``voided``), ``at``, ``by``), and
    ``stored_at`` (UTC, when the store wrote it).

    Immutable. It keeps the :class:`Row` it was written or read as; the rows an append returns
    build ``event`` and ``id`` on first access (most callers only want the seq), and cost three
    attribute stores each (an append returns one per event)."""

    __slots__ = ("_event", "_id", "_row", "position", "stored_at")

    position: int
    stored_at: datetime
    _row: Row
    _id: UUID | None
    _event: AnyEvent | None

    def __init__(
        self,
        position: int,
        session: str,
        seq: int,
        id: UUID | str,
        type: str,
        v: int,
        event: AnyEvent,
        at: datetime | None,
        by: str | None,
        stored_at: datetime,
    ) -> None:
        """A row read back (``event`` complete, envelope included)."""
        init = object.__setattr__
        init(self, "position", position)
        init(self, "stored_at", stored_at)
        init(self, "_row", Row(session, seq, str(id), type, v, None, None, by, event, at))
        init(self, "_id", id if isinstance(id, UUID) else None)
        init(self, "_event", event)

    @classmethod
    def _written(cls, row: Row, position: int, stored_at: datetime) -> StoredEvent:
        """The row an append just wrote (``row.event`` may lack its envelope: built lazily)."""
        out = _new_object(cls)
        init = object.__setattr__
        init(out, "position", position)
        init(out, "stored_at", stored_at)
        init(out, "_row", row)
        init(out, "_id", None)
        init(out, "_event", None)
        return out

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"StoredEvent is immutable ({name})")

    @property
    def session(self) -> str:
        return self._row.session

    @property
    def seq(self) -> int:
        return self._row.seq

    @property
    def type(self) -> str:
        return self._row.type

    @property
    def v(self) -> int:
        return self._row.v

    @property
    def at(self) -> datetime | None:
        return self._row.at_dt

    @property
    def by(self) -> str | None:
        return self._row.by

    @property
    def id(self) -> UUID:
        i = self._id
        if i is None:
            i = UUID(self._row.id)
            object.__setattr__(self, "_id", i)
        return i

    @property
    def event(self) -> AnyEvent:
        e = self._event
        if e is None:
            row = self._row
            update: dict[str, Any] = {"id": self.id, "at": row.at_dt}
            if row.type != "voided":
                update["seq"] = row.seq
            e = row.event.model_copy(update=update)
            object.__setattr__(self, "_event", e)
        return e

    @property
    def derived(self) -> bool:
        return self.type in DERIVED_TYPES

    def _key(self) -> tuple[Any, ...]:
        return (
            self.position,
            self.session,
            self.seq,
            self.id,
            self.type,
            self.v,
            self.event,
            self.at,
            self.by,
            self.stored_at,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoredEvent) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.position, self.session, self.seq))

    def __repr__(self) -> str:
        return (
            f"StoredEvent(position={self.position}, session={self.session!r}, seq={self.seq}, "
            f"id={self.id}, type={self.type!r}, v={self.v}, at={self.at!r}, by={self.by!r})"
        )


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One line of ``brag sessions``: what the session is and how far it has gone."""

    session: str
    table: str | None
    started: datetime | None
    """``at`` of ``session_started`` when recorded, else when it was stored."""
    players: tuple[str, ...]
    deals: int
    resolved_pots: int
    carried_pots: int
    finished: bool
    winners: tuple[str, ...]
    last_seq: int
    cards: str = "shown"
    last_at: datetime | None = None
    """``at`` of the session's last event that records one (``None``: a log without times)."""
    events: int = 0
    """Events stored (recorded and derived, ``voided`` ones included): the stream's last seq."""
    first_position: int = 0
    """Global position of the session's first event (the listing's "order stored")."""
    last_position: int = 0
    """Global position of its last event."""
    stored: datetime | None = None
    """When its first event was stored (UTC)."""
    first_at: datetime | None = None
    """``at`` of ``session_started`` as recorded (``None``: a log without times)."""

    @property
    def id(self) -> str:
        return self.session

    @property
    def started_us(self) -> int:
        """``started`` as UTC microseconds since 1970 (the catalogue's sort key; 0 if unknown)."""
        if self.started is None:
            return 0
        t = self.started if self.started.tzinfo else self.started.replace(tzinfo=UTC)
        return (t - _EPOCH) // timedelta(microseconds=1)


_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
ORDERS: Final = ("stored", "oldest", "newest")
"""How a listing of sessions is ordered: as first stored (global position), or by ``started``
(ties by the order stored)."""


@dataclass(frozen=True, slots=True)
class SessionFilter:
    """Which sessions a listing keeps: those where every one of ``players`` sat, played at one of
    ``tables`` (``None`` in it: a session recorded without a table), started within ``dates``
    (inclusive ``(first, last)`` calendar dates of the recorded start, in its own offset), and
    not over with ``unfinished``. Empty fields keep everything."""

    players: tuple[str, ...] = ()
    tables: tuple[str | None, ...] = ()
    dates: tuple[date, date] | None = None
    unfinished: bool = False

    def keeps(self, info: SessionInfo) -> bool:
        if self.unfinished and info.finished:
            return False
        if self.players and not set(self.players) <= set(info.players):
            return False
        if self.tables and info.table not in self.tables:
            return False
        if self.dates is not None and info.started is not None:
            return self.dates[0] <= info.started.date() <= self.dates[1]
        return True


def listed(
    infos: Iterable[SessionInfo],
    *,
    order: str = "stored",
    limit: int | None = None,
    offset: int = 0,
    unfinished: bool = False,
    where: SessionFilter | None = None,
) -> list[SessionInfo]:
    """``infos`` filtered, ordered and paged as :meth:`EventStore.sessions` lists them."""
    if order not in ORDERS:
        raise ValueError(f"order is one of {', '.join(ORDERS)}, not {order!r}")
    keep = where or SessionFilter()
    out = [i for i in infos if not (unfinished and i.finished) and keep.keeps(i)]
    if order == "stored":
        out.sort(key=lambda i: i.first_position)
    else:
        out.sort(key=lambda i: (i.started_us, i.first_position), reverse=order == "newest")
    return out[offset : None if limit is None else offset + limit]


def facets_of(
    infos: Iterable[SessionInfo],
) -> tuple[list[str], list[str | None], tuple[date, date] | None]:
    """:meth:`EventStore.session_facets` of these sessions."""
    infos = list(infos)
    players = sorted({p for i in infos for p in i.players})
    named = sorted({i.table for i in infos if i.table is not None})
    tables: list[str | None] = [*named, *([None] if any(i.table is None for i in infos) else [])]
    days = [i.started.date() for i in infos if i.started is not None]
    return players, tables, (min(days), max(days)) if days else None


def session_row(
    session: str,
    state: State,
    rows: Sequence[Row],
    positions: Sequence[int],
    now: datetime,
    before: SessionInfo | None,
) -> SessionInfo:
    """The catalogue's line for ``session`` after an append of ``rows`` (at ``positions``, stored
    at ``now``) that leaves it in ``state``; ``before`` is its line before the append (``None``
    for a new session). The counts are the engine's (a voided event's conclusions withdrawn)."""
    last_at = next((r.at_dt for r in reversed(rows) if r.at_dt is not None), None)
    if before is None:
        first_at = rows[0].at_dt
        started, stored, first_position = first_at or now, now, positions[0]
    else:
        first_at, started = before.first_at, before.started
        stored, first_position = before.stored, before.first_position
        last_at = last_at or before.last_at
    return SessionInfo(
        session=session,
        table=state.table,
        started=started,
        players=state.seats,
        deals=state.deals,
        resolved_pots=state.resolved,
        carried_pots=state.carried,
        finished=state.finished,
        winners=state.winners if state.finished else (),
        last_seq=rows[-1].seq,
        cards=state.cards_mode,
        last_at=last_at,
        events=rows[-1].seq,
        first_position=first_position,
        last_position=positions[-1],
        stored=stored,
        first_at=first_at,
    )


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What ``import_log`` did: ``stored`` new events; ``unchanged`` events already in the store,
    ``other_ids`` of them stored under other ids than the file gives, ``other_envelope`` of them
    with another ``at`` or ``by`` in the file (the stored ids, times and recorders are kept: the
    log is append-only)."""

    session: str
    stored: int
    unchanged: int
    events: int
    last_seq: int
    other_ids: int = 0
    other_envelope: int = 0

    @property
    def skipped(self) -> int:
        return self.unchanged


@dataclass(slots=True)
class Row:
    """A row about to be written (backend-neutral): text id, JSON payload, ISO ``at``; or one read
    back, inside its :class:`StoredEvent` (then ``payload`` and ``at`` are ``None``: ``event`` is
    complete)."""

    session: str
    seq: int
    id: str
    type: str
    v: int
    payload: str | None
    at: str | None
    by: str | None
    event: AnyEvent
    at_dt: datetime | None


@dataclass(slots=True)
class Plan:
    """A validated batch: the rows to write and the state after them."""

    session: str
    expected: int
    rows: list[Row]
    state: State
    given_ids: dict[str, int] = field(default_factory=dict)
    """ids the caller gave → index in ``rows`` (checked against the store in the transaction)."""


class Tx(Protocol):
    """What a backend does inside its write transaction."""

    def find(self, ids: list[str]) -> list[StoredEvent]:
        """Stored rows with these ids (any session)."""
        ...

    def last_seq(self, session: str) -> int: ...

    def insert(self, rows: list[Row], stored_at: datetime) -> list[int]:
        """Inserts the rows in order; returns their positions."""
        ...

    def record(self, plan: Plan, positions: list[int], stored_at: datetime) -> None:
        """Writes the session's catalogue line after ``plan`` (same transaction; a backend
        without a catalogue does nothing)."""
        ...


# --- helpers --------------------------------------------------------------------------------------


def payload_of(event: AnyEvent) -> str:
    """The JSON text stored for an event: its content without ``type`` and envelope."""
    exclude = _ENVELOPE_VOIDED if isinstance(event, Voided) else _ENVELOPE
    # model_dump_json without its Python wrapper (this runs for every event stored)
    out: bytes = event.__pydantic_serializer__.to_json(event, exclude=exclude, exclude_none=True)  # type: ignore[arg-type]
    return out.decode()


def same_content(a: AnyEvent, b: AnyEvent) -> bool:
    """Whether two events say the same thing (envelope aside; object keys in any order)."""
    return a.type == b.type and json.loads(payload_of(a)) == json.loads(payload_of(b))


def new_ids(n: int) -> list[str]:
    """``n`` new event ids as text: UUID version 7 (RFC 9562 section 5.7), from ``uuid-utils``.

    Their first 48 bits are the Unix time in milliseconds and they increase within a process, so
    the store's unique index on ``id`` grows at its end: an append writes one or two of its pages
    instead of a random page per event (with random version 4 ids, SQLite appends ran about 2.4
    times slower; ``bench/append.py --ids v4`` measures it)."""
    return [str(uuid7()) for _ in range(n)]


def event_from_row(
    type_: str,
    v: int,
    payload: str | dict[str, Any],
    event_id: str | UUID,
    seq: int,
    at: str | None,
    by: str | None,
) -> AnyEvent:
    """The event model of a stored row, envelope filled in, old versions upcast."""
    raw = json.loads(payload) if isinstance(payload, str | bytes) else dict(payload)
    raw["type"] = type_
    raw["v"] = v
    raw["id"] = str(event_id)
    if type_ != "voided":
        raw["seq"] = seq
    if at is not None:
        raw["at"] = at
    if by is not None:
        raw["by"] = by
    return parse_raw(raw, stored=True)


def resolve_url(url_or_path: str | os.PathLike[str] | None) -> str:
    """``None`` → ``$BRAG_DB`` or ``./brag.db``; otherwise the argument as text."""
    if url_or_path is None:
        return os.environ.get("BRAG_DB") or DEFAULT_DB
    return os.fspath(url_or_path)


def open_store(
    url_or_path: str | os.PathLike[str] | None = None, *, readonly: bool = False, **options: Any
) -> EventStore:
    """Opens the store named by a URL or a SQLite file path (creating or migrating its schema,
    :mod:`events.store_sql`, unless ``readonly``).

    ``None`` → ``$BRAG_DB`` or ``./brag.db``; ``memory://`` → a fresh in-memory store;
    ``sqlite:///path`` or a plain path → SQLite; ``postgresql://user@host/db`` → PostgreSQL
    (psycopg 3; ``schema=NAME`` puts the table in that schema, created if needed).
    ``readonly`` (for reading commands): nothing is created or changed (SQLite ``mode=ro``,
    PostgreSQL read-only transactions); a store not made yet is a :class:`StoreUnavailable`, an
    append a :class:`StoreError`. Raises :class:`StoreUnavailable` for a bad URL, an unreachable
    server, wrong settings, or a database that is not a Bragbook store (another program's table
    or database, a newer store version)."""
    url = resolve_url(url_or_path)
    if url.startswith("memory:"):
        from events.store_memory import MemoryStore

        return MemoryStore(url)
    from events.store_sql import open_sql_store

    return open_sql_store(url, readonly=readonly, **options)


# --- the store ------------------------------------------------------------------------------------


class EventStore:
    """The contract every backend keeps; the backends implement the ``_`` primitives.

    Thread-safe: SQL backends keep one connection per thread. Appends validate outside the write
    lock against the (immutable) prefix the caller saw; inside it the insert itself checks the seq
    and the ids (the table's unique constraints), and only a refusal reads the stream again."""

    url: str
    cache_size: int = 64
    """Sessions whose latest state is kept, without its undo chain
    (:func:`engine.state.without_history`): a batch that holds a ``voided`` folds the session
    again from the log. Keeping every session's chain (~2 KB per event) made the garbage
    collector's passes a sixth of an append's time."""
    _before_commit: Callable[[Plan], None] | None = None

    def __init__(self, url: str) -> None:
        self.url = url
        self._cache: OrderedDict[str, State] = OrderedDict()
        self._cache_lock = threading.Lock()

    # -- backend primitives ----------------------------------------------------------------------

    def _load(self, session: str, upto: int | None = None) -> list[StoredEvent]:
        """The session's rows with ``seq <= upto`` (all when ``None``), in seq order."""
        raise NotImplementedError

    def _find(self, ids: list[str]) -> list[StoredEvent]:
        """Stored rows with these ids (any session), outside a transaction."""
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Tx]:
        """An exclusive write transaction (SQLite ``BEGIN IMMEDIATE``, PostgreSQL table lock)."""
        raise NotImplementedError

    def _summaries(self) -> list[dict[str, Any]]:
        """Per session: ``session``, ``last_seq``, ``first`` (payload of seq 1 with ``at_dt``),
        ``stored_at``, counts ``deals``/``won``/``carried``/``voided``, ``ended`` (payload),
        ``first_position``, ``last_position``, ``last_at`` (the last recorded time)."""
        raise NotImplementedError

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[StoredEvent]:
        """Events of every session by global position: ``position > after``, at most ``limit``,
        in position order. Positions may have holes (rolled-back appends on PostgreSQL); a reader
        that resumes after the last position it saw misses nothing."""
        raise NotImplementedError

    def last_position(self) -> int:
        """The highest global position stored (0 for an empty store)."""
        raise NotImplementedError

    def last_seq(self, session: str) -> int:
        """The seq of the session's last event (0 if it has none)."""
        raise NotImplementedError

    @property
    def where(self) -> str:
        """The store's URL as shown to people (no password)."""
        return self.url

    def close(self) -> None:
        """Releases the connections (the store may not be used afterwards)."""

    def reopen(self) -> EventStore:
        """A new store object on the same data with an empty cache (as after a restart)."""
        return open_store(self.url)

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------------

    def read(self, session: str) -> list[StoredEvent]:
        """The session's whole stream in seq order (empty for an unknown session)."""
        return self._load(session)

    def events(self, session: str) -> list[AnyEvent]:
        """The session's events (envelope filled in), oldest first."""
        return [r.event for r in self._load(session)]

    def has(self, session: str) -> bool:
        return self.last_seq(session) > 0

    def state(self, session: str) -> State:
        """The folded current state (``state.seq`` is the last seq; the initial state when the
        session has no event yet)."""
        last = self.last_seq(session)
        return self._state_at(session, last, history=True)

    def export(self, session: str) -> list[AnyEvent]:
        """The session as FORMAT.md events, envelope included; :class:`UnknownSession` if none,
        :class:`CorruptSession` if the stored stream no longer folds (never a tampered log)."""
        rows = self._load(session)
        if not rows:
            raise UnknownSession(session)
        _fold(session, rows)
        return [r.event for r in rows]

    def export_lines(self, session: str) -> Iterator[str]:
        """The session as JSON Lines (without newlines): ``type``, fields, then the envelope."""
        for e in self.export(session):
            yield dumps(e)

    def sessions(
        self,
        *,
        order: str = "stored",
        limit: int | None = None,
        offset: int = 0,
        unfinished: bool = False,
        where: SessionFilter | None = None,
    ) -> list[SessionInfo]:
        """The sessions, ordered (``"stored"``: as first stored; ``"oldest"``/``"newest"``: by
        ``started``, see :data:`ORDERS`), only those not over with ``unfinished``, only those
        ``where`` keeps (:class:`SessionFilter`), and paged (``offset``, at most ``limit``). A SQL
        store of version 3 reads its catalogue (one row per session, kept by every append);
        otherwise they are computed from the events (:meth:`recomputed_sessions`). Raises
        ``ValueError`` for an unknown ``order``."""
        return listed(
            self.recomputed_sessions(), order=order, limit=limit, offset=offset,
            unfinished=unfinished, where=where,
        )  # fmt: skip

    def session_info(self, session: str) -> SessionInfo | None:
        """One session's line of the listing (``None``: not stored)."""
        return next((i for i in self.recomputed_sessions() if i.session == session), None)

    def session_count(self, *, unfinished: bool = False, where: SessionFilter | None = None) -> int:
        """How many sessions are stored (only those not over, with ``unfinished``; only those
        ``where`` keeps)."""
        return len(self.sessions(unfinished=unfinished, where=where))

    def session_facets(self) -> tuple[list[str], list[str | None], tuple[date, date] | None]:
        """What a listing can be filtered by: every player (sorted), every table (sorted,
        ``None`` last for sessions without one), and the first and last calendar dates of the
        sessions' starts (``None``: no session)."""
        return facets_of(self.recomputed_sessions())

    def recomputed_sessions(self) -> list[SessionInfo]:
        """Every session computed from the events, in the order first stored: what the
        catalogue holds (a migration writes these rows; tests compare them).

        Counts come from the derived events in SQL; a session with a ``voided`` event is folded
        through the engine instead (a withdrawn event's conclusions do not count)."""
        out: list[SessionInfo] = []
        for s in self._summaries():
            first = s["first"]
            started = first.get("at_dt") or s["stored_at"]
            common = {
                "session": s["session"],
                "started": started,
                "last_seq": s["last_seq"],
                "last_at": s.get("last_at"),
                "events": s["last_seq"],
                "first_position": s.get("first_position", 0),
                "last_position": s.get("last_position", 0),
                "stored": s["stored_at"],
                "first_at": first.get("at_dt"),
            }
            if s["voided"]:
                st = self._state_at(s["session"], s["last_seq"])
                out.append(
                    SessionInfo(
                        table=st.table,
                        players=st.seats,
                        deals=st.deals,
                        resolved_pots=st.resolved,
                        carried_pots=st.carried,
                        finished=st.finished,
                        winners=st.winners if st.finished else (),
                        cards=st.cards_mode,
                        **common,
                    )
                )
                continue
            ended = s["ended"]
            out.append(
                SessionInfo(
                    table=first.get("table"),
                    players=tuple(first.get("seats", ())),
                    deals=s["deals"],
                    resolved_pots=s["won"],
                    carried_pots=s["carried"],
                    finished=ended is not None,
                    winners=tuple(ended["winners"]) if ended else (),
                    cards=first.get("cards", "shown"),
                    **common,
                )
            )
        return out

    # -- the state cache ---------------------------------------------------------------------------

    def _cached(self, session: str, seq: int) -> State | None:
        with self._cache_lock:
            st = self._cache.get(session)
            if st is not None and st.seq == seq:
                self._cache.move_to_end(session)
                return st
        return None

    def _remember(self, session: str, state: State) -> None:
        state = without_history(state)
        with self._cache_lock:
            old = self._cache.get(session)
            if old is not None and old.seq > state.seq:
                return  # keep the newer one
            self._cache[session] = state
            self._cache.move_to_end(session)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _state_at(self, session: str, seq: int, *, history: bool = False) -> State:
        """The state after the session's first ``seq`` events (cached by ``(session, seq)``).

        The stream's prefix never changes, so the cache is never wrong, only stale; a stream
        shorter than ``seq`` is a :class:`ConcurrencyConflict`. With ``history`` the state keeps
        its undo chain (what a ``voided`` needs): folded from the log, never from the cache."""
        if seq == 0:
            return initial_state()
        if not history:
            st = self._cached(session, seq)
            if st is not None:
                return st
        rows = self._load(session, upto=seq)
        if len(rows) < seq:
            raise ConcurrencyConflict(session, seq, len(rows))
        st = _fold(session, rows)
        self._remember(session, st)
        return st

    # -- writing -----------------------------------------------------------------------------------

    def append(
        self, session: str, events: Sequence[AnyEvent], expected_seq: int
    ) -> list[StoredEvent]:
        """Validates and stores ``events`` after seq ``expected_seq`` in one transaction.

        ``events`` are recorded events; derived ones may be included (they are checked) and the
        missing ones are added after their cause. Returns the stored rows, derived ones included.
        See the module docstring for the errors."""
        if not isinstance(expected_seq, int) or expected_seq < 0:
            raise ValueError(
                f"expected_seq must be a seq (0 for a new session), not {expected_seq!r}"
            )
        events = list(events)
        if not events:
            return []
        try:
            plan = self._plan(session, events, expected_seq)
        except BragError:
            # Refused against expected_seq: it may be a retry of events stored since (then the
            # stored rows are the answer), or a changed event under a stored id (IdConflict is the
            # clearer error). Valid batches meet their stored ids inside the transaction.
            found = self._find([str(e.id) for e in events if e.id is not None])
            decided = self._retry(session, events, found) if found else events
            if decided is events:
                raise
            if decided and isinstance(decided[0], StoredEvent):
                return decided
            plan = self._plan(session, decided, expected_seq)  # type: ignore[arg-type]
        return self._write(plan, retry=True)

    def _write(self, plan: Plan, *, retry: bool) -> list[StoredEvent]:
        """The write transaction: insert the rows, all or nothing; a taken seq or id means look.

        The first try only inserts. The plan was validated against a stream of at least
        ``expected`` events (streams only grow), so the seq is free exactly when the stream is
        still at ``expected``: the table's unique ``(session, seq)`` is the seq check, and its
        unique ``id`` meets any id already stored. Either refusal rolls the transaction back and
        the append is done again, looking first under the lock: a retry of events already stored
        (a lost answer; stale by construction) returns the rows stored then, an id stored with
        other content is an :class:`IdConflict`, another writer's seq a
        :class:`ConcurrencyConflict`."""
        for look in (False, True):
            try:
                with self._transaction() as tx:
                    if look:
                        actual = tx.last_seq(plan.session)
                        if plan.given_ids:
                            found = tx.find(list(plan.given_ids))
                            if found:
                                if not retry:
                                    s = found[0]
                                    raise IdConflict(
                                        s.id,
                                        s.session,
                                        s.seq,
                                        f"event id {s.id} is already stored in session "
                                        f"{s.session!r} (seq {s.seq})",
                                    )
                                decided = self._retry(
                                    plan.session, [r.event for r in plan.rows], found
                                )
                                if decided and isinstance(decided[0], StoredEvent):
                                    return decided
                                plan = self._plan(plan.session, decided, plan.expected)  # type: ignore[arg-type]
                        if actual != plan.expected:
                            raise ConcurrencyConflict(plan.session, plan.expected, actual)
                    if not plan.rows:
                        return []
                    now = utc_now()
                    positions = tx.insert(plan.rows, now)
                    tx.record(plan, positions, now)
                    if self._before_commit is not None:
                        self._before_commit(plan)  # tests: fault injection inside the transaction
                break
            except (DuplicateId, SeqTaken):
                if look:  # we looked under the lock: only a writer bypassing it gets here
                    raise StoreError(
                        f"session {plan.session!r}: a row was stored concurrently by a writer "
                        "that does not take the store's lock; nothing was stored"
                    ) from None
        self._remember(plan.session, plan.state)
        written = StoredEvent._written
        return [written(r, p, now) for r, p in zip(plan.rows, positions, strict=True)]

    def _plan(self, session: str, events: list[AnyEvent], expected_seq: int) -> Plan:
        """Folds the batch onto the state at ``expected_seq``; builds the rows (no I/O but reading
        the prefix when the cache is stale).

        This loop runs for every event appended; it tests classes with ``type(e) is ...`` rather
        than pydantic's ``isinstance`` (a Python-level check, several per event otherwise)."""
        history = any(type(e) is Voided for e in events)
        state = self._state_at(session, expected_seq, history=history)
        out: list[AnyEvent] = []
        seen: dict[int, AnyEvent] = {}
        for k, e in enumerate(events, start=1):
            cls = type(e)
            eid = e.id
            try:
                if eid is not None:
                    prior = seen.get(eid.int)
                    if prior is not None:
                        if not same_content(prior, e):
                            raise FormatError(
                                f"id {eid} is used twice in the batch for different events",
                                field="id",
                            )
                        continue
                    seen[eid.int] = e
                if cls is SessionStarted and e.session != session:  # type: ignore[union-attr]
                    raise FormatError(
                        f"this batch is for session {session!r}, not {e.session!r}",  # type: ignore[union-attr]
                        field="session",
                    )
                if cls not in _DERIVED_CLASSES and state.pending:
                    state, derived = conclude(state)
                    out += derived
                state = apply(state, e)
                expect = expected_seq + len(out) + 1
                if e.seq is not None and cls is not Voided and e.seq != expect:
                    raise FormatError(
                        f"seq {e.seq} given, but this event would be seq {expect}", field="seq"
                    )
            except BragError as err:
                raise err.at(line=k, event=e.type) from None
            out.append(e)
        if state.pending:
            state, derived = conclude(state)
            out += derived
        rows, given = _rows(session, expected_seq, out)
        return Plan(session, expected_seq, rows, state, given)

    def _known(self, session: str, events: list[AnyEvent], found: list[StoredEvent]) -> set[str]:
        """The ids of ``events`` already stored with the same content in ``session``.

        Raises :class:`IdConflict` for an id stored with other content or in another session."""
        by_id = {str(s.id): s for s in found}
        known: set[str] = set()
        for e in events:
            if e.id is None:
                continue
            s = by_id.get(str(e.id))
            if s is None:
                continue
            if s.session != session:
                raise IdConflict(
                    s.id,
                    s.session,
                    s.seq,
                    f"event id {e.id} is already stored in session {s.session!r} (seq {s.seq})",
                )
            if not same_content(s.event, e):
                raise IdConflict(
                    s.id,
                    s.session,
                    s.seq,
                    f"event id {e.id} is already stored as seq {s.seq} ({s.type}) with other "
                    "content",
                )
            known.add(str(e.id))
        return known

    def _retry(
        self, session: str, events: list[AnyEvent], found: list[StoredEvent]
    ) -> list[StoredEvent] | list[AnyEvent]:
        """What to do about a batch some of whose ids are stored: every recorded event already
        stored → the rows stored then (with their derived events); else the events still new."""
        known = self._known(session, events, found)
        if not known:
            return events  # the very same list: nothing was stored
        rest = [e for e in events if e.id is None or str(e.id) not in known]
        if any(not isinstance(e, _DERIVED) for e in rest):
            return rest
        mine = [s for s in found if str(s.id) in known]
        lo = min(s.seq for s in mine)
        hi = max(s.seq for s in mine)
        rows = self._load(session, upto=hi + 2)
        out = [r for r in rows if lo <= r.seq <= hi]
        out += [r for r in rows if r.seq > hi and r.derived][:2]
        return out

    # -- import ------------------------------------------------------------------------------------

    def import_log(self, source: str | os.PathLike[str] | Iterable[str]) -> ImportResult:
        """Stores one session log (a FORMAT.md file path, or its lines) atomically.

        The whole file is checked first (any error → nothing stored, the error names the line,
        the event and the rule). A session already stored with the same events is unchanged; one
        whose stream is a prefix of the file gets the rest; any difference is an
        :class:`ImportConflict`. Events are compared by content: the same event stored under
        another id (an earlier export from another device, or the bundled data of an earlier
        version, whose ids were version 5) counts as already stored, and keeps its stored id."""
        steps = checked_log(source)
        first = steps[0].event
        assert isinstance(first, SessionStarted)  # complete() refuses anything else
        session = first.session
        for attempt in range(3):
            try:
                return self._import_steps(session, steps)
            except (ConcurrencyConflict, IdConflict):
                # Another import stored events of this session meanwhile (the same file, run
                # twice at once): compare again with what is stored now; the same events are
                # then unchanged (FORMAT.md: a retry of the same events is a no-op).
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _import_steps(self, session: str, steps: list[Step]) -> ImportResult:
        events = [s.event for s in steps]
        existing = self._load(session)
        other_ids = other_envelope = 0
        for k, (s, e) in enumerate(zip(existing, events, strict=False)):
            if not same_content(s.event, e):
                line = steps[k].line
                where = f"line {line}: " if line is not None else ""
                raise ImportConflict(
                    f"{where}session {session!r} is already stored with a different event "
                    f"({s.type}) at seq {s.seq}; nothing was stored",
                    session=session,
                )
            if e.id is not None and e.id != s.id:
                other_ids += 1
            kept = s.event
            if (e.at is not None and e.at != kept.at) or (e.by is not None and e.by != kept.by):
                other_envelope += 1
        n_old = len(existing)
        if n_old >= len(events):
            return ImportResult(
                session, 0, len(events), len(events), n_old, other_ids, other_envelope
            )
        # The time of a derived event at the start of the rest is that of its cause, stored already.
        cause_at = next(
            (e.at for e in reversed(events[:n_old]) if type(e) not in _DERIVED_CLASSES), None
        )
        rows, given = _rows(session, n_old, events[n_old:], cause_at)
        plan = Plan(session, n_old, rows, steps[-1].state, given)
        stored = self._write(plan, retry=False)
        return ImportResult(
            session, len(stored), n_old, len(events), len(events), other_ids, other_envelope
        )


def stored_states(session: str, rows: Sequence[StoredEvent]) -> list[State]:
    """The state after each stored row of a session read from seq 1 (``engine.fold.replay`` of
    their events); :class:`CorruptSession` naming the session and the seq of the first row the
    rules refuse (a store changed outside Bragbook), never the engine's error about a "line"."""
    st = initial_state()
    out: list[State] = []
    for r in rows:
        try:
            st = apply(st, r.event)
        except BragError as err:
            raise CorruptSession(
                session,
                r.seq,
                r.type,
                f"the stored stream no longer folds ({err.heading()}: {err.message})",
            ) from None
        out.append(st)
    return out


def _fold(session: str, rows: Sequence[StoredEvent]) -> State:
    """The state after the stored ``rows``; :class:`CorruptSession` as :func:`stored_states`."""
    states = stored_states(session, rows)
    return states[-1] if states else initial_state()


def checked_log(source: str | os.PathLike[str] | Iterable[str]) -> list[Step]:
    """A session log (a FORMAT.md file path, or its lines) read and folded by the engine, derived
    events added: every step of the full stream, nothing stored. What :meth:`EventStore.import_log`
    checks first; raises its :class:`~events.errors.BragError` (line, event, rule), or OSError
    for a file that cannot be read."""
    if isinstance(source, str | os.PathLike):
        lines = read_file(os.fspath(source))
    else:
        lines = list(read_events(source))
    if not lines:
        raise FormatError("the log is empty: a session log starts with session_started")
    return list(complete(lines))


def _rows(
    session: str, after: int, events: Sequence[AnyEvent], cause_at: datetime | None = None
) -> tuple[list[Row], dict[str, int]]:
    """The rows of ``events`` stored after seq ``after``, and the ids their events gave (id text
    → index in the rows: checked against the store in the write transaction).

    An event's time is its own ``at``, else, for a derived event, that of the recorded event
    that caused it (``cause_at`` for derived events before the first recorded one); events
    without an id get :func:`new_ids`."""
    rows: list[Row] = []
    given: dict[str, int] = {}
    cause_text = cause_at.isoformat() if cause_at is not None else None
    for seq, e in enumerate(events, start=after + 1):
        t = e.at
        if type(e) not in _DERIVED_CLASSES:
            if t is not cause_at:
                cause_at = t
                cause_text = t.isoformat() if t is not None else None
            t_text = cause_text
        elif t is None:
            t, t_text = cause_at, cause_text
        else:
            t_text = t.isoformat()
        if e.id is None:
            id_text = new_ids(1)[0]
        else:
            id_text = str(e.id)
            given[id_text] = len(rows)
        rows.append(Row(session, seq, id_text, e.type, e.v, payload_of(e), t_text, e.by, e, t))
    return rows, given


_new_object = object.__new__


def parse_stored_at(value: str | datetime) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


def utc_now() -> datetime:
    return datetime.now(UTC)
