"""Annotations beside the game's stream (store version 4; the ``event`` column, version 6): the
table ``brag_annotations``, its rows and the SQL recorders' reads and writes of it.

An annotation is never an event: the ``events`` table, the stream a session folds, ``brag export``
and everything computed from the events (the catalogue, the DuckDB projection) never see one. The
table is append-only like the events (UPDATE and DELETE refused by triggers, made by
:func:`store.schema.sqlite_annotations_ddl` and :func:`store.schema.pg_annotations_ddl`): a note
hidden by the organiser is a later ``hide`` row naming it, and a player's cards entered again are a
later ``cards`` row; the rows' meaning (the latest in force, what is hidden) is the log service's
(:mod:`log.annotations`). ``position`` is global and never reused.

Kinds (``kind``): ``note`` (``event`` the id of the event it was written on, ``deal`` and ``step``
the numbers that event had then, ``who`` wrote it, ``body`` its text), ``hide`` (``target`` the
note's position, ``who`` hid it), ``cards`` (``event`` the id of the deal's ``dealt`` event,
``deal`` its number then, ``who`` the player, ``body`` the three cards separated by spaces).
A note and a player's cards point at an event (issue 32): the numbers beside it are history, the
place shown is the event's place now (:func:`log.annotations.step_of`).

Rows written before version 6 name only ``deal`` and ``step``: the migration gives them their
event once (:func:`v5_anchor`), and a reader of such an older store, not migrated, resolves them
the same way as it reads (``event`` is then ``None`` in the row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from store.records import parse_stored_at

__all__ = [
    "ANNOTATIONS",
    "ANNOTATION_COLUMNS",
    "Annotation",
    "AnnotationRow",
    "Kind",
    "StreamEntry",
    "annotation_of",
    "v5_anchors",
]

ANNOTATIONS: Final = "brag_annotations"
ANNOTATION_COLUMNS: Final = "position, session, kind, deal, step, target, who, body, at, event"
V5_COLUMNS: Final = "position, session, kind, deal, step, target, who, body, at, NULL"
"""The columns of a store older than version 6 (no ``event``), read as the same row shape."""
Kind = Literal["note", "hide", "cards"]


@dataclass(frozen=True, slots=True)
class AnnotationRow:
    """An annotation about to be written (see the module for what each kind fills)."""

    session: str
    kind: Kind
    who: str
    body: str = ""
    deal: int | None = None
    step: int | None = None
    target: int | None = None
    event: str | None = None


@dataclass(frozen=True, slots=True)
class Annotation:
    """An annotation as stored: its row, its global ``position`` and when it was stored (UTC)."""

    position: int
    session: str
    kind: Kind
    who: str
    body: str
    deal: int | None
    step: int | None
    target: int | None
    at: datetime
    event: str | None = None
    """The id of the event it points at (a note's step, a player's deal's ``dealt``); ``None``
    for a ``hide``, and for a row of an older store not migrated yet."""

    @classmethod
    def written(cls, row: AnnotationRow, position: int, at: datetime) -> Annotation:
        return cls(
            position,
            row.session,
            row.kind,
            row.who,
            row.body,
            row.deal,
            row.step,
            row.target,
            at,
            row.event,
        )


def annotation_of(r: Any) -> Annotation:
    """A row read back (:data:`ANNOTATION_COLUMNS` order) as an :class:`Annotation`."""
    position, session, kind, deal, step, target, who, body, at, event = r
    return Annotation(
        int(position),
        str(session),
        kind,
        str(who),
        str(body),
        None if deal is None else int(deal),
        None if step is None else int(step),
        None if target is None else int(target),
        parse_stored_at(at),
        None if event is None else str(event),
    )


SELECT: Final = f"SELECT {ANNOTATION_COLUMNS} FROM {ANNOTATIONS}"
SELECT_V5: Final = f"SELECT {V5_COLUMNS} FROM {ANNOTATIONS}"
""":data:`SELECT` in a store of version 4 or 5 read as it is (no ``event`` column)."""
INSERT: Final = (
    f"INSERT INTO {ANNOTATIONS} (session, kind, deal, step, target, who, body, at, event) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING position"
)


def insert_params(row: AnnotationRow, at: datetime) -> tuple[Any, ...]:
    return (
        row.session,
        row.kind,
        row.deal,
        row.step,
        row.target,
        row.who,
        row.body,
        at.isoformat(),
        row.event,
    )


# --- the numbering rows of a store older than version 6 were written under ------------------------


@dataclass(frozen=True, slots=True)
class StreamEntry:
    """One stored event as :func:`v5_anchors` needs it: its ``type``, ``id`` and envelope ``seq``,
    and for a ``voided`` the seq it withdraws (``withdraws``, its payload's ``seq``)."""

    type: str
    id: str
    seq: int
    withdraws: int | None = None


def v5_anchors(stream: Sequence[StreamEntry]) -> dict[tuple[int, int], str]:
    """``(deal, step) -> event id`` as store versions 4 and 5 numbered a session's steps when a
    note was added (``stream``: the session's stored events in seq order): the stream without its
    corrections (FORMAT.md ``voided``: each withdraws the latest recorded event still in force and
    the derived events after it, i.e. every event in force from its ``seq`` on), cut into deals at
    each ``dealt`` (deal 0 before the first), steps counted from 1 in each deal. ``(d, 1)`` of a
    deal ``d >= 1`` is its ``dealt`` event: what a player's remembered cards of deal ``d`` name.

    Frozen on purpose: it is the numbering the rows of an older store were written under, kept
    apart from the numbering of today's replays (issue 32 changes that one). Applied to the stream
    as it stands when the store is migrated (or read, not migrated): for a note written before
    version 6 that is the best that can be known, since the stream may have changed (an Undo, a
    correction) between the note and the migration and the row kept only the numbers."""
    kept: list[tuple[int, int]] = []  # (seq, index) of each event in force, in stream order
    for k, e in enumerate(stream):
        if e.type == "voided":
            while kept and e.withdraws is not None and kept[-1][0] >= e.withdraws:
                kept.pop()
            continue
        kept.append((e.seq, k))
    out: dict[tuple[int, int], str] = {}
    deal = step = 0
    for _, k in kept:
        if stream[k].type == "dealt":
            deal, step = deal + 1, 0
        step += 1
        out[(deal, step)] = stream[k].id
    return out
