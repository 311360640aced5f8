"""Notes and remembered cards follow the Record page's Undo and Redo
(dashboard.record.recorder.redo): the rest of the notes' anchoring is in
tests/present/test_notes_stay_on_their_action.py."""

from __future__ import annotations

from notes_anchor_helpers import EVENTS, S, any_store  # noqa: F401 (the fixture store)
from notes_anchor_helpers import placed as _placed
from notes_anchor_helpers import rp as _rp
from notes_anchor_helpers import tap as _tap

from engine.legal import legal_actions
from events.model import Dealt, Voided
from log.annotations import (
    add_note,
    event_at,
    notes,
    private_cards,
    set_private_cards,
    touched,
)
from log.service import EventStore


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
