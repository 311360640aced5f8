"""The session log service: :class:`EventStore`, one stream per session, validated by the engine
before any write, stored through a recorder (:class:`store.port.Recorder`).

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
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from events.errors import (
    BragError,
    ConcurrencyConflict,
    DuplicateId,
    FormatError,
    IdConflict,
    ImportConflict,
    SeqTaken,
    StoreError,
    UnknownSession,
)
from events.text import inert, normal
from log.rows import ImportResult, Plan, known_ids, rows_of
from store.port import Recorder
from store.records import (
    Listing,
    SessionFilter,
    SessionInfo,
    StoredEvent,
    facets_of,
    listed,
    same_content,
    utc_now,
)

if TYPE_CHECKING:
    # The engine and the event models are imported by the methods that fold or validate (an
    # append, an import, an export, a replay's states), not with the service: listing sessions
    # from the catalogue loads neither.
    from engine.fold import Step
    from engine.state import State
    from events.model import AnyEvent

__all__ = ["EventStore"]


class EventStore:
    """The session log: appends folded through the engine, stored by ``recorder``.

    Thread-safe (SQL recorders keep one connection per thread). Appends validate outside the write
    lock against the (immutable) prefix the caller saw; inside it the insert itself checks the seq
    and the ids (the table's unique constraints), and only a refusal reads the stream again."""

    cache_size: int = 64
    """Sessions whose latest state is kept, without its undo chain
    (:func:`engine.state.without_history`): a batch that holds a ``voided`` folds the session
    again from the log. Keeping every session's chain (~2 KB per event) made the garbage
    collector's passes a sixth of an append's time."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._cache: OrderedDict[str, State] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._names: dict[str, str] = {}
        self._names_at = 0
        self._names_lock = threading.Lock()

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
        """The PostgreSQL schema given when the store was opened."""
        return self.recorder.schema

    def settings(self) -> dict[str, Any]:
        """The connection's settings as SQLite reports them (checked when the store opens)."""
        return self.recorder.settings()

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
        """The folded current state (``state.seq`` is the last seq; the initial state when the
        session has no event yet)."""
        last = self.last_seq(session)
        return self._state_at(session, last, history=True)

    def export(self, session: str) -> list[AnyEvent]:
        """The session as FORMAT.md events, envelope included; :class:`UnknownSession` if none,
        :class:`CorruptSession` if the stored stream no longer folds (never a tampered log)."""
        from log.folds import fold_rows

        rows = self.recorder.load(session)
        if not rows:
            raise UnknownSession(session)
        fold_rows(session, rows)
        return [r.event for r in rows]

    def export_lines(self, session: str) -> Iterator[str]:
        """The session as JSON Lines (without newlines): ``type``, fields, then the envelope."""
        from events.codec import dumps

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
        from log.folds import recomputed

        return recomputed(self.recorder, self._state_at)

    def rebuild_catalogue(self) -> int:
        """Writes the catalogue again from the events (one transaction): for rows written
        around Bragbook (a bulk copy). Returns the number of sessions."""
        return self.recorder.rewrite_catalogue(self.recomputed_sessions)

    # -- the state cache ---------------------------------------------------------------------------

    def _cached(self, session: str, seq: int) -> State | None:
        with self._cache_lock:
            st = self._cache.get(session)
            if st is not None and st.seq == seq:
                self._cache.move_to_end(session)
                return st
        return None

    def _remember(self, session: str, state: State) -> None:
        from engine.state import without_history

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
        from engine.state import initial_state
        from log.folds import fold_rows

        if seq == 0:
            return initial_state()
        if not history:
            st = self._cached(session, seq)
            if st is not None:
                return st
        rows = self.recorder.load(session, upto=seq)
        if len(rows) < seq:
            raise ConcurrencyConflict(session, seq, len(rows))
        st = fold_rows(session, rows)
        self._remember(session, st)
        return st

    def namesake(self, session: str) -> str | None:
        """The stored session whose id is another spelling of ``session`` (the same
        :func:`events.text.normal` form: ``Oak night`` and ``oak  NIGHT``), or ``None``. The first
        stored of such spellings answers. Reads only the events stored since it last looked."""
        with self._names_lock:
            while True:
                rows = self.recorder.read_all(after=self._names_at, limit=10_000)
                if not rows:
                    break
                for r in rows:
                    if r.seq == 1:
                        self._names.setdefault(normal(r.session), r.session)
                self._names_at = rows[-1].position
            other = self._names.get(normal(session))
        return other if other is not None and other != session else None

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
        if not isinstance(expected_seq, int) or expected_seq < 0:
            raise ValueError(
                f"expected_seq must be a seq (0 for a new session), not {expected_seq!r}"
            )
        events = list(events)
        if not events:
            return []
        if expected_seq == 0:
            self._refuse_namesake(session)
        try:
            plan = self._plan(session, events, expected_seq)
        except BragError:
            # Refused against expected_seq: it may be a retry of events stored since (then the
            # stored rows are the answer), or a changed event under a stored id (IdConflict is the
            # clearer error). Valid batches meet their stored ids inside the transaction.
            found = self.recorder.find([str(e.id) for e in events if e.id is not None])
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
        from log.folds import session_row

        for look in (False, True):
            try:
                with self.recorder.transaction() as tx:
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
                    info = session_row(plan.session, plan.state, plan.rows, positions, now)
                    tx.record(info, first=plan.expected == 0)
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
        from engine.apply import apply
        from engine.fold import conclude
        from events.model import DERIVED_CLASSES, SessionStarted, Voided

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
                if cls not in DERIVED_CLASSES and state.pending:
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
        rows, given = rows_of(session, expected_seq, out)
        return Plan(session, expected_seq, rows, state, given)

    def _retry(
        self, session: str, events: list[AnyEvent], found: list[StoredEvent]
    ) -> list[StoredEvent] | list[AnyEvent]:
        """What to do about a batch some of whose ids are stored: every recorded event already
        stored → the rows stored then (with their derived events); else the events still new."""
        from events.model import DERIVED_CLASSES

        known = known_ids(session, events, found)
        if not known:
            return events  # the very same list: nothing was stored
        rest = [e for e in events if e.id is None or str(e.id) not in known]
        if any(type(e) not in DERIVED_CLASSES for e in rest):
            return rest
        return self._stored_then([s for s in found if str(s.id) in known])

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
        from events.model import DERIVED_CLASSES

        events = [s.event for s in steps]
        existing = self.recorder.load(session)
        if not existing:
            self._refuse_namesake(session)
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
            (e.at for e in reversed(events[:n_old]) if type(e) not in DERIVED_CLASSES), None
        )
        rows, given = rows_of(session, n_old, events[n_old:], cause_at)
        plan = Plan(session, n_old, rows, steps[-1].state, given)
        stored = self._write(plan, retry=False)
        return ImportResult(
            session, len(stored), n_old, len(events), len(events), other_ids, other_envelope
        )
