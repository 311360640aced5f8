"""The recorder port: what the session log service (:mod:`log`) asks of a backend, by role.

A recorder stores rows it is given and reads them back; it never decides whether an event is
legal (that is the engine's, through the log service). One write transaction
(:meth:`Recorder.transaction`) inserts rows after an expected seq and writes the session's
catalogue row (a :class:`~store.records.SessionInfo` the caller computed), all or nothing; a
taken seq or id is reported (:class:`~events.errors.SeqTaken`, :class:`~events.errors.DuplicateId`),
never hidden. Backends: :mod:`store.memory`, :mod:`store.sqlite`, :mod:`store.postgres`.

The roles (each a protocol; a caller is typed against the one it uses):

- :class:`EventRecorder`: the event store proper (as the eventsourcing library's recorders):
  insert after an expected seq (:class:`EventTx`), select a stream, select after a position, the
  last seq and position.
- :class:`Catalogue`: the sessions catalogue (one row per session, written by the append's
  transaction through :class:`CatalogueTx`): listing, count, facets, infos, its rewrite.
- :class:`AnnotationRecorder`: the annotations beside the streams (:mod:`store.annotations`).
- :class:`DeviceRecorder`: the devices beside the log (:mod:`store.devices`): the organiser's
  devices' revocations and the dashboard holding the store, read and written in the store.
- :class:`RegisterRecorder`: the register beside the log (:mod:`store.register`): merges and
  renames of players' names, each undoable.
- :class:`NightRecorder`: the club night's facts beside the log (:mod:`store.night`).
- :class:`Backend`: the store itself (url, schema version, id, reopen, close).

:class:`Recorder` is all of them, for the service that needs every role. What only one backend
has stays on that backend, off the port: the PostgreSQL schema
(:attr:`store.postgres.PostgresRecorder.schema`) and the SQLite connection's settings
(:meth:`store.sqlite.SqliteRecorder.settings`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import date, datetime
from typing import Protocol

from store.annotations import Annotation, AnnotationRow
from store.devices import Holder, Revocations
from store.night import Kind as NightKind
from store.night import NightFact
from store.records import (
    Facets,
    Listing,
    Row,
    SessionFilter,
    SessionInfo,
    SessionSummary,
    StoredEvent,
)
from store.register import Kind, RegisterFact

__all__ = [
    "AnnotationRecorder",
    "AnnotationTx",
    "Backend",
    "Catalogue",
    "CatalogueOf",
    "CatalogueTx",
    "DeviceRecorder",
    "DeviceTx",
    "Devices",
    "EventRecorder",
    "EventTx",
    "NightBook",
    "NightRecorder",
    "NightTx",
    "Recorder",
    "Register",
    "RegisterRecorder",
    "RegisterTx",
    "Tx",
]


# --- inside the write transaction (exclusive: SQLite ``BEGIN IMMEDIATE``, a PostgreSQL table
# lock, the memory store's lock)


class EventTx(Protocol):
    """The events' part of the write transaction."""

    def find(self, ids: list[str]) -> list[StoredEvent]:
        """Stored rows with these ids (any session)."""
        ...

    def last_seq(self, session: str) -> int: ...

    def insert(self, rows: list[Row], stored_at: datetime) -> list[int]:
        """Inserts the rows in order; returns their positions. A ``(session, seq)`` or an id
        stored already: :class:`~events.errors.SeqTaken` / :class:`~events.errors.DuplicateId`
        (the transaction is then rolled back by the caller leaving it)."""
        ...


class CatalogueTx(Protocol):
    """The catalogue's part of the write transaction."""

    def record(self, info: SessionInfo, *, first: bool) -> None:
        """Writes the session's catalogue row after the rows just inserted (``first``: the
        session had no event before them). A recorder without a catalogue does nothing."""
        ...


