"""RULES 3.2 to 3.4 and 6.2 to 6.7: the pack tracked card by card where only shown cards are known.

At a real table (FORMAT.md ``cards: "shown"``) no dealt card is recorded, yet every card's place
follows the rules, so the engine tracks *slots*, not cards: after a shuffle the 52 places of the
pack are numbered ``0..51`` top first (:data:`SHUFFLED`), and a slot stays with its card wherever
the rules move it: dealt three rounds of one card from the top, from the dealer's left (3.4); under
the pack in the **[R]** order of 3.3 (a folding hand as it folds, a thrown hand as it is thrown, at
a showdown the payer's opponent's hand then the payer's, otherwise the survivor's); a retained hand
out of the pack (6.2) and beside the fresh one (6.3). ``State.pack`` is the pack's slots, top first,
and each :class:`~engine.state.Hand`'s ``slots`` its own (:mod:`engine.rules.deal` moves them, as it
moves the cards themselves where a shuffle's order is recorded).

Which card is in which slot is unknown until it is shown. :class:`~engine.state.Sightings` keeps,
for each card shown since the last shuffle, the slots it can be in (the slots of every hand it was
shown from: their intersection) and one assignment of every shown card to a slot of its own (a
matching, kept from showdown to showdown). A shown card is possible exactly when such an assignment
still exists with it (an augmenting path, :func:`_augment`): every such assignment is the start of a
whole shuffled order (the cards never shown fill the other slots, each an unknown card), and no
other constraint follows from the rules. :func:`sighted` checks a ``shown`` and says in words why
a card cannot be there ("RULES 3.3: Qs went under the pack at deal 1's showdown; with 4 players it
cannot come round before deal 5"); :func:`possible_cards` is the same question for every card (the
Record page's card picker greys out the others).
"""

from __future__ import annotations

from engine.rules.common import viol
from engine.state import CODE, TEXT, Hand, Sightings, State
from events.errors import RuleViolation

__all__ = ["NO_SIGHTINGS", "SHUFFLED", "possible_cards", "sighted", "why_not"]

SHUFFLED: tuple[int, ...] = tuple(range(52))
"""The slots of a freshly shuffled pack, top first (RULES 3.2)."""
NO_SIGHTINGS = Sightings({}, {}, {})
"""Nothing shown since the last shuffle."""


def _augment(
    card: int,
    places: dict[int, frozenset[int]],
    card_in: dict[int, int],
    visited: set[int],
) -> bool:
    """Kuhn's augmenting path: gives ``card`` a slot among ``places[card]``, moving other shown
    cards to other slots of theirs where needed (``card_in``, slot -> card, changed in place);
    ``False`` when there is none (``visited`` then holds the slots that were tried). Which of
    several assignments it finds does not matter: whether one exists is all the rules ask."""
    for slot in places[card]:
        if slot in visited:
            continue
        visited.add(slot)
        other = card_in.get(slot)
        if other is None or _augment(other, places, card_in, visited):
            card_in[slot] = card
            return True
    return False


def _fit(
    places: dict[int, frozenset[int]],
    card_in: dict[int, int],
    card: int,
    slots: frozenset[int],
) -> tuple[bool, frozenset[int], set[int]]:
    """Shows ``card`` from a hand of ``slots``, changing ``places`` and ``card_in`` in place:
    whether an assignment exists, the slots the card could be in before, and the slots an
    augmenting path tried (for the refusal's words). On ``False`` the dictionaries are left to
    be thrown away."""
    before = places.get(card) or frozenset()
    can = before & slots if before else slots
    if not can:
        return False, before, set()
    places[card] = can
    for slot in before:  # shown before: its slot, if it stays, moves nothing
        if card_in.get(slot) == card:
            if slot in can:
                return True, before, set()
            del card_in[slot]
            break
    for slot in can:  # a free slot first: the usual case, nothing else moves
        if slot not in card_in:
            card_in[slot] = card
            return True, before, set()
    visited: set[int] = set()
    return _augment(card, places, card_in, visited), before, visited


def _place(s: Sightings, card: int, slots: frozenset[int]) -> Sightings | None:
    """``s`` with ``card`` shown from a hand of ``slots``, or ``None`` when no assignment exists
    (``s`` itself never changes)."""
    places, card_in = dict(s.places), dict(s.card_in)
    if not _fit(places, card_in, card, slots)[0]:
        return None
    return Sightings(places, card_in, s.last)


def _hand_slots(hand: Hand) -> frozenset[int] | None:
    return None if hand.slots is None else frozenset(hand.slots)


def sighted(state: State, seat: int, cards: tuple[int, ...]) -> Sightings | None:
    """RULES 3.3, 3.4: ``state.sightings`` after the player at ``seat`` shows ``cards`` (codes)
    from their one hand at a ``cards: "shown"`` table; unchanged where the pack is not tracked.

    Raises :class:`~events.errors.RuleViolation` (RULES 3.3) when the pack's order since the last
    shuffle cannot put a card there: shown earlier and gone under the pack too deep to come round
    by this deal, come round to another player, or one card too many of a group that can fill only
    so many places of this hand."""
    s = state.sightings
    if s is None:
        return None
    slots = _hand_slots(state.players[seat].hands[0])
    if slots is None:
        return s
    name = state.seats[seat]
    new = Sightings(dict(s.places), dict(s.card_in), dict(s.last))
    for card in cards:
        fits, before, visited = _fit(new.places, new.card_in, card, slots)
        if not fits:
            raise _refusal(state, new, card, name, before, visited)
        new.last[card] = (state.deals, name)
    return new


