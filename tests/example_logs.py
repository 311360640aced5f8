"""The sessions of the ``store_url`` fixture (``tests/conftest.py``): three logs, one of them a
team scenario. Apart from :mod:`apptest_helpers` (which runs the dashboard's pages) so that a test
below the dashboard (``tests/cli/test_luck_in_brag_stats.py``) may fill its store with them."""

from __future__ import annotations

from shared_paths import ROOT, SCENARIOS

LOGS = [
    ROOT / "data" / "examples" / "card_example.jsonl",  # cards "shown", one deal
    ROOT / "data" / "season" / "2026-09-24-top-1.jsonl",  # cards "all", 8 pots
    SCENARIOS / "blind_pays_half.jsonl",  # "B sees A: pays 6, the level, being blind"
]
ALL_CARDS = "2026-09-24-top-1"
"""The session of :data:`LOGS` that records every card."""
