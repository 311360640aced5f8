"""RULES 3.3 to 4.1 and 6.3: a deal.

The dealer moves to the left every deal (3.1), cards of finished hands go under the pack in order
(3.3), three rounds of one card each from the top of the pack starting on the dealer's left (3.4),
everyone antes (4.1), and a retainer holds the old hand beside the fresh one (6.3).
"""

from __future__ import annotations

from engine.rules.common import amount_ticks, viol
from engine.state import CODE, TEXT, Hand, Phase, PlayerState, State, card_texts, replace
from events.errors import FormatError
from events.model import Dealt

__all__ = ["deal_order", "dealt", "next_dealer", "pack_at_deal", "under"]

_UNKNOWN_NEW = (Hand(None, "new"),)
"""A fresh hand whose cards the log does not record (``cards: "shown"``); immutable, so shared."""
_NEW_PLAYER = PlayerState(name="")
"""A player's state at the start of a deal, before name, hands, seen and the ante are filled in."""


def under(pack: tuple[int, ...] | None, hands: tuple[Hand, ...]) -> tuple[int, ...] | None:
    """RULES 3.3: cards go face down under the pack, in the order they were dealt (``hands`` in
    the order they go under). ``pack`` and each hand's ``slots`` are the cards where a shuffle's
    order is recorded, the slots of :mod:`engine.pack` at a ``cards: "shown"`` table."""
    if pack is None:
        return None
    if len(hands) == 1:
        slots = hands[0].slots
        return None if slots is None else pack + slots
    add: list[int] = []
    for h in hands:
        if h.slots is None:
            return None
        add.extend(h.slots)
    return pack + tuple(add)


def next_dealer(state: State) -> int:
    """RULES 3.1: the seat that deals next: the one chosen by lot first, then to the left."""
    assert state.first_dealer is not None
    dealer = state.first_dealer if state.deals == 0 else (state.dealer or 0) + 1
    return dealer % len(state.seats)


def deal_order(state: State, dealer: int) -> list[int]:
    """RULES 3.4: the seats in the order they are dealt to, from the dealer's left to the dealer."""
    n = len(state.seats)
    return [(dealer + 1 + k) % n for k in range(n)]


def pack_at_deal(state: State) -> tuple[int, ...] | None:
    """The pack as the next deal starts: a blind survivor who did not retain has given their
    hand(s) up under it (RULES 3.3, 6.2)."""
    if state.phase is Phase.CARRIED and state.survivor is not None:
        return under(state.pack, state.players[state.survivor].hands)
    return state.pack


def from_pack(pack: tuple[int, ...], order: list[int], k: int) -> tuple[int, int, int]:
    """RULES 3.4: the hand the ``k``-th player dealt to gets from ``pack``, one card a round."""
    n = len(order)
    return (pack[k], pack[n + k], pack[2 * n + k])


def dealt(state: State, e: Dealt) -> State:
    _check_may_deal(state)
    pack = pack_at_deal(state)
    retained = state.retained
    if state.phase is Phase.CARRIED and state.survivor is not None:
        retained = None  # the blind survivor did not retain (RULES 6.2)
    dealer = next_dealer(state)
    order = deal_order(state, dealer)
    hands: list[tuple[int, int, int] | None] = [None] * len(order)
    slots = hands
    if state.cards_mode == "all":
        hands = _recorded_hands(state, e, order, retained)
        if pack is not None:
            _check_from_pack(state, pack, order, hands)
            slots = hands  # the order is recorded: the slots are the cards
            pack = pack[3 * len(order) :]
    elif e.hands is not None:
        raise FormatError(
            "dealt cards are not recorded in a session with cards: shown",
            event=e.type,
            field="hands",
        )
    elif pack is not None:  # cards: "shown": each hand's slots, as the pack gives them (3.4)
        slots = [None] * len(order)
        for k, i in enumerate(order):
            slots[i] = from_pack(pack, order, k)
        pack = pack[3 * len(order) :]
    return _start_deal(state, dealer, order[0], pack, (hands, slots), retained)


