"""Where a replayer stands in a session's stream: a position is ``(deal, step)`` with ``step``
1-based inside the deal (:class:`Position`), found from a link's junk-tolerant ``(deal, step)``
(:func:`clamp`) and moved by the replayer's controls (:func:`move`), over the deals
:func:`timeline.slices_of` cuts the stream into.

Deal 0 holds what happens before the first deal (session start, the lot for the dealer, the first
shuffle); deal ``d`` starts with its ``dealt`` event and runs to the next one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from present.numbers import plural
from timeline import DealSlice, parse_step

__all__ = ["Position", "clamp", "link_number", "move", "opened", "step_index"]


@dataclass(frozen=True, slots=True)
class Position:
    """Where the replayer stands: ``step`` (1-based) of deal ``deal``; ``index`` into the stream."""

    deal: int
    step: int
    index: int
    steps: int

    @property
    def first(self) -> bool:
        return self.step <= 1

    @property
    def last(self) -> bool:
        return self.step >= self.steps


def clamp(slices: Sequence[DealSlice], deal: Any, step: Any) -> Position:
    """The position nearest to ``(deal, step)`` as found in a link (strings, junk or ``None``).

    No deal given: the first real deal (1) when there is one; no step: the deal's first step. A step
    past the end means the last one. Raises ``ValueError`` when there are no events at all."""
    if not slices:
        raise ValueError("the session has no events")
    by_deal = {s.deal: s for s in slices}
    d = link_number(deal)
    if d is None or d not in by_deal:
        d = 1 if 1 in by_deal and d is None else min(by_deal, key=lambda x: abs(x - (d or 0)))
    sl = by_deal[d]
    k = link_number(step)
    k = 1 if k is None else min(max(k, 1), sl.steps)
    return Position(d, k, sl.start + k - 1, sl.steps)


def link_number(value: Any) -> int | None:
    """A number as a link carries it (a string, the last of a list, junk: ``None``)."""
    if isinstance(value, list | tuple):
        value = value[-1] if value else None
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def move(slices: Sequence[DealSlice], pos: Position, how: str) -> Position:
    """The position after a control: ``first``, ``prev``, ``next``, ``last`` (within the deal),
    ``prev_deal``, ``next_deal``. ``next`` at a deal's end goes on to the next deal's first step,
    and ``prev`` at its start back to the previous deal's last step."""
    deals = [s.deal for s in slices]
    i = deals.index(pos.deal)
    if how == "first":
        return clamp(slices, pos.deal, 1)
    if how == "last":
        return clamp(slices, pos.deal, pos.steps)
    if how == "next":
        if pos.step < pos.steps or i + 1 == len(deals):
            return clamp(slices, pos.deal, pos.step + 1)
        return clamp(slices, deals[i + 1], 1)
    if how == "prev":
        if pos.step > 1 or i == 0:
            return clamp(slices, pos.deal, pos.step - 1)
        return clamp(slices, deals[i - 1], slices[i - 1].steps)
    if how == "next_deal":
        return clamp(slices, deals[min(i + 1, len(deals) - 1)], 1)
    if how == "prev_deal":
        return clamp(slices, deals[max(i - 1, 0)], 1)
    raise ValueError(f"unknown move {how!r}")


class _Numbered(Protocol):
    """A step's label as :class:`present.narrate.StepLabel` carries it."""

    @property
    def step(self) -> int: ...
    @property
    def sub(self) -> int: ...
    @property
    def withdrawn(self) -> bool: ...
    @property
    def correction(self) -> bool: ...


def step_index(
    slices: Sequence[DealSlice], labels: Sequence[_Numbered], deal: int, step: Any
) -> int | None:
    """Where in ``deal`` (1-based) the step numbered ``step`` (``7``, ``"7a"``) stands: the event
    in force with that number, else a withdrawn one or a correction with it; ``None`` when no
    step of the deal has that number (or ``step`` is junk)."""
    want = parse_step(step)
    sl = next((s for s in slices if s.deal == deal), None)
    if want is None or sl is None:
        return None
    found = [i for i in range(sl.start, sl.stop) if (labels[i].step, labels[i].sub) == want]
    if not found:
        return None
    best = next(
        (i for i in found if not labels[i].withdrawn and not labels[i].correction), found[-1]
    )
    return best - sl.start + 1


def _echo(value: Any) -> str:
    """A link's value as a line quotes it: the last of a list, at most 20 characters."""
    if isinstance(value, list | tuple):
        value = value[-1] if value else ""
    text = str(value)
    return text if len(text) <= 20 else text[:19] + "…"


def _no_deal(slices: Sequence[DealSlice], deal: Any, *, finished: bool) -> str:
    """The line for a link's ``deal`` the session does not have (or junk)."""
    played = sum(1 for s in slices if s.deal >= 1)
    yet, so_far = ("", "") if finished else (" yet", " so far")
    return (
        f"This session has no deal {_echo(deal)}{yet}: it has {played} "
        f"{plural(played, 'deal')}{so_far}. Showing the start."
    )


def _step_in(
    slices: Sequence[DealSlice], labels: Sequence[_Numbered], sl: DealSlice, step: Any
) -> tuple[Position | None, str]:
    """The position of the link's ``step`` in the deal of ``sl``, else ``None`` and the line
    that says the deal has no such step."""
    k = step_index(slices, labels, sl.deal, step) if labels else link_number(step)
    if k is not None and 1 <= k <= sl.steps:
        return clamp(slices, sl.deal, k), ""
    last = labels[sl.stop - 1].step if labels else sl.steps
    where = "The session's start" if sl.deal == 0 else f"Deal {sl.deal}"
    return None, (
        f"{where} has no step {_echo(step)}: it has {last} {plural(last, 'step')}. "
        "Showing its first step."
    )


def opened(
    slices: Sequence[DealSlice],
    labels: Sequence[_Numbered],
    deal: Any,
    step: Any,
    *,
    finished: bool = True,
) -> tuple[Position, str]:
    """Where a link's ``(deal, step)`` opens, and the one line that says what it lacks (``""``
    when it names a real place, or none). A deal the session does not have (or junk) opens the
    session's start, deal 1 step 1 (the first step when there is no deal 1); a step its deal
    does not have opens that deal's first step; never the end, which would tell who won. An
    unfinished session's missing deal is one "yet" to come. The line quotes the link's value as
    the link gave it (data: the page escapes it). Raises ``ValueError`` when there are no
    events at all."""
    start = clamp(slices, None, None)
    if deal is None and step is None:
        return start, ""
    d = link_number(deal) if deal is not None else start.deal
    sl = next((s for s in slices if s.deal == d), None)
    if sl is None:
        return start, _no_deal(slices, deal, finished=finished)
    if step is None:
        return clamp(slices, sl.deal, 1), ""
    pos, line = _step_in(slices, labels, sl, step)
    return (pos, "") if pos is not None else (clamp(slices, sl.deal, 1), line)
