"""Every legal next recorded event, with what it costs (the recorder, simulator and tests use it).

:func:`legal_actions` lists :class:`LegalAction` values for a :class:`~engine.state.State`.
Each holds a ready event; where the log needs an input the engine cannot know (the cards shown at
a real table, a shuffle's order), ``needs`` names it and the event is a template to complete.
Corrections (``voided``) are not table actions and are not listed: see :func:`can_void`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from engine.rules.betting import bet_cost, can_see, level_bounds, may_look, see_cost, see_target
from engine.rules.deal import deal_order, from_pack, next_dealer, pack_at_deal
from engine.rules.showdown import both_blind, may_concede, next_to_turn
from engine.rules.voided import can_void
from engine.state import Phase, PlayerState, State, card_texts
from events.amounts import amount_text
from events.model import (
    Bet,
    Conceded,
    DealerChosen,
    Dealt,
    Folded,
    Kept,
    Looked,
    RecordedEvent,
    Retained,
    Saw,
    Shown,
    Shuffled,
    Thrown,
)

__all__ = ["LegalAction", "can_void", "describe_action", "legal_actions"]

Need = Literal["cards", "order", "hands"]


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One legal next event.

    ``event``: the event to record (a template when ``needs`` is not empty); ``player``: who acts
    (``None`` for the table: shuffle, deal); ``cost``: what the player pays, in stake units (exact);
    ``needs``: inputs still to supply (``"cards"`` for a ``shown`` at a ``cards: "shown"`` table,
    ``"order"`` for a shuffle whose order may be recorded, ``"hands"`` for a deal whose cards are
    recorded but not tracked); ``label``: the sentence a recorder shows on the button.
    """

    event: RecordedEvent
    player: str | None
    cost: Fraction
    needs: tuple[Need, ...] = ()
    label: str = ""

    @property
    def kind(self) -> str:
        return self.event.type


def legal_actions(state: State) -> list[LegalAction]:
    """Every legal next recorded event after ``state`` (RULES 3 to 6), in a stable order.

    Shape: ``list[LegalAction]``; empty before ``session_started`` (it needs the seats), while the
    engine's conclusions are pending, and once the session is over (RULES 1.4)."""
    if state.pending or state.phase in (Phase.NEW, Phase.OVER):
        return []
    if state.phase is Phase.BETWEEN:
        return _between(state)
    if state.phase is Phase.CARRIED:
        return _carried(state)
    if state.phase is Phase.SHOWDOWN:
        return _showdown(state)
    return _betting(state)


def _deal_action(state: State) -> LegalAction:
    if state.cards_mode == "shown":
        return LegalAction(Dealt(), None, Fraction(0), label="deal")
    pack = pack_at_deal(state)
    if pack is None:
        return LegalAction(Dealt(), None, Fraction(0), ("hands",), label="deal (record the hands)")
    order = deal_order(state, next_dealer(state))
    hands: dict[str, tuple[str, str, str]] = {}
    for k, i in enumerate(order):
        cs = card_texts(from_pack(pack, order, k))
        hands[state.seats[i]] = (cs[0], cs[1], cs[2])
    return LegalAction(Dealt(hands=hands), None, Fraction(0), label="deal")


def _between(state: State) -> list[LegalAction]:
    out: list[LegalAction] = []
    if state.first_dealer is None:
        out += [
            LegalAction(DealerChosen(player=p), p, Fraction(0), label=f"{p} deals first")
            for p in state.seats
        ]
    if state.shuffle_due:
        out.append(LegalAction(Shuffled(), None, Fraction(0), ("order",), label="shuffle"))
    elif state.first_dealer is not None:
        out.append(_deal_action(state))
    return out


def _carried(state: State) -> list[LegalAction]:
    assert state.survivor is not None
    p = state.players[state.survivor]
    out: list[LegalAction] = []
    if p.two_hands:
        out += [
            LegalAction(
                Retained(player=p.name, hand=h.origin),
                p.name,
                Fraction(0),
                label=f"{p.name} retains the {h.origin} hand",
            )
            for h in p.hands
        ]
    else:
        out.append(
            LegalAction(
                Retained(player=p.name), p.name, Fraction(0), label=f"{p.name} retains the hand"
            )
        )
    out.append(_deal_action(state))
    return out


def _looks(state: State, i: int, p: PlayerState) -> list[LegalAction]:
    if p.two_hands:
        return [
            LegalAction(
                Looked(player=p.name, hand=h.origin),
                p.name,
                Fraction(0),
                label=f"{p.name} looks at the {h.origin} hand",
            )
            for h in p.hands
        ]
    return [LegalAction(Looked(player=p.name), p.name, Fraction(0), label=f"{p.name} looks")]


