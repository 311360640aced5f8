"""Simulated sessions, every card recorded but one, projected once a module (shared by
tests/analytics/test_luck.py and tests/cli/test_luck_in_brag_stats.py): analytics layer."""

from __future__ import annotations

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics.sources import MemorySource
from sim import simulate_session


@pytest.fixture(name="src", scope="module")
def luck_src() -> MemorySource:
    """Five simulated sessions recording every card (2 to 6 players), one only the cards shown."""
    out = MemorySource()
    for k in range(5):
        out.append(f"all-{k}", simulate_session(seed=k, players=2 + k, cards="all"))
    out.append("shown-0", simulate_session(seed=9, players=4, cards="shown"))
    return out


@pytest.fixture(name="con", scope="module")
def luck_con(src: MemorySource) -> duckdb.DuckDBPyConnection:
    c = analytics.tables.connect()
    analytics.projector.refresh(src, c)
    return c


def tendency_values(events: list, *, then: bool = False) -> list:
    """Each deal's tendency value (analytics/tendencies.py) of a session's ``events``, or ``None``
    where the model has no table of that size: the players' actions are noted with the engine's
    state before each (seen or blind, RULES 5.1), and each deal's value is taken as it is dealt,
    so it reads only the deals before it (``then``: and the value a deal after the last would
    get). Independent of :class:`analytics.luck.LuckTracker`."""
    from analytics.tendencies import Tendencies
    from engine.apply import apply
    from engine.state import initial_state

    seen, state, out = Tendencies(), initial_state(), []
    for e in events:
        before, state = state, apply(state, e)
        who = getattr(e, "player", None)
        if who is not None and e.type not in ("dealer_chosen", "pot_won"):
            seen.acted(e.type, who, before.players[before.seat(who)].seen)
        if e.type == "dealt":
            seen.dealt(state.seats)
            out.append(seen.value())
    if then:
        seen.dealt(state.seats)
        out.append(seen.value())
    return out


def deal_kinds(events: list) -> list[str]:
    """Each deal's kind (RULES 3.2-3.4), in order: ``"fresh"`` (no card dealt since the last
    shuffle), ``"partly"`` (some), ``"none"`` (every card from under the pack); deals whose hands
    the log does not hold are left out."""
    from engine.state import card_codes

    since: set[int] = set()
    out = []
    for e in events:
        if e.type == "shuffled":
            since = set()
        elif e.type == "dealt" and e.hands is not None:
            cards = {c for h in e.hands.values() for c in card_codes(h)}
            out.append("none" if cards <= since else "partly" if cards & since else "fresh")
            since |= cards
    return out
