"""RULES 5.8 to 5.9 and 6.6: the showdown after a see.

The one seen (the payer's opponent) shows first; two blind players turn their cards one at a time,
alternately, the opponent first (5.8, :func:`next_to_turn`); the payer wins only with a strictly
better hand and a losing payer may concede (5.8, :func:`may_concede`); the winner takes the whole
pot (5.9, :func:`award`, also used for a seen survivor, 5.6); two hands are reduced first (6.6).
"""

from __future__ import annotations

from engine.hands import Category, category_of_strength, strength_codes
from engine.pack import sighted
from engine.rules.common import add, set_player, viol
from engine.rules.deal import under
from engine.state import TEXT, Outcome, Phase, PlayerState, State, card_codes, card_texts, replace
from events.model import Conceded, DerivedEvent, PotWon, SessionEnded, Shown

__all__ = ["award", "both_blind", "conceded", "may_concede", "next_to_turn", "shown"]


# --- the predicates ------------------------------------------------------------------------------


def both_blind(state: State) -> bool:
    """RULES 5.8: both showdown players were blind at the see (cards are turned one at a time)."""
    if state.both_blind is not None:
        return state.both_blind
    assert state.payer is not None and state.opponent is not None
    return state.players[state.payer].blind and state.players[state.opponent].blind


def next_to_turn(state: State) -> int | None:
    """RULES 5.8, two blind players: the seat that turns the next card (the payer's opponent
    first, then alternately); ``None`` once all six are shown."""
    assert state.payer is not None and state.opponent is not None
    n_opp = len(state.players[state.opponent].shown)
    n_pay = len(state.players[state.payer].shown)
    if n_opp == 3 and n_pay == 3:
        return None
    return state.opponent if n_opp == n_pay else state.payer


def may_concede(state: State) -> bool:
    """RULES 5.8: the payer may concede once the opponent's three cards are shown, and, where the
    payer's cards are known, only with a hand that does not beat them."""
    assert state.payer is not None and state.opponent is not None
    opp = state.players[state.opponent]
    if len(opp.shown) < 3:
        return False
    mine = state.players[state.payer].hands[0].cards
    return mine is None or strength_codes(*mine) <= strength_codes(*opp.shown)


# --- the rules -----------------------------------------------------------------------------------


def award(
    state: State,
    winner: int,
    *,
    showdown: bool,
    hand: Category | None,
    cards: tuple[int, ...] | None,
) -> State:
    """The pot goes to ``winner`` (RULES 5.6, 5.9); the 8th resolution ends the session (1.4)."""
    amount = state.pot
    name = state.seats[winner]
    texts = card_texts(cards) if cards is not None and len(cards) == 3 else None
    out = Outcome(
        deal=state.deals,
        dealer=state.seats[state.dealer or 0],
        result="won",
        winner=name,
        amount=amount,
        showdown=showdown,
        hand=hand.label if hand is not None else None,
        cards=texts,
        payer=state.seats[state.payer] if state.payer is not None else None,
        seen_player=state.seats[state.opponent] if state.opponent is not None else None,
    )
    derived: list[DerivedEvent] = [
        PotWon(
            deal=state.deals,
            player=name,
            amount=amount,
            showdown=showdown,
            hand=out.hand,
            cards=texts,
        )
    ]
    won_t = add(state.won_t, winner, state.pot_t)
    resolved = state.resolved + 1
    phase = Phase.BETWEEN
    shuffle_due = showdown and hand is Category.PRIAL  # RULES 3.2
    new = replace(
        state,
        phase=phase,
        pot_t=0,
        won_t=won_t,
        resolved=resolved,
        turn=None,
        shuffle_due=shuffle_due,
        outcomes=(*state.outcomes, out),
    )
    if resolved >= state.rules.pots:
        derived.append(SessionEnded(nets=new.nets, winners=new.winners))
        new = replace(new, phase=Phase.OVER)
    return replace(new, pending=tuple(derived))


def _showdown_checks(state: State, player: str, what: str) -> tuple[int, PlayerState]:
    if state.phase is not Phase.SHOWDOWN:
        raise viol(
            "5.8", f"there is no showdown: {player} cannot {what} (only after a see)", player
        )
    i = state.seat(player)
    if i not in (state.payer, state.opponent):
        raise viol("5.8", f"{player} is not in the showdown", player)
    for k in (state.opponent, state.payer):
        assert k is not None
        q = state.players[k]
        if q.two_hands or q.looking is not None:
            raise viol(
                "6.6",
                f"{q.name} holds two hands and must reduce them to one (look, keep or throw) "
                "before any card is shown",
                q.name,
            )
    return i, state.players[i]


