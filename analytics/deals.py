"""A deal as the fold sees it: what the engine does not keep about the deal in progress, and the
rows of ``deals``, ``player_deals`` and ``decisions`` written when it ends.

:class:`DealInProgress` counts, seat by seat, what consecutive states show (a player's first
action, bets, raises, the turn at which they looked, the chances to see) and holds the deal's
decisions (:class:`PendingDecision`) until what followed them is known; :func:`write_deal` writes
the ended deal's rows into a :class:`~analytics.rows.Rows` buffer. Money in ticks of ``den``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from analytics.rows import HAND_COLUMNS, Rows
from analytics.strength import hand_strength
from engine.hands import category_of_strength, strength_codes
from engine.state import Outcome, PlayerState, State, card_codes, card_texts
from events.text import normal

__all__ = ["DealInProgress", "PendingDecision", "hides", "write_deal"]


@dataclass(slots=True)
class PendingDecision:
    """A decision waiting for its deal's end: its row but for what followed, and the hand it was
    made with (card codes where the log knew them then; ``one_hand``: the player held one hand,
    so cards shown at the showdown are that hand)."""

    row: tuple[Any, ...]
    """The row's columns but :data:`~analytics.rows.DECISION_FOLLOWED`."""
    seat: int
    codes: tuple[int, ...] | None
    one_hand: bool


@dataclass(slots=True)
class DealInProgress:
    """What the engine does not keep about the deal in progress, seat by seat."""

    first_blind: list[bool | None]
    looked_turn: list[int | None]
    bets: list[int]
    blind_bets: list[int]
    raises: list[int]
    actions: list[int]
    see_chances: list[int]
    saw: list[bool]
    two_hands: list[bool]
    carried_in_t: int
    events: int = 0
    decisions: list[PendingDecision] = field(default_factory=list)
    luck_t: tuple[int, ...] | None = None
    """Each seat's luck term in ticks (analytics.luck), ``None`` where it is not defined."""
    end_seq: int = 0
    """The seq of the recorded event that ended the deal (a bet, fold, see, show, concession)."""
    end_type: str = ""
    """That event's type (FORMAT.md)."""

    @classmethod
    def start(cls, state: State, carried_in_t: int) -> DealInProgress:
        n = len(state.seats)
        return cls(
            first_blind=[None] * n,
            looked_turn=[0 if p.seen else None for p in state.players],
            bets=[0] * n,
            blind_bets=[0] * n,
            raises=[0] * n,
            actions=[0] * n,
            see_chances=[0] * n,
            saw=[False] * n,
            two_hands=[p.two_hands for p in state.players],
            carried_in_t=carried_in_t,
        )


def write_deal(
    session: str,
    outcome: Outcome,
    state: State,
    deal: DealInProgress,
    position: int,
    *,
    retained: bool | None,
    out: Rows,
    veiled: Rows | None = None,
) -> None:
    """The rows of one ended deal into ``out``: ``state`` is the engine's state as the deal
    ended.

    ``veiled``: the same deal's rows also as a spectator of it could have written them, into
    that buffer (issue 33.1, :mod:`present.sight`, :mod:`analytics.veil`): no luck term (it
    ranks every hand dealt, :mod:`analytics.luck`) and a decision's hand category only from the
    cards its maker showed at the showdown (RULES 3.5), never from the cards dealt."""
    pot_t = int(outcome.amount * state.scale)
    d0, p0 = len(out.deals["session"]), len(out.player_deals["session"])
    _deal_row(session, outcome, state, deal, position, pot_t, retained, out)
    for i in range(len(state.players)):
        _player_deal_row(session, outcome, state, deal, i, pot_t, retained, out)
    _decision_rows(outcome, state, deal, pot_t, retained, out, veiled)
    if veiled is not None:
        _copy_from(out.deals, d0, veiled.deals)
        _copy_from(out.player_deals, p0, veiled.player_deals, blank=_LUCK_COLUMNS)


_LUCK_COLUMNS = frozenset({"luck_t", "adjusted_net_t"})


def _copy_from(
    source: dict[str, list[Any]],
    start: int,
    into: dict[str, list[Any]],
    blank: frozenset[str] = frozenset(),
) -> None:
    """The rows of ``source`` from ``start`` on appended to ``into``, the ``blank`` columns
    ``None``."""
    for col, values in source.items():
        tail = values[start:]
        into[col] += [None] * len(tail) if col in blank else tail


def hides(deal: DealInProgress) -> bool:
    """Whether the rows of ``deal`` written in full differ from its veiled rows
    (:func:`write_deal`): it has a luck term or a decision made with cards the log knew."""
    return (deal.luck_t is not None and any(t is not None for t in deal.luck_t)) or any(
        d.codes is not None for d in deal.decisions
    )


def _deal_row(
    session: str,
    outcome: Outcome,
    state: State,
    deal: DealInProgress,
    position: int,
    pot_t: int,
    retained: bool | None,
    out: Rows,
) -> None:
    """The ``deals`` row of an ended deal."""
    win_cards = outcome.cards
    win_strength = strength_codes(*card_codes(win_cards)) if win_cards else None
    d = out.deals
    d["session"].append(session)
    d["deal"].append(outcome.deal)
    d["dealer"].append(outcome.dealer)
    d["dealer_seat"].append(state.dealer or 0)
    d["players"].append(len(state.seats))
    d["den"].append(state.scale)
    d["pot_t"].append(pot_t)
    d["carried_in_t"].append(deal.carried_in_t)
    d["result"].append(outcome.result)
    d["winner"].append(outcome.winner)
    d["showdown"].append(outcome.showdown)
    d["payer"].append(outcome.payer)
    d["seen_player"].append(outcome.seen_player)
    d["winning_category"].append(outcome.hand)
    d["winning_strength"].append(win_strength)
    d["winning_cards"].append(" ".join(win_cards) if win_cards else None)
    d["carried_by"].append(outcome.blind)
    d["retained"].append(retained)
    d["actions"].append(state.actions)
    d["bets"].append(sum(deal.bets))
    d["raises"].append(sum(deal.raises))
    d["final_level"].append(state.level)
    d["events"].append(deal.events)
    d["end_position"].append(position)
    d["end_seq"].append(deal.end_seq)
    d["end_type"].append(deal.end_type)


