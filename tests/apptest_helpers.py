"""The dashboard under Streamlit's ``AppTest``, shared by the pages' tests
(``tests/dashboard/``): a page run once (``page``) on the sessions of the ``store_url`` fixture
(``tests/conftest.py``, the logs of :mod:`example_logs`)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from dashboard.common.pages import PAGE_FILES

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")


def page(name: str, **params: str) -> AppTest:
    """The app run once on page ``NAME`` (:data:`dashboard.common.pages.PAGE_FILES`) with these
    query parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE_FILES[name])
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def pick_hands(at: AppTest, hands: dict[str, list[str]]) -> None:
    """On the Record page's digital deal, picks each player's cards (``{"Ann": ["As", ...]}``) in
    the pills of their hand, a suit at a time; runs the page after each pick."""
    for player, cards in hands.items():
        base = next(
            p.key for p in at.pills if p.key and p.key.startswith("hand-") and p.key.count(player)
        )[: -len("-s")]
        for suit in "shdc":
            mine = [c for c in cards if c[1] == suit]
            if mine:
                at.pills(key=f"{base}-{suit}").set_value(mine).run()
