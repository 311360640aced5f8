"""The in-memory recorder: the same contract in Python lists, for tests.

``open_store("memory://")`` gives a fresh store; :meth:`MemoryRecorder.reopen` gives another
recorder on the same data, as a restart would. It keeps no catalogue: the log service computes the
listing from the events.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from uuid import UUID, uuid4

from events.errors import DuplicateId, SeqTaken
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
    event_from_row,
    payload_of,
)
from store.register import Kind, RegisterFact

__all__ = ["MemoryRecorder"]


@dataclass
class _Data:
    rows: list[StoredEvent] = field(default_factory=list)
    by_session: dict[str, list[StoredEvent]] = field(default_factory=dict)
    by_id: dict[str, StoredEvent] = field(default_factory=dict)
    annotations: list[Annotation] = field(default_factory=list)
    position: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock)
    store_id: str = field(default_factory=lambda: str(uuid4()))
    revocations: Revocations = field(default_factory=Revocations)
    holder: Holder | None = None
    register: list[RegisterFact] = field(default_factory=list)
    nights: list[NightFact] = field(default_factory=list)


class _MemoryDevices:
    """The devices beside the log (:mod:`store.devices`) in a memory transaction: written to the
    transaction, kept by its commit."""

    def __init__(self, tx: _MemoryTx) -> None:
        self.tx = tx

    def revocations(self) -> Revocations:
        return self.tx.revoked

    def revoke(self, token_id: str, expiry: int, now: int) -> None:
        r = self.tx.revoked
        kept = {k: v for k, v in r.revoked.items() if v > now}
        self.tx.revoked = Revocations(r.generation, {**kept, token_id: int(expiry)})

    def revoke_all(self) -> int:
        r = self.tx.revoked
        self.tx.revoked = Revocations(r.generation + 1, r.revoked)
        return r.generation + 1

    def holder(self) -> Holder | None:
        return self.tx.holder

    def hold(self, holder: Holder) -> None:
        self.tx.holder = holder

    def let_go(self, holder: str) -> None:
        if self.tx.holder is not None and self.tx.holder.holder == holder:
            self.tx.holder = None


class _MemoryRegister:
    """The register beside the log (:mod:`store.register`) in a memory transaction."""

    def __init__(self, tx: _MemoryTx) -> None:
        self.tx = tx

    def facts(self) -> list[RegisterFact]:
        return [*self.tx.data.register, *self.tx.facts]

    def add(
        self, kind: Kind, name: str, target: str, undoes: int | None, at: datetime, by: str
    ) -> RegisterFact:
        every = self.facts()
        fact = RegisterFact(every[-1].position + 1 if every else 1, kind, name, target, undoes,
                            at, by)  # fmt: skip
        self.tx.facts.append(fact)
        return fact


class _MemoryNight:
    """The club night's facts (:mod:`store.night`) in a memory transaction."""

    def __init__(self, tx: _MemoryTx) -> None:
        self.tx = tx

    def facts(self, night: str, club: str) -> list[NightFact]:
        every = [*self.tx.data.nights, *self.tx.nights]
        return [f for f in every if f.night == night and f.club == club]

    def add(self, night: str, club: str, kind: NightKind, subject: str, value: str,
            undoes: int | None, at: datetime, by: str) -> NightFact:  # fmt: skip
        every = [*self.tx.data.nights, *self.tx.nights]
        position = every[-1].position + 1 if every else 1
        fact = NightFact(position, night, club, kind, subject, value, undoes, at, by)
        self.tx.nights.append(fact)
        return fact


class _MemoryTx:
    def __init__(self, data: _Data) -> None:
        self.data = data
        self.facts: list[RegisterFact] = []
        self.nights: list[NightFact] = []
        self.pending: list[StoredEvent] = []
        self.notes: list[Annotation] = []
        self.revoked = data.revocations
        self.holder = data.holder

    def devices(self) -> _MemoryDevices:
        return _MemoryDevices(self)

    def register(self) -> _MemoryRegister:
        return _MemoryRegister(self)

    def night(self) -> _MemoryNight:
        return _MemoryNight(self)

    def annotations(self, session: str) -> list[Annotation]:
        every = [*self.data.annotations, *self.notes]
        return [a for a in every if a.session == session]

    def annotation(self, position: int) -> Annotation | None:
        every = [*self.data.annotations, *self.notes]
        return next((a for a in every if a.position == position), None)

    def annotate(self, row: AnnotationRow, at: datetime) -> Annotation:
        every = [*self.data.annotations, *self.notes]
        a = Annotation.written(row, every[-1].position + 1 if every else 1, at)
        self.notes.append(a)
        return a

    def find(self, ids: list[str]) -> list[StoredEvent]:
        return [self.data.by_id[i] for i in ids if i in self.data.by_id]

    def last_seq(self, session: str) -> int:
        rows = self.data.by_session.get(session)
        return rows[-1].seq if rows else 0

    def insert(self, rows: list[Row], stored_at: datetime) -> list[int]:
        d = self.data
        seen: set[tuple[str, int]] = set()
        for r in rows:  # the constraints of the SQL table
            if r.id in d.by_id or any(p.id == UUID(r.id) for p in self.pending):
                raise DuplicateId(r.id)  # as the SQL table's unique id would
            key = (r.session, r.seq)
            if key in seen or r.seq <= self.last_seq(r.session):
                raise SeqTaken(f"{key}")  # as the SQL table's unique (session, seq) would
            seen.add(key)
        positions = []
        for r in rows:
            d.position += 1
            positions.append(d.position)
            # Stored as the SQL backends store it: the event is rebuilt from its payload.
            assert r.payload is not None
            e = event_from_row(r.type, r.v, r.payload, r.id, r.seq, r.at, r.by)
            self.pending.append(
                StoredEvent(
                    d.position, r.session, r.seq, UUID(r.id), r.type, r.v, e, e.at, r.by, stored_at
                )
            )
        return positions

    def record(self, info: SessionInfo, *, first: bool) -> None:
        """No catalogue: a memory store computes its listing from the events."""

    def commit(self) -> None:
        d = self.data
        for s in self.pending:
            d.rows.append(s)
            d.by_session.setdefault(s.session, []).append(s)
            d.by_id[str(s.id)] = s
        d.annotations += self.notes
        d.revocations = self.revoked
        d.holder = self.holder
        d.register += self.facts
        d.nights += self.nights


