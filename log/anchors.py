"""Where an annotation stands (issue 32): a note points at the event it was written on, a
player's remembered cards at their deal's ``dealt`` event, never at a step number. The ONE place
a step number is turned into an event and back: :func:`event_at` when a note is added by the
step a replay shows, :func:`step_of` when it is read, :func:`dealt_at` for a deal's cards.

They read only the public surface of a replay (:class:`present.replay.Replay`, or any value of
that shape, :class:`Numbered`): its ``events`` carry their ids, ``labels[k]`` is the number of
``events[k]`` (deal, step, withdrawn, a correction), ``states[k]`` follows ``events[k]``. So
whatever numbers the steps (today :func:`present.narrate.numbered`; a timeline's labels that never
move) decides where a note is shown; the note itself stays on its action. A replay as recorded
(``Replay.of(events, recorded=True)``) also holds the withdrawn events, so a note on one is shown
where it was, said to be withdrawn, with that step's words.

A Redo (the pad's: the withdrawn event recorded again at once, a copy with a new id,
:func:`redone`) is the same action: what points at the one is shown on the other.

Rows of a store older than version 6 name only ``(deal, step)`` (``event`` ``None``): they are
placed by the numbering they were written under (:func:`store.annotations.v5_anchors`, what the
migration to version 6 writes), through :func:`anchored`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from engine.state import State
from events.errors import PlainError
from events.model import AnyEvent, Voided, content
from store.annotations import Annotation, StreamEntry, v5_anchors

__all__ = [
    "AnnotationRefused",
    "At",
    "Numbered",
    "StepNumber",
    "anchored",
    "dealt_at",
    "event_at",
    "latest",
    "redone",
    "step_of",
    "steps_of",
]


class AnnotationRefused(PlainError, ValueError):
    """A note, a hiding or a player's cards the store will not keep, said in one line (what and
    why); nothing was stored."""

    rule_name = "NOTE"


class StepNumber(Protocol):
    """The number of one event as a replay shows it (:class:`present.narrate.StepLabel`)."""

    @property
    def deal(self) -> int: ...
    @property
    def step(self) -> int | str: ...
    @property
    def withdrawn(self) -> bool: ...
    @property
    def correction(self) -> bool: ...
    @property
    def text(self) -> str: ...


class Numbered(Protocol):
    """The surface of a replay annotations read (:class:`present.replay.Replay`)."""

    @property
    def session(self) -> str: ...
    @property
    def events(self) -> Sequence[AnyEvent]: ...
    @property
    def states(self) -> Sequence[State]: ...
    @property
    def labels(self) -> Sequence[StepNumber]: ...


@dataclass(frozen=True, slots=True)
class At:
    """Where an event stands in a replay: ``index`` into its events, the ``deal`` and ``step``
    (the number shown, ``int`` or a label such as ``"7a"``), ``withdrawn`` (a correction or an
    Undo took it back: it stays where it was, shown withdrawn) and ``text`` its sentence."""

    index: int
    deal: int
    step: int | str
    withdrawn: bool
    text: str


def _live(rp: Numbered, k: int) -> bool:
    lab = rp.labels[k]
    return not lab.withdrawn and not lab.correction


def _deals(rp: Numbered) -> list[int]:
    return sorted({rp.labels[k].deal for k in range(len(rp.labels)) if _live(rp, k)})


def _no_deal(rp: Numbered, deal: int) -> AnnotationRefused:
    real = [d for d in _deals(rp) if d >= 1]
    have = f"its deals are 1 to {real[-1]}" if real else "it has no deal yet"
    return AnnotationRefused(f"session {rp.session!r} has no deal {deal} ({have})")


def event_at(rp: Numbered, deal: int, step: int | str) -> str:
    """The id of the event in force numbered step ``step`` of deal ``deal`` in ``rp`` (as the
    replay shows it: ``brag replay``, the Replay page), the one a note added now is written on.
    Refused in one line (:class:`AnnotationRefused`): a deal or a step ``rp`` does not have."""
    if deal not in _deals(rp):
        raise _no_deal(rp, deal)
    in_deal = [k for k, lab in enumerate(rp.labels) if lab.deal == deal and _live(rp, k)]
    found = [k for k in in_deal if str(rp.labels[k].step) == str(step)]
    if not found or rp.events[found[-1]].id is None:
        last = rp.labels[in_deal[-1]].step
        raise AnnotationRefused(
            f"deal {deal} of session {rp.session!r} has no step {step} (its steps are 1 to {last})"
        )
    return str(rp.events[found[-1]].id)


def step_of(rp: Numbered, event_id: str | None) -> At | None:
    """Where the event ``event_id`` stands in ``rp`` now (or the event that recorded it again by
    a Redo, :func:`redone`), or ``None`` when ``rp`` does not hold it (a replay as corrected
    leaves withdrawn events out: then it was withdrawn)."""
    return steps_of(rp, [event_id]).get(event_id or "")


def redone(events: Sequence[AnyEvent]) -> dict[UUID, UUID]:
    """Each event recorded again by a Redo -> the event that records it again: a ``voided`` that
    withdrew a recorded event (by its ``seq``, FORMAT.md) followed at once by an event of the same
    content (what the pad's Redo records, :func:`dashboard.record.recorder.redo`: a copy with a new
    id),
    in ``events`` as recorded. The Redo is the same action, so what points at the one points at
    the other; an Undo followed by another action is not a Redo."""
    by_seq = {e.seq: e for e in events if not isinstance(e, Voided) and e.seq is not None}
    out: dict[UUID, UUID] = {}
    for k in range(len(events) - 1):
        v, new = events[k], events[k + 1]
        old = by_seq.get(v.seq) if isinstance(v, Voided) else None
        if old is None or old.id is None or new.id is None or isinstance(new, Voided):
            continue
        if content(old) == content(new):
            out[old.id] = new.id
    return out


def latest(start: UUID, again: dict[UUID, UUID]) -> UUID:
    """``start`` followed through its Redos (:func:`redone`) to the latest recording of it."""
    seen = {start}
    while start in again and again[start] not in seen:
        start = again[start]
        seen.add(start)
    return start


def steps_of(rp: Numbered, event_ids: Iterable[str | None]) -> dict[str, At]:
    """:func:`step_of` of each of ``event_ids`` (ids as text) in one walk of ``rp``: the id ->
    where it (or its latest Redo) stands, for those ``rp`` holds (a session's notes placed at
    once)."""
    wanted: dict[str, UUID] = {}
    for i in event_ids:
        with suppress(ValueError, TypeError, AttributeError):
            wanted[str(i)] = UUID(i)  # None and junk: suppressed (TypeError, ValueError)
    if not wanted:
        return {}
    index = {e.id: k for k, e in enumerate(rp.events) if e.id is not None}
    again = redone(rp.events)
    out: dict[str, At] = {}
    for text, uid in wanted.items():
        k = index.get(latest(uid, again) if uid in again else uid)
        if k is not None:
            lab = rp.labels[k]
            out[text] = At(k, lab.deal, lab.step, not _live(rp, k), lab.text)
    return out


def dealt_at(rp: Numbered, deal: int) -> str:
    """The id of deal ``deal``'s ``dealt`` event in force (``deal`` >= 1), which a player's
    remembered cards of that deal name. No such deal: :class:`AnnotationRefused`."""
    for k, e in enumerate(rp.events):
        if e.type == "dealt" and rp.labels[k].deal == deal and _live(rp, k) and e.id is not None:
            return str(e.id)
    raise _no_deal(rp, deal)


def deal_states(rp: Numbered, deal: int) -> list[State]:
    """The states after each event in force of deal ``deal``, in order."""
    return [rp.states[k] for k, lab in enumerate(rp.labels) if lab.deal == deal and _live(rp, k)]


def anchored(rp: Numbered, rows: Sequence[Annotation]) -> dict[int, str | None]:
    """Each row's event id (by its position): its own ``event``, or for a ``note`` or ``cards``
    row of a store older than version 6, not migrated, the event its ``(deal, step)`` named when
    written (:func:`store.annotations.v5_anchors` on ``rp``'s stream as recorded, as the
    migration does; ``None`` when that step is no longer there)."""
    out: dict[int, str | None] = {a.position: a.event for a in rows}
    old = [
        a for a in rows if a.event is None and a.kind in ("note", "cards") and a.deal is not None
    ]
    if not old:
        return out
    stream = [
        StreamEntry(
            e.type,
            str(e.id),
            e.seq if e.seq is not None and not isinstance(e, Voided) else k + 1,
            e.seq if isinstance(e, Voided) else None,
        )
        for k, e in enumerate(rp.events)
    ]
    numbers = v5_anchors(stream)
    for a in old:
        out[a.position] = numbers.get((a.deal or 0, 1 if a.kind == "cards" else a.step or 0))
    return out