class AnnotationTx(Protocol):
    """The annotations beside the stream (:mod:`store.annotations`), never events."""

    def annotations(self, session: str) -> list[Annotation]:
        """The session's annotations in the order stored."""
        ...

    def annotation(self, position: int) -> Annotation | None:
        """The annotation at ``position`` (any session), or ``None``."""
        ...

    def annotate(self, row: AnnotationRow, at: datetime) -> Annotation:
        """Appends one annotation (``at``: UTC); a store older than version 4:
        :class:`~events.errors.StoreError`."""
        ...


class Devices(Protocol):
    """The devices beside the log inside the write transaction (:mod:`store.devices`)."""

    def revocations(self) -> Revocations: ...

    def revoke(self, token_id: str, expiry: int, now: int) -> None:
        """Revokes one token id until ``expiry`` (ids expired at ``now`` are dropped)."""
        ...

    def revoke_all(self) -> int:
        """Moves the devices' generation on; returns the new one."""
        ...

    def holder(self) -> Holder | None: ...

    def hold(self, holder: Holder) -> None: ...

    def let_go(self, holder: str) -> None:
        """Removes the store's dashboard row when ``holder`` holds it."""
        ...


class DeviceTx(Protocol):
    """The devices' part of the write transaction."""

    def devices(self) -> Devices: ...


class Register(Protocol):
    """The register beside the log inside the write transaction (:mod:`store.register`)."""

    def facts(self) -> list[RegisterFact]: ...

    def add(
        self, kind: Kind, name: str, target: str, undoes: int | None, at: datetime, by: str
    ) -> RegisterFact:
        """Appends one fact (``at``: UTC)."""
        ...


class RegisterTx(Protocol):
    """The register's part of the write transaction."""

    def register(self) -> Register: ...


class NightBook(Protocol):
    """The club night's facts inside the write transaction (:mod:`store.night`)."""

    def facts(self, night: str, club: str) -> list[NightFact]: ...

    def add(
        self,
        night: str,
        club: str,
        kind: NightKind,
        subject: str,
        value: str,
        undoes: int | None,
        at: datetime,
        by: str,
    ) -> NightFact:
        """Appends one fact (``at``: UTC; ``value``: JSON text)."""
        ...


class NightTx(Protocol):
    """The night's part of the write transaction."""

    def night(self) -> NightBook: ...


class Tx(EventTx, CatalogueTx, AnnotationTx, DeviceTx, RegisterTx, NightTx, Protocol):
    """What a recorder does inside its write transaction: every role's part."""


# --- the roles


class Backend(Protocol):
    """The store itself, whatever is asked of it."""

    url: str
    version: int
    """The store's schema version (0 for a recorder without a schema: memory)."""

    @property
    def store_id(self) -> str:
        """The store's id (``brag_meta`` ``store_id``, a UUID; ``location:...`` for an older
        store no writer has opened since): what a projection of it records."""
        ...

    @property
    def where(self) -> str:
        """The store's URL as shown to people (no password)."""
        ...

    def reopen(self) -> Recorder:
        """Another recorder on the same data (as after a restart)."""
        ...

    def close(self) -> None: ...


class EventRecorder(Protocol):
    """The event store: rows in after an expected seq, rows out by stream or by position."""

    def transaction(self) -> AbstractContextManager[EventTx]:
        """The exclusive write transaction: committed when the block ends, else rolled back."""
        ...

    def load(self, session: str, upto: int | None = None) -> list[StoredEvent]:
        """The session's rows with ``seq <= upto`` (all when ``None``), in seq order."""
        ...

    def find(self, ids: list[str]) -> list[StoredEvent]:
        """Stored rows with these ids (any session), outside a transaction."""
        ...

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[StoredEvent]:
        """Rows of every session with ``position > after``, at most ``limit``, by position."""
        ...

    def last_position(self) -> int: ...

    def last_seq(self, session: str) -> int: ...