def possible_cards(state: State, player: str, beside: tuple[str, ...] = ()) -> frozenset[str]:
    """The cards (canonical strings) that can be in ``player``'s hand now, given what the log
    knows (RULES 3.3, 3.4, 6.2 to 6.7), with the cards ``beside`` (canonical strings: cards about
    to be shown from the same hand) in it too: the hand's cards where they are recorded (``cards:
    "all"``); where the pack is tracked by slots (``cards: "shown"``), every card that some
    shuffled order since the last shuffle puts there beside every card shown so far; otherwise
    every card not shown by another player in this deal. A holder of two hands: either hand.
    Empty outside a deal, or when ``beside`` cannot be in the hand. Raises RuleViolation (RULES
    1.3) for a name not seated."""
    i = state.seat(player)
    if not state.in_deal or not state.players:
        return frozenset()
    hands = state.players[i].hands
    if all(h.cards is not None for h in hands):
        return frozenset(TEXT[c] for h in hands for c in h.cards or ())
    s = state.sightings
    if s is None or any(h.slots is None for h in hands):
        return _not_shown_by_others(state, i)
    out: set[int] = set()
    for hand in hands:
        out |= _fitting(s, frozenset(hand.slots or ()), beside)
    return frozenset(TEXT[c] for c in sorted(out))


def _not_shown_by_others(state: State, seat: int) -> frozenset[str]:
    """Where the pack is not tracked: every card no other player has shown in this deal."""
    others = {c for k, p in enumerate(state.players) if k != seat for c in p.shown}
    return frozenset(TEXT[c] for c in range(52) if c not in others)


def _fitting(s: Sightings, slots: frozenset[int], beside: tuple[str, ...]) -> set[int]:
    """The cards (codes) a hand of ``slots`` can hold beside the cards ``beside``."""
    fit: Sightings | None = s
    for card in beside:
        fit = _place(fit, CODE[card], slots) if fit is not None else None
    if fit is None:
        return set()
    return {c for c in range(52) if _place(fit, c, slots) is not None}


def why_not(state: State, player: str, card: str) -> str | None:
    """Why ``player`` cannot show ``card`` (a canonical string) from their hand now, in the words
    of the refusal a ``shown`` would get (RULES 3.3: "Qs went under the pack at deal 1's
    showdown; ..."; RULES 3.4: shown by the other player), or ``None`` when the tracked pack
    allows it. For a picker's greyed-out card; outside a deal, or where the pack is not tracked
    by slots, only a card shown by another player is refused. Raises RuleViolation (RULES 1.3)
    for a name not seated."""
    i = state.seat(player)
    if not state.in_deal or not state.players:
        return None
    code = CODE[card]
    for k, p in enumerate(state.players):
        if k != i and code in p.shown:
            return f"RULES 3.4: {card} is already shown by {p.name}"
    if code in state.players[i].shown:
        return f"{player} has already shown {card}"
    s, hands = state.sightings, state.players[i].hands
    slots = _hand_slots(hands[0]) if len(hands) == 1 else None
    if s is None or slots is None:
        return None
    work = Sightings(dict(s.places), dict(s.card_in), s.last)
    fits, before, visited = _fit(work.places, work.card_in, code, slots)
    return None if fits else str(_refusal(state, work, code, player, before, visited))


# --- the refusal's words ---------------------------------------------------------------------


def _holders(state: State, slots: frozenset[int], name: str) -> list[str]:
    """The other players of this deal whose hand holds one of ``slots`` (a retained one named)."""
    out = []
    for p in state.players:
        for h in p.hands:
            if p.name != name and h.slots is not None and slots & set(h.slots):
                out.append(f"{p.name} (the retained hand)" if h.origin == "old" else p.name)
    return out


def _first_deal(state: State, slots: frozenset[int]) -> int | None:
    """RULES 3.4: the earliest deal that can deal a card of ``slots`` still in the pack: each deal
    takes three cards a player from the top."""
    if state.pack is None:
        return None
    at = [k for k, slot in enumerate(state.pack) if slot in slots]
    if not at:
        return None
    return state.deals + 1 + min(at) // (3 * len(state.seats))


def _refusal(
    state: State,
    s: Sightings,
    card: int,
    name: str,
    before: frozenset[int],
    visited: set[int],
) -> RuleViolation:
    c = TEXT[card]
    if before and not visited:  # shown before, and none of its slots is in this hand
        deal, _ = s.last[card]
        gone = f"{c} went under the pack at deal {deal}'s showdown"
        holders = _holders(state, before, name)
        if holders:
            why = f"in deal {state.deals} only {' or '.join(holders)} can hold it, not {name}"
        elif (first := _first_deal(state, before)) is not None and first > state.deals:
            n = len(state.seats)
            why = (
                f"with {n} players it cannot come round before deal {first}, "
                f"so {name} cannot hold it"
            )
        else:
            why = f"the pack's order since the last shuffle does not put it in {name}'s hand"
        return viol("3.3", f"{gone}; {why}", name)
    group = sorted({card} | {s.card_in[t] for t in visited if t in s.card_in})
    others = " ".join(TEXT[x] for x in group if x != card)
    places = f"{len(visited)} place" + ("" if len(visited) == 1 else "s")
    return viol(
        "3.3",
        f"{c} cannot be in {name}'s hand beside {others} (shown since the last shuffle): the "
        f"pack's order leaves only {places} for these {len(group)} cards",
        name,
    )
