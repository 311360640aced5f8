"""The lists beside the replayed table, for the page and the terminal: one row per step of a deal
(:func:`event_rows`), one per deal (:func:`deal_rows`), the players by net (:func:`leaderboard`)
and each player's net after every deal (:func:`net_history`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from engine.state import State
from events.model import AnyEvent
from present.narrate import pretty_cards, sentence
from present.numbers import amount, signed
from timeline import DealSlice

__all__ = ["EventRow", "deal_rows", "event_rows", "leaderboard", "net_history"]


class EventRow(TypedDict):
    """One step of a deal (:func:`event_rows`): its ``step`` (1-based in the deal), the event's
    ``seq`` (else its 1-based position), the sentence (``event``), the ``pot`` after it, and
    whether it is the step shown (``current``)."""

    step: int
    seq: int
    event: str
    pot: str
    current: bool


def event_rows(
    events: Sequence[AnyEvent], states: Sequence[State], sl: DealSlice, current: int | None = None
) -> list[EventRow]:
    """One row per step of a deal: ``step``, ``seq``, ``event`` (the sentence), ``pot`` after it,
    ``current`` (this is the step shown)."""
    rows: list[EventRow] = []
    for k in range(sl.start, sl.stop):
        before = states[k - 1] if k > 0 else State()
        e = events[k]
        rows.append(
            {
                "step": k - sl.start + 1,
                "seq": e.seq if e.seq is not None else k + 1,
                "event": sentence(before, e, states[k]),
                "pot": amount(states[k].pot_on_table),
                "current": k == current,
            }
        )
    return rows


def deal_rows(states: Sequence[State], slices: Sequence[DealSlice]) -> list[dict[str, Any]]:
    """One row per deal of a replayed session: ``deal``, ``dealer``, ``pot`` (the whole pot at the
    end), ``result`` (won at a showdown, won uncontested, carried forward, in progress),
    ``winner``, ``hand`` (the winning hand at a showdown), ``cards``, ``carried_in`` (the pot
    carried into this deal)."""
    if not states:
        return []
    final = states[-1]
    outcomes = {o.deal: o for o in final.outcomes}
    rows = []
    for sl in slices:
        if sl.deal == 0:
            continue
        o = outcomes.get(sl.deal)
        before = states[sl.start - 1] if sl.start > 0 else State()
        dealer = states[sl.start].dealer_name
        if o is None:
            result, winner, hand, cards, pot = "in progress", "", "", "", states[sl.stop - 1].pot
        elif o.result == "carried":
            result, winner, hand, cards, pot = (
                f"carried forward ({o.blind} blind)",
                "",
                "",
                "",
                o.amount,
            )
        else:
            result = "showdown" if o.showdown else "uncontested"
            winner, hand = o.winner or "", o.hand or ""
            cards = pretty_cards(o.cards) if o.cards else ""
            pot = o.amount
        rows.append(
            {
                "deal": sl.deal,
                "dealer": dealer or "",
                "pot": amount(pot),
                "result": result,
                "winner": winner,
                "hand": hand,
                "cards": cards,
                "carried_in": amount(before.pot) if before.pot else "",
                "steps": sl.steps,
            }
        )
    return rows


def leaderboard(state: State) -> list[dict[str, Any]]:
    """RULES 1.5: each player's net, highest first; ``winner`` marks every player with the highest
    net (exactly equal highest nets share the win, ``shared``); ``pots`` counts pots won."""
    won: dict[str, int] = {}
    for o in state.outcomes:
        if o.winner:
            won[o.winner] = won.get(o.winner, 0) + 1
    winners = set(state.winners) if state.seats else set()
    shared = len(winners) > 1
    rows = [
        {
            "player": p,
            "net": signed(v),
            "pots won": won.get(p, 0),
            "winner": ("shared win" if shared else "winner")
            if p in winners and state.finished
            else ("leading" if p in winners and any(state.nets.values()) else ""),
        }
        for p, v in state.nets.items()
    ]
    order = sorted(range(len(rows)), key=lambda k: -state.nets[str(rows[k]["player"])])
    return [rows[k] for k in order]


def net_history(states: Sequence[State], slices: Sequence[DealSlice]) -> dict[str, list[Any]]:
    """Each player's net after every deal (``deal`` gives the x axis), for a line chart.

    Floats here are only for drawing; every figure shown as text stays exact."""
    if not states or not states[-1].seats:
        return {}
    seats = states[-1].seats
    out: dict[str, list[Any]] = {"deal": []}
    for p in seats:
        out[p] = []
    for sl in slices:
        if sl.deal == 0:
            continue
        s = states[sl.stop - 1]
        out["deal"].append(sl.deal)
        for p in seats:
            out[p].append(float(s.net(p)))
    return out
