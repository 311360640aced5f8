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

from engine.hands import strength_codes
from engine.state import Phase, PlayerState, State, card_texts
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


def _amt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator == 2:
        return f"{x.numerator // 2}½" if x.numerator > 1 else "½"
    return f"{x.numerator}/{x.denominator}"


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
    if state.pack is None:
        return LegalAction(Dealt(), None, Fraction(0), ("hands",), label="deal (record the hands)")
    n = len(state.seats)
    dealer = state.first_dealer if state.deals == 0 else (state.dealer or 0) + 1
    assert dealer is not None
    dealer %= n
    pack = state.pack
    if state.phase is Phase.CARRIED and state.survivor is not None:
        for h in state.players[state.survivor].hands:
            if h.cards is not None:
                pack = pack + h.cards
    order = [(dealer + 1 + k) % n for k in range(n)]
    hands: dict[str, tuple[str, str, str]] = {}
    for k, i in enumerate(order):
        cs = card_texts((pack[k], pack[n + k], pack[2 * n + k]))
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
    out: list[LegalAction] = []
    blind_play = state.rules.blind_play
    if blind_play:
        if not state.betting_started:
            for i, p in enumerate(state.players):
                if not p.folded and p.blind:
                    out += _looks(state, i, p)
        elif state.turn is not None and state.players[state.turn].blind:
            out += _looks(state, state.turn, state.players[state.turn])
    assert state.turn is not None
    t = state.turn
    p = state.players[t]
    r = state.rules
    if state.level is None:
        levels = range(r.open_min, r.open_max + 1)
    else:
        levels = range(state.level, state.level + r.raise_max + 1)
    for lv in levels:
        cost = state.units(state.cost(t, lv))
        verb = "bets" if state.level is None or lv == state.level else "raises to"
        out.append(
            LegalAction(
                Bet(player=p.name, level=Fraction(lv)),
                p.name,
                cost,
                label=f"{p.name} {verb} level {lv}: pays {_amt(cost)}"
                + (", blind" if p.blind else ""),
            )
        )
    out.append(LegalAction(Folded(player=p.name), p.name, Fraction(0), label=f"{p.name} folds"))
    left = state.active
    if len(left) == 2 and state.level is not None:
        o = left[0] if left[1] == t else left[1]
        opp = state.players[o]
        if not (p.seen and opp.blind):
            cost = state.units(state.level * state.scale * (2 if p.seen else 1))
            why = "twice the level" if p.seen else "the level, being blind"
            out.append(
                LegalAction(
                    Saw(player=p.name),
                    p.name,
                    cost,
                    label=f"{p.name} sees {opp.name}: pays {_amt(cost)}, {why}",
                )
            )
    return out


def _showdown(state: State) -> list[LegalAction]:
    assert state.payer is not None and state.opponent is not None
    pay, opp = state.players[state.payer], state.players[state.opponent]
    for q in (opp, pay):  # RULES 6.6: reduce two hands first
        if q.looking is not None:
            return _keep_throw(q)
        if q.two_hands:
            return _looks(state, state.opponent if q is opp else state.payer, q)
    both_blind = state.both_blind if state.both_blind is not None else (pay.blind and opp.blind)
    if both_blind:
        who = opp if len(opp.shown) == len(pay.shown) else pay
        out = _show_cards(state, who, one=True)
        if who is pay and len(opp.shown) == 3:
            out += _concede(state, pay)
        return out
    if len(opp.shown) < 3:
        return _show_cards(state, opp, one=False)
    return [*_show_cards(state, pay, one=False), *_concede(state, pay)]


def _concede(state: State, p: PlayerState) -> list[LegalAction]:
    """RULES 5.8: a losing payer may concede; where the cards are known, only a losing one."""
    assert state.opponent is not None
    opp = state.players[state.opponent]
    mine = p.hands[0].cards
    if mine is not None and strength_codes(*mine) > strength_codes(*opp.shown):
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


def can_void(state: State) -> int | None:
    """The seq of the recorded event a ``voided`` may withdraw now, or ``None`` (FORMAT.md)."""
    if state.undo is None or state.recorded_seq is None or state.undo.phase is Phase.NEW:
        return None
    return state.recorded_seq


def describe_action(action: LegalAction) -> str:
    """The recorder's sentence for an action (its ``label``)."""
    return action.label or action.event.type
