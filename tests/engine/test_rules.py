"""RULES 1 to 6, one focused test per rule, asserting real values.

Each test writes a short log as FORMAT.md dicts (derived events left out, as on import), folds it
with :func:`engine.verify_events` and checks the pot, the level, what a player paid, whose turn it
is, the nets, or the RULES section of a refusal and that its message names the player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction as F

import pytest
from raw_log_helpers import (
    ALL_CARDS,
    CARRY,
    Raw,
    all_seen,
    bet,
    concede,
    dealt,
    fold,
    kept,
    look,
    pack_for,
    retain,
    saw,
    show,
    start,
    thrown,
)

from engine.fold import complete, summary, verify_events
from engine.legal import can_void, legal_actions
from engine.state import Phase, State
from events.codec import parse_raw
from events.errors import BragError, FormatError, RuleViolation
from events.model import PotCarried, PotWon, SessionEnded

# --- helpers -----------------------------------------------------------------------------------


def run(events: Iterable[Raw]) -> State:
    """The final state of a log given as FORMAT.md dicts (every rule checked)."""
    return verify_events((n, parse_raw(e, line=n)) for n, e in enumerate(events, start=1))


def refused(events: Sequence[Raw], rule: str, player: str | None = None) -> BragError:
    """Asserts that the log's last line is refused under ``rule`` naming ``player``."""
    with pytest.raises(BragError) as info:
        run(events)
    err = info.value
    assert err.rule == rule, str(err)
    assert err.line == len(events), str(err)
    if rule != "FORMAT":
        assert isinstance(err, RuleViolation)
        assert isinstance(err, ValueError)
        assert str(err).startswith(f"line {len(events)}, {events[-1]['type']}: RULES {rule}: ")
    if player is not None:
        assert player in err.message, err.message
    return err


# --- RULES 1: session --------------------------------------------------------------------------


def test_1_2_amounts_are_exact_rationals_never_floats() -> None:
    # Ante 1/2: a blind bet at level 1 pays 1/2, so a quarter-free exact pot of 3/2 + 1/2 = 2.
    s = run([*start("AB", "B", rules={"ante": "1/2"}), dealt(), bet("A", 1)])
    assert s.pot == F(3, 2)
    assert isinstance(s.pot, F)
    assert s.nets == {"A": F(-1), "B": F(-1, 2)}
    assert sum(s.nets.values()) + s.pot == 0


def test_1_3_two_to_ten_unique_seats() -> None:
    one = [{"type": "session_started", "session": "t", "seats": ["A"], "cards": "shown"}]
    refused(one, "1.3")
    eleven = [
        {"type": "session_started", "session": "t", "seats": list("ABCDEFGHIJK"), "cards": "shown"}
    ]
    refused(eleven, "1.3")
    twice = [
        {"type": "session_started", "session": "t", "seats": ["A", "B", "A"], "cards": "shown"}
    ]
    refused(twice, "1.3", "A")
    ten = run(
        [{"type": "session_started", "session": "t", "seats": list("ABCDEFGHIJ"), "cards": "shown"}]
    )
    assert ten.seats == tuple("ABCDEFGHIJ")


def test_1_3_a_player_not_seated_is_refused_by_name() -> None:
    refused([start()[0], {"type": "dealer_chosen", "player": "Zed"}], "1.3", "Zed")
    refused([*start(), dealt(), bet("Zed", 1)], "1.3", "Zed")


def test_1_4_session_ends_after_the_eighth_resolved_pot_and_1_5_shared_win() -> None:
    log = start("AB", "B")
    for k in range(8):
        first, second = ("A", "B") if k % 2 == 0 else ("B", "A")
        log += [dealt(), look(first), look(second), bet(first, 1), fold(second)]
    steps = list(complete((n, parse_raw(e)) for n, e in enumerate(log, start=1)))
    s = steps[-1].state
    assert s.phase is Phase.OVER and s.finished
    assert s.resolved == 8 and s.deals == 8 and s.pot == 0
    assert s.nets == {"A": 0, "B": 0}
    assert s.winners == ("A", "B")  # exactly equal highest nets share the win
    # The engine's conclusions after the last fold: the pot won, then the session's end.
    assert isinstance(steps[-2].event, PotWon) and steps[-2].event.player == "B"
    end = steps[-1].event
    assert isinstance(end, SessionEnded)
    assert end.nets == {"A": 0, "B": 0} and end.winners == ("A", "B")
    # Nothing may follow (RULES 1.4).
    err = refused([*log, dealt()], "1.4")
    assert "ended when its 8th pot was resolved" in err.message, err.message
    refused([*log, bet("A", 1)], "1.4", "A")


def test_1_5_nets_are_won_minus_paid_and_the_highest_net_wins() -> None:
    log = [*start("ABC", "C", rules={"pots": 1}), dealt(), *all_seen("ABC"), bet("A", 3), fold("B")]
    log += [fold("C")]
    s = run(log)
    assert s.finished
    assert s.nets == {"A": 2, "B": -1, "C": -1}
    assert s.winners == ("A",)
    assert summary(s)["winners"] == ["A"]


