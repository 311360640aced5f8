"""Issue 32, item 3 in a real browser (Chromium, a phone at 390x844): a note written on the Replay
page on step 7 of deal 1 ("B bets level 2") still shows on that action after an Undo and a new
tap ("B folds" now at step 7): the page at step 7 shows the note said to be on a withdrawn step,
with the bet's words, and a note added there now is on the fold. Before issue 32 the note,
kept by (deal, step), showed on "B folds" as if written on it.

Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, dashboard
from shared_paths import SCENARIOS, needs_shared

from events.codec import read_file
from events.model import Folded, Voided
from log.annotations import notes
from log.open import open_store
from present.replay import Replay

SESSION = "card-example"
NOTE = "B should have folded here"
pytestmark = [pytest.mark.browser, needs_shared]  # needs_shared: it reads a scenario


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    chromium()
    tmp = tmp_path_factory.mktemp("notes_stay")
    db = str(tmp / "brag.db")
    events = [e for _, e in read_file(str(SCENARIOS / "card_example.jsonl"))]
    with open_store(db) as store:
        store.append(SESSION, events[:10], 0)  # deal 1 up to "B bets level 2" (step 7, seq 10)
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
    with dashboard(tmp, env) as url:
        yield url, db


def _page(browser: Any, url: str) -> Any:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(".rp[data-ready]", timeout=30_000)
    return page


def _loaded(page: Any, step: int) -> None:
    page.wait_for_selector(f".nt[data-loaded='{step}']", timeout=15_000)


def test_a_note_stays_on_its_action_after_an_undo_and_a_new_tap(served: tuple[str, str]) -> None:
    from playwright.sync_api import sync_playwright

    url, db = served
    at_seven = f"{url}/replay?session={SESSION}&deal=1&step=7"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        page = _page(browser, at_seven)
        _loaded(page, 7)
        assert "B bets level 2" in page.locator(".rp").inner_text()
        page.get_by_label("Note").fill(NOTE)
        page.get_by_label("Your name").fill("Ann")
        page.get_by_role("button", name="Add note on step 7").tap()
        page.wait_for_selector(".nt-note", timeout=15_000)
        assert page.locator(".nt-status").inner_text() == "Stored on step 7."
        assert page.locator(".nt-withdrawn").count() == 0

        with open_store(db) as store:  # the Undo of B's bet, and the new tap: B folds
            store.append(SESSION, [Voided(seq=10)], 10)
            store.append(SESSION, [Folded(player="B")], 11)
        page.goto(at_seven)
        page.wait_for_selector(".rp[data-ready]", timeout=30_000)
        _loaded(page, 7)
        assert "B folds" in page.locator(".rp").inner_text()
        note = page.locator(".nt-note")
        assert note.count() == 1 and note.get_attribute("data-withdrawn") == "1"
        assert note.locator(".nt-text").inner_text() == NOTE
        said = note.locator(".nt-withdrawn").inner_text()
        assert said == "On a withdrawn step: B bets level 2: pays 2"
        page.screenshot(path=str(db).replace("brag.db", "withdrawn.png"))

        page.get_by_label("Note").fill("B folded after all")  # a note now is on the fold
        page.get_by_role("button", name="Add note on step 7").tap()
        page.wait_for_selector(".nt-note >> nth=1", timeout=15_000)
        assert page.locator(".nt-note:not([data-withdrawn])").locator(".nt-text").inner_text() == (
            "B folded after all"
        )
        browser.close()
    with open_store(db, readonly=True) as store:
        rp = Replay.of(store.events(SESSION), recorded=True)
        got = {n.text: (n.deal, n.step, n.withdrawn) for n in notes(store, rp)}
    assert got == {NOTE: (1, 7, True), "B folded after all": (1, 7, False)}
