"""RULES 5.1 to 5.7: betting: looking (5.1), turns (5.2), the level and what a blind or seen
player pays (5.3-5.5), folding (5.6) and seeing (5.7).

The predicates here are the one place that decides these rules: :func:`bet_cost` (5.3),
:func:`see_target`, :func:`can_see` and :func:`see_cost` (5.7). :func:`~engine.apply.apply`,
:func:`engine.legal.legal_actions` and :mod:`analytics.facts` all call them.
"""

from __future__ import annotations

from engine.rules.carry import carry_pot, look_at_one
from engine.rules.common import add, check_paid, fmt, next_active, pays, set_player, viol
from engine.rules.deal import under
from engine.rules.showdown import award
from engine.state import Phase, PlayerState, State, replace
from events.errors import RuleViolation
from events.model import Bet, Folded, Looked, Saw, Voided

__all__ = [
    "bet",
    "bet_cost",
    "can_see",
    "folded",
    "level_bounds",
    "looked",
    "may_look",
    "saw",
    "see_cost",
    "see_target",
]

_BETTING = Phase.BETTING
_MAY_LEAVE_LOOKING = frozenset({Looked, Voided})
"""The only events after which a holder of two hands can be looking at one (RULES 6.4)."""


# --- the predicates ------------------------------------------------------------------------------


def bet_cost(state: State, seat: int, level: int) -> int:
    """RULES 5.3: the ticks the player at ``seat`` pays for a bet at ``level``: the level when
    seen, half of it when blind."""
    full = level * state.scale
    return full if state.players[seat].seen else full // 2


def level_bounds(state: State) -> tuple[int, int]:
    """RULES 5.5: the lowest and highest level a bet may set now: the first bet of a deal opens
    at ``open_min..open_max``; a later one keeps the level or raises it by up to ``raise_max``."""
    r = state.rules
    if state.level is None:
        return r.open_min, r.open_max
    return state.level, state.level + r.raise_max


def see_target(state: State, seat: int) -> int | None:
    """RULES 5.7: the seat the player at ``seat`` would see: the one other player left, once
    exactly two remain and the deal has a level; ``None`` when there is no see to make."""
    if state.level is None:
        return None
    left = [k for k, x in enumerate(state.players) if not x.folded]
    if len(left) != 2 or seat not in left:
        return None
    return left[0] if left[1] == seat else left[1]


def can_see(state: State, seat: int) -> bool:
    """RULES 5.7: may the player at ``seat`` see now? Only their :func:`see_target`, and a seen
    player may not see a blind one (blind v seen, blind v blind and seen v seen may)."""
    target = see_target(state, seat)
    if target is None:
        return False
    players = state.players
    return players[seat].blind or players[target].seen


def see_cost(state: State, seat: int) -> int:
    """RULES 5.7: the ticks a see costs: 2 x the level when seen, the level when blind."""
    assert state.level is not None
    full = state.level * state.scale
    return 2 * full if state.players[seat].seen else full


# --- the rules -----------------------------------------------------------------------------------


def may_look(state: State, seat: int) -> bool:
    """RULES 5.1, when a blind player may look during the betting: any blind player still in
    before the first bet; once betting has begun, only the one whose turn it is (at its start).
    ``False`` when blind play is off (everyone is seen from the deal). Whether the player is
    still blind, and the two-hand procedure of RULES 6.4, are the caller's to check."""
    if not state.rules.blind_play:
        return False
    return not state.betting_started or state.turn == seat


def _acting(state: State, player: str, what: str) -> tuple[int, PlayerState]:
    """Common checks for an action in a deal: a deal in progress, a seated player still in."""
    if state.phase is Phase.BETWEEN:
        raise viol("5.2", f"no deal is in progress: {player} cannot {what}", player)
    if state.phase is Phase.CARRIED:
        raise viol("5.2", f"the deal has ended (pot carried): {player} cannot {what}", player)
    i = state.index.get(player) if state.index is not None else None
    if i is None:
        i = state.seat(player)  # raises RULES 1.3
    players = state.players
    p = players[i]
    if p.folded:
        raise viol("5.6", f"{player} has folded and is out of this deal", player)
    if type(state.last_event) not in _MAY_LEAVE_LOOKING:
        return i, p  # nobody can be looking at one of two hands now
    for q in players:
        if q.looking is not None and q.name != player:
            raise viol(
                "6.4",
                f"{q.name} looked at one of two hands and must keep or throw it at once",
                q.name,
            )
    return i, p


def _betting_turn(state: State, player: str, what: str) -> tuple[int, PlayerState]:
    i = state.turn
    if i is not None and state.phase is _BETTING and player == state.seats[i]:
        # The usual case, checked first: the player whose turn it is bets, folds or sees. Only a
        # ``looked`` (or a ``voided`` going back to one) can leave someone looking (RULES 6.4).
        p = state.players[i]
        if not p.folded:
            if type(state.last_event) not in _MAY_LEAVE_LOOKING:
                return i, p
            if all(q.looking is None for q in state.players):
                return i, p
    i, p = _acting(state, player, what)
    if state.phase is Phase.SHOWDOWN:
        raise viol("5.8", f"the showdown has begun: {player} cannot {what}", player)
    if p.looking is not None:
        raise viol(
            "6.4",
            f"{player} looked at the {p.looking} hand and must keep or throw it first",
            player,
        )
    if state.turn != i:
        raise viol("5.2", f"it is {state.turn_name}'s turn, not {player}'s", player)
    return i, p