def test_1_4_a_carried_pot_is_not_a_resolution() -> None:
    log = [*start("AB", "B", rules={"pots": 1}), dealt(), look("B"), bet("A", 1), fold("B")]
    s = run(log)
    assert s.phase is Phase.CARRIED
    assert s.resolved == 0 and s.carried == 1 and not s.finished
    assert s.pot == F(5, 2)  # antes 2 + blind A's 1/2, left on the table


def test_rules_parameters_come_from_session_started() -> None:
    rules = {"ante": "1/2", "open_min": 2, "open_max": 3, "raise_max": 10, "pots": 3}
    base = [*start("AB", "B", rules=rules), dealt(), *all_seen("AB")]
    s = run(base)
    assert s.rules.pots == 3 and s.rules.raise_max == 10
    assert s.pot == 1  # two antes of 1/2
    refused([*base, bet("A", 1)], "5.5", "A")  # below open_min 2
    refused([*base, bet("A", 4)], "5.5", "A")  # above open_max 3
    s = run([*base, bet("A", 3), bet("B", 13)])  # a raise of 10 is allowed
    assert s.level == 13 and s.pot == 1 + 3 + 13
    refused([*base, bet("A", 3), bet("B", 14)], "5.5", "B")
    # pots 3: the third resolved pot ends the session.
    log = list(base[:3])
    for k in range(3):
        first, second = ("A", "B") if k % 2 == 0 else ("B", "A")
        log += [dealt(), look(first), look(second), bet(first, 2), fold(second)]
    s = run(log)
    assert s.finished and s.resolved == 3
    assert s.nets == {"A": F(1, 2), "B": F(-1, 2)}


def test_rules_blind_play_false_everyone_is_seen() -> None:
    base = [*start("AB", "B", rules={"blind_play": False}), dealt()]
    s = run(base)
    assert all(p.seen for p in s.players)
    assert all(a.event.type != "looked" for a in legal_actions(s))
    refused([*base, look("A")], "5.1", "A")
    s = run([*base, bet("A", 2)])
    assert s.paid_in_deal("A") == 3  # ante 1 + the seen rate 2
    s = run([*base, bet("A", 2), saw("B", paid=4)])  # seeing costs double
    assert s.pot == 2 + 2 + 4


# --- RULES 3: dealer, pack and deal ------------------------------------------------------------


def test_3_1_first_dealer_once_before_the_first_deal() -> None:
    refused([start()[0], {"type": "shuffled"}, dealt()], "3.1")
    refused([*start(), {"type": "dealer_chosen", "player": "B"}], "3.1", "B")
    s = run([*start(dealer="B"), dealt()])
    assert s.dealer_name == "B" and s.turn_name == "C"  # betting starts on the dealer's left


def test_3_1_dealer_rotates_left_every_deal_including_into_a_carried_pot() -> None:
    log = [*start("ABC", "B"), dealt(), look("A"), look("B"), fold("C"), bet("A", 1), fold("B")]
    s = run(log)
    assert s.outcomes[0].dealer == "B" and s.outcomes[0].winner == "A"
    # Deal 2: dealer C; A (on C's left) starts. B and C fold to blind A: pot carried.
    log += [dealt(), look("B"), look("C"), bet("A", 1), fold("B"), fold("C")]
    s = run(log)
    assert s.outcomes[1].dealer == "C" and s.outcomes[1].result == "carried"
    # Deal 3, into the carried pot: the dealer still moves on, to A; B starts.
    log += [dealt()]
    s = run(log)
    assert s.dealer_name == "A" and s.turn_name == "B" and s.deals == 3


def test_3_2_shuffle_before_the_first_deal_only_after_a_prial_showdown() -> None:
    no_shuffle = [*start()[:2], dealt()]
    refused(no_shuffle, "3.2")
    refused([*start(), {"type": "shuffled"}], "3.2")  # already shuffled for the first deal
    refused([*start(), dealt(), {"type": "shuffled"}], "3.2")  # never during a deal
    # A showdown won by a run: no shuffle; the next deal follows at once.
    run_win = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), saw("B")]
    run_win += [show("A", "5s 6h 7d"), concede("B")]
    s = run(run_win)
    assert not s.shuffle_due
    refused([*run_win, {"type": "shuffled"}], "3.2")
    assert run([*run_win, dealt()]).deals == 2
    # A showdown won by a prial: the pack must be shuffled before the next deal.
    prial = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), saw("B")]
    prial += [show("A", "9s 9h 9d"), concede("B")]
    assert run(prial).shuffle_due
    refused([*prial, dealt()], "3.2")
    assert run([*prial, {"type": "shuffled"}, dealt()]).deals == 2
    # Not after a carried pot either.
    carried = [*start("AB", "B"), dealt(), look("B"), bet("A", 1), fold("B")]
    refused([*carried, {"type": "shuffled"}], "3.2")