class Catalogue(Protocol):
    """The sessions catalogue: one row per session (served when :attr:`catalogued`, else the log
    service computes the rows from :meth:`summaries`)."""

    @property
    def catalogued(self) -> bool:
        """Whether the catalogue reads below are served (else the log service computes them)."""
        ...

    def summaries(self) -> list[SessionSummary]:
        """Every session as its events tell it, in the order first stored."""
        ...

    def page(self, listing: Listing) -> list[SessionInfo]: ...

    def count(self, where: SessionFilter) -> int: ...

    def night_sums(self, first: date, last: date) -> list[tuple[date, int, int, int]]:
        """Per calendar date from ``first`` to ``last`` with a session started on it (as
        :meth:`days` dates them), oldest first: ``(date, sessions, the sum of their last seqs, the
        highest of their last positions)``. Sessions only grow and keep their date, so an event
        stored in any of them, or a session more, moves the row (a night's version)."""
        ...

    def days(self, first: date, last: date) -> list[tuple[str, date, int]]:
        """Each session started from ``first`` to ``last`` inclusive (the calendar date of its
        recorded start in its own offset, else of when it was stored: ``SessionFilter.dates``),
        oldest first, as ``(session, that date, last seq)``: one query and no
        :class:`SessionInfo` made (a league's season lists 100,000 sessions)."""
        ...

    def facets(self) -> Facets: ...

    def info(self, session: str) -> SessionInfo | None: ...

    def infos(self, sessions: Sequence[str]) -> list[SessionInfo]:
        """The catalogue rows of those of ``sessions`` that are stored (one query, any number)."""
        ...

    def rewrite_catalogue(self, infos: Callable[[], list[SessionInfo]]) -> int:
        """Writes the catalogue again (one transaction) from ``infos()`` (called once the store is
        known to be writable); returns how many sessions."""
        ...


class AnnotationRecorder(Protocol):
    """The annotations beside the streams: read here, written in the write transaction."""

    def transaction(self) -> AbstractContextManager[AnnotationTx]:
        """The exclusive write transaction: committed when the block ends, else rolled back."""
        ...

    def annotations(self, session: str) -> list[Annotation]:
        """The session's annotations in the order stored (none in an older store read as it
        is, version 3 or below)."""
        ...


class DeviceRecorder(Protocol):
    """The devices beside the log (:mod:`store.devices`): read here, written in the write
    transaction."""

    def transaction(self) -> AbstractContextManager[DeviceTx]:
        """The exclusive write transaction: committed when the block ends, else rolled back."""
        ...

    def revocations(self) -> Revocations:
        """The devices' revocations now (none in a store older than version 7 read as it is)."""
        ...


class RegisterRecorder(Protocol):
    """The register beside the log (:mod:`store.register`): read here, written in the write
    transaction."""

    def transaction(self) -> AbstractContextManager[RegisterTx]:
        """The exclusive write transaction: committed when the block ends, else rolled back."""
        ...

    def register_facts(self) -> list[RegisterFact]:
        """Every fact of the register, oldest first (none in a store older than version 8 read
        as it is)."""
        ...


class NightRecorder(Protocol):
    """The club night's facts (:mod:`store.night`): read here, written in the write
    transaction."""

    def transaction(self) -> AbstractContextManager[NightTx]:
        """The exclusive write transaction: committed when the block ends, else rolled back."""
        ...

    def night_facts(self, night: str, club: str = "") -> list[NightFact]:
        """The facts of one night (``YYYY-MM-DD``) of ``club``, oldest first (none in a store
        older than version 9 read as it is)."""
        ...


class Recorder(
    Backend,
    EventRecorder,
    Catalogue,
    AnnotationRecorder,
    DeviceRecorder,
    RegisterRecorder,
    NightRecorder,
    Protocol,
):
    """A store's storage, every role: rows in, rows out, the sessions catalogue, the
    annotations. Thread-safe."""

    def transaction(self) -> AbstractContextManager[Tx]:
        """The exclusive write transaction (every role's part): committed when the block ends,
        else rolled back."""
        ...


CatalogueOf = Callable[[Recorder], list[SessionInfo]]
"""What fills the catalogue when a store is migrated to version 3: every session's line computed
from its events (:func:`log.folds.recomputed`; the recorder cannot fold a session itself)."""
