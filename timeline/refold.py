"""One correction applied to a :class:`~timeline.Timeline` (docs/format.md ``amended``): the
targets edited among the steps in force, then the fold again from the earliest target only.

Each later step keeps its label; the event an ``amended`` replaces with keeps its target's; an
inserted one takes the label of the step in force before it and the next letter (``"7a"``). The
engine's conclusions are drawn again: one that matches a conclusion of the same cause and type
keeps its label (and its stored event, when it says the same), another gets an inserted label. The
conclusions of the last step are left for the log to record (:attr:`Timeline.due`) when they differ
from those the log holds, so the log ends with what the corrected end concludes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.apply import apply
from engine.state import State, replace
from events.errors import BragError, FormatError
from events.model import Amended, AnyEvent, DerivedEvent, SessionStarted, content
from timeline.labels import Label
from timeline.steps import Record, Step, Unfit, Vec

__all__ = ["Refolded", "refold"]


@dataclass(frozen=True, slots=True)
class Refolded:
    """What a correction makes of a timeline: the steps in force from index ``start`` on are
    ``made``; the log gains ``records``; ``subs`` and ``due`` as :class:`~timeline.Timeline`'s."""

    start: int
    made: list[Step]
    records: list[Record]
    subs: dict[tuple[int, int], int]
    due: tuple[Label, ...]
    end: State


@dataclass(slots=True)
class _Item:
    """A recorded step of the corrected sequence from the earliest target on."""

    event: AnyEvent
    row: int
    part: int
    label: Label | None  # None: inserted by this correction (labelled as it is folded)
    old: Step | None = None  # the step it was before the correction

    @property
    def key(self) -> tuple[int, int]:
        return (self.row, self.part)


def _targets(steps: Vec[Step], group: list[Amended]) -> int:
    """The index in ``t.steps`` of the earliest target; FormatError for a target that is no
    recorded step in force (an event a group's earlier ``amended`` inserted may be named)."""
    index: dict[str, int] = {}
    for k, s in enumerate(steps):
        if not s.derived and s.id is not None:
            index[str(s.id)] = k
    nested = {str(a.event.id) for a in group if a.event is not None and a.event.id is not None}
    found = [index[str(a.target)] for a in group if str(a.target) in index]
    for a in group:
        if str(a.target) not in index and str(a.target) not in nested:
            raise FormatError(
                f"target {a.target} is no recorded event in force (seq {a.target_seq})",
                field="target",
            )
    if not found:
        raise FormatError("the correction names no recorded event in force", field="target")
    return min(found)


def _edit(items: list[_Item], a: Amended, row: int) -> tuple[Step | None, _Item | None]:
    """Applies ``a`` (stored at seq ``row``) to ``items``: the old step it took out of force and
    the item it put in."""
    k = next((i for i, it in enumerate(items) if str(it.event.id) == str(a.target)), None)
    if k is None:
        raise FormatError(f"target {a.target} is no longer in force", field="target")
    target = items[k]
    if type(target.event) is SessionStarted:
        raise FormatError("the session's start cannot be corrected", field="target")
    if target.row != a.target_seq:
        raise FormatError(
            f"target_seq {a.target_seq} is not the target's seq ({target.row})",
            field="target_seq",
        )
    if a.action == "withdraw":
        del items[k]
        return target.old, None
    assert a.event is not None  # the model requires it
    if a.action == "replace":
        items[k] = _Item(a.event, row, 1, target.label)
        return target.old, items[k]
    items.insert(k, _Item(a.event, row, 1, None))
    return None, items[k]


class _Fold:
    """The fold again from one state on: the steps made, labelled; the labels of inserted steps
    taken from ``subs``."""

    def __init__(
        self, steps: Vec[Step], subs: Mapping[tuple[int, int], int], start: int, rows: set[int]
    ) -> None:
        prev = steps[start - 1]
        self.state: State = prev.after
        self.label = prev.label
        self.subs = dict(subs)
        self.rows = rows
        self.made: list[Step] = []
        self.due: tuple[Label, ...] = ()
        self.olds = {(s.cause, s.event.type): s for s in steps[start:] if s.derived and s.cause}

    def inserted(self) -> Label:
        base = (self.label.deal, self.label.step)
        sub = self.subs.get(base, 0) + 1
        self.subs[base] = sub
        return Label(base[0], base[1], sub)

    def step(self, it: _Item) -> None:
        before = self.state
        try:
            after = apply(before, it.event)
        except BragError as err:
            if it.row in self.rows:  # the correction's own event
                raise
            lab = it.label or self.label
            raise Unfit(Step(it.event, before, before, lab, it.row, it.part), err) from None
        after = replace(after, recorded_seq=it.row)
        label = it.label if it.label is not None else self.inserted()
        self.made.append(Step(it.event, before, after, label, it.row, it.part))
        self.state, self.label = after, label

    def conclusions(self, it: _Item, last: bool) -> None:
        """The conclusions ``it`` leaves pending: drawn (the last step: left due when they
        differ from those the log holds)."""
        pending = self.state.pending
        olds = [self.olds.get((it.key, d.type)) for d in pending]
        if last and not all(
            o is not None and content(o.event) == content(d)
            for o, d in zip(olds, pending, strict=True)
        ):
            self.due = tuple(o.label if o is not None else self.inserted() for o in olds)
            return
        for d, o in zip(pending, olds, strict=True):
            self._concluded(d, o, it.key)

    def _concluded(self, d: DerivedEvent, o: Step | None, cause: tuple[int, int]) -> None:
        before = self.state
        after = apply(before, d)
        same = o is not None and content(o.event) == content(d)
        event, row = (o.event, o.row) if same and o is not None else (d, 0)
        label = o.label if o is not None else self.inserted()
        self.made.append(Step(event, before, after, label, row, 0, cause))
        self.state, self.label = after, label


def refold(
    steps: Vec[Step], subs: Mapping[tuple[int, int], int], last_seq: int, group: list[Amended]
) -> Refolded:
    """The correction ``group`` (consecutive ``amended`` events, seqs filled in, stored after
    ``last_seq``) applied to the steps in force ``steps``: see the module. Raises FormatError (a
    target not in force, a wrong ``target_seq``), the engine's refusal of the correction's own
    event, or :class:`Unfit` naming the first later step that no longer fits."""
    start = _targets(steps, group)
    items = [_Item(s.event, s.row, s.part, s.label, s) for s in steps[start:] if not s.derived]
    first = last_seq + 1
    edits: list[tuple[Amended, int, Step | None, _Item | None]] = []
    for n, a in enumerate(group):
        old, put = _edit(items, a, first + n)
        edits.append((a, first + n, old, put))
    fold = _Fold(steps, subs, start, {first + n for n in range(len(group))})
    for n, it in enumerate(items):
        fold.step(it)
        if fold.state.pending:
            fold.conclusions(it, last=n == len(items) - 1)
    end = replace(fold.state, seq=first + len(group) - 1)
    made = {s.key: s for s in fold.made}
    records = [
        Record(
            a,
            row,
            end,
            (made[put.key].label if put is not None else old.label if old else fold.label),
            withdrew=(old,) if old is not None else (),
            put=made.get(put.key) if put is not None else None,
        )
        for a, row, old, put in edits
    ]
    return Refolded(start, fold.made, records, fold.subs, fold.due, end)