def test_3_3_deal_must_match_the_tracked_pack() -> None:
    hands = {"A": "Ah Kh Qh", "B": "2c 3d 4s", "C": "9s 9h 9d"}
    order = pack_for("ABC", "C", hands)
    s = run([*start(cards="all", order=order), dealt(hands)])
    assert s.pack == tuple(ALL_CARDS.index(c) for c in order[9:])
    wrong = dict(hands, B="2c 4s 3d")  # the right cards, in the wrong order
    refused([*start(cards="all", order=order), dealt(wrong)], "3.3", "B")
    other = dict(hands, A="Ah Kh Js")
    refused([*start(cards="all", order=order), dealt(other)], "3.3", "A")


def test_3_3_folded_hands_go_under_the_pack_in_order() -> None:
    # Ten players take 30 cards; 22 remain. B, C ... fold in turn and go under the pack as they
    # fold; the second deal takes the 22 then the first 8 cards that went under.
    seats = "ABCDEFGHIJ"
    order = ALL_CARDS[::-1]  # any order: 2c last
    dealing = [seats[(9 + 1 + k) % 10] for k in range(10)]  # dealer J: A first
    hand = {p: [order[r * 10 + k] for r in range(3)] for k, p in enumerate(dealing)}
    log = [*start(seats, "J", cards="all", order=order)]
    log += [dealt({p: " ".join(h) for p, h in hand.items()}), *all_seen(seats), bet("A", 1)]
    log += [fold(p) for p in "BCDEFGHIJ"]
    s = run(log)
    assert s.outcomes[-1].winner == "A"
    code = {c: i for i, c in enumerate(ALL_CARDS)}
    under = [c for p in "BCDEFGHIJA" for c in hand[p]]  # folds in order, then the survivor
    assert s.pack == tuple(code[c] for c in order[30:] + under)
    # Deal 2 (dealer A, B first) must come from that pack.
    pack = order[30:] + under
    dealing2 = [seats[(0 + 1 + k) % 10] for k in range(10)]
    hands2 = {p: " ".join(pack[r * 10 + k] for r in range(3)) for k, p in enumerate(dealing2)}
    assert hands2["B"].split()[0] == order[30]
    assert hands2["A"].split()[2] == hand["D"][1]  # deep enough to reach what D folded
    assert run([*log, dealt(hands2)]).deals == 2


def test_3_4_a_card_in_two_places_is_refused() -> None:
    hands = {"A": "Ah Kh Qh", "B": "2c 3d Ah", "C": "9s 9h 9d"}
    refused([*start(cards="all"), dealt(hands)], "3.4", "Ah")
    refused([*start(cards="all"), dealt({"A": "Ah Kh Qh", "B": "2c 3d 4d"})], "3.4")
    # A card of a retained hand cannot be dealt again.
    h1 = {"A": "Ah Kh Qh", "B": "2c 3d 4d", "C": "9s 9h 9d"}
    log = [*start(cards="all"), dealt(h1), look("B"), look("C"), bet("A", 1), fold("B"), fold("C")]
    log += [retain("A")]
    assert run(log).retained is not None
    refused([*log, dealt({"A": "2s 3s 4s", "B": "5s 6s 7s", "C": "8s Kh Ts"})], "3.4", "Kh")
    # At a "shown" table, the two showdown hands cannot share a card.
    sd = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 1), saw("B")]
    refused([*sd, show("A", "Ks Kh 2d"), show("B", "Kh Qd Jc")], "3.4", "B")


def test_3_4_every_seated_player_is_dealt_and_cards_mode_is_respected() -> None:
    refused([*start(cards="all"), dealt()], "FORMAT")
    refused([*start(), dealt({"A": "Ah Kh Qh", "B": "2c 3d 4d", "C": "9s 9h 9d"})], "FORMAT")
    hands = {"A": "Ah Kh Qh", "B": "2c 3d 4d", "Zed": "9s 9h 9d"}
    refused([*start(cards="all"), dealt(hands)], "3.4", "C")


# --- RULES 4: ante -----------------------------------------------------------------------------


def test_4_1_every_player_antes_every_deal_including_into_a_carried_pot() -> None:
    log = [*start("ABC", "C"), dealt()]
    s = run(log)
    assert s.pot == 3 and all(s.paid_in_deal(p) == 1 for p in "ABC")
    log += [look("B"), look("C"), bet("A", 2), fold("B"), fold("C")]  # blind A survives
    s = run(log)
    assert s.pot == 4 and s.phase is Phase.CARRIED
    s = run([*log, dealt()])
    assert s.pot == 7  # the carried 4 plus three antes
    assert s.nets == {"A": -3, "B": -2, "C": -2}


# --- RULES 5: betting --------------------------------------------------------------------------


def test_5_1_looks_before_betting_then_only_at_the_start_of_ones_turn() -> None:
    base = [*start(), dealt()]
    s = run([*base, look("C"), look("A")])  # any order before the first betting action
    assert [p.seen for p in s.players] == [True, False, True]
    after = [*base, bet("A", 1)]
    refused([*after, look("C")], "5.1", "C")  # B's turn
    s = run([*after, look("B"), bet("B", 1)])
    assert s.paid_in_deal("B") == 2  # looked on its turn: pays the seen rate
    refused([*base, look("A"), look("A")], "5.1", "A")  # seen never becomes blind again


