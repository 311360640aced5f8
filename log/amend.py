"""Correcting any recorded step of a session (issue 19, item 4; issue 32, item 2): one
``amended`` event (docs/format.md) and its impact, planned before anything is stored. Pure but for
:func:`plan_stored` and :func:`store_amendment`, which read and write through
:class:`~log.service.EventStore`.

The plan is made by extending the session's :class:`~timeline.Timeline` with the organiser's
``amended``: the engine decides every later step again, from the target on. Where it refuses a
later step (:class:`~timeline.Unfit`), the plan lists it with the rule and proposes the repair the
rules call for (:class:`Repair`): a ``shuffled`` inserted before a deal where one is now due (RULES
3.2: a showdown now won by a prial), else the step withdrawn; and goes on until every later step
fits. Nothing is dropped without the organiser choosing it: :func:`store_amendment` stores the
repairs only when asked (``repair=True``), else refuses naming them. The correction and its
repairs are one append (consecutive ``amended`` events are one correction), one transaction:
removing one early step stores ONE event (and the conclusions the corrected end now draws, at most
three); every later event keeps its id and seq.

The :class:`Impact` compares the state before and after: each player's net (RULES 1.5), the pot
on the table, the deals whose outcome changes (winner, amount, carried) and the winners.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Literal
from uuid import UUID

from uuid_utils.compat import uuid7

from engine.state import Outcome, State
from events.errors import BragError, PlainError, UnknownSession
from events.model import Amended, AnyEvent, SessionStarted, Shuffled, Voided, content, is_derived
from log.annotations import Touched, touched
from log.service import EventStore
from store.records import StoredEvent
from timeline import Step, Timeline, Unfit

__all__ = [
    "AmendRefused",
    "Amendment",
    "DealChange",
    "Impact",
    "Repair",
    "plan_amendment",
    "plan_stored",
    "store_amendment",
    "touched_by",
]

MAX_REPAIRS = 2000
"""A correction that needs more repairs than this is refused (withdraw the steps by hand)."""


class AmendRefused(PlainError):
    """A correction that cannot be planned (a step that is not a recorded event in force, a
    replacement the rules refuse) or stored (repairs not chosen): one sentence."""

    rule_name = "AMEND"


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
            before.nets, after.nets, before.pot, after.pot, before.winners, after.winners,
            before.finished, after.finished, changed,
        )  # fmt: skip

    @property
    def net_changes(self) -> dict[str, Fraction]:
        """Each player's net after minus before (only those that change)."""
        return {
            p: self.nets_after[p] - v
            for p, v in self.nets_before.items()
            if self.nets_after[p] != v
        }


@dataclass(frozen=True, slots=True)
class Repair:
    """A later step the correction leaves refused (``step``, the engine's ``rule`` and
    ``reason``) and the repair the plan proposes: ``"insert"`` a ``shuffled`` just before it
    (RULES 3.2), or ``"withdraw"`` it. ``event`` is the ``amended`` that makes the repair."""

    step: Step
    rule: str
    reason: str
    action: Literal["insert", "withdraw"]
    event: Amended


@dataclass(frozen=True, slots=True)
class Amendment:
    """A planned correction of the step ``step`` of ``session`` (``target`` its seq).

    ``correction`` is the organiser's ``amended``; ``repairs`` those the rules call for (see the
    module). ``events`` is the batch to append after ``expected_seq`` with the repairs;
    ``timeline`` the session's timeline once it is stored (the conclusions the corrected end
    draws included: ``preview``, the events the append stores). ``before``/``after`` are the
    corrected end states."""

    session: str
    target: int
    expected_seq: int
    step: Step
    correction: Amended
    replacement: AnyEvent | None
    repairs: tuple[Repair, ...]
    before: State
    after: State
    impact: Impact
    timeline_before: Timeline
    timeline: Timeline

    @property
    def events(self) -> tuple[AnyEvent, ...]:
        """The correction and its repairs: what :func:`store_amendment` appends."""
        return (self.correction, *(r.event for r in self.repairs))

    @property
    def preview(self) -> tuple[AnyEvent, ...]:
        """The events the append will store, in order, each with the seq it will have."""
        return tuple(r.event for r in self.timeline.log[self.expected_seq :])


def _not_correctable(e: AnyEvent | None, target: int) -> AmendRefused:
    """Why the event ``e`` at seq ``target`` (``None``: no such seq) is no recorded event in
    force."""
    if e is None:
        why = f"there is no seq {target}"
    elif isinstance(e, SessionStarted):
        why = "the session's start cannot be corrected"
    elif is_derived(e):
        why = f"it is the engine's conclusion ({e.type}); correct the action that caused it"
    elif isinstance(e, Voided | Amended):
        why = "it is a correction already"
    else:
        why = "it was withdrawn already"
    return AmendRefused(f"seq {target} cannot be corrected: {why}")


def _target(t: Timeline, target: Step | int) -> Step:
    if isinstance(target, Step):
        found = next((s for s in t.steps if s.key == target.key), None)
        if found is None:
            raise AmendRefused("that step is no longer in force")
        return found
    found = next((s for s in t.steps if s.row == target and not s.derived), None)
    if found is None or isinstance(found.event, SessionStarted) or found.id is None:
        e = t.log[target - 1].event if 0 < target <= t.last_seq else None
        raise _not_correctable(found.event if found is not None else e, target)
    return found


