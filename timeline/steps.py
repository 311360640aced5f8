"""The records a :class:`~timeline.Timeline` keeps: the log's events with the state after each
(:class:`Record`), the steps in force of the corrected fold (:class:`Step`), the refusal of a later
step a correction no longer fits (:class:`Unfit`), and the append-only vectors they live in
(:class:`Vec`: a new timeline shares its predecessor's list instead of copying it).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, overload
from uuid import UUID

from engine.state import State
from events.errors import BragError, RuleViolation
from events.model import Amended, AnyEvent
from timeline.labels import Label

__all__ = ["Record", "Step", "Unfit", "Vec"]

T = TypeVar("T")
_GROW = threading.Lock()


class Vec(Generic[T], Sequence[T]):
    """An immutable sequence of the first ``n`` items of a list it may share with longer vectors:
    :meth:`plus` appends to the shared list when nobody appended past ``n`` yet (O(1)), else
    copies the first ``n`` first. Thread-safe."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[T] | None = None, n: int | None = None) -> None:
        self._items: list[T] = items if items is not None else []
        self._n = len(self._items) if n is None else n

    def plus(self, *more: T) -> Vec[T]:
        with _GROW:
            items = self._items if len(self._items) == self._n else self._items[: self._n]
            items.extend(more)
            return Vec(items, len(items))

    def cut(self, n: int) -> Vec[T]:
        """The first ``n`` items (no copy)."""
        return Vec(self._items, max(0, min(n, self._n)))

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, k: int) -> T: ...
    @overload
    def __getitem__(self, k: slice) -> list[T]: ...
    def __getitem__(self, k: int | slice) -> T | list[T]:
        if isinstance(k, slice):
            start, stop, step = k.indices(self._n)
            return self._items[start:stop:step]  # no copy of the rest of the list
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(k)
        return self._items[k]

    def __iter__(self) -> Iterator[T]:
        items = self._items
        for k in range(self._n):
            yield items[k]

    def tuple(self) -> tuple[T, ...]:
        return tuple(self._items[: self._n])


@dataclass(frozen=True, slots=True, eq=False)
class Step:
    """One step in force of the corrected fold: the ``event`` (a recorded one, the event an
    ``amended`` recorded, or a derived one), the states ``before`` and ``after`` it, its
    :class:`Label`, ``row`` the seq of the log's event that carries it (an ``amended``'s for the
    event it recorded; 0 for a conclusion the corrected fold drew that the log does not hold),
    ``part`` 1 for the event an ``amended`` carries, and ``cause`` (a derived step) the ``key`` of
    the recorded step it follows."""

    event: AnyEvent
    before: State
    after: State
    label: Label
    row: int
    part: int = 0
    cause: tuple[int, int] | None = None

    @property
    def key(self) -> tuple[int, int]:
        """What names this step in the log: ``(row, part)``; ``(0, 0)`` for a conclusion not
        stored."""
        return (self.row, self.part)

    @property
    def derived(self) -> bool:
        return self.cause is not None

    @property
    def id(self) -> UUID | None:
        return self.event.id


@dataclass(frozen=True, slots=True, eq=False)
class Record:
    """One event of the log as recorded: the ``event`` (envelope as given), ``seq`` its place
    in the stream (1-based), the corrected end ``state`` after it (as it stood when it was
    recorded), its :class:`Label` (a ``voided`` or an ``amended``: the label of the step it
    corrects) and, for a correction, the steps it took out of force (``withdrew``, latest first)
    and the step it put in (``put``)."""

    event: AnyEvent
    seq: int
    state: State
    label: Label
    withdrew: tuple[Step, ...] = ()
    put: Step | None = None

    @property
    def correction(self) -> bool:
        return self.event.type in ("voided", "amended")


class Unfit(RuleViolation):
    """A later step in force that a correction leaves refused by the rules: ``step`` (its event
    and label) and the engine's own error ``cause`` (its RULES section is this error's ``rule``).
    A plan must repair it (:mod:`log.amend`): a ``shuffled`` inserted where one is now due, or
    the step withdrawn."""

    def __init__(self, step: Step, cause: BragError, correction: Amended | None = None) -> None:
        self.step = step
        self.cause = cause
        self.correction = correction
        lab = step.label
        super().__init__(
            cause.rule,
            f"deal {lab.deal}, step {lab.text} ({step.event.type}) no longer fits after the "
            f"correction: {cause.heading()}: {cause.message}",
            player=cause.player,
            event=step.event.type,
        )

    @property
    def shuffle_due(self) -> bool:
        """Whether the rules now want a shuffle before this step (RULES 3.2)."""
        return self.cause.rule == "3.2" and self.step.event.type == "dealt"