def test_5_2_turns_go_clockwise_from_the_dealers_left_skipping_folded() -> None:
    base = [*start("ABCD", "B"), dealt()]
    s = run(base)
    assert s.turn_name == "C"
    s = run([*base, bet("C", 1), fold("D"), bet("A", 1)])
    assert s.turn_name == "B"
    s = run([*base, bet("C", 1), fold("D"), bet("A", 1), bet("B", 1)])
    assert s.turn_name == "C"
    s = run([*base, bet("C", 1), fold("D"), bet("A", 1), bet("B", 1), bet("C", 1)])
    assert s.turn_name == "A"  # D folded: skipped
    refused([*base, bet("D", 1)], "5.2", "D")
    refused([*base, bet("C", 1), fold("D"), bet("D", 1)], "5.6", "D")
    refused([*start("ABCD", "B"), bet("C", 1)], "5.2", "C")  # no deal in progress


def test_5_3_blind_pays_half_the_level_in_exact_fractions() -> None:
    base = [*start("ABC", "C"), dealt(), look("B")]
    s = run([*base, bet("A", 3)])
    assert s.level == 3
    assert s.paid_in_deal("A") == 1 + F(3, 2)  # ante + half of 3
    assert s.pot == 3 + F(3, 2)
    # A seen bet of 4 and a blind bet of 2 are equivalent: after blind A pays 2 at level 4,
    # seen B pays 4, not 2.
    s = run([*base, bet("A", 4, paid=2), bet("B", 4, paid=4)])
    assert s.paid_in_deal("A") == 3 and s.paid_in_deal("B") == 5 and s.level == 4
    refused([*base, bet("A", 4, paid=4)], "5.3", "A")
    refused([*base, bet("A", 4, paid=2), bet("B", 4, paid=2)], "5.3", "B")
    s = run([*base, bet("A", 1, paid="0.5")])
    assert s.paid_in_deal("A") == F(3, 2)


def test_5_4_each_bet_is_fresh_money() -> None:
    base = [*start("AB", "B"), dealt(), *all_seen("AB")]
    s = run([*base, bet("A", 2), bet("B", 2), bet("A", 2), bet("B", 2)])
    assert s.pot == 2 + 4 * 2  # equal payments do not close the betting
    assert s.turn_name == "A" and s.in_deal
    assert s.paid_in_deal("A") == 5 and s.nets == {"A": -5, "B": -5}


def test_5_5_opening_and_raise_bounds() -> None:
    base = [*start("AB", "B"), dealt(), *all_seen("AB")]
    refused([*base, bet("A", 0)], "5.5", "A")
    refused([*base, bet("A", 6)], "5.5", "A")
    refused([*base, bet("A", "3/2")], "5.5", "A")
    assert run([*base, bet("A", 5)]).level == 5
    assert run([*base, bet("A", 5), bet("B", 10)]).level == 10
    refused([*base, bet("A", 5), bet("B", 11)], "5.5", "B")
    refused([*base, bet("A", 5), bet("B", 4)], "5.5", "B")
    assert run([*base, bet("A", 5), bet("B", 5)]).level == 5


def test_5_6_seen_survivor_takes_the_pot_without_showing() -> None:
    log = [*start("ABC", "C"), dealt(), *all_seen("ABC"), bet("A", 2), fold("B"), fold("C")]
    steps = list(complete((n, parse_raw(e)) for n, e in enumerate(log, start=1)))
    won = steps[-1].event
    assert isinstance(won, PotWon)
    assert (won.player, won.amount, won.showdown, won.hand, won.cards) == (
        "A",
        5,
        False,
        None,
        None,
    )
    s = steps[-1].state
    assert s.pot == 0 and s.resolved == 1 and s.phase is Phase.BETWEEN
    assert s.nets == {"A": 2, "B": -1, "C": -1}
    refused([*log, fold("A")], "5.2", "A")  # the deal is over


def test_5_7_see_only_with_two_left_and_after_the_first_bet() -> None:
    three = [*start("ABC", "C"), dealt(), *all_seen("ABC"), bet("A", 1)]
    refused([*three, saw("B")], "5.7", "B")
    two = [*start("AB", "B"), dealt(), *all_seen("AB")]
    refused([*two, saw("A")], "5.7", "A")


