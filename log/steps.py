"""A session's stream as every replay walks it: in force (:func:`corrected`, from its
:class:`~timeline.Timeline`) and cut into deals (:func:`deal_slices`). Kept for the readers that
take a list of events; the numbering and "in force" live in :mod:`timeline`."""

from __future__ import annotations

from collections.abc import Sequence

from engine.state import State
from events.model import AnyEvent
from timeline import DealSlice, Timeline, slices_of

__all__ = ["DealSlice", "corrected", "deal_slices", "in_force", "withdrawals"]


def corrected(events: Sequence[AnyEvent]) -> list[AnyEvent]:
    """The steps in force of a stored stream (``voided`` and ``amended`` applied; the engine's
    conclusions of the corrected steps): :attr:`timeline.Timeline.steps`' events."""
    return [s.event for s in Timeline.of(events).steps]


def deal_slices(states: Sequence[State]) -> list[DealSlice]:
    """The deals of a replayed stream (``states[k]`` follows event ``k``), in order: an event
    belongs to the deal in progress or last ended after it."""
    return slices_of([s.deals for s in states])


def in_force(events: Sequence[AnyEvent]) -> list[int]:
    """The indices (0-based, into a stored stream ``events``, in order) of the events whose step
    is still in force once every correction (``voided``, ``amended``) is applied: neither a
    correction nor an event one took out of force (:meth:`timeline.Timeline.in_force`).

    >>> from events.model import DealerChosen, SessionStarted, Voided
    >>> start = SessionStarted(session="s", seats=("A", "B"), cards="shown")
    >>> in_force([start, DealerChosen(player="A"), Voided(seq=2), DealerChosen(player="B")])
    [0, 3]
    """
    t = Timeline.of(events)
    live = t.in_force()
    return [r.seq - 1 for r in t.log if not r.correction and (r.seq, 0) in live]


def withdrawals(events: Sequence[AnyEvent]) -> list[tuple[int, ...]]:
    """For each event of a stored stream, the indices (0-based) of the events it took out of
    force, latest first: ``()`` but for a correction (:attr:`timeline.Record.withdrew`).

    >>> from events.model import DealerChosen, SessionStarted, Shuffled, Voided
    >>> start = SessionStarted(session="s", seats=("A", "B"), cards="shown")
    >>> withdrawals([start, DealerChosen(player="A"), Voided(seq=2), Shuffled()])
    [(), (), (1,), ()]
    """
    return [tuple(s.row - 1 for s in r.withdrew if s.row > 0) for r in Timeline.of(events).log]