def _player_deal_row(
    session: str,
    outcome: Outcome,
    state: State,
    deal: DealInProgress,
    i: int,
    pot_t: int,
    retained: bool | None,
    out: Rows,
) -> None:
    """The ``player_deals`` row of the player at seat ``i`` in an ended deal."""
    p = state.players[i]
    name = p.name
    won_t = pot_t if outcome.winner == name else 0
    fb = deal.first_blind[i]
    pd = out.player_deals
    pd["session"].append(session)
    pd["deal"].append(outcome.deal)
    pd["seat"].append(i)
    pd["player"].append(name)
    pd["player_key"].append(normal(name))
    pd["is_dealer"].append(i == (state.dealer or 0))
    pd["den"].append(state.scale)
    pd["two_hands"].append(deal.two_hands[i])
    pd["first_action"].append(None if fb is None else "blind" if fb else "seen")
    pd["looked_turn"].append(deal.looked_turn[i])
    pd["bets"].append(deal.bets[i])
    pd["blind_bets"].append(deal.blind_bets[i])
    pd["raises"].append(deal.raises[i])
    pd["actions"].append(deal.actions[i])
    pd["see_chances"].append(deal.see_chances[i])
    pd["saw"].append(deal.saw[i])
    pd["role"].append(_role(outcome, name))
    pd["paid_t"].append(p.paid)
    pd["won_t"].append(won_t)
    pd["net_t"].append(won_t - p.paid)
    luck = None if deal.luck_t is None else deal.luck_t[i]
    pd["luck_t"].append(luck)
    pd["adjusted_net_t"].append(None if luck is None else won_t - p.paid - luck)
    pd["won"].append(outcome.winner == name)
    pd["left_how"].append(_left_how(outcome, p, retained))
    _hand_row(p, pd)


def _left_how(outcome: Outcome, p: PlayerState, retained: bool | None) -> str:
    """How the player left the deal (``player_deals.left_how``)."""
    name = p.name
    if outcome.result == "carried" and outcome.blind == name:
        return "retained" if retained else "carried"
    if p.folded:
        return "folded"
    if outcome.showdown:
        return "paid_to_see" if outcome.payer == name else "was_seen"
    return "won_uncontested"


def _role(outcome: Outcome, name: str) -> str | None:
    """The player's part in the deal's showdown: ``payer``, ``seen`` or none (RULES 5.7)."""
    if outcome.showdown and outcome.payer == name:
        return "payer"
    if outcome.showdown and outcome.seen_player == name:
        return "seen"
    return None


def _hand_row(p: PlayerState, pd: dict[str, list[Any]]) -> None:
    """The :data:`~analytics.rows.HAND_COLUMNS` of the player's shown hand (``None`` each when
    no three cards were shown)."""
    if len(p.shown) == 3:
        hs = hand_strength(*p.shown)
        pd["hand_cards"].append(" ".join(card_texts(p.shown)))
        pd["hand_category"].append(hs.category)
        pd["hand_strength"].append(hs.strength)
        pd["hand_beats"].append(hs.beats)
        pd["hand_wins"].append(hs.wins)
        pd["hand_ties"].append(hs.ties)
        pd["hand_losses"].append(hs.losses)
    else:
        for col in HAND_COLUMNS:
            pd[col].append(None)


def _decision_rows(
    outcome: Outcome,
    state: State,
    deal: DealInProgress,
    pot_t: int,
    retained: bool | None,
    out: Rows,
    veiled: Rows | None = None,
) -> None:
    """The ``decisions`` rows of an ended deal, with what followed: the player's net in the
    deal and whether they won it, and the category of the hand decided with where the log
    knows it (dealt cards, ``cards: "all"``; else the hand shown at the showdown, RULES 3.5),
    but for a retained hand, still in play (RULES 6.2; :func:`present.replay.in_play`); into
    ``veiled`` too, with a category only from the hand shown (:func:`write_deal`)."""
    winner = outcome.winner
    categories: dict[tuple[int, ...], str] = {}

    def category(codes: tuple[int, ...] | None) -> str | None:
        if not codes:
            return None
        label = categories.get(codes)
        if label is None:
            label = categories[codes] = category_of_strength(strength_codes(*codes)).label
        return label

    for dec in deal.decisions:
        p = state.players[dec.seat]
        name = p.name
        shown = p.shown if dec.one_hand and len(p.shown) == 3 else None
        held = not (retained and outcome.blind == name)  # else still in play (RULES 6.2)
        won = winner == name
        followed = ((pot_t if won else 0) - p.paid, won)
        full = category(dec.codes if dec.codes is not None else shown) if held else None
        out.decision_rows.append((*dec.row, full, *followed))
        if veiled is not None:
            veiled.decision_rows.append((*dec.row, category(shown) if held else None, *followed))