def test_5_7_who_may_see_whom_and_the_cost() -> None:
    # seen v seen: 2 x level.
    s = run([*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 3), saw("B", paid=6)])
    assert s.phase is Phase.SHOWDOWN and s.pot == 2 + 3 + 6
    assert s.seats[s.payer or 0] == "B" and s.turn_name == "A"
    # seen v blind: the seen player may not see.
    sb = [*start("AB", "B"), dealt(), look("B"), bet("A", 3)]
    err = refused([*sb, saw("B")], "5.7", "B")
    assert "blind" in err.message
    # blind v seen: the blind player sees for the level (twice the blind rate).
    bs = [*start("AB", "B"), dealt(), look("A"), bet("A", 3), saw("B", paid=3)]
    assert run(bs).pot == 2 + 3 + 3
    refused([*bs[:-1], saw("B", paid=6)], "5.7", "B")
    # blind v blind: either sees for the level.
    bb = run([*start("AB", "B"), dealt(), bet("A", 4), saw("B", paid=4)])
    assert bb.pot == 2 + 2 + 4 and bb.paid_in_deal("B") == 5


def test_5_8_the_one_seen_shows_first_and_the_payer_loses_ties() -> None:
    base = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 2), saw("B", paid=4)]
    refused([*base, show("B", "Kc Kd 2h")], "5.8", "A")  # A, the one seen, shows first
    refused([*base, show("A", "7s 7h Qc"), bet("A", 2)], "5.8", "A")
    # Equal hands: the payer B loses (RULES 2.7, 5.8).
    s = run([*base, show("A", "7s 7h Qc"), show("B", "7c 7d Qd")])
    o = s.outcomes[-1]
    assert (o.winner, o.amount, o.showdown, o.hand) == ("A", 8, True, "pair")
    assert s.nets == {"A": 5, "B": -5}
    # The payer wins only with a strictly better hand.
    s = run([*base, show("A", "7s 7h Qc"), show("B", "7c 7d Kd")])
    assert s.outcomes[-1].winner == "B" and s.nets == {"A": -3, "B": 3}


def test_5_8_conceding_only_the_payer_and_only_after_the_opponents_three_cards() -> None:
    base = [*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 2), saw("B")]
    refused([*base, concede("B")], "5.8", "A")  # A's three cards not shown yet
    refused([*base, show("A", "7s 7h Qc"), concede("A")], "5.8", "A")  # A is not the payer
    s = run([*base, show("A", "7s 7h Qc"), concede("B")])
    assert s.outcomes[-1].winner == "A" and s.outcomes[-1].hand == "pair"
    # With every card known, a payer who would win may not concede.
    hands = {"A": "7s 7h Qc", "B": "Ac Ad 2h"}
    order = pack_for("AB", "B", hands)
    known = [*start("AB", "B", cards="all", order=order), dealt(hands), *all_seen("AB")]
    known += [bet("A", 2), saw("B"), show("A", "7s 7h Qc")]
    refused([*known, concede("B")], "5.8", "B")


def test_5_8_two_blind_players_turn_cards_alternately() -> None:
    base = [*start("AB", "B"), dealt(), bet("A", 2), saw("B", paid=2)]
    assert run(base).pot == 2 + 1 + 2
    refused([*base, show("A", "2c 3c 4c")], "5.8", "A")  # one card at a time
    refused([*base, show("B", "Qs")], "5.8", "B")  # the opponent A turns first
    refused([*base, show("A", "2c"), show("A", "3c")], "5.8", "A")  # alternately
    turned = [*base, show("A", "2c"), show("B", "Qs"), show("A", "3c"), show("B", "Qd")]
    refused([*turned, concede("B")], "5.8", "B")  # A's third card not yet shown
    turned.append(show("A", "4c"))
    s = run([*turned, show("B", "Kh")])
    o = s.outcomes[-1]
    assert (o.winner, o.hand, o.cards) == ("A", "running flush", ("2c", "3c", "4c"))
    s = run([*turned, concede("B")])  # after A's third card the payer may concede
    assert s.outcomes[-1].winner == "A" and s.nets == {"A": 3, "B": -3}


def test_5_9_and_5_10_the_cards_worked_example() -> None:
    log = [*start("ABCD", "D"), dealt(), *all_seen("ABCD")]
    log += [bet("A", 2), bet("B", 2), fold("C"), fold("D"), saw("A", paid=4)]
    s = run(log)
    assert s.pot == 12
    s = run([*log, show("B", "5s 6h 7d"), show("A", "Kc 9c 4c")])
    o = s.outcomes[-1]
    assert (o.winner, o.amount, o.showdown, o.hand) == ("B", 12, True, "run")
    assert s.nets == {"A": -7, "B": 9, "C": -1, "D": -1}
    assert sum(s.nets.values()) == 0 and s.pot == 0


# --- RULES 6: carried pot and retained blind hands ----------------------------------------------


def test_6_1_blind_survivor_pot_carried() -> None:
    steps = list(complete((n, parse_raw(e)) for n, e in enumerate(CARRY, start=1)))
    carried = steps[-1].event
    assert isinstance(carried, PotCarried)
    assert (carried.player, carried.amount, carried.deal) == ("A", F(7, 2), 1)
    s = steps[-1].state
    assert s.phase is Phase.CARRIED and s.pot == F(7, 2) and s.resolved == 0 and s.carried == 1
    assert s.nets == {"A": F(-3, 2), "B": -1, "C": -1}
    assert summary(s)["outcomes"] == [
        {
            "deal": 1,
            "dealer": "C",
            "result": "carried",
            "winner": None,
            "amount": "7/2",
            "showdown": False,
            "blind": "A",
        }
    ]