class MemoryRecorder:
    """A store in Python lists; one lock serialises appends (as the SQL backends' locks do)."""

    version: int = 0
    catalogued: bool = False

    def __init__(self, url: str = "memory://", data: _Data | None = None) -> None:
        self.url = url
        self._data = data if data is not None else _Data()

    def __repr__(self) -> str:
        return f"MemoryStore({len(self._data.rows)} events)"

    @property
    def where(self) -> str:
        return self.url

    @property
    def store_id(self) -> str:
        """This store's id: a UUID made with it (a reopened recorder shares it)."""
        return self._data.store_id

    def reopen(self) -> MemoryRecorder:
        return MemoryRecorder(self.url, self._data)

    def close(self) -> None:
        """Nothing to release."""

    @contextmanager
    def transaction(self) -> Iterator[_MemoryTx]:
        with self._data.lock:
            tx = _MemoryTx(self._data)
            yield tx
            tx.commit()

    def load(self, session: str, upto: int | None = None) -> list[StoredEvent]:
        with self._data.lock:
            rows = list(self._data.by_session.get(session, ()))
        return rows if upto is None else rows[:upto]

    def find(self, ids: list[str]) -> list[StoredEvent]:
        with self._data.lock:
            return [self._data.by_id[i] for i in ids if i in self._data.by_id]

    def last_seq(self, session: str) -> int:
        with self._data.lock:
            rows = self._data.by_session.get(session)
            return rows[-1].seq if rows else 0

    def read_all(self, after: int = 0, limit: int = 10_000) -> list[StoredEvent]:
        with self._data.lock:
            rows = self._data.rows
            lo, hi = 0, len(rows)
            while lo < hi:  # positions are increasing: bisect
                mid = (lo + hi) // 2
                if rows[mid].position <= after:
                    lo = mid + 1
                else:
                    hi = mid
            return rows[lo : lo + limit]

    def last_position(self) -> int:
        with self._data.lock:
            return self._data.position

    def annotations(self, session: str) -> list[Annotation]:
        with self._data.lock:
            return [a for a in self._data.annotations if a.session == session]

    def revocations(self) -> Revocations:
        with self._data.lock:
            return self._data.revocations

    def register_facts(self) -> list[RegisterFact]:
        with self._data.lock:
            return list(self._data.register)

    def night_facts(self, night: str, club: str = "") -> list[NightFact]:
        with self._data.lock:
            return [f for f in self._data.nights if f.night == night and f.club == club]

    def summaries(self) -> list[SessionSummary]:
        with self._data.lock:
            sessions = list(self._data.by_session.items())
        out = []
        for session, rows in sessions:
            types = [r.type for r in rows]
            ended = next((r for r in reversed(rows) if r.type == "session_ended"), None)
            out.append(
                SessionSummary.of(
                    session,
                    json.loads(payload_of(rows[0].event)),
                    json.loads(payload_of(ended.event)) if ended else None,
                    last_seq=rows[-1].seq,
                    deals=types.count("dealt"),
                    won=types.count("pot_won"),
                    carried=types.count("pot_carried"),
                    voided=types.count("voided") + types.count("amended"),
                    first_at=rows[0].at,
                    stored_at=rows[0].stored_at,
                    first_position=rows[0].position,
                    last_position=rows[-1].position,
                    last_at=next((r.at for r in reversed(rows) if r.at is not None), None),
                )
            )
        out.sort(key=lambda s: s.first_position)
        return out

    # -- no catalogue (``catalogued`` is false: the log service lists from the events)

    def page(self, listing: Listing) -> list[SessionInfo]:
        raise NotImplementedError("a memory store keeps no catalogue")

    def count(self, where: SessionFilter) -> int:
        raise NotImplementedError("a memory store keeps no catalogue")

    def night_sums(self, first: date, last: date) -> list[tuple[date, int, int, int]]:
        raise NotImplementedError("a memory store keeps no catalogue")

    def days(self, first: date, last: date) -> list[tuple[str, date, int]]:
        raise NotImplementedError("a memory store keeps no catalogue")

    def facets(self) -> Facets:
        raise NotImplementedError("a memory store keeps no catalogue")

    def info(self, session: str) -> SessionInfo | None:
        raise NotImplementedError("a memory store keeps no catalogue")

    def infos(self, sessions: Sequence[str]) -> list[SessionInfo]:
        raise NotImplementedError("a memory store keeps no catalogue")

    def rewrite_catalogue(self, infos: Callable[[], list[SessionInfo]]) -> int:
        return len(infos())
