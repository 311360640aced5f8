"""A replayed stream cut into deals (:class:`DealSlice`): deal ``d`` is one contiguous run of
steps; deal 0 is what comes before the first deal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DealSlice", "slices_of"]


@dataclass(frozen=True, slots=True)
class DealSlice:
    """Deal ``deal`` is ``events[start:stop]``; deal 0 is what comes before the first deal."""

    deal: int
    start: int
    stop: int

    @property
    def steps(self) -> int:
        return self.stop - self.start


def slices_of(deals: Sequence[int]) -> list[DealSlice]:
    """The deals of a stream whose event ``k`` belongs to deal ``deals[k]`` (running on: an event
    never goes back to an earlier deal), in order.

    >>> [(s.deal, s.start, s.stop) for s in slices_of([0, 0, 1, 1, 1, 2])]
    [(0, 0, 2), (1, 2, 5), (2, 5, 6)]
    """
    out: list[DealSlice] = []
    current = 0
    start = 0
    for k, d in enumerate(deals):
        d = max(current, d)
        if d != current:
            if k > start:
                out.append(DealSlice(current, start, k))
            current, start = d, k
    if len(deals) > start:
        out.append(DealSlice(current, start, len(deals)))
    return out
