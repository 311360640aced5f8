"""Record a tap (:func:`service.tap.record_tap`): stored once under its id, or refused in one
line with nothing stored; a store that cannot answer is ``unavailable``, never a refusal."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from service_fakes import Locked, keys, later, start

from events.errors import StoreUnavailable
from log.open import open_store
from log.service import EventStore
from service.tap import CLOCK_SKEW, LOCKED, RecordTap, TapTime, record_tap


def tap(spot: str, seq: int, **kw: Any) -> RecordTap:
    fields: dict[str, Any] = {"id": str(uuid.uuid4()), "by": "Ann"} | kw
    return RecordTap("friday", seq, spot, **fields)


def clock(minutes: float) -> Callable[[], datetime]:
    return lambda: later(minutes)


def types(store: EventStore, session: str = "friday") -> list[str]:
    return [e.type for e in store.events(session)]


def test_a_tap_is_stored_once_under_its_id_with_its_time(store: EventStore) -> None:
    start(store)
    shuffle = tap("shuffle", 2, at=TapTime.read(later(3).isoformat()))
    done = record_tap(store, shuffle, keys, now=clock(10))
    assert done.outcome == "recorded" and done.message.startswith("Recorded: "), done
    stored = store.events("friday")[-1]
    assert (stored.type, str(stored.id), stored.at, stored.by) == (
        "shuffled", shuffle.id, later(3), "Ann"
    )  # fmt: skip
    for again in (shuffle, RecordTap("friday", 1, "deal", shuffle.id)):  # a retry, any seq
        assert record_tap(store, again, keys, now=clock(10)).outcome == "recorded"
    assert types(store) == ["session_started", "dealer_chosen", "shuffled"]


def test_a_tap_without_a_time_takes_the_server_clock(store: EventStore) -> None:
    start(store)
    assert record_tap(store, tap("shuffle", 2), keys, now=clock(7)).outcome == "recorded"
    assert store.events("friday")[-1].at == later(7)


def test_an_undo_says_what_it_took_back(store: EventStore) -> None:
    start(store)
    record_tap(store, tap("shuffle", 2), keys, now=clock(1))
    undone = record_tap(store, tap("undo", 3, cards=None), keys, now=clock(2))  # cards unread
    assert undone.outcome == "recorded" and not undone.message.startswith("Recorded"), undone
    assert types(store)[-1] == "voided"


@pytest.mark.parametrize(
    ("spot", "seq", "kw", "outcome", "said"),
    [
        ("deal", 2, {}, "refused", "Not recorded: RULES "),  # no shuffle yet
        ("shuffle", 1, {}, "conflict", "Not recorded: another device recorded first."),
        ("shuffle", 2, {"cards": None}, "unreadable", "Not recorded: the cards picked are not"),
        ("shuffle", 2, {"by": "x" * 65}, "unreadable", "Not recorded: by: "),
        ("nothing", 2, {}, "refused", "Not recorded: nothing to nothing now."),
    ],
)
def test_a_refused_tap_stores_nothing(
    store: EventStore, spot: str, seq: int, kw: dict[str, Any], outcome: str, said: str
) -> None:
    start(store)
    done = record_tap(store, tap(spot, seq, **kw), keys, now=clock(1))
    assert done.outcome == outcome and done.message.startswith(said), done
    assert "\n" not in done.message
    assert types(store) == ["session_started", "dealer_chosen"]


def test_a_tap_of_no_session_is_missing(store: EventStore) -> None:
    done = record_tap(store, tap("shuffle", 2), keys)
    assert (done.outcome, done.message) == ("missing", "Not recorded: no session friday is stored.")


def test_a_tap_whose_id_is_of_another_session_is_refused(store: EventStore) -> None:
    start(store)
    start(store, "saturday")
    first = tap("shuffle", 2)
    assert record_tap(store, first, keys, now=clock(1)).outcome == "recorded"
    done = record_tap(store, RecordTap("saturday", 2, "shuffle", first.id), keys, now=clock(1))
    assert done.outcome == "refused"
    assert done.message == f"Not recorded: the tap's id {first.id} is an event of another session."
    assert types(store, "saturday") == ["session_started", "dealer_chosen"]


@pytest.mark.parametrize(
    ("at", "outcome", "why"),
    [
        (later(10) + CLOCK_SKEW + CLOCK_SKEW, "refused", "is in the future (this server's time"),
        (later(-1) - CLOCK_SKEW, "refused", "is before the session began (2026-10-15T20:00"),
        ("0001-01-01T00:00:00+01:00", "refused", "is before the session began"),
        ("yesterday", "unreadable", "is not a time with its UTC offset (FORMAT.md at)"),
        ("2026-10-15T20:00:00", "unreadable", "is not a time"),  # no UTC offset
        (1700000000, "unreadable", "1700000000 is not a time"),
    ],
)
def test_a_tap_time_is_checked(store: EventStore, at: object, outcome: str, why: str) -> None:
    start(store)
    sent = at.isoformat() if isinstance(at, datetime) else at
    done = record_tap(store, tap("shuffle", 2, at=TapTime.read(sent)), keys, now=clock(10))
    assert done.outcome == outcome and done.message.startswith("Not recorded: field 'at': ")
    assert why in done.message, done
    assert types(store) == ["session_started", "dealer_chosen"]
    skewed = later(10) + CLOCK_SKEW / 2  # a device clock a little ahead
    ahead = tap("shuffle", 2, at=TapTime.read(skewed.isoformat()))
    assert record_tap(store, ahead, keys, now=clock(10)).outcome == "recorded"


class _Guarded:
    """The store with every append refused for the device (what a guarded store does)."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner

    def append(self, *args: Any) -> Any:
        raise Locked("This device is locked")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_locked_device_stores_nothing(store: EventStore) -> None:
    start(store)
    guarded: Any = _Guarded(store)
    done = record_tap(guarded, tap("shuffle", 2), keys, locked=(Locked,), now=clock(1))
    assert (done.outcome, done.message) == ("locked", LOCKED)
    unnamed = record_tap(guarded, tap("shuffle", 2), keys, now=clock(1))  # not named: the store's
    assert unnamed.outcome == "unavailable" and isinstance(unnamed.error, Locked)
    assert types(store) == ["session_started", "dealer_chosen"]


