"""A session's :class:`Timeline` (issue 32): its events as recorded, the corrections, the state
after each event, and the steps in force with numbers that never move. A pure value just above the
engine; the store caches it per session (:meth:`log.service.EventStore.timeline`).

Two views of one session:

- the log (:attr:`Timeline.log`, "as recorded"): every stored event in seq order, each with the
  corrected end state as it stood when that event was recorded;
- the steps in force (:attr:`Timeline.steps`, the default view): the log's recorded events minus
  those a ``voided`` withdrew (FORMAT.md: the latest in force) with each ``amended`` applied at its
  target (docs/format.md), folded through the engine with the conclusions the engine draws
  (:func:`engine.fold.conclude`).

:meth:`Timeline.extend` adds one event without folding the stream again: a recorded or derived
event is one :func:`~engine.apply.apply` onto the corrected end state; a ``voided`` goes back to the
state before the latest step in force (the state's undo, O(1)); an ``amended`` folds again from
its target only, and is refused (:class:`~timeline.steps.Unfit`) when a later step in force no
longer fits. Consecutive ``amended`` events are one correction: the later steps are checked once
all of them apply (a plan's repairs go with the correction they repair).

The corrected fold checks the envelope itself: the log's seqs are consecutive; the steps in force
are folded through the engine's rules, which never read a seq (:func:`engine.apply.apply`), and each
state's ``recorded_seq`` is the seq of the log event that carries the step (so a ``voided`` names
it), the end state's ``seq`` the log's last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as _dc_replace
from uuid import UUID

from engine.apply import apply
from engine.state import State, initial_state
from events.errors import BragError, FormatError
from events.model import DERIVED_CLASSES, Amended, AnyEvent, SessionStarted, Voided
from timeline.labels import Label, parse_step
from timeline.refold import refold
from timeline.steps import Record, Step, Vec

__all__ = ["Timeline"]


@dataclass(frozen=True, slots=True, eq=False)
class Timeline:
    """One session's events as recorded and in force (see the module). Build with :meth:`of`;
    grow with :meth:`extend` / :meth:`extend_all` (each returns a new timeline and leaves this one
    as it was)."""

    session: str = ""
    log: Vec[Record] = field(default_factory=Vec)
    steps: Vec[Step] = field(default_factory=Vec)
    deal: int = 0
    """The latest deal any event entered in (withdrawn ones too): new steps are numbered in it."""
    subs: Mapping[tuple[int, int], int] = field(default_factory=dict)
    """The letters used after each ``(deal, step)`` by inserted steps (never reused)."""
    due: tuple[Label, ...] = ()
    """The labels of the conclusions the log must record next (a correction changed them)."""

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def of(cls, events: Iterable[AnyEvent]) -> Timeline:
        """The timeline of a stored stream (seq order, from seq 1, derived events included).
        Raises the engine's :class:`~events.errors.BragError` with ``line`` = 1-based position."""
        return cls().extend_all(list(events), conclude=False, fill=False)

    def extend(self, event: AnyEvent) -> Timeline:
        """This timeline with one more event (see the module). Raises the engine's refusal
        (:class:`~events.errors.RuleViolation`, :class:`~events.errors.FormatError`,
        :class:`~timeline.steps.Unfit`); this timeline is unchanged either way."""
        return self.extend_all([event], conclude=False)

    def extend_all(
        self,
        events: Sequence[AnyEvent],
        *,
        conclude: bool = True,
        fill: bool = True,
        new_id: Callable[[], UUID] | None = None,
    ) -> Timeline:
        """This timeline with ``events`` appended, in order: what an append stores.

        ``conclude``: the engine's conclusions are added where they are due (before a recorded
        event and at the end), as the store records them. ``fill``: each event gets the ``seq``
        it will have (one given must be it: FormatError) and, with ``new_id``, an ``id``.
        Consecutive ``amended`` events are one correction. Errors carry ``line`` = 1-based index
        in ``events``."""
        t = self
        k = 0
        while k < len(events):
            e = events[k]
            try:
                if type(e) is Amended:
                    j = k
                    while j < len(events) and type(events[j]) is Amended:
                        j += 1
                    group: list[Amended] = []
                    for i, x in enumerate(events[k:j]):
                        filled = t._filled(x, t.last_seq + 1 + i, fill, new_id)
                        assert isinstance(filled, Amended)
                        group.append(_nested_id(filled, new_id))
                    t = t._amend(group)
                    k = j
                else:
                    if conclude and t.state.pending and type(e) not in DERIVED_CLASSES:
                        t = t._conclude(fill, new_id)
                    t = t._add(t._filled(e, t.last_seq + 1, fill, new_id))
                    k += 1
            except BragError as err:
                raise err.at(line=k + 1, event=e.type) from None
        if conclude and t.state.pending:
            t = t._conclude(fill, new_id)
        return t

    def _conclude(self, fill: bool, new_id: Callable[[], UUID] | None) -> Timeline:
        t = self
        while t.state.pending:
            t = t._add(t._filled(t.state.pending[0], t.last_seq + 1, fill, new_id))
        return t

    @staticmethod
    def _filled(e: AnyEvent, seq: int, fill: bool, new_id: Callable[[], UUID] | None) -> AnyEvent:
        if not fill:
            return e
        update: dict[str, object] = {}
        if type(e) is not Voided:
            if e.seq is None:
                update["seq"] = seq
            elif e.seq != seq:
                raise FormatError(
                    f"seq {e.seq} given, but this event would be seq {seq}", field="seq"
                )
        if e.id is None and new_id is not None:
            update["id"] = new_id()
        return e.model_copy(update=update) if update else e

    def _add(self, e: AnyEvent) -> Timeline:
        """One event that is not an ``amended``: one apply onto the corrected end state."""
        before = self.state
        after = apply(before, e)
        seq = len(self.log) + 1
        steps = self.steps
        cls = type(e)
        session = self.session
        if not session and isinstance(e, SessionStarted):
            session = e.session
        if cls is Voided:
            j = len(steps) - 1
            while j > 0 and steps[j].derived:
                j -= 1
            gone = tuple(reversed(steps[j:]))
            rec = Record(e, seq, after, steps[j].label, withdrew=gone)
            return _dc_replace(self, session=session, log=self.log.plus(rec), steps=steps.cut(j))
        deal = after.deals  # the deal the step belongs to in force (an undone deal is left)
        last = steps[-1] if len(steps) else None
        due = self.due
        if cls in DERIVED_CLASSES:
            label = due[0] if due else _next(last, deal)
            due = due[1:]
            step = Step(e, before, after, label, seq, 0, _cause(steps))
        else:
            label = _next(last, deal)
            step = Step(e, before, after, label, seq)
        rec = Record(e, seq, after, label)
        return Timeline(session, self.log.plus(rec), steps.plus(step), deal, self.subs, due)

    def _amend(self, group: list[Amended]) -> Timeline:
        """One correction (consecutive ``amended`` events): their targets edited in the steps in
        force, then the fold again from the earliest target (:mod:`timeline.refold`)."""
        if self.state.pending:
            raise FormatError(
                f"the engine's conclusion {self.state.pending[0].type} must come first"
            )
        r = refold(self.steps, self.subs, self.last_seq, group)
        return Timeline(
            self.session,
            self.log.plus(*r.records),
            self.steps.cut(r.start).plus(*r.made),
            max(self.deal, r.end.deals),
            r.subs,
            r.due,
        )

    # -- reading -------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The corrected end state (``state.seq`` is the log's last seq)."""
        return self.log[-1].state if len(self.log) else initial_state()

    @property
    def last_seq(self) -> int:
        return len(self.log)

    def in_force(self) -> set[tuple[int, int]]:
        """The keys (``(row, part)``, :attr:`Step.key`) of the steps in force."""
        return {s.key for s in self.steps}

    def step_of(self, event_id: UUID | str) -> Step | None:
        """The step in force whose event has id ``event_id`` (``None``: none in force)."""
        want = str(event_id)
        return next((s for s in self.steps if s.id is not None and str(s.id) == want), None)

    def record_of(self, event_id: UUID | str) -> tuple[Record, Step | None] | None:
        """Where the event with id ``event_id`` entered the log: its record, and its step in force
        (``None``: no longer in force). The event an ``amended`` carries is found too."""
        want = str(event_id)
        live = {s.key: s for s in self.steps}
        for r in self.log:
            e = r.event
            if e.id is not None and str(e.id) == want:
                return r, live.get((r.seq, 0))
            if type(e) is Amended and e.event is not None and str(e.event.id) == want:
                return r, live.get((r.seq, 1))
        return None

    def find(self, deal: int, step: object) -> Step | None:
        """The step in force labelled ``step`` (``7``, ``"7a"``) in ``deal``, or ``None``."""
        want = parse_step(step)
        if want is None:
            return None
        return next(
            (
                s for s in self.steps
                if s.label.deal == deal and (s.label.step, s.label.sub) == want
            ),
            None,
        )  # fmt: skip

    def events(self) -> list[AnyEvent]:
        """The log's events, as recorded."""
        return [r.event for r in self.log]


def _next(last: Step | None, deal: int) -> Label:
    """The label of a step entering at the end after the step in force ``last``."""
    return Label(deal, 1) if last is None else last.label.next_after(deal)


def _cause(steps: Sequence[Step]) -> tuple[int, int]:
    """The key of the latest recorded step in force (a conclusion's cause)."""
    j = len(steps) - 1
    while j > 0 and steps[j].derived:
        j -= 1
    return steps[j].key if j >= 0 else (0, 0)


def _nested_id(a: Amended, new_id: Callable[[], UUID] | None) -> Amended:
    """``a`` with an id given to the event it carries (a note or a later correction names it)."""
    if a.event is None or a.event.id is not None or new_id is None:
        return a
    return a.model_copy(update={"event": a.event.model_copy(update={"id": new_id()})})
