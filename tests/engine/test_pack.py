"""RULES 3.2 to 3.4 and 6.2 to 6.7 at a ``cards: "shown"`` table: the pack tracked card by card
(:mod:`engine.pack`). A shown card must be one the pack's order since the last shuffle can put in
that hand; the refusals name RULES 3.3 and say why in words, at entry (``apply``), in ``brag
verify`` and at import (both fold through the engine; those two are tested in
``tests/cli/test_pack_refusals.py``).

The logs are written as FORMAT.md dicts with the builders of ``tests/raw_log_helpers.py``. Quiet
deals (everyone looks, the first to act bets, the others fold: no card shown) move the pack on by
three cards a player each (RULES 3.4).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from raw_log_helpers import (
    Raw,
    bet,
    concede,
    dealers,
    dealt,
    fold,
    four_players_until,
    kept,
    look,
    quiet,
    retain,
    saw,
    show,
    showdown,
    start,
)
from session_strategies import SETTINGS, Session, sessions
from test_rules import refused, run

from engine.apply import apply
from engine.fold import verify_events
from engine.legal import legal_actions, possible_cards
from engine.state import Phase
from events.model import AnyEvent, Dealt, SessionStarted, Shown, Shuffled

# --- RULES 3.3: a card under the pack cannot come round early ---------------------------------


def test_3_3_four_players_a_card_under_the_pack_cannot_come_round_before_deal_5() -> None:
    log, ds = four_players_until(3)
    assert run(log).deals == 2
    bad = [*log, *showdown("ABCD", ds[2], "C", "Qs 3c 4d")[:-1]]
    err = refused(bad, "3.3", "C")
    assert err.message == (
        "Qs went under the pack at deal 1's showdown; with 4 players it cannot come round "
        "before deal 5, so C cannot hold it"
    )
    # The same deal with cards the pack allows is accepted.
    assert run([*log, *showdown("ABCD", ds[2], "C", "Ks 3c 4d")]).resolved == 3


def test_3_3_in_deal_5_the_card_can_only_be_where_the_pack_puts_it() -> None:
    """Deal 1: C, D fold (under the pack), B's hand, then A's: B's three cards lie 46th to 48th
    from the top at deal 2; deal 5 (dealer D) deals the 37th to 48th: the 47th to C and the 48th
    to D in the third round. Qs can be C's or D's in deal 5, never A's or B's."""
    log, ds = four_players_until(5)
    assert ds[4] == "D"
    err = refused([*log, *showdown("ABCD", "D", "A", "Qs 3c 4d")[:-1]], "3.3", "A")
    assert err.message == (
        "Qs went under the pack at deal 1's showdown; in deal 5 only C or D can hold it, not A"
    )
    state = run([*log, dealt()])
    assert "Qs" in possible_cards(state, "C") and "Qs" in possible_cards(state, "D")
    assert "Qs" not in possible_cards(state, "A") | possible_cards(state, "B")
    # A and B fold, D sees C: C shows Qs, as the pack allows.
    looks = [look(p) for p in "ABCD"]
    c_shows = [dealt(), *looks, fold("A"), fold("B"), bet("C", 1), saw("D"), show("C", "Qs 3c 4d")]
    assert run([*log, *c_shows, concede("D")]).resolved == 5
    err = refused([*log, *c_shows, show("D", "7h 2d 5s")], "3.3", "D")
    assert err.message == (
        "2d cannot be in D's hand beside 7h (shown since the last shuffle): the pack's order "
        "leaves only 1 place for these 2 cards"
    )


def test_3_3_heads_up_46_cards_lie_above_a_card_shown_at_deal_1() -> None:
    log = [*start("AB", "B"), *showdown("AB", "B", "A", "Qs 7h 2d")]
    assert run(log).resolved == 1
    err = refused([*log, *showdown("AB", "A", "B", "Qs 3c 4d")[:-1]], "3.3", "B")
    assert err.message == (
        "Qs went under the pack at deal 1's showdown; with 2 players it cannot come round "
        "before deal 9, so B cannot hold it"
    )


def test_3_3_heads_up_one_hand_holds_only_the_places_the_pack_gives_it() -> None:
    """Heads-up, A's Qs Js 9h go under 46th to 48th; deal 9 deals the 43rd to 48th from the top
    of deal 2's pack: A gets the 47th, B the 48th (third round). A's hand holds one of the three,
    never two."""
    log = [*start("AB", "B", rules={"pots": 20}), *showdown("AB", "B", "A", "Qs Js 9h")]
    for d in dealers("AB", "B", 9)[1:8]:
        log += quiet("AB", d)
    ninth = [dealt(), look("A"), look("B"), bet("A", 1), saw("B")]
    err = refused([*log, *ninth, show("A", "Qs Js 3c")], "3.3", "A")
    assert err.message == (
        "Js cannot be in A's hand beside Qs (shown since the last shuffle): the pack's order "
        "leaves only 1 place for these 2 cards"
    )
    assert run([*log, *ninth, show("A", "Qs 4d 3c")]).phase is Phase.SHOWDOWN


# --- RULES 6.2 to 6.7: a retained hand, a holder of two hands ----------------------------------


def carried_then(keep: str) -> list[Raw]:
    """A, B, C (C deals first): B shows Qs 7h 2d at deal 1's showdown; in deal 2 (dealer A) A
    plays blind, B bets, C folds, A bets blind and B folds: carried, A retains the hand (RULES
    6.1, 6.2); in deal 3 (dealer B) A holds two hands and keeps the ``keep`` one (RULES 6.3,
    6.4); all look."""
    log = [*start("ABC", "C"), *showdown("ABC", "C", "B", "Qs 7h 2d")]
    log += [dealt(), look("B"), look("C"), bet("B", 1), fold("C"), bet("A", 1), fold("B")]
    log += [retain("A"), dealt(), look("A", keep), kept("A"), look("B"), look("C")]
    return log


def test_6_2_a_retained_hand_is_out_of_the_pack_and_its_cards_are_deal_2s() -> None:
    log = carried_then("old")
    state = run(log)
    assert state.deals == 3 and state.players[0].hands[0].origin == "old"
    tail = [bet("C", 1), bet("A", 1), fold("B"), saw("C")]  # C sees A: A shows first
    # A's kept hand is deal 2's: Qs, under the pack at deal 1's showdown, cannot be in it.
    err = refused([*log, *tail, show("A", "Qs 4c 6d")], "3.3", "A")
    assert err.message == (
        "Qs went under the pack at deal 1's showdown; with 3 players it cannot come round "
        "before deal 7, so A cannot hold it"
    )
    assert run([*log, *tail, show("A", "Js 4c 6d"), concede("C")]).resolved == 2


def test_6_4_a_holder_of_two_hands_shows_only_what_the_kept_hand_can_hold() -> None:
    log = carried_then("new")
    state = run(log)
    assert [h.origin for h in state.players[0].hands] == ["new"]
    tail = [bet("C", 1), bet("A", 1), fold("B"), saw("C")]
    err = refused([*log, *tail, show("A", "Qs 4c 6d")], "3.3", "A")
    assert err.message == (
        "Qs went under the pack at deal 1's showdown; with 3 players it cannot come round "
        "before deal 7, so A cannot hold it"
    )
    assert run([*log, *tail, show("A", "Jd 4c 6d")]).phase is Phase.SHOWDOWN
    # The retained hand was out of the pack (52 - 3), deal 3 dealt 9 cards, and the thrown old
    # hand went under the pack unseen (RULES 6.4, 3.3): 43 slots in the pack.
    assert state.pack is not None and len(state.pack) == 43


# --- the picker, verify and import --------------------------------------------------------------


def test_possible_cards_leave_out_what_the_pack_or_the_opponent_rules_out() -> None:
    log, ds = four_players_until(3)
    deal3 = showdown("ABCD", ds[2], "C", "Ks 3c 4d")
    state = run([*log, *deal3[:-2]])
    assert state.phase is Phase.SHOWDOWN
    c = possible_cards(state, "C")
    assert "Qs" not in c and "7h" not in c and "2d" not in c and len(c) == 49
    after = run([*log, *deal3[:-1]])
    d = possible_cards(after, "D")
    assert not {"Ks", "3c", "4d", "Qs", "7h", "2d"} & d and len(d) == 46
    assert possible_cards(after, "C") == {"Ks", "3c", "4d"}  # its three places are taken
    assert possible_cards(run(log), "A") == frozenset()  # between deals: no hand


# --- the property: a real pack's showdowns are always accepted ------------------------------


def shown_only(events: tuple[AnyEvent, ...]) -> list[AnyEvent]:
    """An ``all`` log as an organiser at that table would record it: ``cards: "shown"``, no
    shuffle order, no dealt hands; every other event (the showdown's cards) kept."""
    out: list[AnyEvent] = []
    for e in events:
        if isinstance(e, SessionStarted):
            e = e.model_copy(update={"cards": "shown"})
        elif isinstance(e, Shuffled):
            e = e.model_copy(update={"order": None})
        elif isinstance(e, Dealt):
            e = e.model_copy(update={"hands": None})
        out.append(e)
    return out


@pytest.mark.slow
@SETTINGS
@given(sessions().filter(lambda s: s.mode == "all"))
def test_a_shown_log_of_any_legal_all_cards_session_is_accepted(session: Session) -> None:
    shown = shown_only(session.events)
    state = verify_events(enumerate(shown, start=1))
    assert state.nets == session.states[-1].nets
    assert state.resolved == session.states[-1].resolved
    # At every showdown the cards shown were ones the picker offered (the pack allowed them).
    folded = verify_events(enumerate(shown[:1], start=1))
    for e in shown[1:]:
        if isinstance(e, Shown):
            assert set(e.cards) <= possible_cards(folded, e.player)
        folded = apply(folded, e)


def test_legal_actions_still_ask_for_cards_at_a_shown_table() -> None:
    log, ds = four_players_until(3)
    state = run([*log, *showdown("ABCD", ds[2], "C", "Ks 3c 4d")[:-2]])
    (action,) = [a for a in legal_actions(state) if a.kind == "shown"]
    assert action.needs == ("cards",) and action.player == "C"
