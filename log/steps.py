"""A session's stream as every replay walks it: without its corrections (:func:`corrected`) and
cut into deals (:func:`deal_slices`). The replays (:mod:`present.replay`) and the notes on a step
(:mod:`log.annotations`: a note names a step that exists) number deals and steps alike from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.corrections import in_force
from engine.state import State
from events.model import AnyEvent

__all__ = ["DealSlice", "corrected", "deal_slices"]


def corrected(events: Sequence[AnyEvent]) -> list[AnyEvent]:
    """The stream without corrections: each ``voided`` and the events it withdrew are left out.

    FORMAT.md: a ``voided`` withdraws the latest recorded event still in force together with the
    derived events that followed it. Events are matched by their envelope ``seq`` when they carry
    one (the store's events do), else by their position in ``events`` (1-based)."""
    return [events[k] for k in in_force(events)]


@dataclass(frozen=True, slots=True)
class DealSlice:
    """Deal ``deal`` is ``events[start:stop]``; deal 0 is what comes before the first deal."""

    deal: int
    start: int
    stop: int

    @property
    def steps(self) -> int:
        return self.stop - self.start


def deal_slices(states: Sequence[State]) -> list[DealSlice]:
    """The deals of a replayed stream (``states[k]`` follows event ``k``), in order.

    An event belongs to the deal in progress or last ended after it; a ``voided`` that takes back a
    ``dealt`` stays with the deal it withdrew, so every deal is one contiguous run of steps."""
    out: list[DealSlice] = []
    current = 0
    start = 0
    for k, s in enumerate(states):
        d = max(current, s.deals)
        if d != current:
            if k > start:
                out.append(DealSlice(current, start, k))
            current, start = d, k
    if len(states) > start:
        out.append(DealSlice(current, start, len(states)))
    return out
