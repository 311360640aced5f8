"""Issue 32, item 3: a note and a player's remembered cards point at an event, not a step number,
so they stay on the action they were written on through an Undo and a new tap, and through the
withdrawal of an earlier deal's last event (with the later deal taken back and dealt again); a
note whose action was withdrawn stays listed and says so; :func:`log.annotations.touched` lists
what a correction's withdrawals touch. On SQLite and the real PostgreSQL server. (Through the
Record page's Undo and Redo: ``tests/dashboard/test_notes_follow_an_undo_and_a_redo.py``.) In
tests/present: the notes are placed by the replay the screens number them with
(:class:`present.replay.Replay`).

Before issue 32 the note on "B bets level 2" (deal 1, step 7) sat on "B folds" once the bet was
undone and the fold tapped, and the cards Sue remembered for a deal taken back showed on the deal
dealt again in its place."""

from __future__ import annotations

from notes_anchor_helpers import CARD_EXAMPLE, EVENTS, S, any_store  # noqa: F401 (the fixture store)
from notes_anchor_helpers import placed as _placed
from notes_anchor_helpers import rp as _rp
from notes_anchor_helpers import tap as _tap

from engine.legal import legal_actions
from events.model import Conceded, Dealt, Folded, Voided
from log.annotations import (
    add_note,
    event_at,
    notes,
    private_cards,
    set_private_cards,
    step_of,
    touched,
)
from log.service import EventStore
from log.steps import withdrawals
from present.replay import Replay


def test_a_note_stays_on_its_action_through_an_undo_and_a_new_tap(store: EventStore) -> None:
    _tap(store, *EVENTS[:10])  # up to "B bets level 2", deal 1 step 7
    rp = _rp(store)
    bet = add_note(store, rp, 1, 7, "B should have folded here", "Ann")
    opens = add_note(store, rp, 1, 6, "A opens", "Bo")
    before = add_note(store, rp, 0, 2, "D deals", "Cy")
    cards = set_private_cards(store, rp, 1, "C", ["Ah", "Ad", "Ac"])
    assert bet.event == str(rp.events[9].id) and bet.action == "B bets level 2: pays 2"
    assert cards.event == str(rp.events[3].id)  # deal 1's dealt

    _tap(store, Voided(seq=10))  # Undo of B's bet
    _tap(store, Folded(player="B"))  # the new tap: B folds, now deal 1 step 7
    rp = _rp(store)
    fold = event_at(rp, 1, 7)
    assert fold != bet.event and rp.labels[-1].text.startswith("B folds")
    assert _placed(store) == {
        "D deals": (0, 2, False, "D deals first (chosen by lot)"),
        "A opens": (1, 6, False, "A bets level 2: pays 2"),
        "B should have folded here": (1, 7, True, "B bets level 2: pays 2"),
    }
    shown = notes(store, rp)
    assert [n.id for n in shown] == [before.id, opens.id, bet.id]
    assert shown[-1].where == "deal 1, step 7, on a withdrawn step: B bets level 2: pays 2"
    on_fold = [n for n in shown if n.event == fold]
    assert on_fold == []  # the fold carries no note written before it
    after = add_note(store, rp, 1, 7, "B folded after all", "Di")
    assert (after.event, after.withdrawn) == (fold, False)
    assert private_cards(store, rp, "C")[1].cards == ("Ah", "Ad", "Ac")
    at = step_of(rp, bet.event)
    assert at is not None and (at.deal, at.step, at.withdrawn) == (1, 7, True)


def test_notes_and_cards_stay_through_the_withdrawal_of_an_earlier_deals_last_event(
    store: EventStore,
) -> None:
    _tap(store, *EVENTS)
    rp0 = _rp(store)
    add_note(store, rp0, 1, 6, "A opens", "Ann")
    add_note(store, rp0, 1, 12, "A had the flush", "Bo")
    set_private_cards(store, rp0, 1, "C", ["Ah", "Ad", "Ac"])
    gone, rp1 = _undo_to_deal_one_and_redeal_after(store)
    rp = _rp(store)
    assert rp.final.deals == 2
    placed = _placed(store)
    assert placed["A opens"] == (1, 6, False, "A bets level 2: pays 2")
    assert placed["A had the flush"] == (1, 12, True, "A shows K♣ 9♣ 4♣: flush, K-9-4")
    assert placed["A looks in deal 2"][:3] == (2, 2, True)
    # The new taps in the withdrawn actions' places carry none of their notes (however today's
    # numbering numbers them).
    new = [str(e.id) for e in rp.events[-3:]]
    assert [e.type for e in rp.events[-3:]] == ["conceded", "pot_won", "dealt"]
    assert not any(n.event in new for n in notes(store, rp))
    # C's cards stay on deal 1; those for the deal taken back are no deal's: never shown on the
    # deal dealt again in its place (other hands).
    assert {d: p.cards for d, p in private_cards(store, rp, "C").items()} == {1: ("Ah", "Ad", "Ac")}
    assert len(gone) == 4 and rp1.final.deals == 2