class _Down:
    """The store with its appends failing as a server that went down does."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner

    def append(self, *args: Any) -> Any:
        raise StoreUnavailable("PostgreSQL store test: Connection refused\nis the server up?")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_store_that_is_down_is_unavailable(store: EventStore) -> None:
    start(store)
    down: Any = _Down(store)
    done = record_tap(down, tap("shuffle", 2), keys, now=clock(1))
    assert done.outcome == "unavailable" and isinstance(done.error, StoreUnavailable)
    assert done.message == (
        "The store cannot be reached (PostgreSQL store test: Connection refused); the tap is "
        "kept on this device and sent again."
    )
    assert types(store) == ["session_started", "dealer_chosen"]


@pytest.mark.slow  # an append waits 5 s on the lock
def test_a_locked_store_is_unavailable_then_the_tap_is_recorded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import store.sqlite

    monkeypatch.setattr(store.sqlite, "BUSY_TIMEOUT_S", 5.0)  # the least a store takes, not 10
    db = str(tmp_path / "brag.db")
    with open_store(db) as s:
        start(s)
        shuffle = tap("shuffle", 2)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another program holds the store
        try:
            done = record_tap(s, shuffle, keys, now=clock(1))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert done.outcome == "unavailable", done
        assert done.message.startswith("The store cannot be reached (")
        assert done.message.endswith("); the tap is kept on this device and sent again.")
        assert isinstance(done.error, StoreUnavailable) and "\n" not in done.message
        assert types(s) == ["session_started", "dealer_chosen"]
        assert record_tap(s, shuffle, keys, now=clock(1)).outcome == "recorded"  # sent again
        assert record_tap(s, shuffle, keys, now=clock(1)).outcome == "recorded"
        assert types(s) == ["session_started", "dealer_chosen", "shuffled"]