def _keep_throw(p: PlayerState) -> list[LegalAction]:
    return [
        LegalAction(
            Kept(player=p.name), p.name, Fraction(0), label=f"{p.name} keeps the {p.looking} hand"
        ),
        LegalAction(
            Thrown(player=p.name),
            p.name,
            Fraction(0),
            label=f"{p.name} throws the {p.looking} hand",
        ),
    ]


def _betting(state: State) -> list[LegalAction]:
    for p in state.players:
        if p.looking is not None:
            return _keep_throw(p)
    assert state.turn is not None
    t = state.turn
    return [*_looks_now(state), *_bets(state, t), *_fold(state, t), *_see(state, t)]


def _looks_now(state: State) -> list[LegalAction]:
    """RULES 5.1: every blind player before the first bet; afterwards the blind one whose turn
    it is."""
    out: list[LegalAction] = []
    for i, p in enumerate(state.players):
        if not p.folded and p.blind and may_look(state, i):
            out += _looks(state, i, p)
    return out


def _bets(state: State, t: int) -> list[LegalAction]:
    """RULES 5.3-5.5: a bet at every level allowed, at what it costs this player."""
    p = state.players[t]
    lo, hi = level_bounds(state)
    out: list[LegalAction] = []
    for lv in range(lo, hi + 1):
        cost = state.units(bet_cost(state, t, lv))
        verb = "bets" if state.level is None or lv == state.level else "raises to"
        out.append(
            LegalAction(
                Bet(player=p.name, level=Fraction(lv)),
                p.name,
                cost,
                label=f"{p.name} {verb} level {lv}: pays {amount_text(cost)}"
                + (", blind" if p.blind else ""),
            )
        )
    return out


def _fold(state: State, t: int) -> list[LegalAction]:
    name = state.seats[t]
    return [LegalAction(Folded(player=name), name, Fraction(0), label=f"{name} folds")]


def _see(state: State, t: int) -> list[LegalAction]:
    """RULES 5.7: a see, where :func:`~engine.rules.betting.can_see` allows it."""
    if not can_see(state, t):
        return []
    o = see_target(state, t)
    assert o is not None
    p, opp = state.players[t], state.players[o]
    cost = state.units(see_cost(state, t))
    why = "twice the level" if p.seen else "the level, being blind"
    label = f"{p.name} sees {opp.name}: pays {amount_text(cost)}, {why}"
    return [LegalAction(Saw(player=p.name), p.name, cost, label=label)]


def _showdown(state: State) -> list[LegalAction]:
    assert state.payer is not None and state.opponent is not None
    pay, opp = state.players[state.payer], state.players[state.opponent]
    for q in (opp, pay):  # RULES 6.6: reduce two hands first
        if q.looking is not None:
            return _keep_throw(q)
        if q.two_hands:
            return _looks(state, state.opponent if q is opp else state.payer, q)
    if both_blind(state):
        who = opp if next_to_turn(state) == state.opponent else pay
        out = _show_cards(state, who, one=True)
        if who is pay and len(opp.shown) == 3:
            out += _concede(state, pay)
        return out
    if len(opp.shown) < 3:
        return _show_cards(state, opp, one=False)
    return [*_show_cards(state, pay, one=False), *_concede(state, pay)]


def _concede(state: State, p: PlayerState) -> list[LegalAction]:
    """RULES 5.8: a losing payer may concede; where the cards are known, only a losing one."""
    if not may_concede(state):
        return []
    return [LegalAction(Conceded(player=p.name), p.name, Fraction(0), label=f"{p.name} concedes")]


def _show_cards(state: State, p: PlayerState, *, one: bool) -> list[LegalAction]:
    hand = p.hands[0].cards
    if hand is None:
        what = "a card" if one else "the hand"
        return [
            LegalAction(
                Shown(player=p.name, cards=("2c",) if one else ("2c", "3c", "4c")),
                p.name,
                Fraction(0),
                ("cards",),
                label=f"{p.name} shows {what}",
            )
        ]
    if not one:
        cs = card_texts(hand)
        return [
            LegalAction(
                Shown(player=p.name, cards=cs),
                p.name,
                Fraction(0),
                label=f"{p.name} shows {' '.join(cs)}",
            )
        ]
    return [
        LegalAction(
            Shown(player=p.name, cards=(c,)), p.name, Fraction(0), label=f"{p.name} turns {c}"
        )
        for c in card_texts(tuple(x for x in hand if x not in p.shown))
    ]


def describe_action(action: LegalAction) -> str:
    """The recorder's sentence for an action (its ``label``)."""
    return action.label or action.event.type
