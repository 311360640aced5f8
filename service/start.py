"""Start a session (the Record page's start form): a :class:`StartSession` from the form's fields,
its events appended as the session's first by :func:`start_session`, answered by a
:class:`Started`.

The events (``session_started`` and ``dealer_chosen``, RULES 3.1) are made by the caller's
``events_of`` (the Record page's is :func:`dashboard.record.recorder.start_events`, timed at
``at``); the engine checks them when they are appended (RULES 1.3: 2 to 10 unique seats). A start
is refused in one sentence, nothing stored: no name, a session of that name (or one differing
only in case or look-alike letters) stored already, two seats that are one name, a name out of
FORMAT.md's bounds, a refusal of the rules. Given what the store knows (:class:`Known`), a start
whose new player or table is close to a known one is not taken either: it asks first
(:func:`questions`: "Jaen" -> did you mean Jean?, "Top" -> Top table?), until the organiser picks
the known name or keeps the new one explicitly (issue 35 item 2).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from events.errors import BragError, ConcurrencyConflict
from events.model import RecordedEvent
from events.text import inert, normal
from log.near import by_prefix, near
from log.service import EventStore
from present.names import canonical, seat_clash
from store.records import StoredEvent

__all__ = [
    "Known",
    "Question",
    "StartEvents",
    "StartSession",
    "Started",
    "questions",
    "start_session",
]


@dataclass(frozen=True, slots=True)
class StartSession:
    """A new session ``name`` at ``table`` (``""``: none named) with ``seats`` clockwise, its
    first ``dealer`` (``None``: drawn by lot here, RULES 3.1), the ``cards`` recorded, the
    ``pots`` to play (RULES 1.4), recorded by ``by`` at ``at`` (with its UTC offset)."""

    name: str
    seats: tuple[str, ...]
    table: str
    dealer: str | None
    cards: Literal["all", "shown"]
    pots: int
    by: str
    at: datetime


StartEvents = Callable[[StartSession], Sequence[RecordedEvent]]
"""The events a start records (timed); raises the engine's refusal
(:class:`~events.errors.BragError`) or pydantic's ``ValueError`` (a name out of its bounds)."""


@dataclass(frozen=True, slots=True)
class Known:
    """What the store knows: its ``players`` and ``tables`` (as recorded), and the new names the
    organiser chose to keep although close to a known one (``kept``, normal forms)."""

    players: Sequence[str] = ()
    tables: Sequence[str] = ()
    kept: Collection[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Question:
    """A new ``typed`` player or table close to known ones (``offered``, nearest first)."""

    what: Literal["player", "table"]
    typed: str
    offered: tuple[str, ...]

    def sentence(self) -> str:
        """The question in one sentence: "Jaen is not a player yet: did you mean Jean?"."""
        names = " or ".join(inert(n) for n in self.offered)
        return f"{inert(self.typed)} is not a {self.what} yet: did you mean {names}?"


def questions(seats: Sequence[str], table: str, known: Known) -> list[Question]:
    """The questions a start asks before it is taken: each seat that is new (no known player of
    its normal form) and close to known players (:func:`log.near.near`: a spelling, initials),
    and a new table that begins known ones or is close to one (``Top``: ``Top table``); none for
    a name in ``known.kept``."""
    out = []
    for seat in seats:
        if normal(seat) in known.kept or canonical(seat, known.players) or seat in known.players:
            continue
        close = tuple(n.name for n in near(seat, known.players))
        if close:
            out.append(Question("player", seat, close))
    t = table.strip()
    if t and normal(t) not in known.kept and not any(normal(k) == normal(t) for k in known.tables):
        offered = by_prefix(t, known.tables) or [n.name for n in near(t, known.tables)]
        if offered:
            out.append(Question("table", t, tuple(offered[:3])))
    return out


@dataclass(frozen=True, slots=True)
class Started:
    """``started`` with the rows stored; ``refused`` or ``locked`` (the guarded store refused
    the writer) with the one sentence of why, nothing stored; ``ask``: the ``asked`` questions
    (:func:`questions`) to answer first, nothing stored."""

    outcome: Literal["started", "refused", "locked", "ask"]
    message: str = ""
    rows: tuple[StoredEvent, ...] = ()
    asked: tuple[Question, ...] = field(default=())


def start_session(
    store: EventStore,
    cmd: StartSession,
    events_of: StartEvents,
    *,
    locked: tuple[type[BragError], ...] = (),
    known: Known | None = None,
) -> Started:
    """Appends the events of ``cmd`` (``events_of``) to ``store`` as a new session: see the
    module. ``locked``: the errors of a guarded store that refuse the writer; ``known``: what
    the store knows, to ask about names close to it first. A failure that is no
    :class:`~events.errors.BragError` is raised."""
    refused = _refused(store, cmd)
    if refused is not None:
        return Started("refused", refused)
    asked = tuple(questions(cmd.seats, cmd.table, known)) if known is not None else ()
    if asked:
        return Started("ask", " ".join(q.sentence() for q in asked), asked=asked)
    try:
        made = list(events_of(cmd))
    except BragError as err:
        return Started("refused", f"Refused: {err}")
    except ValueError as err:  # pydantic's: a name out of FORMAT.md's bounds, said in a sentence
        return Started("refused", f"Refused: {_bounds(err)}")
    if store.has(cmd.name):  # started on another device meanwhile
        return Started("refused", f"There is already a session called {cmd.name}.")
    try:
        rows = store.append(cmd.name, made, 0)
    except locked as err:
        return Started("locked", err.message)
    except ConcurrencyConflict:  # another device started it first
        return Started(
            "refused",
            f"There is already a session called {cmd.name}: another device started it now.",
        )
    except BragError as err:
        return Started("refused", f"Refused: {err.heading()}: {err.message}")
    return Started("started", rows=tuple(rows))


def _refused(store: EventStore, cmd: StartSession) -> str | None:
    """Why ``cmd`` cannot start, before its events are made, or ``None``."""
    if not cmd.name:
        return "Give the session a name."
    if store.has(cmd.name):
        return f"There is already a session called {cmd.name}."
    if (other := store.namesake(cmd.name)) is not None:
        return f"A session called {other} is already stored."
    if (clash := seat_clash(cmd.seats)) is not None:
        return f"Refused: {clash}"
    return None


_FIELDS = {
    "session": "A session name is 1 to 128 printable characters",
    "seats": "A player's name is 1 to 64 printable characters",
    "table": "A table's name is 1 to 64 printable characters",
    "by": "'Recorded by' is 1 to 64 printable characters",
    "player": "A player's name is 1 to 64 printable characters",
}


def _bounds(err: ValueError) -> str:
    """One sentence of ours for a start the event models refuse (FORMAT.md "Bounds"), in place
    of pydantic's own text."""
    errors = getattr(err, "errors", None)
    loc: tuple[object, ...] = ()
    if callable(errors):
        try:
            loc = tuple(errors()[0].get("loc", ()))
        except Exception:
            loc = ()
    what = _FIELDS.get(str(loc[0]) if loc else "", "Each name is 1 to 64 printable characters")
    return (
        f"{what}, with no control, invisible or direction characters and not blank "
        "(FORMAT.md bounds)."
    )