def _replacement(old: AnyEvent, replacement: AnyEvent, by: str | None) -> AnyEvent:
    if isinstance(replacement, Voided | Amended | SessionStarted) or is_derived(replacement):
        raise AmendRefused(f"a replacement is an action at the table, not {replacement.type}")
    if type(replacement) is type(old) and content(replacement) == content(old):
        raise AmendRefused(f"the replacement is the {old.type} already recorded at seq {old.seq}")
    data = replacement.model_dump(exclude_none=True, exclude={"id", "seq"})
    data.setdefault("at", old.at)
    who = by or old.by
    if who and "by" not in data:
        data["by"] = who
    data["id"] = _new_id()
    return type(replacement).model_validate(data)


def _new_id() -> UUID:
    return uuid7()


def _refusal(err: BragError) -> str:
    return f"{err.heading()}: {err.message}" if err.rule != "AMEND" else err.message


def _repair(unfit: Unfit, when: datetime, by: str | None) -> Repair:
    """The repair the rules call for at the step ``unfit`` names (see the module)."""
    step = unfit.step
    assert step.id is not None  # a stored step in force
    env = {"at": when, "by": by} if by else {"at": when}
    if unfit.shuffle_due and step.before.cards_mode == "shown":
        shuffle = Shuffled(id=_new_id(), at=step.event.at)
        fix = Amended(action="insert", target=step.id, target_seq=step.row, event=shuffle, **env)
        action: Literal["insert", "withdraw"] = "insert"
    else:
        fix = Amended(action="withdraw", target=step.id, target_seq=step.row, **env)
        action = "withdraw"
    return Repair(step, unfit.cause.rule, unfit.cause.message, action, fix)


def plan_amendment(
    source: Timeline | list[AnyEvent],
    target: Step | int,
    replacement: AnyEvent | None = None,
    *,
    insert: bool = False,
    by: str | None = None,
    now: datetime | None = None,
) -> Amendment:
    """The correction of ``target`` (a step in force of ``source``, or the seq of a recorded
    event in force) of a stored session's timeline (or its stored events): withdrawn
    (``replacement`` ``None``), replaced, or, with ``insert``, ``replacement`` put just before it.

    ``by`` records who corrects; ``now`` is the correction's time (default: now, UTC). The
    replacement keeps the target's ``at`` unless it has its own. Raises :class:`AmendRefused`
    (a target not in force, a replacement the rules refuse, more than :data:`MAX_REPAIRS`)."""
    t = source if isinstance(source, Timeline) else Timeline.of(source)
    if not t.last_seq:
        raise AmendRefused("the session has no events")
    step = _target(t, target)
    assert step.id is not None
    when = now or datetime.now(UTC)
    new = _replacement(step.event, replacement, by) if replacement is not None else None
    action: Literal["withdraw", "replace", "insert"] = (
        "withdraw" if new is None else "insert" if insert else "replace"
    )
    env = {"at": when, "by": by} if by else {"at": when}
    fix = Amended(action=action, target=step.id, target_seq=step.row, event=new, **env)
    repairs: list[Repair] = []
    while True:
        try:
            after = t.extend_all([fix, *(r.event for r in repairs)], new_id=_new_id)
            break
        except Unfit as unfit:
            if len(repairs) >= MAX_REPAIRS:
                raise AmendRefused(
                    f"the correction leaves more than {MAX_REPAIRS} later steps refused"
                ) from None
            repairs.append(_repair(unfit, when, by))
        except BragError as err:
            what = f"the replacement {new.type}" if new is not None else "the correction"
            raise AmendRefused(f"{what} is refused: {_refusal(err)}") from None
    return Amendment(
        t.session, step.row, t.last_seq, step, fix, new, tuple(repairs), t.state, after.state,
        Impact.of(t.state, after.state), t, after,
    )  # fmt: skip


def plan_stored(
    store: EventStore,
    session: str,
    target: Step | int,
    replacement: AnyEvent | None = None,
    *,
    insert: bool = False,
    by: str | None = None,
    now: datetime | None = None,
) -> Amendment:
    """:func:`plan_amendment` of the session as stored now (its cached timeline;
    :class:`UnknownSession` if none; :class:`~events.errors.CorruptSession` if the stored stream
    no longer folds)."""
    t = store.timeline(session)
    if not t.last_seq:
        raise UnknownSession(session)
    return plan_amendment(t, target, replacement, insert=insert, by=by, now=now)


def store_amendment(
    store: EventStore, plan: Amendment, *, repair: bool | None = None
) -> list[StoredEvent]:
    """Stores the whole correction: ONE append after ``plan.expected_seq`` (one transaction, or
    nothing; :class:`~events.errors.ConcurrencyConflict` if the session grew meanwhile). A plan
    with repairs is stored only with ``repair=True`` (the organiser chose them); ``False`` or
    ``None`` refuses it (:class:`AmendRefused`, naming the steps that no longer fit)."""
    if plan.repairs and not repair:
        steps = "; ".join(
            f"deal {r.step.label.deal}, step {r.step.label.text} ({r.step.event.type}): "
            f"RULES {r.rule}" for r in plan.repairs
        )  # fmt: skip
        raise AmendRefused(
            f"the correction needs {len(plan.repairs)} repair(s) the organiser has not chosen "
            f"({steps}); nothing was stored"
        )
    return store.append(plan.session, list(plan.events), expected_seq=plan.expected_seq)


def touched_by(store: EventStore, plan: Amendment) -> list[Touched]:
    """The notes and players' remembered cards on the steps ``plan`` takes out of force (its
    target, when withdrawn or replaced, and the steps its repairs withdraw), for the preview:
    they stay on their action, which then shows withdrawn (:func:`log.annotations.touched`)."""
    gone = [plan.step] if plan.correction.action != "insert" else []
    gone += [r.step for r in plan.repairs if r.action == "withdraw"]
    ids = [str(s.id) for s in gone if s.id is not None]
    return touched(store, plan.session, ids)
