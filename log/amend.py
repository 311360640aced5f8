"""Correcting any recorded step of a session (issue 19, item 4): a plan made of ordinary events,
and its impact, before anything is stored. Pure but for :func:`plan_stored` and
:func:`store_amendment`, which read and write through :class:`~log.service.EventStore`.

FORMAT.md ``voided`` withdraws only the latest recorded event in force (its derived events go with
it). To correct an earlier one, :func:`plan_amendment` chains them: a ``voided`` of every recorded
event in force from the last back to and including the target, then the replacement (if any),
then the later recorded events again, as new events (no ``id`` or ``seq``; their ``at`` and ``by``
kept: FORMAT.md ``at`` is when it happened at the table, and ``by`` who recorded it, both still
true). A later event the engine now refuses is left out and listed with the engine's reason, for
the organiser to decide. Nothing here decides a rule: every event goes through
:func:`engine.fold.record`, and the store folds the batch again when it is appended.

The :class:`Impact` compares the state before and after: each player's net (RULES 1.5), the pot
on the table, the deals whose outcome changes (winner, amount, carried) and the winners
(:attr:`engine.state.State.winners`, the shared win of RULES 1.5). The whole correction is one
:meth:`~log.service.EventStore.append` after the seq the plan was made from: one transaction, and
a :class:`~events.errors.ConcurrencyConflict` if anyone recorded meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction

from engine.apply import apply
from engine.fold import record, replay
from engine.state import Outcome, Phase, State
from events.errors import BragError, PlainError, UnknownSession
from events.model import AnyEvent, SessionStarted, Voided, content, is_derived
from log.folds import stored_states
from log.service import EventStore
from store.records import StoredEvent

__all__ = [
    "AmendRefused",
    "Amendment",
    "DealChange",
    "Impact",
    "Later",
    "in_force",
    "plan_amendment",
    "plan_stored",
    "store_amendment",
]


class AmendRefused(PlainError):
    """A correction that cannot be planned (a step that is not a recorded event in force, a
    replacement the rules refuse): one sentence."""

    rule_name = "AMEND"


@dataclass(frozen=True, slots=True)
class Later:
    """A recorded event in force after the target: ``seq`` in the stored stream, the stored
    ``event``; ``refused`` is the engine's reason when it no longer fits (then it is left out)."""

    seq: int
    event: AnyEvent
    refused: str | None = None


@dataclass(frozen=True, slots=True)
class DealChange:
    """A deal whose outcome differs: ``before`` / ``after`` (``None``: the deal did not end)."""

    deal: int
    before: Outcome | None
    after: Outcome | None


def _key(o: Outcome | None) -> tuple[object, ...] | None:
    return None if o is None else (o.result, o.winner, o.amount)


@dataclass(frozen=True, slots=True)
class Impact:
    """What the correction changes: nets (RULES 1.5, exact), the pot on the table, the winners
    and whether the session is over, before and after; the deals whose outcome changes."""

    nets_before: dict[str, Fraction]
    nets_after: dict[str, Fraction]
    pot_before: Fraction
    pot_after: Fraction
    winners_before: tuple[str, ...]
    winners_after: tuple[str, ...]
    finished_before: bool
    finished_after: bool
    changed: tuple[DealChange, ...]

    @classmethod
    def of(cls, before: State, after: State) -> Impact:
        old = {o.deal: o for o in before.outcomes}
        new = {o.deal: o for o in after.outcomes}
        changed = tuple(
            DealChange(d, old.get(d), new.get(d))
            for d in sorted(old.keys() | new.keys())
            if _key(old.get(d)) != _key(new.get(d))
        )
        return cls(
            before.nets,
            after.nets,
            before.pot,
            after.pot,
            before.winners,
            after.winners,
            before.finished,
            after.finished,
            changed,
        )

    @property
    def net_changes(self) -> dict[str, Fraction]:
        """Each player's net after minus before (only those that change)."""
        return {
            p: self.nets_after[p] - v
            for p, v in self.nets_before.items()
            if self.nets_after[p] != v
        }


