"""RULES 6.1 to 6.7: a pot carried forward and retained blind hands.

A blind survivor's pot is carried forward whole (6.1); they may retain their unseen hand (6.2);
the holder of two hands (6.3, dealt in :mod:`engine.rules.deal`) looks at one and keeps or throws
it at once (6.4); an unseen pair of hands is one blind player (6.5: nothing to check, one player
state); a showdown waits for the reduction (6.6, checked in :mod:`engine.rules.showdown`); a
second carry retains only one of two (6.7).
"""

from __future__ import annotations

from typing import Literal

from engine.rules.common import set_player, viol
from engine.rules.deal import under
from engine.state import Outcome, Phase, PlayerState, State, replace
from events.model import Kept, PotCarried, Retained, Thrown

__all__ = ["carry_pot", "kept_or_thrown", "look_at_one", "retained", "the_hand"]


def carry_pot(state: State, survivor: int) -> State:
    """RULES 6.1: everyone else folded to a blind survivor: the pot is not awarded but carried
    forward, whole (not a resolution, 1.4); the survivor may retain next (6.2)."""
    amount = state.pot
    name = state.seats[survivor]
    out = Outcome(
        deal=state.deals,
        dealer=state.seats[state.dealer or 0],
        result="carried",
        winner=None,
        amount=amount,
        showdown=False,
        blind=name,
    )
    derived = PotCarried(deal=state.deals, player=name, amount=amount)
    return replace(
        state,
        phase=Phase.CARRIED,
        turn=None,
        survivor=survivor,
        carried=state.carried + 1,
        outcomes=(*state.outcomes, out),
        pending=(derived,),
    )


def look_at_one(state: State, seat: int, hand: Literal["old", "new"]) -> State:
    """RULES 6.4: the holder of two hands looks at one of them (``hand``), and must keep or
    throw it at once."""
    p = state.players[seat]
    the_hand(p, hand)
    return replace(state, players=set_player(state.players, seat, replace(p, looking=hand)))


def the_hand(p: PlayerState, choice: str | None) -> int:
    """Index in ``p.hands`` named by ``choice`` ("old"/"new")."""
    for k, h in enumerate(p.hands):
        if h.origin == choice:
            return k
    raise viol("6.4", f"{p.name} holds no {choice} hand", p.name)


def kept_or_thrown(state: State, e: Kept | Thrown) -> State:
    i = state.seat(e.player) if state.players else -1
    if i < 0 or state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
        raise viol("6.4", f"{e.player} has not just looked at one of two hands", e.player)
    p = state.players[i]
    if p.looking is None:
        raise viol("6.4", f"{e.player} has not just looked at one of two hands", e.player)
    k = the_hand(p, p.looking)
    looked, other = p.hands[k], p.hands[1 - k]
    if type(e) is Kept:
        # Keep the looked-at hand; the other goes under the pack unseen (RULES 6.4, 3.3).
        pack = under(state.pack, (other,))
        q = replace(p, hands=(looked,), seen=True, looking=None, looked_at_turn=p.bets)
    else:
        pack = under(state.pack, (looked,))
        q = replace(p, hands=(other,), looking=None)
    return replace(state, pack=pack, players=set_player(state.players, i, q))


def retained(state: State, e: Retained) -> State:
    """RULES 6.2: only the blind survivor of a carried pot retains (or gives up) their unseen
    hand; RULES 6.7: a holder of two still unseen hands retains only one, named by ``hand``. A
    holder of one hand names none (FORMAT.md ``retained``: ``hand`` only when two are held), as a
    ``looked`` names none (RULES 6.4)."""
    if state.phase is not Phase.CARRIED or state.survivor is None:
        raise viol(
            "6.2",
            f"only a blind survivor whose pot was carried may retain a hand ({e.player})",
            e.player,
        )
    i = state.seat(e.player)
    if i != state.survivor:
        raise viol(
            "6.2",
            f"{e.player} did not survive blind; only {state.seats[state.survivor]} may retain",
            e.player,
        )
    p = state.players[i]
    if p.two_hands:
        if e.hand is None:
            raise viol(
                "6.7",
                f"{e.player} holds two unseen hands and may retain only one; "
                "say which (old or new)",
                e.player,
            )
        k = the_hand(p, e.hand)
        keep, give_up = p.hands[k], p.hands[1 - k]
        pack = under(state.pack, (give_up,))
    else:
        keep = p.hands[0]
        if e.hand is not None:  # FORMAT.md ``retained``: ``hand`` only when two are held
            raise viol(
                "6.7",
                f"{e.player} holds one hand (the {keep.origin} one): only a holder of two (old "
                f"and new) says which one is retained, not hand '{e.hand}' (FORMAT.md retained: "
                '"hand" only when two are held)',
                e.player,
            )
        pack = state.pack
    return replace(state, phase=Phase.BETWEEN, retained=(i, keep), survivor=None, pack=pack)
