"""Random legal sessions of one pool of names projected once a module (shared by
tests/analytics/test_decision_explorer.py and tests/cli/test_decisions_command.py): analytics
layer."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics.sources import interleave
from sim.randplay import random_session

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def streams(seed: int, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    out = {}
    for k in range(n):
        players = rng.sample(NAMES, rng.randint(2, 5))
        out[f"r{k}"] = random_session(
            rng,
            f"r{k}",
            players=players,
            cards=rng.choice(["all", "shown"]),
            pots=rng.randint(1, 3),
            ante=rng.choice([Fraction(1), Fraction(1, 2), Fraction(1, 3)]),
            void_rate=rng.choice([0.0, 0.1]),
        )
    return out


@pytest.fixture(name="con", scope="module")
def explorer_con() -> duckdb.DuckDBPyConnection:
    c = analytics.tables.connect()
    analytics.projector.refresh(interleave(streams(20, 14), seed=3), c, batch_size=97)
    return c