def _undo_to_deal_one_and_redeal_after(store: EventStore) -> tuple[list[str], Replay]:
    """Deal 2 dealt and A's look in it (a note and C's cards on deal 2), then three Undos: the
    look, the deal, and A's show (deal 1's last recorded event, its pot_won with it); then A
    concedes instead and deal 2 is dealt again. Returns the ids the Undos withdrew and the replay
    before them."""
    _tap(store, Dealt())
    _tap(store, legal_actions(store.state(S))[0].event)
    rp = _rp(store)
    add_note(store, rp, 2, 2, "A looks in deal 2", "Cy")
    set_private_cards(store, rp, 2, "C", ["2h", "3h", "4h"])
    for seq in (18, 17, 15):
        _tap(store, Voided(seq=seq))
    _tap(store, Conceded(player="A"))
    _tap(store, Dealt())
    events = store.events(S)
    gone = [str(events[i].id) for w in withdrawals(events) for i in w]
    return gone, rp


def test_touched_lists_the_notes_and_cards_on_the_events_withdrawn(store: EventStore) -> None:
    _tap(store, *EVENTS)
    rp0 = _rp(store)
    add_note(store, rp0, 1, 6, "A opens", "Ann")
    flush = add_note(store, rp0, 1, 12, "A had the flush", "Bo")
    set_private_cards(store, rp0, 1, "C", ["Ah", "Ad", "Ac"])
    gone, rp1 = _undo_to_deal_one_and_redeal_after(store)
    got = touched(store, S, gone)
    assert [(t.kind, t.by, t.text, t.deal, t.step) for t in got] == [
        ("note", "Bo", "A had the flush", 1, 12),
        ("note", "Cy", "A looks in deal 2", 2, 2),
        ("cards", "C", "2h 3h 4h", 2, None),
    ]
    assert got[0].id == flush.id and got[0].event == str(rp1.events[14].id)
    assert touched(store, S, [str(rp0.events[8].id)])[0].text == "A opens"
    assert touched(store, S, []) == [] and touched(store, "nosuch", gone) == []


def test_notes_stay_on_their_action_through_an_amended_correction(store: EventStore) -> None:
    """``brag amend`` withdrawing C's look (deal 1, step 4: C folds later, so nothing after it
    changes): one ``amended`` is stored, the note on "B bets level 2" stays on that bet with its
    number 7, the note on C's look stays listed on its step, withdrawn, and the correction's
    preview lists that note before anything is stored."""
    from log.amend import plan_amendment, store_amendment, touched_by
    from present.amend import describe, target_step

    store.import_log(CARD_EXAMPLE)
    bet = add_note(store, _rp(store), 1, 7, "too much", "Ann")
    look = add_note(store, _rp(store), 1, 4, "C peeked", "Bo")
    t = store.timeline(S)
    plan = plan_amendment(t, target_step(t, 1, 4), None)
    view = describe(plan, touched=touched_by(store, plan))
    assert [(ln.where, ln.text) for ln in view.touched] == [
        ("deal 1, step 4", "Bo's note: C peeked")
    ]
    before = store.last_seq(S)
    store_amendment(store, plan)
    assert store.last_seq(S) == before + 1  # one fact, no event recorded again
    rp = _rp(store)
    got = {n.id: n for n in notes(store, rp)}
    assert (got[bet.id].deal, str(got[bet.id].step), got[bet.id].withdrawn) == (1, "7", False)
    assert step_of(rp, got[bet.id].event) is not None
    assert "bets" in got[bet.id].action and "B" in got[bet.id].action
    assert got[look.id].withdrawn and "C" in got[look.id].action
