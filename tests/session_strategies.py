"""The sessions the property tests draw: a whole session played one legal action at a time
(:func:`engine.legal.legal_actions`), shared by the engine's properties
(``tests/engine/test_legal_sessions.py``) and the hostile-input property
(``tests/hostile/test_hostile_properties.py``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine.apply import apply
from engine.legal import can_void, legal_actions, possible_cards
from engine.state import Phase, State, initial_state
from events.cards import FULL_PACK
from events.codec import dumps
from events.model import (
    AnyEvent,
    Rules,
    SessionStarted,
    Shown,
    Shuffled,
    Voided,
)

ALL_CARDS = tuple(str(c) for c in FULL_PACK)
NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
MAX_EVENTS = 160
"""Events drawn per session at most; most sessions end (pots 1 to 3) before that."""

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Session:
    """A drawn session: the full stream (recorded and derived events) and the state after each."""

    events: tuple[AnyEvent, ...]
    states: tuple[State, ...]

    @property
    def mode(self) -> str:
        return self.states[-1].cards_mode

    def __repr__(self) -> str:
        return "Session(\n" + "\n".join(dumps(e) for e in self.events) + "\n)"


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    return Rules(
        ante=draw(st.sampled_from([Fraction(1), Fraction(1), Fraction(1, 2), Fraction(2)])),
        open_max=draw(st.sampled_from([5, 5, 3])),
        raise_max=draw(st.sampled_from([5, 5, 2, 10])),
        pots=draw(st.integers(1, 3)),
        blind_play=draw(st.sampled_from([True, True, True, False])),
    )


@st.composite
def showdown_cards(draw: st.DrawFn, state: State, player: str, count: int) -> tuple[str, ...]:
    """Cards for ``player``'s ``shown`` at a ``cards: "shown"`` table: cards the tracked pack lets
    that hand hold (:func:`engine.legal.possible_cards`, RULES 3.3), drawn one at a time beside
    the ones drawn before; now and then a prial (so the shuffle of RULES 3.2 comes up)."""
    mine = {ALL_CARDS[c] for c in state.players[state.seat(player)].shown}
    if count == 3 and draw(st.integers(0, 4)) == 0:
        free = possible_cards(state, player)
        ranks = Counter(c[0] for c in free)
        full = sorted(r for r, k in ranks.items() if k >= 3)
        if full:
            rank = draw(st.sampled_from(full))
            prial: tuple[str, ...] = ()
            for _ in range(3):
                fits = sorted(
                    c for c in possible_cards(state, player, prial) - set(prial) if c[0] == rank
                )
                if not fits:
                    break
                prial += (draw(st.sampled_from(fits)),)
            if len(prial) == 3:
                return prial
    picked: tuple[str, ...] = ()
    for _ in range(count):
        fits = sorted(possible_cards(state, player, picked) - set(picked) - mine)
        picked += (draw(st.sampled_from(fits)),)
    return picked


@st.composite
def sessions(draw: st.DrawFn, max_events: int = MAX_EVENTS) -> Session:
    n = draw(st.integers(2, 10))
    mode: Literal["all", "shown"] = draw(st.sampled_from(["all", "shown"]))
    rules = draw(rule_sets())
    voids = draw(st.booleans())
    start = SessionStarted(session="prop", seats=NAMES[:n], cards=mode, rules=rules)
    state = apply(initial_state(), start)
    events: list[AnyEvent] = [start]
    states: list[State] = [state]

    def push(e: AnyEvent) -> None:
        nonlocal state
        state = apply(state, e)
        events.append(e)
        states.append(state)
        while state.pending:
            push(state.pending[0])

    while len(events) < max_events:
        if voids and can_void(state) is not None and draw(st.integers(0, 24)) == 0:
            push(Voided(seq=can_void(state) or 0))
            continue
        actions = legal_actions(state)
        if not actions:
            break
        # Draw the kind first so that folds and sees come up often enough to end deals.
        kinds = sorted({a.kind for a in actions})
        kind = draw(st.sampled_from(kinds))
        action = draw(st.sampled_from([a for a in actions if a.kind == kind]))
        event = action.event
        if "order" in action.needs:  # cards: "all" only (FORMAT.md "cards")
            assert isinstance(event, Shuffled) and mode == "all"
            event = Shuffled(order=tuple(draw(st.permutations(ALL_CARDS))))
        if "cards" in action.needs:
            assert isinstance(event, Shown)
            cards = draw(showdown_cards(state, event.player, len(event.cards)))
            event = Shown(player=event.player, cards=cards)
        assert "hands" not in action.needs  # every "all" shuffle records its order
        push(event)
    return Session(tuple(events), tuple(states))


def places(state: State) -> Counter[int]:
    """Where the 52 cards are (RULES 3.3): the tracked pack, the hands of the players still in the
    deal (the blind survivor's after a carried pot), and a retained hand; by their slots (the cards
    themselves where the shuffle's order is recorded, :mod:`engine.pack`'s slots at a ``cards:
    "shown"`` table)."""
    where: Counter[int] = Counter(state.pack or ())
    hands = []
    if state.phase in (Phase.BETTING, Phase.SHOWDOWN):
        hands = [h for p in state.players if not p.folded for h in p.hands]
    elif state.phase is Phase.CARRIED:
        assert state.survivor is not None
        hands = list(state.players[state.survivor].hands)
    elif state.phase is Phase.BETWEEN and state.retained is not None:
        hands = [state.retained[1]]
    for h in hands:
        assert h.slots is not None
        where.update(h.slots)
    return where


def lines_of(events: list[AnyEvent] | tuple[AnyEvent, ...]) -> list[str]:
    return [dumps(e) for e in events]
