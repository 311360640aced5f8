"""Issue 33.1 on the notes route: on a deal the one rule guards (:func:`present.sight.guards`),
a device that is not the organiser's receives a note that names a card (any card, any spelling)
held back, and the words of a note's action (where the notes carry them: a withdrawn ``shown``)
untold; a note naming none is sent as written. The whole route is walked by
``tests/hostile/test_leak_walk.py``."""

from __future__ import annotations

from dashboard.replay.notes_routes import HELD, UNTOLD, for_visitor


def test_a_note_naming_a_card_is_held_back_and_its_action_untold() -> None:
    note = {"id": 3, "by": "Ann", "text": "Cy had KH", "at": "2026-12-05 12:00"}
    assert for_visitor(note) == {**note, "text": HELD}
    withdrawn = {**note, "text": "misclick", "action": "Ann shows K♣ Q♣ 7♥: high card, K-Q-7"}
    assert for_visitor(withdrawn) == {**withdrawn, "action": UNTOLD}


def test_a_note_naming_no_card_is_sent_as_written() -> None:
    note = {"id": 4, "by": "Bob", "text": "should have folded here", "action": "Bob bets level 2"}
    assert for_visitor(note) == note
    assert "Kh" not in HELD and "Kh" not in UNTOLD
