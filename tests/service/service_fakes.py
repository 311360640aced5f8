"""What the use cases' tests share (:mod:`service`): a session started, the pad's keys and a
guarded store's refusal as small fakes built on the engine (the Record page's are the
dashboard's), a clock."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from engine.legal import can_void
from events.errors import PlainError
from events.model import AnyEvent, DealerChosen, Dealt, SessionStarted, Shuffled, Voided
from log.service import EventStore
from timeline import Timeline

SEATS = ("Ann", "Bob", "Cal")
BEGAN = datetime(2026, 10, 15, 20, 0, tzinfo=UTC)


class Locked(PlainError):
    """What a guarded store raises for a device it refuses (as the dashboard's DeviceLocked)."""

    rule_name = "DEVICE"


def start(store: EventStore, session: str = "friday", began: datetime = BEGAN) -> None:
    """A session started at ``began``, Cal dealing first (Ann acts first)."""
    events: list[AnyEvent] = [
        SessionStarted(session=session, seats=SEATS, cards="shown", at=began),
        DealerChosen(player=SEATS[-1], at=began),
    ]
    store.append(session, events, 0)


def keys(t: Timeline, spot: str, cards: Sequence[str], by: str) -> AnyEvent | None:
    """A pad of three keys: ``undo`` (the engine's :func:`~engine.legal.can_void`), ``shuffle``
    and ``deal``; ``None`` for any other, or when there is nothing to undo."""
    if spot == "undo":
        seq = can_void(t.state)
        return None if seq is None else Voided(seq=seq, by=by)
    if spot == "shuffle":
        return Shuffled(by=by)
    return Dealt(by=by) if spot == "deal" else None


def later(minutes: float) -> datetime:
    """``minutes`` after the session began."""
    return BEGAN + timedelta(minutes=minutes)
