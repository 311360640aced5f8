"""Every legal next recorded event, with what it costs (the recorder, simulator and tests use it).

:func:`options` decides what may happen next after a :class:`~engine.state.State` (RULES 3 to
6), as light :class:`Option` values (kind, player, cost in ticks, level, hand, cards): the one
place that says so. :func:`legal_actions` gives the same options, in the same order, as
:class:`LegalAction` values, each holding a ready event and the sentence a recorder shows; where
the log needs an input the engine cannot know (the cards shown at a real table, a shuffle's
order), ``needs`` names it and the event is a template to complete. Analytics reads
:func:`options` (no events to build); the recorder, the simulator and the tests read
:func:`legal_actions`. Corrections (``voided``) are not table actions and are not listed: see
:func:`can_void`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from engine.pack import possible_cards
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

__all__ = [
    "LegalAction",
    "Option",
    "can_void",
    "describe_action",
    "legal_actions",
    "options",
    "possible_cards",
]

Need = Literal["cards", "order", "hands"]


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One legal next event.

    ``event``: the event to record (a template when ``needs`` is not empty); ``player``: who acts
    (``None`` for the table: shuffle, deal); ``cost``: what the player pays, in stake units (exact);
    ``needs``: inputs still to supply (``"cards"`` for a ``shown`` at a ``cards: "shown"`` table,
    ``"order"`` for a shuffle whose order may be recorded (``cards: "all"`` only), ``"hands"`` for
    a deal whose cards are recorded but not tracked); ``label``: the sentence a recorder shows on
    the button.
    """

    event: RecordedEvent
    player: str | None
    cost: Fraction
    needs: tuple[Need, ...] = ()
    label: str = ""

    @property
    def kind(self) -> str:
        return self.event.type


class Option(NamedTuple):
    """One legal next event, without the event: ``kind`` (its FORMAT.md type), ``player`` who
    acts (``None`` for the table: shuffle, deal), ``cost_t`` what they pay in ticks (``1/scale``
    stake units), and what tells it from the others of its kind: ``level`` (a bet), ``hand``
    (``old``/``new``: the hand a look or a retain names, or the one a keep or throw concerns),
    ``cards`` (a showdown's card or hand; a template when ``needs`` holds ``"cards"``) and
    ``needs`` (as :class:`LegalAction`)."""

    kind: str
    player: str | None = None
    cost_t: int = 0
    level: int | None = None
    hand: Literal["old", "new"] | None = None
    cards: tuple[str, ...] = ()
    needs: tuple[Need, ...] = ()


_option = tuple.__new__
"""Builds an :class:`Option` from all seven fields at once (the fold's hot path: analytics asks
for the options before every decision); the same value as ``Option(...)``."""


def options(state: State) -> list[Option]:
    """Every legal next recorded event after ``state`` (RULES 3 to 6), in a stable order, as
    :class:`Option` values.

    Shape: ``list[Option]``; empty before ``session_started`` (it needs the seats), while the
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


def legal_actions(state: State) -> list[LegalAction]:
    """Every legal next recorded event after ``state`` (RULES 3 to 6), in a stable order: each
    of :func:`options` with its event and its sentence.

    Shape: ``list[LegalAction]``; empty before ``session_started`` (it needs the seats), while the
    engine's conclusions are pending, and once the session is over (RULES 1.4)."""
    return [_ACTION[o.kind](state, o) for o in options(state)]


# --- what may happen next ------------------------------------------------------------------------


def _deal_option(state: State) -> Option:
    if state.cards_mode == "all" and pack_at_deal(state) is None:
        return Option("dealt", needs=("hands",))
    return Option("dealt")


def _between(state: State) -> list[Option]:
    out: list[Option] = []
    if state.first_dealer is None:
        out += [Option("dealer_chosen", p) for p in state.seats]
    if state.shuffle_due:
        # FORMAT.md "cards": a shuffle's order is recorded only when every card is (cards: "all").
        out.append(Option("shuffled", needs=("order",) if state.cards_mode == "all" else ()))
    elif state.first_dealer is not None:
        out.append(_deal_option(state))
    return out


def _carried(state: State) -> list[Option]:
    assert state.survivor is not None
    p = state.players[state.survivor]
    if p.two_hands:
        out = [Option("retained", p.name, hand=h.origin) for h in p.hands]
    else:
        out = [Option("retained", p.name)]
    return [*out, _deal_option(state)]


def _looks(p: PlayerState) -> list[Option]:
    if p.two_hands:
        return [Option("looked", p.name, hand=h.origin) for h in p.hands]
    return [Option("looked", p.name)]


def _keep_throw(p: PlayerState) -> list[Option]:
    return [Option("kept", p.name, hand=p.looking), Option("thrown", p.name, hand=p.looking)]


def _betting(state: State) -> list[Option]:
    for p in state.players:
        if p.looking is not None:
            return _keep_throw(p)
    assert state.turn is not None
    t = state.turn
    name = state.seats[t]
    fold = _option(Option, ("folded", name, 0, None, None, (), ()))
    return [*_looks_now(state), *_bets(state, t), fold, *_see(state, t)]


def _looks_now(state: State) -> list[Option]:
    """RULES 5.1: every blind player before the first bet; afterwards the blind one whose turn
    it is."""
    out: list[Option] = []
    for i, p in enumerate(state.players):
        if not p.folded and p.blind and may_look(state, i):
            out += _looks(p)
    return out


