"""RULES 1 to 3.2: the session's start (1.3 seats, the rule parameters), the first dealer chosen
by lot (3.1) and the shuffle (3.2: before the first deal, afterwards only after a showdown won by a
prial).
"""

from __future__ import annotations

from engine.pack import NO_SIGHTINGS, SHUFFLED
from engine.rules.common import viol
from engine.state import DEFAULT_RULES, Phase, State, card_codes, replace
from events.errors import FormatError
from events.model import DealerChosen, SessionStarted, Shuffled

__all__ = ["dealer_chosen", "session_started", "session_started_again", "shuffled"]


def session_started_again(state: State, event: SessionStarted) -> State:
    raise FormatError("a session starts only once", event=event.type)


def session_started(state: State, e: SessionStarted) -> State:
    seats = e.seats
    if not 2 <= len(seats) <= 10:
        raise viol("1.3", f"a session seats 2 to 10 players, not {len(seats)}")
    if len(set(seats)) != len(seats):
        dup = next(s for s in seats if seats.count(s) > 1)
        raise viol("1.3", f"{dup} is seated twice; seats are unique", dup)
    if any(not s.strip() for s in seats):
        raise viol("1.3", "a seat needs a player's name")
    rules = e.rules or DEFAULT_RULES
    if rules.open_min > rules.open_max:
        raise FormatError(
            f"open_min {rules.open_min} is above open_max {rules.open_max}",
            event=e.type,
            field="rules",
        )
    if rules.ante < 0:
        raise FormatError("the ante cannot be negative", event=e.type, field="rules.ante")
    n = len(seats)
    return replace(
        state,
        phase=Phase.BETWEEN,
        session=e.session,
        table=e.table,
        seats=seats,
        index={s: i for i, s in enumerate(seats)},
        cards_mode=e.cards,
        rules=rules,
        scale=2 * rules.ante.denominator,
        paid_t=(0,) * n,
        won_t=(0,) * n,
    )


def dealer_chosen(state: State, e: DealerChosen) -> State:
    i = state.seat(e.player)
    if state.first_dealer is not None:
        raise viol(
            "3.1",
            f"the first dealer is chosen once; {e.player} cannot be chosen again",
            e.player,
        )
    if state.deals:
        raise viol("3.1", "the dealer is chosen before the first deal", e.player)
    return replace(state, first_dealer=i)


def shuffled(state: State, e: Shuffled) -> State:
    """RULES 3.2: the pack is shuffled before the first deal and afterwards only after a showdown
    won by a prial. Its ``order`` (52 cards, top first) is recorded only in a session that records
    every card (FORMAT.md ``cards: "all"``); then the engine tracks the pack (RULES 3.3)."""
    if state.phase is not Phase.BETWEEN or not state.shuffle_due:
        if state.phase in (Phase.BETTING, Phase.SHOWDOWN):
            why = "the pack is not shuffled during a deal"
        elif state.phase is Phase.CARRIED:
            why = (
                "the pack is shuffled only after a showdown won by a prial, not after a carried pot"
            )
        elif state.shuffled_once and state.deals == 0:
            why = "the pack is already shuffled for the first deal"
        else:
            why = (
                "the pack is shuffled only before the first deal "
                "and after a showdown won by a prial"
            )
        raise viol("3.2", why)
    pack: tuple[int, ...] | None = None
    if e.order is not None and state.cards_mode != "all":
        raise FormatError(
            'a shuffle\'s order is recorded only when every card is (cards: "all"); this '
            'session records cards: "shown", where only showdown cards are known (FORMAT.md '
            '"cards"; RULES 3.3: the tracked pack)',
            event=e.type,
            field="order",
        )
    if e.order is not None:
        codes = card_codes(e.order)
        if len(codes) != 52 or len(set(codes)) != 52:
            raise FormatError(
                f"the order lists {len(set(codes))} different cards of {len(codes)}; a shuffled "
                "pack has each of the 52 cards once",
                event=e.type,
                field="order",
            )
        pack = codes
    sightings = None
    if state.cards_mode == "shown":  # the pack tracked by its slots (engine.pack, RULES 3.3)
        pack, sightings = SHUFFLED, NO_SIGHTINGS
    return replace(state, shuffle_due=False, shuffled_once=True, pack=pack, sightings=sightings)
