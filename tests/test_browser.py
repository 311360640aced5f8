"""One real-browser test: Debian's Chromium, headless, driven by Playwright, opens a bundled
session's replay through its link, clicks Next, checks the pot shown, and saves a screenshot in
``tests/artifacts/``. It skips, saying why, where Chromium or Playwright is missing.

Set ``BRAG_DOCS_SCREENSHOT=1`` to also write ``docs/replayer.png`` (the README's picture).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, dashboard

from dashboard.view import Replay
from events.model import AnyEvent
from events.store import open_store

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
SESSION = "2026-09-24-top-1"  # a bundled session that records every card
LOG = ROOT / "data" / "season" / f"{SESSION}.jsonl"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard served by ``streamlit run`` on a free port, over a store holding one
    bundled session."""
    chromium()
    tmp = tmp_path_factory.mktemp("browser")
    db = str(tmp / "brag.db")
    with open_store(db) as store:
        store.import_log(str(LOG))
    with dashboard(tmp, {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}) as url:
        yield url


def test_replay_link_next_and_the_pot(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    rp = Replay.of(_events())
    deal = 2
    sl = rp.slice(deal)
    # the first step of the deal where the pot changes on the next step
    step = next(
        k - sl.start + 1
        for k in range(sl.start, sl.stop - 1)
        if rp.states[k + 1].pot != rp.states[k].pot and k - sl.start + 1 > 4
    )
    pot_now = rp.view(rp.position(deal, step)).pot_text
    pot_next = rp.view(rp.position(deal, step + 1)).pot_text
    assert pot_now != pot_next

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{server}/replay?session={SESSION}&deal={deal}&step={step}")
            pot = page.locator("[data-pot]").first
            expect(pot).to_have_attribute("data-pot", pot_now, timeout=30_000)
            expect(page.get_by_text(f"Step {step} of {sl.steps}")).to_be_visible()
            page.get_by_role("button", name="Next").click()
            expect(pot).to_have_attribute("data-pot", pot_next, timeout=15_000)
            expect(page.get_by_text(f"Step {step + 1} of {sl.steps}")).to_be_visible()
            assert f"step={step + 1}" in page.url
            metric = page.locator('[data-testid="stMetricValue"]').first
            expect(metric).to_have_text(pot_next)
            page.wait_for_timeout(500)
            page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
            if os.environ.get("BRAG_DOCS_SCREENSHOT"):
                page.screenshot(path=str(ROOT / "docs" / "replayer.png"))
            # the right arrow key is the Next button's shortcut
            page.get_by_role("heading", name="Replay").click()
            page.keyboard.press("ArrowRight")
            expect(page.get_by_text(f"Step {step + 2} of {sl.steps}")).to_be_visible(timeout=15_000)
            # ArrowLeft is the Previous button's shortcut too; under load a rerun may take one
            # press twice, so only the direction is checked here.
            page.keyboard.press("ArrowLeft")
            expect(page.get_by_text(f"Step {step + 2} of {sl.steps}")).not_to_be_visible(
                timeout=15_000
            )
        finally:
            browser.close()
    assert (ARTIFACTS / "replay.png").stat().st_size > 10_000


def _events() -> list[AnyEvent]:
    from engine import complete
    from events.codec import read_file

    return [s.event for s in complete(read_file(str(LOG)))]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-v"]))
