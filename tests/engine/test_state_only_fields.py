"""Fields that FORMAT.md allows only in some states, refused in every other one (issue 23).

FORMAT.md gives some optional fields only in some states: ``hand`` of ``looked`` and ``retained``
only for a holder of two hands (RULES 6.4, 6.7); ``order`` of ``shuffled`` only when every card is
recorded (``cards: "all"``; RULES 3.3 tracks the pack); ``hands`` of ``dealt`` exactly then; one
card a ``shown`` only when both showdown players are blind (RULES 5.8); a card list only at a
showdown; ``paid`` only on ``bet`` and ``saw``; a derived ``pot_won``'s ``hand`` and ``cards`` only
at a showdown (RULES 5.9). One case a field and state: the refusal, its RULES section (or
``FORMAT``), its line, and the key words of its message (the player, the field, the clause).
The last tests take two of them through ``brag verify`` and ``brag import`` (one line, nothing
stored).
"""

from __future__ import annotations

from typing import Any

import pytest
from raw_log_helpers import (
    ALL_CARDS,
    CARRY,
    all_seen,
    bet,
    concede,
    dealt,
    fold,
    look,
    retain,
    saw,
    show,
    start,
    thrown,
)
from test_rules import refused, run

from engine.state import Phase
from events.errors import FormatError

Raw = dict[str, Any]

TWO = [*CARRY, retain("A"), dealt()]
"""A retained its blind hand: in deal 2 (dealer A, B acts first) A holds two hands."""
CARRIED_AGAIN = [*TWO, look("B"), look("C"), bet("B", 1), fold("C"), bet("A", 1), fold("B")]
"""A, still holding two unseen hands, survives blind again (RULES 6.7)."""
ONE_AFTER_THROW = [*TWO, look("A", "new"), thrown("A"), look("B"), look("C"), bet("B", 1)]
ONE_AFTER_THROW += [fold("C"), bet("A", 1), fold("B")]
"""A threw the new hand (RULES 6.4), kept the old one blind, and survives blind with it."""
PRIAL_SHOWN = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), saw("B")]
PRIAL_SHOWN += [show("A", "9s 9h 9d"), concede("B")]
"""A ``cards: "shown"`` deal won at a showdown by a prial: the pack must be shuffled (RULES 3.2)."""


def words(err: object, *keys: str) -> None:
    text = str(err)
    for k in keys:
        assert k in text, (k, text)


# --- retained: ``hand`` only when two are held (RULES 6.2, 6.7) ---------------------------------


@pytest.mark.parametrize("hand", ["new", "old"])
def test_retained_names_no_hand_when_one_is_held(hand: str) -> None:
    # One (new) hand after the first carry: naming it ("new") was accepted before; naming the
    # other ("old") was refused already (6.7), now with the same sentence.
    err = refused([*CARRY, retain("A", hand)], "6.7", "A")
    words(err, "A holds one hand", f"hand '{hand}'", "FORMAT.md retained", "RULES 6.7")
    assert run([*CARRY, retain("A")]).retained is not None  # unnamed: retained


def test_retained_names_no_hand_after_the_other_was_thrown() -> None:
    s = run(ONE_AFTER_THROW)
    assert s.phase is Phase.CARRIED and [h.origin for h in s.players[0].hands] == ["old"]
    err = refused([*ONE_AFTER_THROW, retain("A", "old")], "6.7", "A")
    words(err, "A holds one hand (the old one)", "hand 'old'", "FORMAT.md retained")
    s = run([*ONE_AFTER_THROW, retain("A")])
    assert s.retained is not None and s.retained[1].origin == "old"


def test_retained_of_two_hands_says_which_already_refused() -> None:
    refused([*CARRIED_AGAIN, retain("A")], "6.7", "A")
    assert run([*CARRIED_AGAIN, retain("A", "old")]).retained is not None


# --- looked: ``hand`` only for a holder of two hands (RULES 6.4; already refused) ---------------


@pytest.mark.parametrize("hand", ["new", "old"])
def test_looked_names_no_hand_when_one_is_held_already_refused(hand: str) -> None:
    err = refused([*start(), dealt(), look("A", hand)], "6.4", "A")
    words(err, "A holds one hand", f"'{hand}'", "RULES 6.4")


def test_looked_names_no_hand_after_the_other_was_thrown_already_refused() -> None:
    err = refused([*TWO, look("A", "new"), thrown("A"), look("A", "old")], "6.4", "A")
    words(err, "A holds one hand", "'old'")


def test_looked_of_two_hands_says_which_already_refused() -> None:
    err = refused([*TWO, look("A")], "6.4", "A")
    words(err, "A holds two hands", "which one")


def test_looked_only_in_blind_play_already_refused() -> None:
    log = [*start(rules={"blind_play": False}), dealt(), look("A")]
    words(refused(log, "5.1", "A"), "blind play is off")