@dataclass(frozen=True, slots=True)
class Amendment:
    """A planned correction of the recorded event at seq ``target`` of ``session``.

    ``events`` is the batch to append after ``expected_seq`` (the last seq the plan was made
    from): the ``voided`` events, the replacement, the later events ``kept``; the store adds the
    engine's derived events. ``withdrawn`` are the seqs voided, latest first; ``dropped`` the
    later events that no longer fit (left out). ``before`` and ``after`` are the engine's states
    before and after the batch (with its derived events)."""

    session: str
    target: int
    expected_seq: int
    withdrawn: tuple[int, ...]
    replacement: AnyEvent | None
    kept: tuple[Later, ...]
    dropped: tuple[Later, ...]
    events: tuple[AnyEvent, ...]
    before: State
    after: State
    impact: Impact
    preview: tuple[AnyEvent, ...] = ()
    """The events the append will store, in order: ``events`` with the engine's derived events
    after their cause, each (but a ``voided``, whose ``seq`` names what it withdraws) with the
    ``seq`` it will have."""


def in_force(state: State) -> list[int]:
    """The seqs of the recorded events in force in ``state``, latest first (the engine's undo
    chain: each one a ``voided`` could withdraw in turn; never the session's start)."""
    out: list[int] = []
    s: State | None = state
    while s is not None and s.undo is not None and s.recorded_seq is not None:
        if s.undo.phase is Phase.NEW:
            break
        out.append(s.recorded_seq)
        s = s.undo
    return out


def _again(event: AnyEvent) -> AnyEvent:
    """``event`` as a new event to record: without ``id`` and ``seq`` (the store gives new ones),
    its ``at`` and ``by`` kept."""
    data = event.model_dump(exclude_none=True, exclude={"id", "seq"})
    return type(event).model_validate(data)


def _refusal(err: BragError) -> str:
    return f"{err.heading()}: {err.message}" if err.rule != "AMEND" else err.message


def plan_amendment(
    events: Sequence[AnyEvent],
    target: int,
    replacement: AnyEvent | None = None,
    *,
    by: str | None = None,
    now: datetime | None = None,
    states: Sequence[State] | None = None,
) -> Amendment:
    """The correction of the recorded event at seq ``target`` of the stored stream ``events``
    (envelope ``seq`` filled in, seq order): removed (``replacement`` ``None``) or replaced.

    ``by`` records who corrects (the ``voided`` events; the replacement too, else it keeps the
    target's); ``now`` is the ``voided`` events' time (default: now, UTC). The replacement keeps
    the target's ``at`` unless it has its own: it is what happened at the table then. ``states``
    (the fold of ``events``) saves folding again. Raises :class:`AmendRefused`."""
    if not events:
        raise AmendRefused("the session has no events")
    session = events[0].session if isinstance(events[0], SessionStarted) else ""
    if states is None:
        states = replay(events)
    before = states[-1]
    # The whole stream from seq 1: event k is seq k (a voided's own seq field names its target,
    # never its place, docs/format.md)
    expected = len(events)
    chain = in_force(before)
    by_seq = dict(enumerate(events, start=1))
    if target not in chain:
        raise _not_correctable(by_seq.get(target), target)
    when = now or datetime.now(UTC)
    b = _Batch(before, expected)
    for seq in chain:
        b.void(Voided(seq=seq, at=when, by=by) if by else Voided(seq=seq, at=when))
        if seq == target:
            break
    old = by_seq[target]
    new: AnyEvent | None = None
    if replacement is not None:
        new = _replacement(old, replacement, by)
        try:
            b.record(new)
        except BragError as err:
            raise AmendRefused(f"the replacement {new.type} is refused: {_refusal(err)}") from None
    kept, dropped = b.again([(seq, by_seq[seq]) for seq in reversed(b.withdrawn[:-1])])
    return Amendment(
        session,
        target,
        expected,
        tuple(b.withdrawn),
        new,
        tuple(kept),
        tuple(dropped),
        tuple(b.batch),
        before,
        b.state,
        Impact.of(before, b.state),
        tuple(b.preview),
    )


