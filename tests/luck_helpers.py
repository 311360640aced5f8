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
