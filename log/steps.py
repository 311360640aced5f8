"""A session's stream as every replay walks it: in force (:func:`corrected`, from its
:class:`~timeline.Timeline`) and cut into deals (:func:`deal_slices`). Kept for the readers that
take a list of events; the numbering and "in force" live in :mod:`timeline`."""

from __future__ import annotations

from collections.abc import Sequence

from engine.state import State
from events.model import AnyEvent
from timeline import DealSlice, Timeline, slices_of

__all__ = ["DealSlice", "corrected", "deal_slices"]


def corrected(events: Sequence[AnyEvent]) -> list[AnyEvent]:
    """The steps in force of a stored stream (``voided`` and ``amended`` applied; the engine's
    conclusions of the corrected steps): :attr:`timeline.Timeline.steps`' events."""
    return [s.event for s in Timeline.of(events).steps]


def deal_slices(states: Sequence[State]) -> list[DealSlice]:
    """The deals of a replayed stream (``states[k]`` follows event ``k``), in order: an event
    belongs to the deal in progress or last ended after it."""
    return slices_of([s.deals for s in states])
