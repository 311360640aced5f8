"""The organiser's recorder, without Streamlit: what may be recorded next, and the events to append.

The Record page shows :func:`choices` as large buttons (each the engine's
:class:`~engine.legal.LegalAction` with its cost in the label), completes a choice that needs input
with :func:`complete` (the cards shown at a real table, the hands of a deal, a shuffle's order) and
takes back the latest recorded action with :func:`undo`, a ``voided`` event (FORMAT.md). The rules
are the engine's: nothing here decides what is legal.

:func:`choices`, :func:`complete` and :func:`random_order` are
:mod:`dashboard.record.choices`'; the pad's places and keys (:func:`pad_grid`,
:func:`pad_keys`, :func:`pad_rows`) :mod:`dashboard.record.pad_rows`': both re-exported here,
where the pages and tests import them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dashboard.record.choices import complete, random_order
from dashboard.record.pad_rows import pad_keys
from engine.legal import can_void, possible_cards
from engine.state import State, card_texts
from events.cards import FULL_PACK
from events.errors import PlainError
from events.model import (
    AnyEvent,
    DealerChosen,
    RecordedEvent,
    Rules,
    SessionStarted,
    Shuffled,
    Voided,
    is_derived,
)
from timeline import Timeline

__all__ = [
    "free_cards",
    "now_in",
    "parse_seats",
    "redo",
    "stamped",
    "start_events",
    "tap_event",
    "undo",
]

_E = TypeVar("_E", bound=AnyEvent)


def now_in(zone: str | None, now: datetime | None = None) -> datetime:
    """``now`` (default: the clock now), to the second, in the IANA time zone ``zone`` (the
    organiser's browser's, e.g. ``Europe/London``), else in this machine's own zone when ``zone``
    is missing or unknown. Always with its UTC offset (FORMAT.md ``at``)."""
    when = (now if now is not None else datetime.now(UTC)).replace(microsecond=0)
    if zone:
        try:
            return when.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return when.astimezone()


def stamped(events: Sequence[_E], at: datetime | None = None) -> list[_E]:
    """``events`` with ``at`` (FORMAT.md: when it happened at the table) set to ``at``; by
    default this machine's clock now, to the second, with its UTC offset
    (``2026-11-29T22:31:05+00:00``; the Record page passes the time in the organiser's browser's
    zone). An event that already has a time keeps it. Raises ValueError for a time without an
    offset. Without times, a session recorded live would seem, once exported and imported
    elsewhere, to have started when it was imported."""
    when = at if at is not None else datetime.now().astimezone().replace(microsecond=0)
    if when.tzinfo is None:
        raise ValueError("a recorded time needs its UTC offset (FORMAT.md at)")
    out: list[_E] = []
    for e in events:
        copy = e.model_copy(update={"at": when}) if e.at is None else e
        out.append(copy)  # type: ignore[arg-type]  # model_copy of a TypeVar bound to a union: the union
    return out


def free_cards(state: State, player: str | None = None) -> list[str]:
    """Cards the organiser may still pick in this deal: not already shown at this showdown; for
    ``player``'s ``shown``, only the cards the tracked pack lets their hand hold (RULES 3.3,
    :func:`engine.legal.possible_cards`) and not yet shown by them."""
    taken: set[int] = set()
    for p in state.players:
        taken.update(p.shown)
    free = [str(c) for c in FULL_PACK if c.code not in taken]
    if player is None:
        return free
    allowed = possible_cards(state, player)
    return [c for c in free if c in allowed]


def dealt_cards_needed(state: State) -> list[str]:
    """The players, in dealing order, whose three cards a ``dealt`` with ``hands`` must list."""
    n = len(state.seats)
    if state.first_dealer is None or n == 0:
        return list(state.seats)
    dealer = state.first_dealer if state.deals == 0 else (state.dealer or 0) + 1
    return [state.seats[(dealer + 1 + k) % n] for k in range(n)]


def undo(state: State, by: str | None = None) -> Voided | None:
    """The ``voided`` event that takes back the latest recorded event in force, or ``None`` when
    there is nothing to take back (FORMAT.md: only the latest, and never the session's start)."""
    seq = can_void(state)
    if seq is None:
        return None
    return Voided(seq=seq, by=by) if by else Voided(seq=seq)


def undo_index(states: Sequence[State]) -> int | None:
    """The index, in the recorded stream replayed as ``states``, of the event :func:`undo` would
    withdraw (its seq is its 1-based position), or ``None``."""
    if not states:
        return None
    target = can_void(states[-1])
    if target is None or target > len(states):
        return None
    return target - 1


def parse_seats(text: str) -> tuple[str, ...]:
    """Seat names from what the organiser typed: one per line or separated by commas, in order
    clockwise, blanks dropped. The engine checks 2 to 10 unique names (RULES 1.3)."""
    return tuple(s.strip() for s in re.split(r"[,\n]", text) if s.strip())


def start_events(
    session: str,
    seats: Sequence[str],
    cards: Literal["all", "shown"],
    *,
    table: str | None = None,
    dealer: str | None = None,
    rules: Rules | None = None,
    rng: random.Random | None = None,
    by: str | None = None,
) -> list[RecordedEvent]:
    """``session_started`` and ``dealer_chosen`` for a new session. ``dealer=None`` draws the first
    dealer by lot here (RULES 3.1); otherwise it records the lot drawn at the table."""
    first = dealer if dealer else (rng or random.SystemRandom()).choice(list(seats))
    env = {"by": by} if by else {}
    return [
        SessionStarted(
            session=session,
            table=table or None,
            seats=tuple(seats),
            cards=cards,
            rules=rules,
            **env,
        ),
        DealerChosen(player=first, **env),
    ]


def shuffle_event(with_order: bool, rng: random.Random | None = None) -> Shuffled:
    """A ``shuffled`` event; with the order recorded the engine tracks the pack (RULES 3.3)."""
    return Shuffled(order=random_order(rng)) if with_order else Shuffled()


def shown_so_far(state: State) -> dict[str, tuple[str, ...]]:
    """At a showdown, each player's cards turned face up so far."""
    return {p.name: card_texts(p.shown) for p in state.players if p.shown}


# --- the device token -----------------------------------------------------------------------------


# --- redo -----------------------------------------------------------------------------------------


def redo(events: Sequence[AnyEvent], by: str | None = None) -> RecordedEvent | None:
    """After an undo, the withdrawn event to record again: when the stream (as recorded, with
    seqs) ends with a ``voided``, a copy of the recorded event it withdrew without its envelope
    (a new event with a new id; the log keeps both, FORMAT.md), ``by`` whoever records it now.
    ``None`` when the last event is not a ``voided``. The store checks it like any append."""
    if not events or not isinstance(events[-1], Voided):
        return None
    target = events[-1].seq
    old = next((e for e in events if e.seq == target and not isinstance(e, Voided)), None)
    if old is None or is_derived(old):
        return None
    data = old.model_dump(exclude_none=True, exclude={"id", "seq", "at", "by"})
    if by:
        data["by"] = by
    return type(old).model_validate(data)  # type: ignore[return-value]  # is_derived is no TypeGuard


class TapRefused(PlainError, ValueError):
    """A tap that does not name a key of the pad as it now stands (a stale or unknown spot)."""

    rule_name = "TAP"


def tapped_event(
    state: State,
    spot: str,
    *,
    cards: Sequence[str] = (),
    by: str | None = None,
    rng: random.Random | None = None,
) -> RecordedEvent:
    """The event a tap on ``spot`` of :func:`pad_rows` records after ``state``: the key's choice
    completed with the ``cards`` picked (a showdown at a ``shown`` table) or, for ``table-2``, a
    shuffled order. Raises :class:`TapRefused` for a spot with no legal key, and what
    :func:`complete` raises for bad cards; the store checks the rules when it is appended."""
    key = pad_keys(state).get(spot)
    if key is None or key.choice is None:
        raise TapRefused(f"nothing to record at {spot!r} now")
    c = key.choice
    if c.needs == ("cards",):
        return complete(c, cards=cards, by=by)
    if c.needs == ("order",):
        return complete(c, order=random_order(rng) if spot == "order" else None, by=by)
    return complete(c, by=by)


def tap_event(
    t: Timeline, spot: str, cards: Sequence[str] = (), by: str | None = None
) -> AnyEvent | None:
    """The event a tap on ``spot`` records after the timeline ``t`` (what the pad's keys record,
    :class:`service.tap.TapKeys`): ``undo`` takes back the latest event (:func:`undo`), ``redo``
    records again the one the log's last ``voided`` withdrew (:func:`redo`), any other spot is
    :func:`tapped_event` with the ``cards`` picked. ``None`` when there is nothing to undo or
    redo; raises what :func:`tapped_event` raises."""
    if spot == "undo":
        return undo(t.state, by=by)
    if spot == "redo":
        n = t.last_seq
        if not n or t.log[n - 1].event.type != "voided":
            return None
        gone = int(t.log[n - 1].event.seq or 0)
        if not 0 < gone <= n:
            return None
        return redo([t.log[gone - 1].event, t.log[n - 1].event], by=by)
    return tapped_event(t.state, spot, cards=cards, by=by)
