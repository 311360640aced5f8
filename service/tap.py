"""Record a tap of the Record page's pad (issue 19; issue 33, class 2): a :class:`RecordTap` taken
into the store exactly once by :func:`record_tap`, answered by a :class:`TapResult`.

A tap carries everything the store needs to take it exactly once: its session, the seq of the
session's last event on the pad's document the key was drawn for, the key (``spot``), the event's
id made on the device (a UUID: a retry of the same tap is the same event, FORMAT.md ``id``), when
it was tapped (kept however long the tap then waited offline; one more than :data:`CLOCK_SKEW`
ahead of this server's clock, or before the session began, is refused naming the field) and the
cards picked (a showdown at a real table). The outcomes (:data:`Outcome`), each with its one-line
message:

- ``recorded``: the tap's event is stored, now or already under its id in this session (nothing
  stored twice);
- ``conflict``: the session moved on since the key was drawn (another device recorded first);
- ``refused``: the rules (the engine's sentence after its RULES section), a time that cannot be
  the tap's, an id that is an event of another session, a key with nothing to record now;
- ``unreadable``: a tap that cannot be read (a time that is none, cards that are not cards, a
  name out of its bounds); ``missing``: no such session is stored; ``locked``: the guarded
  store refused the writer (a locked device, the ``locked`` errors the caller names);
- ``unavailable``: the store could not answer (locked by another program longer than an append
  waits, down, a full disk): only the rules refuse a tap, so the device keeps it and sends it
  again, and its id makes the retry safe.

Nothing is stored unless the outcome is ``recorded``. One tap of a session at a time in this
process (a retry arriving while its first try is being stored waits for it, then finds its id).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal, Protocol

from events.errors import BragError, ConcurrencyConflict
from events.model import AnyEvent, is_derived
from events.text import inert
from log.service import EventStore
from present.steps import record_text
from timeline import Timeline

__all__ = [
    "CLOCK_SKEW",
    "LOCKED",
    "Outcome",
    "RecordTap",
    "TapKeys",
    "TapResult",
    "TapTime",
    "record_tap",
    "unreachable",
]

CLOCK_SKEW = timedelta(minutes=5)
"""How far a device's clock may be off this server's: a tap's ``at`` up to this far in the
future, or this far before the session began, is taken as the device gave it."""

LOCKED = "Not recorded: this device is locked. Unlock it with the organiser secret."
"""The message of a tap from a device the store's guard refuses (``locked``)."""

Outcome = Literal[
    "recorded", "conflict", "refused", "unreadable", "missing", "locked", "unavailable"
]
"""What became of a tap (see the module)."""


@dataclass(frozen=True, slots=True)
class TapTime:
    """A tap's ``at`` as the device sent it (``text``; the ``repr`` of what is not text) and as
    read (``when``: ISO 8601 with its UTC offset, kept to the second; ``None`` when it is not
    such a time, refused in its turn: a tap already stored under its id is recorded whatever its
    time)."""

    text: str
    when: datetime | None

    @classmethod
    def read(cls, value: object) -> TapTime | None:
        """The time of a tap's ``at`` (FORMAT.md ``at``), ``None`` when none was sent."""
        if value is None:
            return None
        when = None
        if isinstance(value, str) and len(value) <= 40:
            try:
                when = datetime.fromisoformat(value)
            except ValueError:
                when = None
        if when is not None and when.tzinfo is None:
            when = None
        text = value if isinstance(value, str) else repr(value)
        return cls(text, None if when is None else when.replace(microsecond=0))


@dataclass(frozen=True, slots=True)
class RecordTap:
    """One tap (the command): ``session``; ``seq`` the session's last seq on the document the
    key was drawn for; ``spot`` the key (``undo`` and ``redo`` take back and record again);
    ``id`` the event's id (a UUID, as text); ``by`` who records; ``at`` when it was tapped
    (``None``: this server's time now); ``cards`` the cards picked (at most three are taken;
    ``None``: what was sent is not cards)."""

    session: str
    seq: int
    spot: str
    id: str
    by: str = "organiser"
    at: TapTime | None = None
    cards: tuple[str, ...] | None = ()


