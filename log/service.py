"""The session log service: :class:`EventStore`, one stream per session, validated by the engine
before any write, stored through a recorder (:class:`store.port.Recorder`).

``append(session, events, expected_seq)``: ``expected_seq`` is the seq of the last event the caller
saw (0 for a new session). The store extends the session's :class:`~timeline.Timeline` at that
seq (cached, else folded from the stream) by the batch, the engine's derived events right after
their cause, and writes the whole batch in one transaction, or nothing:

- another writer got there first: :class:`ConcurrencyConflict` (``session``, ``expected``,
  ``actual``), never a driver error and never an append at a later seq;
- a rule is broken anywhere in the batch: the :class:`~events.errors.RuleViolation` (or
  :class:`~events.errors.FormatError`) of the engine, with ``line`` = 1-based index in the batch;
- every event of the batch that carries an ``id`` is already stored with the same content: a no-op
  returning the stored rows (their original seqs), also after a restart; the same ``id`` with other
  content: :class:`IdConflict`.

``append_state`` also answers the state and the timeline after them (:class:`~log.rows.Appended`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from events.errors import (
    BragError,
    ConcurrencyConflict,
    DuplicateId,
    IdConflict,
    ImportConflict,
    SeqTaken,
    StoreError,
    UnknownSession,
)
from events.text import inert
from log.cache import TimelineCache
from log.names import Namesakes
from log.rows import (
    Appended,
    ImportResult,
    Plan,
    Retry,
    compared,
    known_ids,
    plan_of,
    rows_of,
    stored_elsewhere,
)
from store.port import Recorder
from store.records import (
    DERIVED_TYPES,
    Listing,
    SessionFilter,
    SessionInfo,
    StoredEvent,
    facets_of,
    listed,
    utc_now,
)

if TYPE_CHECKING:
    # The engine and the event models are imported by the methods that fold or validate (an
    # append, an import, an export, a replay's states), not with the service: listing sessions
    # from the catalogue loads neither.
    from engine.fold import Step
    from engine.state import State
    from events.model import AnyEvent
    from timeline import Timeline

__all__ = ["EventStore"]


class EventStore:
    """The session log: appends folded through the engine, stored by ``recorder``.

    Thread-safe (SQL recorders keep one connection per thread). Appends validate outside the write
    lock against the (immutable) prefix the caller saw; inside it the insert itself checks the seq
    and the ids (the table's unique constraints), and only a refusal reads the stream again."""

    cache_size: int = 16
    """Sessions whose latest :class:`~timeline.Timeline` is kept (~2 KB an event): an append
    extends it, a reader shares it; a session not kept is folded again when next asked."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._cache = TimelineCache(self.cache_size)
        self._names = Namesakes(recorder)

    def __repr__(self) -> str:
        return repr(self.recorder)

    # -- the backend (delegated) -------------------------------------------------------------------

    @property
    def url(self) -> str:
        return self.recorder.url

    @property
    def where(self) -> str:
        """The store's URL as shown to people (no password; a SQLite file's absolute path)."""
        return self.recorder.where

    @property
    def store_id(self) -> str:
        """The store's id (:attr:`store.port.Recorder.store_id`), which its projection records."""
        return self.recorder.store_id

    @property
    def version(self) -> int:
        """The store's schema version (SQL stores; 0 for memory)."""
        return self.recorder.version

    @property
    def schema(self) -> str | None:
        """The PostgreSQL schema given when the store was opened (``None`` for other backends:
        only :class:`store.postgres.PostgresRecorder` has one, off the port)."""
        schema: str | None = getattr(self.recorder, "schema", None)
        return schema

    def settings(self) -> dict[str, Any]:
        """The connection's settings as SQLite reports them (checked when the store opens;
        empty for other backends: only :class:`store.sqlite.SqliteRecorder` has them, off the
        port)."""
        settings: Callable[[], dict[str, Any]] | None = getattr(self.recorder, "settings", None)
        return settings() if settings is not None else {}

    def close(self) -> None:
        """Releases the connections (the store may not be used afterwards)."""
        self.recorder.close()

    def reopen(self) -> EventStore:
        """A new store object on the same data with an empty cache (as after a restart)."""
        return type(self)(self.recorder.reopen())

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------------

    def read(self, session: str) -> list[StoredEvent]:
        """The session's whole stream in seq order (empty for an unknown session)."""
        return self.recorder.load(session)

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[StoredEvent]:
        """Events of every session by global position: ``position > after``, at most ``limit``,
        in position order. Positions may have holes (rolled-back appends on PostgreSQL); a reader
        that resumes after the last position it saw misses nothing."""
        return self.recorder.read_all(after, limit)

    def last_position(self) -> int:
        """The highest global position stored (0 for an empty store)."""
        return self.recorder.last_position()

    def last_seq(self, session: str) -> int:
        """The seq of the session's last event (0 if it has none)."""
        return self.recorder.last_seq(session)

    def events(self, session: str) -> list[AnyEvent]:
        """The session's events (envelope filled in), oldest first."""
        return [r.event for r in self.recorder.load(session)]

    def has(self, session: str) -> bool:
        return self.last_seq(session) > 0

    def state(self, session: str) -> State:
        """The folded current state, corrections applied (``state.seq`` is the last seq; the
        initial state when the session has no event yet)."""
        return self.timeline(session).state

    def timeline(self, session: str, upto: int | None = None) -> Timeline:
        """The session's :class:`~timeline.Timeline` as stored now, or of its first ``upto``
        events (empty for an unknown session), cached per (session, last seq): an append extends
        it; :class:`CorruptSession` if the stored stream no longer folds."""
        return self._timeline_at(session, self.last_seq(session) if upto is None else upto)

    def export(self, session: str) -> list[AnyEvent]:
        """The session as FORMAT.md events, envelope included; :class:`UnknownSession` if none,
        :class:`CorruptSession` if the stored stream no longer folds (never a tampered log)."""
        rows = self.recorder.load(session)
        if not rows:
            raise UnknownSession(session)
        if self._cache.get(session, rows[-1].seq) is None:
            self._timeline_rows(session, rows)
        return [r.event for r in rows]

    def export_lines(self, session: str) -> Iterator[str]:
        """The session as JSON Lines (without newlines): ``type``, fields, then the envelope."""
        from events.codec import dumps  # pydantic: not for `brag sessions --json`

        for e in self.export(session):
            yield dumps(e)

    # -- the sessions listing ------------------------------------------------------------------

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
        ``started``, see :data:`~store.records.ORDERS`), only those not over with ``unfinished``,
        only those ``where`` keeps (:class:`SessionFilter`), and paged (``offset``, at most
        ``limit``). A SQL store of version 3 reads its catalogue (one row per session, kept by
        every append); otherwise they are computed from the events (:meth:`recomputed_sessions`).
        Raises ``ValueError`` for an unknown ``order``."""
        page = Listing.of(
            order=order, limit=limit, offset=offset, unfinished=unfinished, where=where
        )
        if self.recorder.catalogued:
            return self.recorder.page(page)
        return listed(self.recomputed_sessions(), page)

    def session_info(self, session: str) -> SessionInfo | None:
        """One session's line of the listing (``None``: not stored)."""
        if self.recorder.catalogued:
            return self.recorder.info(session)
        return next((i for i in self.recomputed_sessions() if i.session == session), None)

    def session_infos(self, sessions: Iterable[str]) -> dict[str, SessionInfo]:
        """The listing's lines of those of ``sessions`` that are stored, by session (one query of
        the catalogue, however many)."""
        wanted = set(sessions)
        if self.recorder.catalogued:
            return {i.session: i for i in self.recorder.infos(list(wanted))}
        return {i.session: i for i in self.recomputed_sessions() if i.session in wanted}

    def session_count(self, *, unfinished: bool = False, where: SessionFilter | None = None) -> int:
        """How many sessions are stored (only those not over, with ``unfinished``; only those
        ``where`` keeps)."""
        keep = Listing.of(unfinished=unfinished, where=where).where
        if self.recorder.catalogued:
            return self.recorder.count(keep)
        return len(listed(self.recomputed_sessions(), Listing(where=keep)))

    def session_facets(self) -> tuple[list[str], list[str | None], tuple[date, date] | None]:
        """What a listing can be filtered by: every player (sorted), every table (sorted,
        ``None`` last for sessions without one), and the first and last calendar dates of the
        sessions' starts (``None``: no session)."""
        if self.recorder.catalogued:
            return self.recorder.facets()
        return facets_of(self.recomputed_sessions())

    def recomputed_sessions(self) -> list[SessionInfo]:
        """Every session computed from the events, in the order first stored: what the
        catalogue holds (a migration writes these rows; tests compare them).

        Counts come from the derived events in SQL; a session with a ``voided`` event is folded
        through the engine instead (a withdrawn event's conclusions do not count)."""
        from log.folds import recomputed  # the engine: not for `brag sessions --json`

        return recomputed(self.recorder, lambda s, seq: self._timeline_at(s, seq).state)

    def rebuild_catalogue(self) -> int:
        """Writes the catalogue again from the events (one transaction): for rows written
        around Bragbook (a bulk copy). Returns the number of sessions."""
        return self.recorder.rewrite_catalogue(self.recomputed_sessions)

    # -- the timeline cache ------------------------------------------------------------------------

    def cached_timeline(self, session: str, seq: int) -> Timeline | None:
        """The session's timeline at ``seq`` if this store keeps it (no I/O), else ``None``."""
        return self._cache.get(session, seq)

    def _timeline_at(self, session: str, seq: int) -> Timeline:
        """The timeline of the session's first ``seq`` events (cached by ``(session, seq)``).

        The stream's prefix never changes, so the cache is never wrong, only stale; a stream
        shorter than ``seq`` is a :class:`ConcurrencyConflict`."""
        from timeline import Timeline  # the engine: not for `brag sessions --json`

        if seq == 0:
            return Timeline()
        t = self._cache.get(session, seq)
        if t is not None:
            return t
        rows = self.recorder.load(session, upto=seq)
        if len(rows) < seq:
            raise ConcurrencyConflict(session, seq, len(rows))
        return self._timeline_rows(session, rows)

    def _timeline_rows(self, session: str, rows: Sequence[StoredEvent]) -> Timeline:
        """The timeline of the stored ``rows`` (from seq 1), kept."""
        from log.folds import stored_timeline  # the engine: not for `brag sessions --json`

        t = stored_timeline(session, rows)
        self._cache.remember(session, t)
        return t

    def namesake(self, session: str) -> str | None:
        """The stored session whose id is another spelling of ``session`` (the same
        :func:`events.text.normal` form: ``Oak night`` and ``oak  NIGHT``), or ``None``. The first
        stored of such spellings answers. Reads only the events stored since it last looked."""
        return self._names.of(session)

    def _refuse_namesake(self, session: str) -> None:
        other = self.namesake(session)
        if other is not None:
            raise ImportConflict(
                f"a session called {inert(other)} is already stored ({inert(session)} is the same "
                "name in another case or spelling); nothing was stored",
                session=session,
            )

    # -- writing -----------------------------------------------------------------------------------

    def append(
        self, session: str, events: Sequence[AnyEvent], expected_seq: int
    ) -> list[StoredEvent]:
        """Validates and stores ``events`` after seq ``expected_seq`` in one transaction.

        ``events`` are recorded events; derived ones may be included (they are checked) and the
        missing ones are added after their cause. Returns the stored rows, derived ones included.
        See the module docstring for the errors."""
        return self._append(session, events, expected_seq)[0]

    def append_state(self, session: str, events: Sequence[AnyEvent], expected_seq: int) -> Appended:
        """:meth:`append`, and the state it leaves: :class:`~log.rows.Appended` ``(rows, state)``,
        ``rows`` what :meth:`append` returns, ``state`` the engine's state after the last of them
        (the fold that checked the batch: no second read or fold; for a retry of a batch stored
        already, or an empty batch, the state at that seq is read as :meth:`state` reads it, but
        from the cache when it can). The same errors as :meth:`append`."""
        rows, t = self._append(session, events, expected_seq)
        if t is None:
            t = self._timeline_at(session, rows[-1].seq if rows else expected_seq)
        return Appended(rows, t.state, t)

    def _append(
        self, session: str, events: Sequence[AnyEvent], expected_seq: int
    ) -> tuple[list[StoredEvent], Timeline | None]:
        """:meth:`append`'s rows, and the timeline after them when this append extended it
        (``None``: nothing new was stored)."""
        if not isinstance(expected_seq, int) or expected_seq < 0:
            raise ValueError(
                f"expected_seq must be a seq (0 for a new session), not {expected_seq!r}"
            )
        events = list(events)
        if not events:
            return [], None
        if expected_seq == 0:
            self._refuse_namesake(session)
        try:
            plan = self._plan(session, events, expected_seq)
        except BragError:
            # Refused against expected_seq: it may be a retry of events stored since (then the
            # stored rows are the answer), or a changed event under a stored id (IdConflict is the
            # clearer error). Valid batches meet their stored ids inside the transaction.
            found = self.recorder.find([str(e.id) for e in events if e.id is not None])
            retry = self._retry(session, events, found) if found else None
            if retry is None or not retry.known:
                raise
            if retry.stored is not None:
                return retry.stored, None
            plan = self._plan(session, retry.rest, expected_seq)
        return self._write(plan, retry=True)

    def _write(self, plan: Plan, *, retry: bool) -> tuple[list[StoredEvent], Timeline | None]:
        """The write transaction: insert the rows, all or nothing; a taken seq or id means look.
        Returns the rows stored and the state after them (``None``: stored before, a retry).

        The first try only inserts. The plan was validated against a stream of at least
        ``expected`` events (streams only grow), so the seq is free exactly when the stream is
        still at ``expected``: the table's unique ``(session, seq)`` is the seq check, and its
        unique ``id`` meets any id already stored. Either refusal rolls the transaction back and
        the append is done again, looking first under the lock: a retry of events already stored
        (a lost answer; stale by construction) returns the rows stored then, an id stored with
        other content is an :class:`IdConflict`, another writer's seq a
        :class:`ConcurrencyConflict`."""
        from log.folds import session_row  # the engine: not for `brag sessions --json`

        for look in (False, True):
            try:
                with self.recorder.transaction() as tx:
                    if look:
                        actual = tx.last_seq(plan.session)
                        found = tx.find(list(plan.given_ids)) if plan.given_ids else []
                        if found:
                            if not retry:
                                raise stored_elsewhere(found[0])
                            again = self._retry(plan.session, [r.event for r in plan.rows], found)
                            if again.stored is not None:
                                return again.stored, None
                            plan = self._plan(plan.session, again.rest, plan.expected)
                        if actual != plan.expected:
                            raise ConcurrencyConflict(plan.session, plan.expected, actual)
                    if not plan.rows:
                        return [], plan.timeline
                    now = utc_now()
                    positions = tx.insert(plan.rows, now)
                    info = session_row(plan.session, plan.state, plan.rows, positions, now)
                    tx.record(info, first=plan.expected == 0)
                break
            except (DuplicateId, SeqTaken):
                if look:  # we looked under the lock: only a writer bypassing it gets here
                    raise StoreError(
                        f"session {plan.session!r}: a row was stored concurrently by a writer "
                        "that does not take the store's lock; nothing was stored"
                    ) from None
        if plan.timeline is not None:
            self._cache.remember(plan.session, plan.timeline)
        else:
            self._cache.forget(plan.session)
        written = StoredEvent._written
        rows = [written(r, p, now) for r, p in zip(plan.rows, positions, strict=True)]
        return rows, plan.timeline

    def _plan(self, session: str, events: list[AnyEvent], expected_seq: int) -> Plan:
        """Extends the timeline at ``expected_seq`` by the batch (:func:`log.rows.plan_of`): one
        apply per event (a correction folds again from its target only); no I/O but reading the
        prefix when the cache is stale."""
        return plan_of(session, events, expected_seq, self._timeline_at(session, expected_seq))

    def _retry(self, session: str, events: list[AnyEvent], found: list[StoredEvent]) -> Retry:
        """What to do about a batch some of whose ids are stored (``found``): every recorded
        event already stored → the rows stored then (with their derived events); else the events
        still new (all of them, ``known`` false, when none is stored with the same content)."""
        known = known_ids(session, events, found)
        if not known:
            return Retry(events, known=False)
        rest = [e for e in events if e.id is None or str(e.id) not in known]
        if any(e.type not in DERIVED_TYPES for e in rest):
            return Retry(rest)
        return Retry([], self._stored_then([s for s in found if str(s.id) in known]))

    def _stored_then(self, mine: list[StoredEvent]) -> list[StoredEvent]:
        """The rows an earlier append of ``mine`` (stored rows of one session) returned: from the
        first to the last, and the derived events (at most two) that followed them."""
        lo = min(s.seq for s in mine)
        hi = max(s.seq for s in mine)
        rows = self.recorder.load(mine[0].session, upto=hi + 2)
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
        # The engine and the event models: not for `brag sessions --json`.
        from events.model import SessionStarted
        from log.folds import checked_log

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
        existing = self.recorder.load(session)
        if not existing:
            self._refuse_namesake(session)
        other_ids, other_envelope = compared(session, existing, steps)
        n_old = len(existing)
        if n_old >= len(events):
            return ImportResult(
                session, 0, len(events), len(events), n_old, other_ids, other_envelope
            )
        # The time of a derived event at the start of the rest is that of its cause, stored already.
        cause_at = next(
            (e.at for e in reversed(events[:n_old]) if e.type not in DERIVED_TYPES), None
        )
        rows, given = rows_of(session, n_old, events[n_old:], cause_at)
        plan = Plan(session, n_old, rows, steps[-1].state, given)
        stored, _ = self._write(plan, retry=False)
        return ImportResult(
            session, len(stored), n_old, len(events), len(events), other_ids, other_envelope
        )