def _check_may_deal(state: State) -> None:
    if state.phase in (Phase.BETTING, Phase.SHOWDOWN):
        raise viol(
            "3.4", f"deal {state.deals} is still in progress; a new deal starts after it ends"
        )
    if state.first_dealer is None:
        raise viol("3.1", "the first dealer must be chosen by lot before the first deal")
    if state.shuffle_due:
        if state.deals == 0:
            raise viol("3.2", "the pack must be shuffled before the first deal")
        raise viol(
            "3.2", "the last deal ended in a showdown won by a prial: shuffle before dealing"
        )


def _recorded_hands(
    state: State, e: Dealt, order: list[int], retained: tuple[int, Hand] | None
) -> list[tuple[int, int, int] | None]:
    """RULES 3.4: every seated player is dealt three cards no one else holds."""
    if e.hands is None:
        raise FormatError(
            "every dealt card is recorded in this session (cards: all)",
            event=e.type,
            field="hands",
        )
    if set(e.hands) != set(state.seats):
        missing = [s for s in state.seats if s not in e.hands]
        extra = [s for s in e.hands if s not in (state.index or {})]  # seated after RULES 1.3
        what = f"missing {', '.join(missing)}" if missing else f"not seated: {', '.join(extra)}"
        raise viol("3.4", f"every seated player is dealt a hand ({what})")
    kept = _retained_cards(state, retained)
    hands: list[tuple[int, int, int] | None] = [None] * len(order)
    dealt_to: dict[int, str] = {}  # card -> the player it was dealt to
    for i in order:
        name = state.seats[i]
        a, b, c3 = e.hands[name]
        codes = (CODE[a], CODE[b], CODE[c3])
        for c in codes:
            if c in kept or c in dealt_to:
                where = kept.get(c) or f"{dealt_to[c]}'s hand"
                raise viol("3.4", f"{TEXT[c]} dealt to {name} is already in {where}", name)
            dealt_to[c] = name
        hands[i] = codes
    return hands


def _retained_cards(state: State, retained: tuple[int, Hand] | None) -> dict[int, str]:
    """Card -> the retained hand it is in (RULES 6.2: kept out of the pack)."""
    kept: dict[int, str] = {}
    if retained is not None and retained[1].cards is not None:
        for c in retained[1].cards:
            kept[c] = f"{state.seats[retained[0]]}'s retained hand"
    return kept


def _check_from_pack(
    state: State,
    pack: tuple[int, ...],
    order: list[int],
    hands: list[tuple[int, int, int] | None],
) -> None:
    """RULES 3.3: with the pack's order recorded, each hand is the one the pack gives."""
    for k, i in enumerate(order):
        expect = from_pack(pack, order, k)
        if expect != hands[i]:
            name = state.seats[i]
            want = " ".join(card_texts(expect))
            got = " ".join(card_texts(hands[i] or ()))
            raise viol(
                "3.3",
                f"{name} must be dealt {want} from the top of the pack, not {got}",
                name,
            )


def _start_deal(
    state: State,
    dealer: int,
    first: int,
    pack: tuple[int, ...] | None,
    dealt: tuple[list[tuple[int, int, int] | None], list[tuple[int, int, int] | None]],
    retained: tuple[int, Hand] | None,
) -> State:
    """Everyone antes (RULES 4.1) and holds the fresh hand (``dealt``: each seat's cards and
    slots, either ``None``), beside a retained one (RULES 6.3)."""
    n = len(state.seats)
    ante = amount_ticks(state.rules.ante, state.scale) or 0
    blind_play = state.rules.blind_play
    players = []
    hands, slots = dealt
    for i, name in enumerate(state.seats):
        h, s = hands[i], slots[i]
        held: tuple[Hand, ...] = (
            (Hand(h, "new", s),) if h is not None or s is not None else _UNKNOWN_NEW
        )
        if retained is not None and retained[0] == i:
            held = (Hand(retained[1].cards, "old", retained[1].slots), Hand(h, "new", s))
        players.append(replace(_NEW_PLAYER, name=name, hands=held, seen=not blind_play, paid=ante))
    return replace(
        state,
        phase=Phase.BETTING,
        dealer=dealer,
        deals=state.deals + 1,
        pack=pack,
        pot_t=state.pot_t + ante * n,
        paid_t=tuple(p + ante for p in state.paid_t),
        players=tuple(players),
        turn=first,
        level=None,
        actions=0,
        payer=None,
        opponent=None,
        both_blind=None,
        survivor=None,
        retained=None,
    )
