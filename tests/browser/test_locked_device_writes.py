"""A locked device stores nothing, in Chromium (issue 33, class 3): the Record page's "Store the
correction" drawn on an unlocked device, then "Lock every device" (another device's, written in
the store), then the button tapped: nothing is stored, and the page says the device is locked
and asks for the secret. It skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, dashboard, live, unlock

from events.model import Bet, DealerChosen, Dealt, SessionStarted, Shuffled
from log.open import open_store

pytestmark = pytest.mark.browser

SECRET = "open sesame please"


def test_a_correction_drawn_before_lock_every_device_stores_nothing(tmp_path: Path) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect, sync_playwright

    chromium()
    db = str(tmp_path / "brag.db")
    with open_store(db) as store:
        store.append(
            "friday",
            [SessionStarted(session="friday", seats=["Ann", "Bob", "Cal"], cards="shown"),
             DealerChosen(player="Cal"), Shuffled(), Dealt(), Bet(player="Ann", level=2)],
            0,
        )  # fmt: skip
        before = [e.id for e in store.events("friday")]
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp_path / "brag.duckdb"),
           "BRAG_ORGANISER_SECRET": SECRET}  # fmt: skip
    with dashboard(tmp_path, env) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            unlock(page, url, SECRET)
            page.goto(f"{url}/record?session=friday")
            page.get_by_text("Correct a step").click()
            step = live(page).get_by_role("combobox", name="Step")
            expect(step).to_be_visible(timeout=30_000)
            for attempt in range(6):  # the list may not open while the page reruns
                (step.click if attempt % 2 else step.focus)()
                page.keyboard.press("ArrowDown")
                try:
                    # the latest step (Ann's bet): a correction that needs no repair, so
                    # its button is live (removing the deal would need repairs first)
                    page.get_by_role("option").last.click(timeout=3_000)
                    break
                except PlaywrightTimeout:
                    page.keyboard.press("Escape")
            store_it = page.get_by_role("button", name="Store the correction")
            expect(store_it).to_be_visible(timeout=30_000)
            with open_store(db) as store, store.recorder.transaction() as tx:
                tx.devices().revoke_all()  # "Lock every device" on another device
            store_it.click()
            expect(page.get_by_text("This device is locked")).to_be_visible(timeout=30_000)
            expect(page.get_by_label("Organiser secret")).to_be_visible()
        finally:
            browser.close()
    with open_store(db, readonly=True) as store:
        assert [e.id for e in store.events("friday")] == before  # no voided, nothing at all
