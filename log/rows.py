"""The rows a batch of events becomes (folded through the engine: :func:`plan_of`), what an append
or an import hands the recorder (:class:`Plan`), and what it comes to (:class:`Appended`,
:class:`Retry`, :class:`ImportResult`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from events.errors import BragError, FormatError, IdConflict, ImportConflict
from store.records import DERIVED_TYPES, Row, StoredEvent, new_ids, payload_of, same_content

if TYPE_CHECKING:
    from engine.fold import Step
    from engine.state import State
    from events.model import AnyEvent
    from timeline import Timeline

__all__ = [
    "Appended",
    "ImportResult",
    "Plan",
    "Retry",
    "compared",
    "known_ids",
    "plan_of",
    "rows_of",
    "stored_elsewhere",
]


@dataclass(slots=True)
class Plan:
    """A validated batch: the rows to write and the state after them."""

    session: str
    expected: int
    rows: list[Row]
    state: State
    given_ids: dict[str, int] = field(default_factory=dict)
    """ids the caller gave → index in ``rows`` (checked against the store in the transaction)."""
    timeline: Timeline | None = None
    """The session's timeline after the rows (an import's plan has none: the cache forgets)."""


@dataclass(frozen=True, slots=True)
class Appended:
    """What :meth:`log.service.EventStore.append_state` stored and the state it leaves.

    - ``rows``: the stored rows, derived events included, in seq order (what
      :meth:`~log.service.EventStore.append` returns: for a retry of events stored already, the
      rows stored then; empty for an empty batch);
    - ``state``: the engine's corrected end :class:`~engine.state.State` after the last of
      ``rows`` (``state.seq == rows[-1].seq``; after ``expected_seq`` for an empty batch), with
      its undo chain, as the append's timeline holds it (its ``last_event`` is the event as the
      timeline took it: seq and id filled in, a derived event's ``at`` not).
    """

    rows: list[StoredEvent]
    state: State
    timeline: Timeline | None = None
    """The session's :class:`~timeline.Timeline` after the rows (``state`` is its end state):
    what the store keeps for the next append, and every reader's replay."""


@dataclass(frozen=True, slots=True)
class Retry:
    """What a batch some of whose ids are found stored comes to
    (:meth:`log.service.EventStore._retry`): none of them stored with it (``known`` false:
    ``rest`` is the whole batch, refused on its own), every recorded event stored already
    (``stored``: the rows stored then, the append's answer), or the events still to store
    (``rest``)."""

    rest: list[AnyEvent]
    """The events still to store (the whole batch when ``known`` is false)."""
    stored: list[StoredEvent] | None = None
    """The rows an earlier append of the batch stored (``None``: some recorded event is new)."""
    known: bool = True
    """Whether some event of the batch is stored already with the same content."""


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


def compared(session: str, existing: list[StoredEvent], steps: list[Step]) -> tuple[int, int]:
    """How the stored stream ``existing`` of ``session`` meets the log file's ``steps`` (an
    import, :meth:`log.service.EventStore.import_log`): ``(other_ids, other_envelope)``, how many
    of the stored events the file gives under another id, and with another ``at`` or ``by``. A
    different event where both have one: :class:`ImportConflict` naming the file's line."""
    other_ids = other_envelope = 0
    for k, (s, step) in enumerate(zip(existing, steps, strict=False)):
        e = step.event
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
    return other_ids, other_envelope


def rows_of(
    session: str, after: int, events: Sequence[AnyEvent], cause_at: datetime | None = None
) -> tuple[list[Row], dict[str, int]]:
    """The rows of ``events`` stored after seq ``after``, and the ids their events gave (id text
    → index in the rows: checked against the store in the write transaction).

    An event's time is its own ``at``, else, for a derived event, that of the recorded event
    that caused it (``cause_at`` for derived events before the first recorded one); events
    without an id get :func:`~store.records.new_ids`."""
    rows: list[Row] = []
    given: dict[str, int] = {}
    cause_text = cause_at.isoformat() if cause_at is not None else None
    for seq, e in enumerate(events, start=after + 1):
        t = e.at
        if e.type not in DERIVED_TYPES:
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


def known_ids(session: str, events: list[AnyEvent], found: list[StoredEvent]) -> set[str]:
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
                f"event id {e.id} is already stored as seq {s.seq} ({s.type}) with other content",
            )
        known.add(str(e.id))
    return known


def plan_of(session: str, events: list[AnyEvent], expected_seq: int, timeline: Timeline) -> Plan:
    """Extends ``timeline`` (the session's at ``expected_seq``) by the batch
    (:meth:`timeline.Timeline.extend_all`: the engine's derived events added after their cause,
    each event given its seq and, where it has none, a new id) and builds the rows (no I/O). A
    broken rule: the engine's error, with ``line`` = 1-based index in the batch. An id given
    twice in the batch is one event (the same content) or a FormatError."""
    # Here, not at the top: `brag sessions --json` loads this module, and neither the event
    # models (pydantic) nor uuid_utils.
    from uuid_utils.compat import uuid7

    from events.model import SessionStarted

    batch: list[AnyEvent] = []
    seen: dict[int, AnyEvent] = {}
    for k, e in enumerate(events, start=1):
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
            if type(e) is SessionStarted and e.session != session:
                raise FormatError(
                    f"this batch is for session {session!r}, not {e.session!r}", field="session"
                )
        except BragError as err:
            raise err.at(line=k, event=e.type) from None
        batch.append(e)
    after = timeline.extend_all(batch, new_id=uuid7)
    out = [r.event for r in after.log[expected_seq:]]
    rows, given = rows_of(session, expected_seq, out)
    caller = {str(i) for i in map(lambda e: e.id, events) if i is not None}
    given = {k: v for k, v in given.items() if k in caller}
    return Plan(session, expected_seq, rows, after.state, given, after)


def stored_elsewhere(s: StoredEvent) -> IdConflict:
    """An import's event id found stored (``s``) when the session was not where it was compared."""
    return IdConflict(
        s.id,
        s.session,
        s.seq,
        f"event id {s.id} is already stored in session {s.session!r} (seq {s.seq})",
    )