def test_6_2_only_the_blind_survivor_may_retain_or_give_up() -> None:
    refused([*CARRY, retain("B")], "6.2", "B")
    s = run([*CARRY, retain("A")])
    assert s.retained is not None and s.retained[0] == 0 and s.phase is Phase.BETWEEN
    s = run([*CARRY, dealt()])  # gave it up: one fresh hand
    assert len(s.players[0].hands) == 1
    seen_survivor = [*start("AB", "B"), dealt(), look("A"), bet("A", 1), fold("B")]
    refused([*seen_survivor, retain("A")], "6.2", "A")


def test_6_3_the_retainer_holds_two_blind_hands_in_the_next_deal() -> None:
    s = run([*CARRY, retain("A"), dealt()])
    a = s.players[0]
    assert [h.origin for h in a.hands] == ["old", "new"] and a.blind
    assert s.dealer_name == "A" and s.turn_name == "B"
    assert s.pot == F(7, 2) + 3
    assert [a.event for a in legal_actions(s) if a.player == "A"] == [
        parse_raw({"type": "looked", "player": "A", "hand": "old"}),
        parse_raw({"type": "looked", "player": "A", "hand": "new"}),
    ]


def test_6_4_two_hand_procedure_keep_or_throw_never_both() -> None:
    two = [*CARRY, retain("A"), dealt()]
    # Look at the old hand and keep it: the new one is thrown unseen; A is seen.
    s = run([*two, look("A", "old"), kept("A")])
    a = s.players[0]
    assert a.seen and [h.origin for h in a.hands] == ["old"]
    # Look at the new hand and throw it: A keeps the old one, still blind, and may then look at it.
    s = run([*two, look("A", "new"), thrown("A")])
    a = s.players[0]
    assert a.blind and [h.origin for h in a.hands] == ["old"]
    assert run([*two, look("A", "new"), thrown("A"), look("A")]).players[0].seen
    # Never look at both, and decide at once.
    refused([*two, look("A", "old"), look("A", "new")], "6.4", "A")
    refused([*two, look("A", "old"), look("B")], "6.4", "A")
    refused([*two, look("A")], "6.4", "A")  # which of the two?
    refused([*two, kept("A")], "6.4", "A")  # nothing looked at yet
    refused([*two, look("A", "old"), kept("A"), kept("A")], "6.4", "A")


def test_6_4_only_a_holder_of_two_hands_names_the_hand_looked_at() -> None:
    # FORMAT.md: a looked's "hand" is only for a holder of two hands (found by a differential run:
    # a holder of one hand naming it was accepted).
    base = [*start(), dealt()]
    refused([*base, look("A", "new")], "6.4", "A")
    refused([*base, look("A", "old")], "6.4", "A")
    # After throwing the first, the other is an ordinary single blind hand: looked at unnamed.
    two = [*CARRY, retain("A"), dealt()]
    refused([*two, look("A", "new"), thrown("A"), look("A", "old")], "6.4", "A")
    assert run([*two, look("A", "new"), thrown("A"), look("A")]).players[0].seen


def test_6_4_the_thrown_hand_goes_under_the_pack() -> None:
    h1 = {"A": "Ah Kh Qh", "B": "2c 3d 4d", "C": "9s 9h 9d"}
    order = pack_for("ABC", "C", h1)
    log = [*start(cards="all", order=order), dealt(h1), look("B"), look("C"), bet("A", 1)]
    log += [fold("B"), fold("C"), retain("A")]
    code = {c: i for i, c in enumerate(ALL_CARDS)}
    rest = order[9:]
    # Deal 2 by A: B, C, A from the top of the pack (B and C's folded hands are under it).
    h2 = {p: " ".join(rest[r * 3 + k] for r in range(3)) for k, p in enumerate("BCA")}
    log += [dealt(h2)]
    before = run(log).pack
    assert before is not None and len(before) == 52 - 3 - 9
    s = run([*log, look("A", "new"), thrown("A")])
    assert s.pack == before + tuple(code[c] for c in h2["A"].split())


def test_6_5_the_holder_makes_one_blind_payment_per_turn() -> None:
    s = run(
        [*CARRY, retain("A"), dealt(), look("B"), look("C"), bet("B", 4), bet("C", 4), bet("A", 4)]
    )
    assert s.paid_in_deal("A") == 1 + 2
    assert s.pot == F(7, 2) + 3 + 4 + 4 + 2


def test_6_6_two_hands_are_reduced_before_the_showdown() -> None:
    log = [*CARRY, retain("A"), dealt(), look("B"), look("C"), bet("B", 2), fold("C")]
    log += [bet("A", 2), saw("B")]
    # Seen B cannot see blind A: A must see.
    refused(log, "5.7", "B")
    log = [*log[:-2], bet("A", 2), bet("B", 2), saw("A", paid=2)]
    s = run(log)
    assert s.phase is Phase.SHOWDOWN and s.players[0].two_hands
    refused([*log, show("B", "Kc Kd 2h")], "6.6", "A")
    s = run([*log, look("A", "old"), thrown("A"), show("B", "Kc Kd 2h"), show("A", "4s 5s 6s")])
    assert s.outcomes[-1].winner == "A" and s.outcomes[-1].hand == "running flush"


