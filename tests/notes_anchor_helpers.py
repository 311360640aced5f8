"""The card example tapped into a store, on SQLite and PostgreSQL, with the notes read back
(shared by tests/present/test_notes_stay_on_their_action.py and
tests/dashboard/test_notes_follow_an_undo_and_a_redo.py): present layer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from shared_paths import HAVE_SHARED, NO_SHARED, SCENARIOS
from store_helpers import pg_store, require_pg

from events.codec import read_file
from events.model import AnyEvent
from log.annotations import notes
from log.open import open_store
from log.service import EventStore
from present.replay import Replay

if not HAVE_SHARED:  # the module reads a scenario as it is imported
    pytest.skip(NO_SHARED, allow_module_level=True)


S = "card-example"
CARD_EXAMPLE = SCENARIOS / "card_example.jsonl"
EVENTS = [e for _, e in read_file(str(CARD_EXAMPLE))]
"""Deal 0: steps 1-3; deal 1 from seq 4: A, B, C, D look (2-5), A bets level 2 (6), B bets level
2 (7, seq 10), C and D fold, A sees B, B shows (11), A shows (12, seq 15), B wins (13, seq 16)."""


@pytest.fixture(
    name="store", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    if request.param == "sqlite":
        with open_store(str(tmp_path / "brag.db")) as s:
            yield s
        return
    require_pg()
    with pg_store() as s:
        yield s


def rp(store: EventStore) -> Replay:
    return Replay.of(store.events(S), recorded=True)


def tap(store: EventStore, *events: AnyEvent) -> None:
    store.append(S, list(events), store.last_seq(S))


def placed(store: EventStore) -> dict[str, tuple[int, int | str, bool, str]]:
    """Each note's text -> (deal, step, withdrawn, the action's words) as read now."""
    return {n.text: (n.deal, n.step, n.withdrawn, n.action) for n in notes(store, rp(store))}
