"""A finished random session stored, and its last recorded step (shared by the corrections'
tests: tests/log/test_corrections.py, tests/present/test_corrections_previewed.py,
tests/cli/test_amend_command.py, tests/dashboard/test_correction_panel.py): log layer."""

from __future__ import annotations

import random

from engine.fold import fold
from events.model import AnyEvent
from log.open import open_store
from log.service import EventStore
from sim.randplay import random_session
from timeline import Step


def stored(events: list[AnyEvent], url: str = "memory://", session: str = "s") -> EventStore:
    """A store at ``url`` holding ``events`` as session ``session``."""
    store = open_store(url)
    store.append(session, events, 0)
    return store


def finished(seed: int = 7) -> list[AnyEvent]:
    """A finished random session "s" of three players and two pots."""
    rng = random.Random(seed)
    events = random_session(rng, "s", players=3, pots=2)
    assert fold(events).finished
    return events


def last_step(store: EventStore) -> Step:
    """Session "s"'s last recorded (not derived) step."""
    t = store.timeline("s")
    return next(x for x in reversed(list(t.steps)) if not x.derived)