# --- shuffled: ``order`` only when every card is recorded (FORMAT.md "cards"; RULES 3.3) --------


def test_shuffled_order_refused_in_a_shown_session_before_the_first_deal() -> None:
    log = start(cards="shown", order=ALL_CARDS)
    err = refused(log, "FORMAT")
    assert isinstance(err, FormatError) and err.field == "order" and err.event == "shuffled"
    words(err, "line 3, shuffled", "field 'order'", 'cards: "all"', 'cards: "shown"', "FORMAT.md")
    assert run(start(cards="shown")).shuffled_once  # without an order: shuffled
    assert run(start(cards="all", order=ALL_CARDS)).pack is not None  # cards: all: tracked


def test_shuffled_order_refused_in_a_shown_session_after_a_prial() -> None:
    assert run(PRIAL_SHOWN).shuffle_due
    err = refused([*PRIAL_SHOWN, {"type": "shuffled", "order": ALL_CARDS}], "FORMAT")
    assert isinstance(err, FormatError) and err.field == "order"
    words(err, "field 'order'", 'cards: "shown"', "RULES 3.3")
    assert run([*PRIAL_SHOWN, {"type": "shuffled"}, dealt()]).deals == 2


def test_legal_actions_ask_for_an_order_only_when_every_card_is_recorded() -> None:
    from engine.legal import legal_actions

    def shuffle_needs(cards: str) -> tuple[str, ...]:
        s = run(start(cards=cards)[:2])
        (a,) = [a for a in legal_actions(s) if a.kind == "shuffled"]
        return a.needs

    assert shuffle_needs("all") == ("order",)
    assert shuffle_needs("shown") == ()


# --- dealt: ``hands`` exactly when every card is recorded (already refused) -------------------


def test_dealt_hands_in_a_shown_session_already_refused() -> None:
    err = refused([*start(), dealt({"A": "2c 3c 4c", "B": "2d 3d 4d", "C": "2h 3h 4h"})], "FORMAT")
    words(err, "field 'hands'", "cards: shown")


def test_dealt_without_hands_in_an_all_session_already_refused() -> None:
    err = refused([*start(cards="all"), dealt()], "FORMAT")
    words(err, "field 'hands'", "cards: all")


# --- shown: one card only when both are blind, cards only at a showdown (already refused) -------


def test_one_card_shown_only_when_both_are_blind_already_refused() -> None:
    log = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), saw("B"), show("A", "9s")]
    words(refused(log, "5.8", "A"), "all three cards")


def test_three_cards_shown_when_both_are_blind_already_refused() -> None:
    log = [*start("AB", "B"), dealt(), bet("A", 1), saw("B"), show("A", "9s 9h 9d")]
    words(refused(log, "5.8", "A"), "one at a time")


def test_cards_shown_only_at_a_showdown_already_refused() -> None:
    log = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), show("A", "9s 9h 9d")]
    words(refused(log, "5.8", "A"), "no showdown")


# --- fields of other events (the model forbids them; already refused) --------------------------


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"type": "folded", "player": "A", "paid": 1}, "paid"),
        ({"type": "kept", "player": "A", "hand": "new"}, "hand"),
        ({"type": "looked", "player": "A", "level": 2}, "level"),
    ],
)
def test_fields_of_other_events_already_refused(event: Raw, field: str) -> None:
    words(refused([*start(), dealt(), event], "FORMAT"), field)


# --- derived pot_won: ``hand`` and ``cards`` only at a showdown (RULES 5.6; already refused) ------


@pytest.mark.parametrize(("field", "value"), [("hand", "pair"), ("cards", ["9s", "9h", "2d"])])
def test_uncontested_pot_won_has_no_hand_or_cards_already_refused(field: str, value: Any) -> None:
    log = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), fold("B")]
    won: Raw = {"type": "pot_won", "deal": 1, "player": "A", "amount": 3, "showdown": False}
    assert run([*log, won]).resolved == 1
    err = refused([*log, {**won, field: value}], "5.6")
    words(err, f"the log's pot_won gives {field}", "A wins the pot of 3 uncontested")
    words(err, "no hand is shown", "RULES 5.6")


@pytest.mark.parametrize(("field", "value"), [("hand", "pair"), ("cards", ["9s", "9h", "2d"])])
def test_a_showdown_pot_won_names_the_hand_and_cards_shown(field: str, value: Any) -> None:
    out = run(PRIAL_SHOWN).outcomes[-1]
    assert (out.winner, out.hand, out.cards) == ("A", "prial", ("9s", "9h", "9d"))
    won: Raw = {"type": "pot_won", "deal": 1, "player": "A", "amount": 5, "showdown": True}
    assert out.amount == 5 and run([*PRIAL_SHOWN, won]).resolved == 1
    err = refused([*PRIAL_SHOWN, {**won, field: value}], "5.9")
    words(err, f"the log's pot_won gives {field}", "A showed prial (9s 9h 9d)", "RULES 5.9")
