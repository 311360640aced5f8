"""The plain data the recorder port speaks: rows to write and rows read back, the sessions'
catalogue lines, the filters and pages of a listing, the per-session summaries read from the events.

Pure values and helpers over :mod:`events` (no database, no engine)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

if TYPE_CHECKING:
    # The event models are imported where a row becomes an event, not with the records: a
    # listing of sessions reads the catalogue without building a pydantic model.
    from events.model import AnyEvent

__all__ = [
    "ORDERS",
    "Facets",
    "Listing",
    "Row",
    "SessionFilter",
    "SessionInfo",
    "SessionSummary",
    "StoredEvent",
    "event_from_row",
    "facets_from",
    "facets_of",
    "listed",
    "new_ids",
    "parse_stored_at",
    "payload_of",
    "same_content",
    "utc_now",
]

DERIVED_TYPES: Final = frozenset({"pot_won", "pot_carried", "session_ended"})
"""The derived events' types: :data:`events.model.DERIVED_TYPES`, written out here so that a row's
:attr:`StoredEvent.derived` needs no model (``tests/test_cli_lazy.py`` checks they are equal)."""
_ENVELOPE: Final = frozenset({"v", "id", "seq", "at", "by", "type"})
_ENVELOPE_VOIDED: Final = frozenset({"v", "id", "at", "by", "type"})  # its ``seq`` is content


# --- rows -----------------------------------------------------------------------------------------


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


# --- the sessions catalogue ---------------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of a sessions listing: the :data:`ORDERS` order, the rows after ``offset`` (at most
    ``limit``), of the sessions ``where`` keeps. Raises ``ValueError`` for an unknown ``order``."""

    order: str = "stored"
    limit: int | None = None
    offset: int = 0
    where: SessionFilter = field(default_factory=lambda: SessionFilter())

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise ValueError(f"order is one of {', '.join(ORDERS)}, not {self.order!r}")

    @classmethod
    def of(
        cls,
        *,
        order: str = "stored",
        limit: int | None = None,
        offset: int = 0,
        unfinished: bool = False,
        where: SessionFilter | None = None,
    ) -> Listing:
        """The page of ``EventStore.sessions``' keywords (``unfinished`` joins ``where``)."""
        keep = where or SessionFilter()
        if unfinished and not keep.unfinished:
            keep = SessionFilter(keep.players, keep.tables, keep.dates, unfinished=True)
        return cls(order, limit, offset, keep)


def listed(infos: Iterable[SessionInfo], page: Listing) -> list[SessionInfo]:
    """``infos`` filtered, ordered and paged as ``page`` asks (what a catalogue's SQL does)."""
    out = [i for i in infos if page.where.keeps(i)]
    if page.order == "stored":
        out.sort(key=lambda i: i.first_position)
    else:
        out.sort(key=lambda i: (i.started_us, i.first_position), reverse=page.order == "newest")
    return out[page.offset : None if page.limit is None else page.offset + page.limit]


Facets = tuple[list[str], list[str | None], tuple[date, date] | None]
"""What a listing can be filtered by: every player (sorted), every table (sorted, ``None`` last for
sessions without one), the first and last calendar dates of the starts (``None``: no session)."""


def facets_from(
    players: Iterable[str], tables: Iterable[str | None], days: Iterable[date]
) -> Facets:
    """:class:`Facets` from the players, tables (``None``: a session without one) and start days
    found (each as often as found): sorted, ``None`` last, the first and last day."""
    found = set(tables)
    named = sorted(t for t in found if t is not None)
    days = list(days)
    return (
        sorted(set(players)),
        [*named, *([None] if None in found else [])],
        (min(days), max(days)) if days else None,
    )


def facets_of(infos: Iterable[SessionInfo]) -> Facets:
    """:class:`Facets` of these sessions (what ``EventStore.session_facets`` answers)."""
    infos = list(infos)
    return facets_from(
        (p for i in infos for p in i.players),
        (i.table for i in infos),
        (i.started.date() for i in infos if i.started is not None),
    )


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """One session as its stored events tell it, without the rules: what a recorder counts for
    the listing of a store without a catalogue (and for filling one). ``voided`` > 0 (the
    corrections: ``voided`` and ``amended`` events) means the counts may include withdrawn
    conclusions: the log service folds that session instead."""

    session: str
    last_seq: int
    deals: int
    won: int
    carried: int
    voided: int
    table: str | None
    """From ``session_started`` (seq 1), as are ``seats`` and ``cards``."""
    seats: tuple[str, ...]
    cards: str
    winners: tuple[str, ...] | None
    """Of the last ``session_ended`` (``None``: not ended)."""
    first_at: datetime | None
    """``at`` of seq 1 as recorded."""
    stored_at: datetime
    first_position: int
    last_position: int
    last_at: datetime | None
    """The last recorded time (``None``: a log without times)."""

    @classmethod
    def of(
        cls,
        session: str,
        first: dict[str, Any],
        ended: dict[str, Any] | None,
        **counts: Any,
    ) -> SessionSummary:
        """From the payloads of seq 1 and of ``session_ended`` (``None``: not ended)."""
        return cls(
            session=session,
            table=first.get("table"),
            seats=tuple(first.get("seats", ())),
            cards=first.get("cards", "shown"),
            winners=tuple(ended["winners"]) if ended else None,
            **counts,
        )


# --- helpers --------------------------------------------------------------------------------------


def payload_of(event: AnyEvent) -> str:
    """The JSON text stored for an event: its content without ``type`` and envelope."""
    from events.model import Voided

    exclude = _ENVELOPE_VOIDED if isinstance(event, Voided) else _ENVELOPE
    # model_dump_json without its Python wrapper (this runs for every event stored). The ignore:
    # pydantic-core's stub types ``exclude`` as a set; the frozenset is taken alike at run time.
    out: bytes = event.__pydantic_serializer__.to_json(event, exclude=exclude, exclude_none=True)  # type: ignore[arg-type]  # frozenset for set
    return out.decode()


def same_content(a: AnyEvent, b: AnyEvent) -> bool:
    """Whether two events say the same thing (envelope aside; object keys in any order)."""
    return a.type == b.type and json.loads(payload_of(a)) == json.loads(payload_of(b))


def new_ids(n: int) -> list[str]:
    """``n`` new event ids as text: UUID version 7 (RFC 9562 section 5.7), from ``uuid-utils``.

    Their first 48 bits are the Unix time in milliseconds and they increase within a process, so
    the store's unique index on ``id`` grows at its end: an append writes one or two of its pages
    instead of a random page per event (with random version 4 ids, SQLite appends ran about 2.4
    times slower; ``bench/append.py --ids v4`` measures it). ``uuid-utils`` is imported here, by
    a writer, not with the module: a read command never needs it (issue 22)."""
    from uuid_utils.compat import uuid7

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
    from events.codec import parse_raw

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


_new_object = object.__new__


def parse_stored_at(value: str | datetime) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


def utc_now() -> datetime:
    return datetime.now(UTC)