@dataclass(frozen=True, slots=True)
class TapResult:
    """The outcome of a tap (:data:`Outcome`) and its one-line message; ``error`` the store's
    error when ``unavailable`` (for a caller that raises it again)."""

    outcome: Outcome
    message: str
    error: Exception | None = field(default=None, compare=False, repr=False)


class TapKeys(Protocol):
    """What a key of the pad records after the timeline ``t``: the event (its id and time are
    the tap's), ``None`` when there is nothing to record at ``spot`` now; raises the engine's
    refusal (a :class:`~events.errors.BragError`) or pydantic's ``ValueError`` (a name out of
    its bounds). The Record page's is :func:`dashboard.record.recorder.tap_event`."""

    def __call__(
        self, t: Timeline, spot: str, cards: Sequence[str], by: str
    ) -> AnyEvent | None: ...


def _utc_now() -> datetime:
    return datetime.now(UTC)


_session_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def _lock(session: str) -> threading.Lock:
    """One lock per session: this process takes one tap of a session at a time."""
    with _locks_lock:
        return _session_locks.setdefault(session, threading.Lock())


class _IdElsewhere(Exception):
    """A tap whose id is an event of another session (answered ``refused``)."""


def record_tap(
    store: EventStore,
    tap: RecordTap,
    keys: TapKeys,
    *,
    locked: tuple[type[Exception], ...] = (),
    now: Callable[[], datetime] = _utc_now,
) -> TapResult:
    """Takes ``tap`` into ``store`` (appended through the log,
    :meth:`log.service.EventStore.append`, which retries a write another writer raced): its
    :class:`TapResult` (see the module). ``keys``: what each key records (:class:`TapKeys`);
    ``locked``: the errors of a guarded store that refuse the writer (answered ``locked``);
    ``now``: this server's clock (UTC). Raises nothing of the store's: a store that cannot
    answer is ``unavailable``."""
    try:
        with _lock(tap.session):
            return _record(store, tap, keys, now)
    except _IdElsewhere as err:
        return TapResult("refused", str(err))
    except locked:
        return TapResult("locked", LOCKED)
    except BragError as err:
        if isinstance(err, ValueError):  # a refusal of the rules, the format or the store
            return TapResult("refused", f"Not recorded: {err.heading()}: {err.message}")
        return unreachable(err)
    except Exception as err:  # the store's driver, the disk: no refusal
        return unreachable(err)


def unreachable(err: Exception) -> TapResult:
    """``unavailable``: the store could not answer (``err``, its first line); the tap is kept on
    the device and sent again."""
    why = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
    return TapResult(
        "unavailable",
        f"The store cannot be reached ({why}); the tap is kept on this device and sent again.",
        err,
    )


def _record(
    store: EventStore, tap: RecordTap, keys: TapKeys, now: Callable[[], datetime]
) -> TapResult:
    last = int(store.last_seq(tap.session) or 0)  # before the id: a tap stored meanwhile is found
    if _found(store, tap.session, tap.id):
        return _recorded(store, tap.session, tap.id)
    if last == 0:
        return TapResult("missing", f"Not recorded: no session {tap.session} is stored.")
    if tap.seq != last:
        return TapResult(
            "conflict",
            "Not recorded: another device recorded first. The pad now shows the session as it "
            "is; check it and tap again.",
        )
    made = _event(store, tap, keys, now)
    if isinstance(made, TapResult):
        return made
    return _stored(store, tap, made, last)