def test_6_7_carried_again_retain_only_one_without_looking() -> None:
    log = [*CARRY, retain("A"), dealt(), look("B"), look("C"), bet("B", 1), fold("C"), bet("A", 1)]
    log += [fold("B")]
    s = run(log)
    assert s.phase is Phase.CARRIED and s.carried == 2 and s.players[0].two_hands
    refused([*log, retain("A")], "6.7", "A")  # which one? never three
    s = run([*log, retain("A", "new")])
    assert s.retained is not None and s.retained[1].origin == "new"
    s = run([*log, retain("A", "new"), dealt()])
    assert [h.origin for h in s.players[0].hands] == ["old", "new"]  # two, never three
    assert s.dealer_name == "B"


# --- corrections and derived events -------------------------------------------------------------


def test_voided_withdraws_the_latest_recorded_event_and_its_derived_events() -> None:
    base = [*start("ABC", "C"), dealt(), *all_seen("ABC"), bet("A", 2)]
    s = run([*base, bet("B", 3), {"type": "voided", "seq": 9}])
    assert s.level == 2 and s.turn_name == "B" and s.pot == 5
    # A fold that ended the deal: voiding it withdraws the pot_won too.
    ended = [*base, fold("B"), fold("C")]
    steps = list(complete((n, parse_raw(e)) for n, e in enumerate(ended, start=1)))
    assert isinstance(steps[-1].event, PotWon)
    assert can_void(steps[-1].state) == 10
    s = run([*ended, {"type": "voided", "seq": 10}])
    assert s.in_deal and s.turn_name == "C" and s.resolved == 0 and s.pot == 5
    assert s.nets == {"A": -3, "B": -1, "C": -1}
    s = run([*ended, {"type": "voided", "seq": 10}, bet("C", 2)])
    assert s.pot == 7
    # Voiding twice withdraws the one before; a void of anything else is refused.
    s = run([*ended, {"type": "voided", "seq": 10}, {"type": "voided", "seq": 9}])
    assert s.turn_name == "B"
    refused([*ended, {"type": "voided", "seq": 9}], "FORMAT")


def test_derived_events_in_the_log_must_agree() -> None:
    log = [*start("ABC", "C"), dealt(), *all_seen("ABC"), bet("A", 2), fold("B"), fold("C")]
    good = {"type": "pot_won", "deal": 1, "player": "A", "amount": 5, "showdown": False}
    assert run([*log, good]).resolved == 1
    refused([*log, dict(good, amount=6)], "5.6")
    refused([*log, dict(good, player="B")], "5.6")
    refused([*log[:-1], good], "5.6")  # nothing concluded yet
    carried = {"type": "pot_carried", "deal": 1, "player": "A", "amount": "7/2"}
    assert run([*CARRY, carried]).carried == 1
    refused([*CARRY, dict(carried, amount=3)], "6.1")


# --- legal_actions -------------------------------------------------------------------------------


def test_legal_actions_list_costs() -> None:
    s = run([*start("ABC", "C"), dealt(), look("B"), bet("A", 4)])
    costs = {(a.kind, getattr(a.event, "level", None)): a.cost for a in legal_actions(s)}
    assert s.turn_name == "B"
    assert costs[("bet", 4)] == 4 and costs[("bet", 9)] == 9  # seen B pays the level
    assert ("looked", None) not in costs  # B is already seen
    s = run([*start("ABC", "C"), dealt(), bet("A", 4)])
    acts = legal_actions(s)
    bets = {getattr(a.event, "level", None): a.cost for a in acts if a.kind == "bet"}
    assert bets[4] == 2  # level 4 costs a blind player 2
    assert bets[5] == F(5, 2)
    assert {a.kind for a in acts} == {"looked", "bet", "folded"}
    # Two left: the see costs the level for a blind player, twice the level for a seen one.
    s = run([*start("AB", "B"), dealt(), bet("A", 4)])
    see = [a for a in legal_actions(s) if a.kind == "saw"]
    assert len(see) == 1 and see[0].cost == 4
    s = run([*start("AB", "B"), dealt(), *all_seen("AB"), bet("A", 4)])
    see = [a for a in legal_actions(s) if a.kind == "saw"]
    assert see[0].cost == 8
    s = run([*start("AB", "B"), dealt(), look("B"), bet("A", 4)])
    assert not [a for a in legal_actions(s) if a.kind == "saw"]  # seen B cannot see blind A


