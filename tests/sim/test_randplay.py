"""The shared random player (:mod:`sim.randplay`) at a ``cards: "shown"`` table: its sessions are
played with a real pack and written down with the shown cards only, so the engine's tracked pack
(RULES 3.3, :mod:`engine.pack`) always accepts them; :func:`sim.randplay.next_event` on a shown
state draws only cards the pack allows."""

from __future__ import annotations

import random

from engine.apply import apply
from engine.fold import record, verify_events
from engine.legal import possible_cards
from engine.state import initial_state
from events.model import Dealt, SessionStarted, Shown, Shuffled
from sim.randplay import next_event, random_session, shown_only


def test_a_shown_session_is_a_real_pack_written_down() -> None:
    showdowns = 0
    for seed in range(40):
        players = 2 + seed % 9
        shown = random_session(random.Random(seed), f"s{seed}", players=players, cards="shown")
        full = random_session(random.Random(seed), f"s{seed}", players=players, cards="all")
        assert shown == shown_only(full)
        assert all(e.hands is None for e in shown if isinstance(e, Dealt))
        assert all(e.order is None for e in shown if isinstance(e, Shuffled))
        state = verify_events(enumerate(shown, start=1))
        assert state.cards_mode == "shown" and state.finished
        assert state.nets == verify_events(enumerate(full, start=1)).nets
        showdowns += sum(isinstance(e, Shown) for e in shown)
    assert showdowns > 100  # the showdowns are there to be checked


def test_next_event_at_a_shown_table_draws_cards_the_pack_allows() -> None:
    shown = 0
    for seed in range(30):
        rng = random.Random(seed)
        seats = ("A", "B", "C", "D", "E")[: 2 + seed % 4]
        start = SessionStarted(session="x", seats=seats, cards="shown")
        state = apply(initial_state(), start)
        while not state.finished:
            event = next_event(rng, state)
            assert event is not None
            if isinstance(event, Shown):
                assert set(event.cards) <= possible_cards(state, event.player)
                shown += 1
            state, _ = record(state, event)
    assert shown > 100
