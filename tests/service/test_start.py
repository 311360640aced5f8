"""Start a session (:mod:`service.start`): its two events appended as the session's first, or
refused in one sentence with nothing stored."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from service_fakes import BEGAN, SEATS, Locked, start

from events.model import DealerChosen, RecordedEvent, SessionStarted
from log.service import EventStore
from service.start import StartSession, start_session


def events_of(s: StartSession) -> Sequence[RecordedEvent]:
    """The start's events (the Record page draws a dealer by lot when none is named)."""
    return [
        SessionStarted(session=s.name, seats=s.seats, cards=s.cards, table=s.table or None,
                       by=s.by, at=s.at),
        DealerChosen(player=s.dealer or s.seats[0], by=s.by, at=s.at),
    ]  # fmt: skip


def asked(name: str = "friday", seats: tuple[str, ...] = SEATS, **kw: Any) -> StartSession:
    fields: dict[str, Any] = {"table": "Oak", "dealer": "Cal", "cards": "shown", "pots": 8,
                              "by": "Ann", "at": BEGAN} | kw  # fmt: skip
    return StartSession(name, seats, **fields)


def test_a_session_starts_with_its_two_events(store: EventStore) -> None:
    done = start_session(store, asked(), events_of)
    assert done.outcome == "started" and [r.type for r in done.rows] == [
        "session_started", "dealer_chosen"
    ]  # fmt: skip
    first, dealer = store.events("friday")
    assert first.at == BEGAN and first.table == "Oak" and dealer.player == "Cal"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("start_it", "said"),
    [
        (asked(""), "Give the session a name."),
        (asked("taken"), "There is already a session called taken."),
        (asked("TAKEN"), "A session called taken is already stored."),
        (asked(seats=("Ann", "ann")), "Refused: "),
        (asked(seats=("Cal",)), "Refused: RULES 1.3: a session seats 2 to 10 players, not 1"),
        (asked(seats=("Ann", "x" * 65)), "Refused: A player's name is 1 to 64 printable"),
    ],
)
def test_a_refused_start_stores_nothing(
    store: EventStore, start_it: StartSession, said: str
) -> None:
    start(store, "taken")
    n = store.last_position()
    done = start_session(store, start_it, events_of)
    assert done.outcome == "refused" and done.message.startswith(said), done
    assert done.rows == () and "\n" not in done.message
    assert store.last_position() == n


def test_a_locked_device_starts_nothing(store: EventStore) -> None:
    class Guarded:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def append(self, *args: Any) -> Any:
            raise Locked("This device is locked")

    done = start_session(Guarded(), asked(), events_of, locked=(Locked,))  # type: ignore[arg-type]  # a fake of the store
    assert (done.outcome, done.message) == ("locked", "This device is locked")
    assert not store.has("friday")
