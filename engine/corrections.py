"""Which recorded events a correction leaves in force (FORMAT.md ``voided``): the one rule the
replay (:mod:`log.steps`, :mod:`present.replay`), the sentences (:mod:`present.narrate`) and the
analytics (:mod:`analytics.facts`) walk a corrected stream by.

A ``voided`` withdraws the latest recorded event still in force together with the derived events
that followed it: every event in force whose seq is at least the ``voided``'s ``seq``. Events are
matched by their envelope ``seq`` when they carry one (the store's events do), else by their
1-based position in the stream (a log read from a file). Whether a ``voided`` may be recorded at
all is the engine's say (:mod:`engine.rules.voided`); these functions only walk a stream the
engine accepted.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.model import AnyEvent, Voided

__all__ = ["in_force", "withdrawals"]


def withdrawals(events: Sequence[AnyEvent]) -> list[tuple[int, ...]]:
    """For each event of ``events``, the indices (0-based, into ``events``) of the events it
    withdraws, latest first: ``()`` for every event but a ``voided``, and for a ``voided`` that
    finds nothing in force to withdraw.

    >>> from events.model import DealerChosen, SessionStarted, Shuffled, Voided
    >>> start = SessionStarted(session="s", seats=("A", "B"), cards="shown")
    >>> withdrawals([start, DealerChosen(player="A"), Voided(seq=2), Shuffled()])
    [(), (), (1,), ()]
    """
    kept: list[tuple[int, int]] = []  # (seq, index) of each event in force, in stream order
    out: list[tuple[int, ...]] = []
    for k, e in enumerate(events):
        if isinstance(e, Voided):
            gone: list[int] = []
            while kept and kept[-1][0] >= e.seq:
                gone.append(kept.pop()[1])
            out.append(tuple(gone))
            continue
        kept.append((e.seq if e.seq is not None else k + 1, k))
        out.append(())
    return out


def in_force(events: Sequence[AnyEvent]) -> list[int]:
    """The indices (0-based, into ``events``, in order) of the events still in force once every
    ``voided`` of ``events`` has been applied: neither a ``voided`` nor an event one withdrew.

    >>> from events.model import DealerChosen, SessionStarted, Voided
    >>> start = SessionStarted(session="s", seats=("A", "B"), cards="shown")
    >>> in_force([start, DealerChosen(player="A"), Voided(seq=2), DealerChosen(player="B")])
    [0, 3]
    """
    gone = {i for withdrawn in withdrawals(events) for i in withdrawn}
    return [k for k, e in enumerate(events) if not isinstance(e, Voided) and k not in gone]
