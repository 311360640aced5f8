"""The rows a batch of events becomes, and what an append or an import hands the recorder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from events.errors import IdConflict
from store.records import Row, StoredEvent, new_ids, payload_of, same_content

if TYPE_CHECKING:
    from engine.state import State
    from events.model import AnyEvent

__all__ = ["ImportResult", "Plan", "known_ids", "rows_of"]


@dataclass(slots=True)
class Plan:
    """A validated batch: the rows to write and the state after them."""

    session: str
    expected: int
    rows: list[Row]
    state: State
    given_ids: dict[str, int] = field(default_factory=dict)
    """ids the caller gave → index in ``rows`` (checked against the store in the transaction)."""


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


def rows_of(
    session: str, after: int, events: Sequence[AnyEvent], cause_at: datetime | None = None
) -> tuple[list[Row], dict[str, int]]:
    """The rows of ``events`` stored after seq ``after``, and the ids their events gave (id text
    → index in the rows: checked against the store in the write transaction).

    An event's time is its own ``at``, else, for a derived event, that of the recorded event
    that caused it (``cause_at`` for derived events before the first recorded one); events
    without an id get :func:`~store.records.new_ids`."""
    from events.model import DERIVED_CLASSES

    rows: list[Row] = []
    given: dict[str, int] = {}
    cause_text = cause_at.isoformat() if cause_at is not None else None
    for seq, e in enumerate(events, start=after + 1):
        t = e.at
        if type(e) not in DERIVED_CLASSES:
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