def _not_correctable(e: AnyEvent | None, target: int) -> AmendRefused:
    """Why the event ``e`` at seq ``target`` (``None``: no such seq) is no recorded event in
    force."""
    if e is None:
        why = f"there is no seq {target}"
    elif isinstance(e, SessionStarted):
        why = "the session's start cannot be corrected"
    elif is_derived(e):
        why = f"it is the engine's conclusion ({e.type}); correct the action that caused it"
    elif isinstance(e, Voided):
        why = "it is a correction already"
    else:
        why = "it was withdrawn already"
    return AmendRefused(f"seq {target} cannot be corrected: {why}")


class _Batch:
    """A correction's batch as it is folded: the events to append (``batch``), what the session
    will show after seq ``expected`` (``preview``: derived events with the seq they will have),
    the seqs withdrawn, and the state after them."""

    def __init__(self, state: State, expected: int) -> None:
        self.state = state
        self.expected = expected
        self.batch: list[AnyEvent] = []
        self.preview: list[AnyEvent] = []
        self.withdrawn: list[int] = []

    def void(self, v: Voided) -> None:
        """Withdraws the recorded event in force at seq ``v.seq``."""
        self.state = apply(self.state, v)
        self.batch.append(v)
        self.preview.append(v)
        self.withdrawn.append(v.seq)

    def record(self, e: AnyEvent) -> None:
        """Folds ``e`` (and its conclusions) in; a refusal (:class:`BragError`) changes nothing."""
        s, stored = record(self.state, e)
        for d in stored:
            self.preview.append(d.model_copy(update={"seq": self.expected + len(self.preview) + 1}))
        self.batch.append(e)
        self.state = s

    def again(self, later: list[tuple[int, AnyEvent]]) -> tuple[list[Later], list[Later]]:
        """Records the ``later`` stored events (seq, event) again, as new events, in order: those
        kept and those the engine now refuses (left out, with its reason)."""
        kept: list[Later] = []
        dropped: list[Later] = []
        for seq, e in later:
            try:
                self.record(_again(e))
            except BragError as err:
                dropped.append(Later(seq, e, _refusal(err)))
                continue
            kept.append(Later(seq, e))
        return kept, dropped


def _replacement(old: AnyEvent, replacement: AnyEvent, by: str | None) -> AnyEvent:
    if isinstance(replacement, Voided | SessionStarted) or is_derived(replacement):
        raise AmendRefused(f"a replacement is an action at the table, not {replacement.type}")
    if type(replacement) is type(old) and content(replacement) == content(old):
        raise AmendRefused(f"the replacement is the {old.type} already recorded at seq {old.seq}")
    data = replacement.model_dump(exclude_none=True, exclude={"id", "seq"})
    data.setdefault("at", old.at)
    who = by or old.by
    if who and "by" not in data:
        data["by"] = who
    data = {k: v for k, v in data.items() if v is not None}
    return type(replacement).model_validate(data)


def plan_stored(
    store: EventStore,
    session: str,
    target: int,
    replacement: AnyEvent | None = None,
    *,
    by: str | None = None,
    now: datetime | None = None,
) -> Amendment:
    """:func:`plan_amendment` of the session as stored now (:class:`UnknownSession` if none;
    :class:`~events.errors.CorruptSession` if the stored stream no longer folds)."""
    rows = store.read(session)
    if not rows:
        raise UnknownSession(session)
    states = stored_states(session, rows)
    return plan_amendment(
        [r.event for r in rows], target, replacement, by=by, now=now, states=states
    )


def store_amendment(store: EventStore, plan: Amendment) -> list[StoredEvent]:
    """Stores the whole correction: ONE append after ``plan.expected_seq`` (one transaction, or
    nothing; :class:`~events.errors.ConcurrencyConflict` if the session grew meanwhile)."""
    return store.append(plan.session, list(plan.events), expected_seq=plan.expected_seq)
