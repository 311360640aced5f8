"""Annotations beside the game's stream (store version 4): the table ``brag_annotations``, its
rows and the SQL recorders' reads and writes of it.

An annotation is never an event: the ``events`` table, the stream a session folds, ``brag export``
and everything computed from the events (the catalogue, the DuckDB projection) never see one. The
table is append-only like the events (UPDATE and DELETE refused by triggers, made by
:func:`store.schema.sqlite_annotations_ddl` and :func:`store.schema.pg_annotations_ddl`): a note
hidden by the organiser is a later ``hide`` row naming it, and a player's cards entered again are a
later ``cards`` row; the rows' meaning (the latest in force, what is hidden) is the log service's
(:mod:`log.annotations`). ``position`` is global and never reused.

Kinds (``kind``): ``note`` (``deal``, ``step``, ``who`` wrote it, ``body`` its text), ``hide``
(``target`` the note's position, ``who`` hid it), ``cards`` (``deal``, ``who`` the player, ``body``
the three cards separated by spaces).
"""

from __future__ import annotations

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
    "annotation_of",
]

ANNOTATIONS: Final = "brag_annotations"
ANNOTATION_COLUMNS: Final = "position, session, kind, deal, step, target, who, body, at"
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

    @classmethod
    def written(cls, row: AnnotationRow, position: int, at: datetime) -> Annotation:
        return cls(
            position, row.session, row.kind, row.who, row.body, row.deal, row.step, row.target, at
        )


def annotation_of(r: Any) -> Annotation:
    """A row read back (:data:`ANNOTATION_COLUMNS` order) as an :class:`Annotation`."""
    position, session, kind, deal, step, target, who, body, at = r
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
    )


SELECT: Final = f"SELECT {ANNOTATION_COLUMNS} FROM {ANNOTATIONS}"
INSERT: Final = (
    f"INSERT INTO {ANNOTATIONS} (session, kind, deal, step, target, who, body, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING position"
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
    )
