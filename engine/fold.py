"""Folding whole streams: replay, completion of derived events, and the session summary.

- :func:`replay` gives the immutable state after every event of a stream (the replayer's steps).
- :func:`complete` reads a log as FORMAT.md allows it on import (envelope optional, derived events
  optional) and yields the full stream: every recorded event followed by the engine's conclusions,
  checking any derived event the log already has. Errors carry the source line.
- :func:`record` applies one recorded event and the conclusions it leaves pending (what a
  recorder, the simulator and the store do with each event); :func:`conclude` applies just those.
- :func:`summary` is the contract of ``brag verify --json`` (``../shared/scenarios/README.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.apply import apply
from engine.state import Outcome, State, initial_state
from events.amounts import format_amount
from events.errors import BragError, FormatError
from events.model import DERIVED_CLASSES, AnyEvent, DerivedEvent, content

__all__ = ["Step", "complete", "conclude", "fold", "record", "replay", "summary", "verify_events"]


def conclude(state: State) -> tuple[State, list[DerivedEvent]]:
    """Applies the engine's pending conclusions (``state.pending``, in order).

    Shape: ``(state after them, [the derived events])``; no derived event when nothing is pending.
    """
    derived: list[DerivedEvent] = []
    while state.pending:
        d = state.pending[0]
        state = apply(state, d)
        derived.append(d)
    return state, derived


def record(state: State, event: AnyEvent) -> tuple[State, list[AnyEvent]]:
    """Applies a recorded event, then the conclusions it causes (pot won, pot carried, session
    ended), as the stream stores them.

    Shape: ``(new state, [event, *derived events])``. Raises what :func:`~engine.apply.apply`
    raises (RuleViolation, FormatError); the input state is unchanged either way."""
    state = apply(state, event)
    state, derived = conclude(state)
    return state, [event, *derived]


def fold(events: Iterable[AnyEvent], state: State | None = None) -> State:
    """The state after all ``events`` (a complete stream, derived events included).

    Raises :class:`~events.errors.BragError` (with ``line`` = 1-based position in ``events``)."""
    s = state or initial_state()
    for n, e in enumerate(events, start=1):
        try:
            s = apply(s, e)
        except BragError as err:
            raise err.at(line=n, event=e.type) from None
    return s


def replay(events: Iterable[AnyEvent], state: State | None = None) -> list[State]:
    """The state after each event of a complete stream: ``replay(es)[k]`` follows ``es[k]``.

    Shape: ``list[State]`` of the same length as ``events``. Replaying a prefix gives the prefix of
    the replay (the fold is deterministic and states are immutable)."""
    s = state or initial_state()
    out: list[State] = []
    for n, e in enumerate(events, start=1):
        try:
            s = apply(s, e)
        except BragError as err:
            raise err.at(line=n, event=e.type) from None
        out.append(s)
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One event of a completed stream: its source ``line`` (``None`` for a derived event the
    engine added), the event, and the state after it."""

    line: int | None
    event: AnyEvent
    state: State


def complete(lines: Iterable[tuple[int, AnyEvent]], state: State | None = None) -> Iterator[Step]:
    """Folds a log as read from a file (``(line, event)`` pairs) and yields every step of the full
    stream, inserting the derived events the log leaves out.

    FORMAT.md envelope rules checked here: ``seq``, where given, is the event's position (in the
    file, or in the stream with the derived events counted; the first is 1, or follows the seq of
    a start ``state``: the lines continue its stream); an ``id`` seen
    before is a no-op when the content is the same and a FormatError otherwise. Raises
    :class:`~events.errors.BragError` naming the source line and event type."""
    for line, e, s in _fold_log(lines, state or initial_state()):
        yield Step(line, e, s)