def shown(state: State, e: Shown) -> State:
    i, p = _showdown_checks(state, e.player, "show")
    assert state.payer is not None and state.opponent is not None
    blind = both_blind(state)
    cards = card_codes(e.cards)
    if blind:
        _check_turned_one(state, i, e.player, cards)
    else:
        _check_shown_whole(state, i, p, e.player, cards)
    _check_cards(state, i, p, e.player, cards)
    sightings = sighted(state, i, cards)  # RULES 3.3: where the tracked pack puts this hand
    q = replace(p, shown=p.shown + cards)
    players = set_player(state.players, i, q)
    pi, oi = state.payer, state.opponent
    state = replace(state, players=players, both_blind=blind, sightings=sightings)
    payer, opp = players[pi], players[oi]
    if len(payer.shown) == 3 and len(opp.shown) == 3:
        ks_pay = strength_codes(*payer.shown)
        ks_opp = strength_codes(*opp.shown)
        # RULES 5.8: the payer wins only with a strictly better hand.
        if ks_pay > ks_opp:
            w, key, wcards = pi, ks_pay, payer.shown
        else:
            w, key, wcards = oi, ks_opp, opp.shown
        pack = under(state.pack, opp.hands + payer.hands)  # RULES 3.3: opponent's, then payer's
        return award(
            replace(state, pack=pack),
            w,
            showdown=True,
            hand=category_of_strength(key),
            cards=wcards,
        )
    return replace(state, turn=pi if i == oi else oi)


def _check_turned_one(state: State, i: int, player: str, cards: tuple[int, ...]) -> None:
    """RULES 5.8: both blind: turned one at a time, alternately, the payer's opponent first."""
    if len(cards) != 1:
        raise viol(
            "5.8",
            f"both players are blind: cards are turned one at a time, {player} showed {len(cards)}",
            player,
        )
    nxt = next_to_turn(state)
    if i != nxt:
        who = state.seats[nxt] if nxt is not None else "nobody"
        raise viol(
            "5.8",
            f"the cards are turned alternately: {who} turns the next card, not {player}",
            player,
        )


def _check_shown_whole(
    state: State, i: int, p: PlayerState, player: str, cards: tuple[int, ...]
) -> None:
    """RULES 5.8: otherwise each shows all three cards, the one seen first."""
    assert state.opponent is not None
    opp = state.players[state.opponent]
    if len(cards) != 3:
        raise viol(
            "5.8",
            f"{player} shows all three cards (only two blind players turn one at a time)",
            player,
        )
    if i == state.payer and len(opp.shown) < 3:
        raise viol("5.8", f"{opp.name}, the one seen, shows first", player)
    if len(p.shown) == 3:
        raise viol("5.8", f"{player} has already shown", player)


def _check_cards(state: State, i: int, p: PlayerState, player: str, cards: tuple[int, ...]) -> None:
    """RULES 5.8, 3.4: shown cards are the player's own, each shown once."""
    assert state.payer is not None and state.opponent is not None
    hand = p.hands[0].cards
    other = state.players[state.payer if i == state.opponent else state.opponent]
    for c in cards:
        if c in p.shown:
            raise viol("5.8", f"{player} has already shown {TEXT[c]}", player)
        if hand is not None and c not in hand:
            raise viol(
                "5.8",
                f"{player} holds {' '.join(card_texts(hand))}; {TEXT[c]} is not in that hand",
                player,
            )
        if c in other.shown:
            raise viol("3.4", f"{player} shows {TEXT[c]}, already shown by {other.name}", player)


def conceded(state: State, e: Conceded) -> State:
    i, p = _showdown_checks(state, e.player, "concede")
    assert state.payer is not None and state.opponent is not None
    if i != state.payer:
        raise viol("5.8", f"only the payer may concede; {e.player} was seen and shows", e.player)
    opp = state.players[state.opponent]
    if len(opp.shown) < 3:
        raise viol(
            "5.8", f"{e.player} may concede only once {opp.name}'s three cards are shown", e.player
        )
    ks_opp = strength_codes(*opp.shown)
    mine = p.hands[0].cards
    if mine is not None and strength_codes(*mine) > ks_opp:
        raise viol(
            "5.8",
            f"{e.player}'s hand {' '.join(card_texts(mine))} beats {opp.name}'s; "
            "only a losing payer concedes",
            e.player,
        )
    pack = under(state.pack, opp.hands + p.hands)
    return award(
        replace(state, pack=pack),
        state.opponent,
        showdown=True,
        hand=category_of_strength(ks_opp),
        cards=opp.shown,
    )