def _bets(state: State, t: int) -> list[Option]:
    """RULES 5.3-5.5: a bet at every level allowed, at what it costs this player."""
    name = state.seats[t]
    lo, hi = level_bounds(state)
    return [
        _option(Option, ("bet", name, bet_cost(state, t, lv), lv, None, (), ()))
        for lv in range(lo, hi + 1)
    ]


def _see(state: State, t: int) -> list[Option]:
    """RULES 5.7: a see, where :func:`~engine.rules.betting.can_see` allows it."""
    if not can_see(state, t):
        return []
    return [Option("saw", state.seats[t], see_cost(state, t))]


def _showdown(state: State) -> list[Option]:
    assert state.payer is not None and state.opponent is not None
    pay, opp = state.players[state.payer], state.players[state.opponent]
    for q in (opp, pay):  # RULES 6.6: reduce two hands first
        if q.looking is not None:
            return _keep_throw(q)
        if q.two_hands:
            return _looks(q)
    if both_blind(state):
        who = opp if next_to_turn(state) == state.opponent else pay
        out = _show_cards(who, one=True)
        if who is pay and len(opp.shown) == 3:
            out += _concede(state, pay)
        return out
    if len(opp.shown) < 3:
        return _show_cards(opp, one=False)
    return [*_show_cards(pay, one=False), *_concede(state, pay)]


def _concede(state: State, p: PlayerState) -> list[Option]:
    """RULES 5.8: a losing payer may concede; where the cards are known, only a losing one."""
    return [Option("conceded", p.name)] if may_concede(state) else []


def _show_cards(p: PlayerState, *, one: bool) -> list[Option]:
    hand = p.hands[0].cards
    if hand is None:
        template = ("2c",) if one else ("2c", "3c", "4c")
        return [Option("shown", p.name, cards=template, needs=("cards",))]
    if not one:
        return [Option("shown", p.name, cards=card_texts(hand))]
    left = card_texts(tuple(x for x in hand if x not in p.shown))
    return [Option("shown", p.name, cards=(c,)) for c in left]


# --- each option as an event and its sentence ----------------------------------------------------


def _dealer_chosen(state: State, o: Option) -> LegalAction:
    p = o.player or ""
    return LegalAction(DealerChosen(player=p), p, Fraction(0), label=f"{p} deals first")


def _shuffled(state: State, o: Option) -> LegalAction:
    if not o.needs:  # cards: "shown": no order to record (the Record page's own sentence)
        return LegalAction(Shuffled(), None, Fraction(0), label="shuffle the pack")
    return LegalAction(Shuffled(), None, Fraction(0), o.needs, label="shuffle")


def _dealt(state: State, o: Option) -> LegalAction:
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


def _retained(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    what = "the hand" if o.hand is None else f"the {o.hand} hand"
    event = Retained(player=name) if o.hand is None else Retained(player=name, hand=o.hand)
    return LegalAction(event, name, Fraction(0), label=f"{name} retains {what}")


def _looked(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    if o.hand is None:
        return LegalAction(Looked(player=name), name, Fraction(0), label=f"{name} looks")
    return LegalAction(
        Looked(player=name, hand=o.hand),
        name,
        Fraction(0),
        label=f"{name} looks at the {o.hand} hand",
    )


def _kept(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    label = f"{name} keeps the {o.hand} hand"
    return LegalAction(Kept(player=name), name, Fraction(0), label=label)


def _thrown(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    label = f"{name} throws the {o.hand} hand"
    return LegalAction(Thrown(player=name), name, Fraction(0), label=label)


def _bet(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    lv = o.level or 0
    cost = state.units(o.cost_t)
    blind = state.players[state.seat(name)].blind
    verb = "bets" if state.level is None or lv == state.level else "raises to"
    return LegalAction(
        Bet(player=name, level=Fraction(lv)),
        name,
        cost,
        label=f"{name} {verb} level {lv}: pays {amount_text(cost)}" + (", blind" if blind else ""),
    )


def _folded(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    return LegalAction(Folded(player=name), name, Fraction(0), label=f"{name} folds")


def _saw(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    t = state.seat(name)
    target = see_target(state, t)
    assert target is not None
    cost = state.units(o.cost_t)
    why = "twice the level" if state.players[t].seen else "the level, being blind"
    label = f"{name} sees {state.seats[target]}: pays {amount_text(cost)}, {why}"
    return LegalAction(Saw(player=name), name, cost, label=label)


def _shown(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    event = Shown(player=name, cards=o.cards)
    if o.needs:
        what = "a card" if len(o.cards) == 1 else "the hand"
        return LegalAction(event, name, Fraction(0), o.needs, label=f"{name} shows {what}")
    if len(o.cards) == 1:
        return LegalAction(event, name, Fraction(0), label=f"{name} turns {o.cards[0]}")
    return LegalAction(event, name, Fraction(0), label=f"{name} shows {' '.join(o.cards)}")


def _conceded(state: State, o: Option) -> LegalAction:
    name = o.player or ""
    return LegalAction(Conceded(player=name), name, Fraction(0), label=f"{name} concedes")


_ACTION: dict[str, Callable[[State, Option], LegalAction]] = {
    "dealer_chosen": _dealer_chosen,
    "shuffled": _shuffled,
    "dealt": _dealt,
    "retained": _retained,
    "looked": _looked,
    "kept": _kept,
    "thrown": _thrown,
    "bet": _bet,
    "folded": _folded,
    "saw": _saw,
    "shown": _shown,
    "conceded": _conceded,
}
"""Each option's kind -> its :class:`LegalAction` (event and sentence)."""


def describe_action(action: LegalAction) -> str:
    """The recorder's sentence for an action (its ``label``)."""
    return action.label or action.event.type