def looked(state: State, e: Looked) -> State:
    i, p = _acting(state, e.player, "look")
    if not state.rules.blind_play:
        raise viol("5.1", f"blind play is off: {e.player} is seen from the deal", e.player)
    if p.seen:
        raise viol(
            "5.1",
            f"{e.player} has already looked; a seen player never becomes blind again",
            e.player,
        )
    if p.looking is not None:
        raise viol(
            "6.4",
            f"{e.player} looked at the {p.looking} hand and must keep or throw it "
            "before looking again",
            e.player,
        )
    if state.phase is Phase.SHOWDOWN:
        if not p.two_hands:
            raise viol(
                "5.8", f"at the showdown {e.player}'s cards are shown, not looked at", e.player
            )
    elif not may_look(state, i):  # betting has begun, and it is not their turn
        raise viol(
            "5.1",
            f"betting has begun: blind {e.player} may look only at the start of their own turn "
            f"(it is {state.turn_name}'s)",
            e.player,
        )
    if len(p.hands) == 2:
        if e.hand is None:
            raise viol(
                "6.4", f"{e.player} holds two hands and must say which one is looked at", e.player
            )
        return look_at_one(state, i, e.hand)  # RULES 6.4
    if e.hand is not None:  # FORMAT.md: ``hand`` only for a holder of two hands
        raise viol(
            "6.4",
            f"{e.player} holds one hand: only a holder of two (old and new) says which one is "
            f"looked at, not '{e.hand}'",
            e.player,
        )
    q = replace(p, seen=True, looked_at_turn=p.bets)
    return replace(state, players=set_player(state.players, i, q))


def bet(state: State, e: Bet) -> State:
    i, p = _betting_turn(state, e.player, "bet")
    lv = e.level
    if lv.denominator != 1:
        raise viol("5.5", f"levels are whole units; {e.player} bet level {fmt(lv)}", e.player)
    level = lv.numerator
    lo, hi = level_bounds(state)
    if not lo <= level <= hi:
        raise _level_refused(state, e.player, level)
    ticks = bet_cost(state, i, level)  # RULES 5.3
    if e.paid is not None:
        check_paid(state, e.paid, ticks, "5.3", e.player)
    q = pays(p, ticks)
    players = set_player(state.players, i, q)
    return replace(
        state,
        players=players,
        pot_t=state.pot_t + ticks,
        paid_t=add(state.paid_t, i, ticks),
        level=level,
        actions=state.actions + 1,
        turn=next_active(players, i),
    )


def _level_refused(state: State, player: str, level: int) -> RuleViolation:
    """RULES 5.5: why ``level`` is not one :func:`level_bounds` allows."""
    r = state.rules
    if state.level is None:
        return viol(
            "5.5",
            f"the first bet sets the level to {r.open_min}..{r.open_max}; "
            f"{player} bet level {level}",
            player,
        )
    if level < state.level:
        return viol(
            "5.5",
            f"a bet keeps or raises the level ({state.level}); {player} bet level {level}",
            player,
        )
    return viol(
        "5.5",
        f"a raise is at most {r.raise_max} on the level ({state.level}); "
        f"{player} bet level {level}",
        player,
    )


def folded(state: State, e: Folded) -> State:
    i, p = _betting_turn(state, e.player, "fold")
    q = replace(p, folded=True)
    players = set_player(state.players, i, q)
    pack = under(state.pack, p.hands)  # RULES 3.3: under the pack as it folds, old then new
    left = [k for k, x in enumerate(players) if not x.folded]
    if len(left) > 1:  # the deal goes on
        return replace(
            state,
            players=players,
            pack=pack,
            actions=state.actions + 1,
            turn=next_active(players, i),
        )
    state = replace(state, players=players, pack=pack, actions=state.actions + 1)
    s = left[0]
    survivor = players[s]
    if survivor.seen:
        # RULES 5.6: a seen survivor takes the pot without showing.
        pack = under(pack, survivor.hands)
        return award(replace(state, pack=pack), s, showdown=False, hand=None, cards=None)
    return carry_pot(state, s)  # RULES 6.1: a blind survivor does not take the pot


def saw(state: State, e: Saw) -> State:
    i, p = _betting_turn(state, e.player, "see")
    o = see_target(state, i)
    if o is None:
        left = len(state.active)
        if left != 2:
            raise viol(
                "5.7",
                f"a see needs exactly two players left; {left} are in, "
                f"so {e.player} must bet or fold",
                e.player,
            )
        raise viol(
            "5.7", f"nothing has been bet yet: {e.player} cannot see before the first bet", e.player
        )
    if not can_see(state, i):
        raise viol(
            "5.7",
            f"{e.player} is seen and cannot see a blind player ({state.seats[o]}); bet or fold",
            e.player,
        )
    ticks = see_cost(state, i)
    check_paid(state, e.paid, ticks, "5.7", e.player)
    q = pays(p, ticks)
    return replace(
        state,
        phase=Phase.SHOWDOWN,
        players=set_player(state.players, i, q),
        pot_t=state.pot_t + ticks,
        paid_t=add(state.paid_t, i, ticks),
        actions=state.actions + 1,
        payer=i,
        opponent=o,
        turn=o,
        both_blind=None,
    )