def test_refusals_are_value_errors_with_rule_player_and_line() -> None:
    base = [*start("AB", "B"), dealt(), look("B"), bet("A", 3)]
    with pytest.raises(ValueError) as info:
        run([*base, saw("B")])
    err = info.value
    assert isinstance(err, RuleViolation)
    assert err.rule == "5.7" and err.player == "B" and err.line == 7 and err.event == "saw"
    assert err.to_json()["rule"] == "5.7"
    assert "RULES 5.7: B is seen and cannot see a blind player" in str(err)
    with pytest.raises(FormatError):
        run([{"type": "dealt"}])


def test_derived_events_are_optional_one_by_one_and_compared_by_meaning() -> None:
    log = [*start("AB", "B", rules={"pots": 1}), dealt(), *all_seen("AB"), bet("A", 2), saw("B")]
    log += [show("A", "7s 7h Qc"), concede("B")]
    won = {"type": "pot_won", "deal": 1, "player": "A", "amount": 8, "showdown": True}
    ended = {"type": "session_ended", "nets": {"B": -5, "A": 5}, "winners": ["A"]}
    # session_ended given, pot_won left out: the engine adds the pot_won before it.
    assert run([*log, ended]).finished
    # hand and cards may be left out, and the cards listed in any order.
    assert run([*log, won, ended]).finished
    assert run([*log, dict(won, hand="pair", cards=["Qc", "7s", "7h"])]).finished
    refused([*log, dict(won, hand="run")], "5.9")
    refused([*log, dict(won, cards=["7s", "7h", "Kc"])], "5.9")
    refused([*log, won, dict(ended, winners=["A", "B"])], "1.5")
    refused([*log, won, dict(ended, nets={"A": 2, "B": -2})], "1.5")
    # A shared win: the winners in any order.
    eight = start("AB", "B", rules={"pots": 2})
    eight += [dealt(), *all_seen("AB"), bet("A", 1), fold("B")]
    eight += [dealt(), *all_seen("BA"), bet("B", 1), fold("A")]
    assert run([*eight, {"type": "session_ended", "nets": {"A": 0, "B": 0}, "winners": ["B", "A"]}])


def test_seq_counts_the_stream_or_the_file() -> None:
    log = [*start("AB", "B", rules={"pots": 2}), dealt(), *all_seen("AB"), bet("A", 1), fold("B")]
    log += [dealt(), look("A")]
    # seq numbering the stream: the pot_won the log leaves out has position 9.
    stream = [dict(e, seq=n + (n > 8)) for n, e in enumerate(log, start=1)]
    assert run(stream).deals == 2
    # seq numbering only the file's events is read too.
    file = [dict(e, seq=n) for n, e in enumerate(log, start=1)]
    assert run(file).deals == 2
    gap = [dict(e, seq=n + 2 * (n > 8)) for n, e in enumerate(log, start=1)]
    refused(gap[:9], "FORMAT")
    # Once the seqs fit only one numbering, they keep to it; a repeated seq is refused.
    refused([*stream, dict(bet("B", 1), seq=11)], "FORMAT")
    refused([*file, dict(bet("B", 1), seq=10)], "FORMAT")
    assert run([*file, dict(bet("B", 1), seq=11)]).level == 1
    assert run([*stream, dict(bet("B", 1), seq=12)]).level == 1


def test_complete_from_a_start_state_continues_its_numbering() -> None:
    # complete(lines, state): the lines continue the stream after ``state`` (its seq), so their
    # seqs go on from there (they were checked as if the log started at 1).
    log = [*start("AB", "B", rules={"pots": 2}), dealt(), *all_seen("AB"), bet("A", 1), fold("B")]
    log += [dealt(), look("A")]
    stream = [dict(e, seq=n + (n > 8)) for n, e in enumerate(log, start=1)]
    lines = [(n, parse_raw(e)) for n, e in enumerate(stream, start=1)]
    whole = list(complete(lines))
    head = list(complete(lines[:6]))
    tail = list(complete(lines[6:], head[-1].state))
    assert [s.event for s in tail] == [s.event for s in whole[6:]]
    assert [s.line for s in tail] == [s.line for s in whole[6:]]
    assert tail[-1].state.seq == whole[-1].state.seq == 11


def test_one_dispatch_covers_every_recorded_event(monkeypatch: pytest.MonkeyPatch) -> None:
    # During the session apply's one match hands every recorded event but voided and amended to
    # its rule (mypy checks the match leaves no event out; this checks the rules are reached).
    from importlib import import_module
    from typing import get_args

    from events.model import Amended, RecordedEvent, Voided

    module = import_module("engine.apply")  # the module, whatever the package binds to "apply"

    reached: list[type] = []
    rules = ("session_started_again", "dealer_chosen", "shuffled", "dealt", "looked", "bet")
    rules += ("folded", "saw", "shown", "conceded", "kept_or_thrown", "retained")
    for name in rules:
        monkeypatch.setattr(module, name, lambda s, e: reached.append(type(e)) or s)
    state = State(phase=Phase.BETTING)
    for cls in get_args(RecordedEvent):
        if cls not in (Voided, Amended):
            module.apply(state, cls.model_construct())
    assert set(reached) | {Voided, Amended} == set(get_args(RecordedEvent))
