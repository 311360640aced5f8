"""The dashboard under Streamlit's ``AppTest``, shared by the pages' tests
(``tests/dashboard/``) and the luck column's (``tests/analytics/test_luck.py``): the sessions of
the ``store_url`` fixture (``tests/conftest.py``) and a page run once (``page``)."""

from __future__ import annotations

from pathlib import Path

from shared_paths import SCENARIOS
from streamlit.testing.v1 import AppTest

from dashboard.common.pages import PAGE_FILES

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")

LOGS = [
    ROOT / "data" / "examples" / "card_example.jsonl",  # cards "shown", one deal
    ROOT / "data" / "season" / "2026-09-24-top-1.jsonl",  # cards "all", 8 pots
    SCENARIOS / "blind_pays_half.jsonl",  # "B sees A: pays 6, the level, being blind"
]
ALL_CARDS = "2026-09-24-top-1"


def page(name: str, **params: str) -> AppTest:
    """The app run once on page ``NAME`` (:data:`dashboard.common.pages.PAGE_FILES`) with these
    query parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE_FILES[name])
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()
