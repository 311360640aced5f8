"""``EventStore.append_state``: the append's rows and the state after them, from the fold that
checked the batch (issue 23: a tap costs one fold)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from log_helpers import backend_store  # noqa: F401 (the fixture store)

from engine.state import without_history
from events.model import (
    Bet,
    DealerChosen,
    Dealt,
    Folded,
    Looked,
    SessionStarted,
    Shuffled,
)
from log.folds import fold_rows
from log.rows import Appended
from log.service import EventStore


def _events(session: str) -> list[Any]:
    return [
        e.model_copy(update={"id": uuid.uuid4()})
        for e in (
            SessionStarted(session=session, seats=("A", "B", "C", "D"), cards="shown"),
            DealerChosen(player="D"),
            Shuffled(),
            Dealt(),
            *(Looked(player=p) for p in "ABCD"),
            Bet(player="A", level=2),
            Bet(player="B", level=2),
            Folded(player="C"),
            Folded(player="D"),
        )
    ]


def _same(a: Any, b: Any) -> bool:
    """Equal but for the undo chain and ``last_event`` (the event as given to the append: its
    envelope not filled in)."""
    return replace(without_history(a), last_event=None) == replace(
        without_history(b), last_event=None
    )


def test_append_state_answers_the_rows_and_the_state_after_them(store: EventStore) -> None:
    events = _events("s")
    first = store.append_state("s", events[:8], 0)
    assert isinstance(first, Appended)
    assert [r.seq for r in first.rows] == list(range(1, 9))
    assert first.state.seq == 8 and _same(first.state, store.state("s"))
    done = store.append_state("s", [*events[8:], Folded(player="A")], 8)
    assert [r.type for r in done.rows][-3:] == ["folded", "folded", "pot_won"]
    assert done.state.seq == done.rows[-1].seq == store.last_seq("s")
    assert _same(done.state, store.state("s"))
    assert done.rows == store.read("s")[8:]


def test_a_retry_answers_the_rows_stored_then_and_the_state_after_them(store: EventStore) -> None:
    events = _events("s")
    first = store.append("s", events[:8], 0)
    store.append("s", events[8:], 8)
    again = store.reopen().append_state("s", events[:8], 0)  # a lost answer, after a restart
    assert again.rows == first
    assert again.state.seq == 8 and _same(again.state, fold_rows("s", store.read("s")[:8]))
    assert store.append("s", events[:8], 0) == first  # append itself answers as before


def test_an_empty_batch_answers_no_rows_and_the_state_at_the_seq(store: EventStore) -> None:
    store.append("s", _events("s")[:4], 0)
    got = store.append_state("s", [], 4)
    assert got.rows == [] and got.state.seq == 4
    assert store.append("s", [], 4) == []
