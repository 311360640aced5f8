"""Uniformly random legal play for tests and benchmarks, drawn from ``engine.legal.legal_actions``.

Not the styled players of :mod:`sim.players` (``brag simulate``): a small source of valid complete
streams (recorded events followed by the engine's derived events), with voids, unfinished sessions
and rule parameters on request. Every event is checked by :func:`engine.apply.apply` as it is
drawn, so every stream it returns is valid. The one random player the store, analytics and engine
benchmarks and tests share.

A ``cards: "shown"`` session is played as a real table plays it: with a real shuffled pack, dealt
and put under as the rules say (the engine in ``cards: "all"`` mode with each shuffle's order
recorded), then written down as an organiser records it, keeping only the shown cards
(:func:`shown_only`). So its showdowns are always ones a pack can give (RULES 3.3), and the engine's
check of them is tested, not assumed. :func:`next_event` on a ``cards: "shown"`` state, which has
no pack to deal from, draws cards the tracked pack allows (:func:`engine.legal.possible_cards`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from engine.apply import apply
from engine.fold import record
from engine.legal import LegalAction, can_void, legal_actions, possible_cards
from engine.state import State, initial_state
from events.cards import FULL_PACK
from events.model import AnyEvent, Dealt, Rules, SessionStarted, Shown, Shuffled, Voided

__all__ = ["next_event", "random_session", "shown_only"]

_NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


def _choose(rng: random.Random, actions: list[LegalAction], state: State) -> LegalAction:
    """A policy that keeps deals short enough: look often, fold sometimes, see when possible."""
    by_kind: dict[str, list[LegalAction]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    if "kept" in by_kind:
        return rng.choice(by_kind["kept"] + by_kind["thrown"])
    weights = {
        "looked": 0.35,
        "saw": 0.45,
        "folded": 0.22,
        "bet": 1.0,
        "retained": 0.5,
        "dealt": 0.5,
        "dealer_chosen": 1.0,
        "shuffled": 1.0,
        "shown": 1.0,
        "conceded": 0.5,
    }
    kinds = list(by_kind)
    kind = rng.choices(kinds, [weights.get(k, 1.0) for k in kinds])[0]
    group = by_kind[kind]
    if kind == "bet":
        # Mostly keep the level; raise by a little now and then.
        return group[0] if rng.random() < 0.7 or len(group) == 1 else rng.choice(group[1:3])
    return rng.choice(group)


def _fill(rng: random.Random, action: LegalAction, state: State) -> AnyEvent:
    event = action.event
    if "order" in action.needs:
        order = [str(c) for c in FULL_PACK]
        rng.shuffle(order)
        return Shuffled(order=tuple(order)) if state.cards_mode == "all" else Shuffled()
    if "cards" in action.needs:
        assert isinstance(event, Shown)
        # A real table (cards: "shown") without a pack of its own: cards the tracked pack lets
        # this hand hold (RULES 3.3), one at a time beside those drawn before.
        mine = {str(FULL_PACK[c]) for c in state.players[state.seat(event.player)].shown}
        cards: tuple[str, ...] = ()
        for _ in event.cards:
            fits = sorted(possible_cards(state, event.player, cards) - mine - set(cards))
            cards += (rng.choice(fits),)
        return Shown(player=event.player, cards=cards)
    return event


def next_event(rng: random.Random, state: State) -> AnyEvent | None:
    """A random legal next recorded event, inputs filled in (shuffle order, shown cards), or
    ``None`` when the rules allow none (the session is over, or conclusions are pending)."""
    actions = legal_actions(state)
    if not actions:
        return None
    return _fill(rng, _choose(rng, actions, state), state)


def random_session(
    rng: random.Random,
    session: str,
    *,
    players: int | Sequence[str] = 3,
    cards: str = "all",
    pots: int = 8,
    ante: Fraction | int = 1,
    blind_play: bool = True,
    void_rate: float = 0.0,
    max_events: int | None = None,
) -> list[AnyEvent]:
    """A complete valid stream (derived events included) of one random session.

    ``void_rate`` is the chance, after each recorded event, of voiding the latest recorded event in
    force (FORMAT.md ``voided``); ``max_events`` stops early to give an unfinished session.
    ``cards="shown"``: the session is played with a real pack and recorded with the shown cards
    only (:func:`shown_only`)."""
    seats = tuple(_NAMES[:players]) if isinstance(players, int) else tuple(players)
    start = SessionStarted(
        session=session,
        seats=seats,
        cards="all",
        rules=Rules(pots=pots, ante=Fraction(ante), blind_play=blind_play),
    )
    state = apply(initial_state(), start)
    out: list[AnyEvent] = [start]
    while not state.finished and (max_events is None or len(out) < max_events):
        if void_rate and rng.random() < void_rate and can_void(state) is not None:
            event: AnyEvent = Voided(seq=can_void(state) or 0)
        else:
            drawn = next_event(rng, state)
            if drawn is None:
                break
            event = drawn
        state, stream = record(state, event)
        out += stream
    return out if cards == "all" else shown_only(out)


def shown_only(events: Sequence[AnyEvent]) -> list[AnyEvent]:
    """A ``cards: "all"`` stream as an organiser at a real table records it (FORMAT.md ``cards:
    "shown"``): no shuffle's order, no dealt hands; every other event as it is (the showdown's
    cards, the derived events, the envelope)."""
    out: list[AnyEvent] = []
    for e in events:
        if isinstance(e, SessionStarted):
            e = e.model_copy(update={"cards": "shown"})
        elif isinstance(e, Shuffled):
            e = e.model_copy(update={"order": None})
        elif isinstance(e, Dealt):
            e = e.model_copy(update={"hands": None})
        out.append(e)
    return out
