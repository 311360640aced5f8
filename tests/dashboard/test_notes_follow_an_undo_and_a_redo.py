"""Notes and remembered cards follow the Record page's Undo and Redo
(dashboard.record.recorder.redo): the rest of the notes' anchoring is in
tests/present/test_notes_stay_on_their_action.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from shared_paths import SCENARIOS
from store_helpers import pg_store, require_pg

from engine.legal import legal_actions
from events.codec import read_file
from events.model import AnyEvent, Dealt, Voided
from log.annotations import (
    add_note,
    event_at,
    notes,
    private_cards,
    set_private_cards,
    touched,
)
from log.open import open_store
from log.service import EventStore
from present.replay import Replay

S = "card-example"


CARD_EXAMPLE = SCENARIOS / "card_example.jsonl"


EVENTS = [e for _, e in read_file(str(CARD_EXAMPLE))]
"""Deal 0: steps 1-3; deal 1 from seq 4: A, B, C, D look (2-5), A bets level 2 (6), B bets level
2 (7, seq 10), C and D fold, A sees B, B shows (11), A shows (12, seq 15), B wins (13, seq 16)."""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    if request.param == "sqlite":
        with open_store(str(tmp_path / "brag.db")) as s:
            yield s
        return
    require_pg()
    with pg_store() as s:
        yield s


def _rp(store: EventStore) -> Replay:
    return Replay.of(store.events(S), recorded=True)


def _tap(store: EventStore, *events: AnyEvent) -> None:
    store.append(S, list(events), store.last_seq(S))


def _placed(store: EventStore) -> dict[str, tuple[int, int | str, bool, str]]:
    """Each note's text -> (deal, step, withdrawn, the action's words) as read now."""
    return {n.text: (n.deal, n.step, n.withdrawn, n.action) for n in notes(store, _rp(store))}


def test_notes_and_cards_follow_an_undo_and_a_redo(store: EventStore) -> None:
    from dashboard.record.recorder import redo

    def undo_redo(seq: int, *, again: bool = True) -> None:
        _tap(store, Voided(seq=seq))
        if again:
            event = redo(store.events(S))
            assert event is not None
            _tap(store, event)

    _tap(store, *EVENTS, Dealt())
    _tap(store, legal_actions(store.state(S))[0].event)  # A looks: deal 2, step 2 (seq 18)
    rp = _rp(store)
    look = add_note(store, rp, 2, 2, "A looks early", "Ann")
    set_private_cards(store, rp, 2, "C", ["2h", "3h", "4h"])
    undo_redo(18, again=False)
    assert _placed(store)["A looks early"][:3] == (2, 2, True)
    _tap(store, redo(store.events(S)))  # type: ignore[arg-type]  # a voided is last: a redo
    rp = _rp(store)
    assert _placed(store)["A looks early"] == (2, 2, False, "A looks at their cards")
    assert notes(store, rp)[0].event == look.event  # the stored id: the Redo is followed
    assert private_cards(store, rp, "C")[2].cards == ("2h", "3h", "4h")
    undo_redo(20, again=False)  # the look undone again, and the deal undone and redone
    undo_redo(17)
    rp = _rp(store)
    assert _placed(store)["A looks early"][2] is True  # the look was not recorded again
    assert private_cards(store, rp, "C")[2].cards == ("2h", "3h", "4h")
    redealt = str(rp.events[-1].id)
    assert rp.events[-1].type == "dealt" and event_at(rp, 2, 1) == redealt
    got = touched(store, S, [redealt])
    assert [(t.kind, t.by, t.text, t.event) for t in got] == [("cards", "C", "2h 3h 4h", redealt)]