def _fold_log(
    lines: Iterable[tuple[int, AnyEvent]], s: State
) -> Iterator[tuple[int | None, AnyEvent, State]]:
    """:func:`complete` as plain ``(line, event, state)`` tuples (cheaper than Steps when only
    the final state is wanted, as in :func:`verify_events`)."""
    ids: dict[Any, dict[str, Any]] = {}
    # This event's position in each numbering (seq 1 first; after a start state, its seq).
    pos = {"file": s.seq, "stream": s.seq}
    fits = {"file", "stream"}  # the numberings the log's seqs still fit
    last_given = s.seq
    for line, e in lines:
        try:
            if e.id is not None and _retried(ids, e):
                continue  # an idempotent retry of the same event
            # Derived events are optional on import: the engine adds those the log leaves out.
            # A derived event the log gives must agree with the next conclusion of its type.
            added = 0
            if s.pending:
                added = _left_out(s, e)
                for _ in range(added):
                    d = s.pending[0]
                    s = apply(s, d)
                    yield None, d, s
            # seq, where given, is consecutive: in the stream (docs/format.md: derived events are
            # numbered, also those the log leaves out) or, read leniently, in the file.
            pos = {"file": pos["file"] + 1, "stream": pos["stream"] + 1 + added}
            if e.seq is not None and e.type != "voided":
                fits = {k for k in fits if pos[k] == e.seq}
                if not fits:
                    where = f"follow seq {last_given}" if last_given else "start the log at 1"
                    raise FormatError(f"seq {e.seq} does not {where}", field="seq")
                last_given = e.seq
            s = apply(s, e)
        except BragError as err:
            raise err.at(line=line, event=e.type) from None
        yield line, e, s
    while s.pending:
        d = s.pending[0]
        s = apply(s, d)
        yield None, d, s


def _retried(ids: dict[Any, dict[str, Any]], e: AnyEvent) -> bool:
    """FORMAT.md ``id``: an id seen before is an idempotent retry (``True``) when the content is
    the same, a FormatError otherwise; a new id is remembered."""
    prior = ids.get(e.id)
    if prior is None:
        ids[e.id] = content(e)
        return False
    if prior != content(e):
        raise FormatError(f"id {e.id} was already used for another event", field="id")
    return True


def _left_out(s: State, e: AnyEvent) -> int:
    """How many of the pending conclusions the log leaves out before ``e``: all of them before a
    recorded event; those before the first of ``e``'s type before a derived one."""
    pending = [d.type for d in s.pending]
    if type(e) in DERIVED_CLASSES:
        return pending.index(e.type) if e.type in pending else 0
    return len(pending)


def verify_events(lines: Iterable[tuple[int, AnyEvent]]) -> State:
    """The final state of a log read from a file, every rule checked (see :func:`complete`).

    The fold makes no reference cycles, so a shell folding many big files may pause the cyclic
    garbage collector around this call (``log.gc_pause.paused_gc``); the core never does."""
    s = initial_state()
    for _, _, after in _fold_log(lines, s):
        s = after
    return s


def _outcome_json(o: Outcome) -> dict[str, Any]:
    out: dict[str, Any] = {
        "deal": o.deal,
        "dealer": o.dealer,
        "result": o.result,
        "winner": o.winner,
        "amount": str(format_amount(o.amount)),
        "showdown": o.showdown,
    }
    if o.hand is not None:
        out["hand"] = o.hand
    if o.cards is not None:
        out["cards"] = list(o.cards)
    if o.blind is not None:
        out["blind"] = o.blind
    return out


def summary(state: State) -> dict[str, Any]:
    """The session summary of ``brag verify --json``: ``deals``, ``resolved_pots``,
    ``carried_pots``, ``finished``, ``pot``, ``nets`` (player -> exact amount as a string),
    ``winners`` (once finished) and ``outcomes`` (one per ended deal)."""
    out: dict[str, Any] = {
        "session": state.session,
        "deals": state.deals,
        "resolved_pots": state.resolved,
        "carried_pots": state.carried,
        "finished": state.finished,
        "pot": str(format_amount(state.pot)),
        "nets": {p: str(format_amount(v)) for p, v in state.nets.items()},
    }
    if state.finished:
        out["winners"] = list(state.winners)
    out["outcomes"] = [_outcome_json(o) for o in state.outcomes]
    return out
