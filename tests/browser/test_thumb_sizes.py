"""The pages at a phone's 390×844 and a tablet's 820×1180, in Debian's Chromium driven by
Playwright, as a thumb and an eye find them:

- the Record page's table beside the pad on a tablet is drawn as the compact grid of seats, its
  text at least 11 px (the oval, in that 340 px column, drew names at 8 px and statuses at 6 px);
- on a phone, every choice of "Correct a step" is at least 44 px high;
- on a phone, the Decisions page's rows of buttons are at least 44 px square;
- on a phone, the Replay page's step links in the events list are at least 44 px square, and
  the toggles, the slider and "Link to this step" at least 44 px high;
- at 390 px the Players, Decisions and Explore pages do not scroll sideways (a wide table
  scrolls inside its own frame).

It skips, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import chromium, dashboard, launched, live, season_env, unlock, wait_drawn
from test_record_page import _smallest_table_text

from log.open import open_store

pytestmark = pytest.mark.browser

SECRET = "thumbs and eyes at the table"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
SESSION = "thumb-sizes"
THUMB = 44


def _log() -> list[dict[str, Any]]:
    """An open session at a real table: Ann, Bob, Cal, Dee (Dee deals); Ann looks and bets,
    Bob folds; Cal to act."""
    return [
        {"type": "session_started", "session": SESSION, "seats": ["Ann", "Bob", "Cal", "Dee"],
         "cards": "shown"},
        {"type": "dealer_chosen", "player": "Dee"},
        {"type": "shuffled"},
        {"type": "dealt"},
        {"type": "looked", "player": "Ann"},
        {"type": "bet", "player": "Ann", "level": 2},
        {"type": "folded", "player": "Bob"},
    ]  # fmt: skip


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard over two bundled sessions (the statistics' pages have figures) and the open
    session above, recording unlocked by the secret."""
    chromium()
    tmp = tmp_path_factory.mktemp("thumbs")
    env = season_env(tmp, sessions=2)
    log = tmp / "open.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in _log()))
    with open_store(env["BRAG_DB"]) as store:
        store.import_log(str(log))
    env["BRAG_ORGANISER_SECRET"] = SECRET
    with dashboard(tmp, env) as url:
        yield url


BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .map(e => e.getBoundingClientRect())
  .filter(r => r.width > 0 && r.height > 0)
  .map(r => [Math.round(r.width), Math.round(r.height)])"""


def _boxes(page: Any, selector: str) -> list[list[int]]:
    """``[width, height]`` in px of each element ``selector`` finds that is drawn."""
    return list(page.evaluate(BOXES, selector))


def test_the_record_pages_table_is_readable_beside_the_pad_on_a_tablet(served: str) -> None:
    from playwright.sync_api import expect

    with launched() as browser:
        page = browser.new_context(viewport=TABLET).new_page()
        unlock(page, served, SECRET)
        page.goto(f"{served}/record?session={SESSION}")
        expect(page.locator("button[data-spot=fold]")).to_be_enabled(timeout=30_000)
        expect(page.locator(".brag-compact svg")).to_be_visible()
        assert _smallest_table_text(page) >= 11


def test_correction_choices_take_a_thumb_on_a_phone(served: str) -> None:
    from playwright.sync_api import expect

    with launched() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        unlock(page, served, SECRET)
        page.goto(f"{served}/record?session={SESSION}")
        expect(page.locator("button[data-spot=fold]")).to_be_enabled(timeout=30_000)
        page.get_by_text("Correct a step").click()
        box = live(page).get_by_role("combobox", name="Step", exact=True)
        expect(box).to_be_visible(timeout=20_000)
        for _ in range(4):  # typed into the list's search (a rerun may close an open list)
            box.click()
            page.keyboard.type("Ann bets level 2")
            if page.get_by_role("option").count() == 1:
                page.keyboard.press("Enter")
                break
            page.keyboard.press("Escape")
            page.wait_for_timeout(500)
        choices = page.get_by_test_id("stRadioOption")
        expect(choices.first).to_be_visible(timeout=20_000)
        sizes = _boxes(page, "[data-testid=stRadioOption]")
        assert len(sizes) >= 3, sizes  # "Remove this step" and the other bets at least
        assert min(h for _, h in sizes) >= THUMB, sizes


def test_decisions_buttons_take_a_thumb_on_a_phone(served: str) -> None:
    from playwright.sync_api import expect

    with launched() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{served}/decisions")
        expect(page.get_by_text("Sessions recording")).to_be_visible(timeout=60_000)
        expect(page.locator('button[data-variant="pills"]').first).to_be_visible(timeout=30_000)
        page.get_by_text("Spot: every decision").click()
        expect(page.get_by_text("Opponents blind")).to_be_visible()
        sizes = _boxes(
            page, 'button[data-variant="segmented_control"], button[data-variant="pills"]'
        )
        assert len(sizes) >= 20, sizes  # the spot's pickers, the recording, whose, the counts
        assert min(min(w, h) for w, h in sizes) >= THUMB, sizes


def test_replay_steps_take_a_thumb_on_a_phone(served: str) -> None:
    with launched() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{served}/replay?session={SESSION}&deal=1&step=3")
        wait_drawn(page)
        links = _boxes(page, ".rp-list td.rp-num a")
        assert len(links) >= 3, links
        assert min(min(w, h) for w, h in links) >= THUMB, links
        for selector in (".rp-toggle", ".rp-slider", ".rp-link"):
            sizes = _boxes(page, selector)
            assert sizes and min(h for _, h in sizes) >= THUMB, (selector, sizes)


@pytest.mark.parametrize("path", ["players", "decisions", "explore"])
def test_no_sideways_scroll_at_390_px(served: str, path: str) -> None:
    from playwright.sync_api import expect

    with launched() as browser:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{served}/{path}")
        expect(page.locator("h1")).to_be_visible(timeout=60_000)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=stSkeleton]') && "
            "document.querySelector('[data-testid=stApp]')?.dataset.testScriptState "
            "!== 'running'",
            timeout=60_000,
        )
        page.wait_for_timeout(1_000)
        widths = page.evaluate(
            """() => { const m = document.querySelector('[data-testid=stMain]');
                 return [document.documentElement.scrollWidth, m.scrollWidth, innerWidth]; }"""
        )
        assert widths[0] <= widths[2] and widths[1] <= widths[2], widths
