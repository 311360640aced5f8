"""Start a session (:mod:`service.start`): its two events appended as the session's first, or
refused in one sentence with nothing stored."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from service_fakes import BEGAN, SEATS, Locked, start

from events.model import DealerChosen, RecordedEvent, SessionStarted
from events.text import normal
from log.service import EventStore
from service.start import Known, StartSession, questions, start_session


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


# --- the register asks first (issue 35 item 2) ------------------------------------------------

CLUB = Known(players=("Jean", "Ann", "Cal", "Jean Smith"), tables=("Top table", "Oak"))


def test_jaen_asks_for_jean_before_anything_is_stored(store: EventStore) -> None:
    n = store.last_position()
    done = start_session(store, asked(seats=("Jaen", "Ann", "Cal")), events_of, known=CLUB)
    assert done.outcome == "ask" and done.rows == () and store.last_position() == n
    assert done.message == "Jaen is not a player yet: did you mean Jean?"
    assert [(q.what, q.typed, q.offered) for q in done.asked] == [("player", "Jaen", ("Jean",))]
    kept = Known(CLUB.players, CLUB.tables, kept={normal("Jaen")})  # "Keep Jaen (a new player)"
    done = start_session(store, asked(seats=("Jaen", "Ann", "Cal")), events_of, known=kept)
    assert done.outcome == "started" and store.events("friday")[0].seats[0] == "Jaen"  # type: ignore[union-attr]


def test_top_offers_top_table_and_initials_offer_the_full_name() -> None:
    got = questions(("J. Smith", "Ann", "ann"), "Top", CLUB)
    assert [(q.what, q.typed, q.offered) for q in got] == [
        ("player", "J. Smith", ("Jean Smith",)),
        ("table", "Top", ("Top table",)),
    ]
    assert got[1].sentence() == "Top is not a table yet: did you mean Top table?"
    assert questions(("Jean", "Bob"), "top TABLE", CLUB) == []  # known, or nothing close
    assert questions(("Jean",), "Oka", CLUB)[0].offered == ("Oak",)  # a swap, not a prefix