def _event(
    store: EventStore, tap: RecordTap, keys: TapKeys, now: Callable[[], datetime]
) -> AnyEvent | TapResult:
    """The event the tap records after the session as stored, with the tap's id and time; or
    the refusal (the pad, a name out of its bounds). The rules' refusals are raised."""
    t = store.timeline(tap.session)
    when = _when(tap.at, t.log[0].event.at if t.last_seq else None, now)
    if isinstance(when, TapResult):
        return when
    try:
        if tap.spot not in ("undo", "redo") and tap.cards is None:
            return TapResult("unreadable", "Not recorded: the cards picked are not cards.")
        event = keys(t, tap.spot, (tap.cards or ())[:3], tap.by)
        if event is None:
            return TapResult("refused", f"Not recorded: nothing to {tap.spot} now.")
        data = event.model_dump(exclude_none=True)
        data.update(id=tap.id, at=when.isoformat())
        return type(event).model_validate(data)
    except BragError:
        raise
    except ValueError as err:  # pydantic's errors: a name out of its bounds (FORMAT.md)
        return TapResult("unreadable", f"Not recorded: {_first_line(err)}")


def _not_at(text: str, why: str, outcome: Outcome = "refused") -> TapResult:
    return TapResult(outcome, f"Not recorded: field 'at': {inert(text)[:40]} {why}.")


def _when(
    at: TapTime | None, began: datetime | None, now: Callable[[], datetime]
) -> datetime | TapResult:
    """The tap's time: this server's when the tap gives none. Refused in one line naming the
    field: not a time with its offset (``unreadable``), more than :data:`CLOCK_SKEW` ahead of
    this server's clock, or more than :data:`CLOCK_SKEW` before the session ``began``."""
    if at is None:
        return now().replace(microsecond=0).astimezone()
    if at.when is None:
        return _not_at(at.text, "is not a time with its UTC offset (FORMAT.md at)", "unreadable")
    when, current = at.when, now()
    try:
        if when - current > CLOCK_SKEW:
            return _not_at(
                at.text, f"is in the future (this server's time is {current:%H:%M:%S} UTC)"
            )
        if began is not None and began - when > CLOCK_SKEW:
            return _not_at(at.text, f"is before the session began ({began.isoformat()})")
    except OverflowError:  # year 1 east of Greenwich
        return _not_at(at.text, "is before the session began")
    return when


def _stored(store: EventStore, tap: RecordTap, event: AnyEvent, last: int) -> TapResult:
    """Appends the tap's ``event`` after ``last``: recorded, or why not."""
    try:
        store.append(tap.session, [event], last)
    except ConcurrencyConflict:
        if _found(store, tap.session, tap.id):
            return _recorded(store, tap.session, tap.id)
        return TapResult("conflict", "Not recorded: another device recorded first.")
    if tap.spot == "undo":
        return _recorded(store, tap.session, tap.id, word="")
    word = "Recorded again: " if tap.spot == "redo" else "Recorded: "
    return _recorded(store, tap.session, tap.id, word)


def _recorded(store: EventStore, session: str, eid: str, word: str = "Recorded: ") -> TapResult:
    """A tap stored under the id ``eid`` (now, or already): its sentences after ``word``."""
    return TapResult("recorded", word + _said(store.timeline(session), eid))


def _said(t: Timeline, eid: str) -> str:
    """The sentences of the stored event with the id ``eid`` and of the derived events that
    followed it (a pot won, a session ended), as the replay words them (latest first found)."""
    n = t.last_seq
    at = next((k for k in range(n, 0, -1) if str(t.log[k - 1].event.id) == eid), None)
    if at is None:
        return ""
    end = at + 1
    while end <= n and is_derived(t.log[end - 1].event):
        end += 1
    return "; ".join(record_text(t, k) for k in range(at, end))


def _found(store: EventStore, session: str, eid: str) -> bool:
    """Whether the event ``eid`` is stored in ``session``; raises :class:`_IdElsewhere` when it
    is stored in another session (a tap is looked up in its own session only)."""
    found = store.recorder.find([eid])
    if any(f.session != session for f in found):
        raise _IdElsewhere(f"Not recorded: the tap's id {eid} is an event of another session.")
    return bool(found)


def _first_line(err: Exception) -> str:
    """Pydantic's first error as ``field: message``, else the error's first line."""
    errors = getattr(err, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            return f"{where}: {first.get('msg', '')}".strip(": ")
        except Exception:
            pass
    return str(err).splitlines()[0]
