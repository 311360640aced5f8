"""Add and hide a note (:mod:`service.notes`): kept on the event its step shows, or refused in
one line with nothing stored."""

from __future__ import annotations

import uuid
from typing import Any

from service_fakes import Locked, keys, start

from events.errors import StoreUnavailable
from log.annotations import notes
from log.service import EventStore
from present.replay import Replay
from service.notes import AddNote, HideNote, add_note, hide_note
from service.tap import RecordTap, record_tap


def replay(store: EventStore) -> Any:
    """The session as recorded, as the notes' route reads it (``None``: no such session)."""
    return lambda session: (
        Replay.of(store.events(session), recorded=True) if store.has(session) else None
    )


def started(store: EventStore) -> None:
    start(store)
    assert (
        record_tap(store, RecordTap("friday", 2, "shuffle", str(uuid.uuid4())), keys).outcome
        == "recorded"
    )


def test_a_note_is_kept_on_its_step(store: EventStore) -> None:
    started(store)
    done = add_note(store, AddNote("friday", 0, "3", "  a fair shuffle ", "Di"), replay(store))
    assert (done.outcome, done.deal, done.step) == ("stored", 0, "3")
    [kept] = notes(store, replay(store)("friday"))
    assert (kept.text, kept.by, kept.deal, kept.step) == ("a fair shuffle", "Di", 0, 3)


def test_a_refused_note_stores_nothing(store: EventStore) -> None:
    started(store)
    for note, said in (
        (AddNote("friday", 0, "3", "y" * 501, "Di"), "the note is 501 characters; at most 500"),
        (AddNote("friday", 0, "3", "   ", "Di"), "the note is empty"),
        (AddNote("friday", 0, "99", "x", "Di"), "has no step 99"),
        (AddNote("saturday", 0, "1", "x", "Di"), "Not stored: "),
    ):
        done = add_note(store, note, replay(store))
        assert done.outcome == "refused" and done.message.startswith("Not stored: "), done
        assert said in done.message and "\n" not in done.message
    assert notes(store, replay(store)("friday")) == []


def test_a_store_that_cannot_answer_is_unavailable(store: EventStore) -> None:
    def down(session: str) -> Replay | None:
        raise StoreUnavailable("SQLite store brag.db: database is locked")

    done = add_note(store, AddNote("friday", 0, "1", "x", "Di"), down)
    assert done.outcome == "unavailable"
    assert (
        done.message
        == "The store cannot be reached (SQLite store brag.db: database is locked); try again."
    )


def test_the_organiser_hides_a_note_kept_beside_it(store: EventStore) -> None:
    started(store)
    add_note(store, AddNote("friday", 0, "3", "rude words", "Di"), replay(store))
    [note] = notes(store, replay(store)("friday"))
    done = hide_note(store, HideNote("friday", note.id, "organiser"), replay(store))
    assert (done.outcome, done.deal, done.step) == ("stored", 0, 3)
    assert notes(store, replay(store)("friday")) == []
    [hidden] = notes(store, replay(store)("friday"), include_hidden=True)
    assert hidden.hidden and hidden.text == "rude words"
    again = hide_note(store, HideNote("friday", note.id, "organiser"), replay(store))
    assert (again.outcome, again.message) == (
        "missing",
        f"Session 'friday' shows no note {note.id}.",
    )


class _Guarded:
    """The store with every write refused for the device (what a guarded store does)."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner
        self.recorder = self

    def transaction(self) -> Any:
        raise Locked("This device is locked: nothing was stored")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner.recorder if name == "annotations" else self.inner, name)


def test_a_locked_device_hides_nothing(store: EventStore) -> None:
    started(store)
    add_note(store, AddNote("friday", 0, "3", "a note", "Di"), replay(store))
    [note] = notes(store, replay(store)("friday"))
    guarded: Any = _Guarded(store)
    done = hide_note(
        guarded, HideNote("friday", note.id, "organiser"), replay(store), locked=(Locked,)
    )
    assert (done.outcome, done.message) == (
        "locked",
        "Not hidden: This device is locked: nothing was stored",
    )
    assert [n.id for n in notes(store, replay(store)("friday"))] == [note.id]
