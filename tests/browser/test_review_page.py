"""Issue 38.3 and 38.4 in a real browser (Debian's Chromium, headless, Playwright): the Review
page of a simulated heads-up session of every card (Ann, Bob, seed 3), with the shipped solution
only (an empty solver cache). On a phone (390x844) the review is ready (its coverage, its moments
and its accuracy by phase drawn, the app idle) within 2 s of the navigation; a visitor of the
same session in progress (cut in its sixth deal) finds no hole card of a deal it may not see, in
the page's text or its HTML; the deck answers a choice with each action's EV and keeps the cards
answered on the browser. Screenshots at 390x844 and 1440x900 go to ``tests/artifacts/``. Skips,
saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CARD, chromium, dashboard, launched
from review_helpers import LIVE, SESSION, events, in_progress, write

from events.model import Dealt
from log.open import open_store
from present import sight

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
READY_S = 2.0

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chromium()
    tmp = tmp_path_factory.mktemp("review")
    db = str(tmp / "brag.db")
    with open_store(db) as store:
        store.import_log(str(write(tmp / "hu.jsonl", events())))
        store.import_log(str(write(tmp / "live.jsonl", in_progress())))
    env = {
        "BRAG_DB": db,
        "BRAG_ANALYTICS": str(tmp / "brag.duckdb"),
        "BRAG_SOLVER_CACHE": str(tmp / "solver-cache"),  # the shipped games only
    }
    with dashboard(tmp, env) as u:
        yield u


@pytest.fixture(scope="module")
def browser(url: str) -> Iterator[Any]:
    with launched() as b:
        yield b


def _shot(page: Any, name: str) -> None:
    """The whole page (Streamlit scrolls its main block, not the document): the viewport made as
    tall as the content for the picture, then put back."""
    size = page.viewport_size
    tall = page.evaluate(
        '() => Math.max(...[...document.querySelectorAll(\'[data-testid="stMain"], '
        '[data-testid="stMainBlockContainer"]\')].map((e) => e.scrollHeight))'
    )
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], int(tall) + 40)})
    page.wait_for_timeout(300)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))
    page.set_viewport_size(size)


def _ready(page: Any) -> None:
    """The review drawn: the phase table and the moments' rows, and Streamlit idle."""
    page.wait_for_selector("table:has-text('showdown')", timeout=30_000)
    page.wait_for_selector("text=Coverage", timeout=30_000)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000
    )


def _timed(page: Any, path: str, ready: Any) -> float:
    t0 = time.perf_counter()
    page.goto(path)
    ready(page)
    return time.perf_counter() - t0


def _session_ready(page: Any) -> None:
    page.wait_for_selector("text=Review this session's decisions", timeout=30_000)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000
    )


@pytest.mark.timing
def test_the_review_is_ready_within_two_seconds_on_a_phone(url: str, browser: Any) -> None:
    """From the navigation to the review drawn and the app idle: the first review of the session
    (computed from the shipped games, which the server's warm-up read as it started) and two
    more (the review cached, another player). Printed beside the Session page of the same
    session, measured the same way in the same run (what any page costs under this load)."""
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/sessions")  # the server and the browser's cache warm: not the review
        page.wait_for_selector("h1:has-text('Sessions')", timeout=60_000)
        # the server's warm-up (dashboard/common/warm.py) reads the shipped solution in the
        # background as it starts (about 3 s here): a newcomer after it
        page.wait_for_timeout(4_000)
        first = _timed(page, f"{url}/review?session={SESSION}&player=Ann", _ready)
        links = page.locator("a[href*='replay?session=']")
        assert links.count() >= 1
        href = links.first.get_attribute("href") or ""
        assert re.search(r"deal=\d+&step=\w+", href), href
        box = links.first.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        _shot(page, "review-phone.png")
        more = [
            _timed(page, f"{url}/review?session={SESSION}&player={p}", _ready) for p in ("Bob", "")
        ]
        base = _timed(page, f"{url}/session?session={SESSION}", _session_ready)
        times = sorted([first, *more])
        print(
            f"review ready in {first:.2f} s (first), {more[0]:.2f} s, {more[1]:.2f} s; "
            f"the Session page {base:.2f} s; limit {READY_S} s"
        )
        assert times[1] <= READY_S, f"median {times[1]:.2f} s"
        assert first <= READY_S + base, f"first {first:.2f} s, the Session page {base:.2f} s"
    finally:
        ctx.close()


def test_the_review_on_a_desktop(url: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/review?session={SESSION}")
        _ready(page)
        _shot(page, "review-desktop.png")
    finally:
        ctx.close()


def test_a_visitor_of_the_session_in_progress_finds_no_hidden_card(url: str, browser: Any) -> None:
    hidden = frozenset(
        c
        for e in in_progress()
        if isinstance(e, Dealt) and e.hands
        for h in e.hands.values()
        for c in h
    )
    assert len(hidden) == 36  # six deals of two hands, none opened
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        for path in (
            f"review?session={LIVE}&player=Ann",
            f"review?session={LIVE}&player=Ann&view=deck",
        ):
            page.goto(f"{url}/{path}")
            page.wait_for_selector(
                "text=withheld until the deal opens" if "deck" not in path else "text=0 cards",
                timeout=30_000,
            )
            page.wait_for_function(
                "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000
            )
            if "deck" not in path:
                _shot(page, "review-visitor-phone.png")
            text = page.inner_text("body")
            assert not sight.names_a_card(text, hidden), path
            # the HTML too (links, labels, data): but the icons' drawings and the style names,
            # where "7h3" is a path's move, not a card
            body = page.inner_html("[data-testid='stMain']")
            body = re.sub(r"<svg\b.*?</svg>", "", body, flags=re.S)
            body = re.sub(r'\s(?:class|style|d)="[^"]*"', "", body)
            assert not sight.names_a_card(body, hidden), path
            assert not (set(CARD.findall(body)) & hidden), path
    finally:
        ctx.close()


def test_the_deck_answers_and_keeps_its_progress_on_the_browser(url: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/review?session={SESSION}&player=Ann&view=deck")
        page.wait_for_selector(".brag-deck-card", timeout=30_000)
        progress = page.inner_text(".brag-deck-progress")
        m = re.match(r"0 of (\d+) answered", progress)
        assert m and int(m.group(1)) >= 1, progress
        page.locator(".brag-deck-choices button").first.tap()
        assert "EV" in page.inner_text(".brag-deck-evs")
        assert page.inner_text(".brag-deck-progress").startswith("1 of ")  # kept on answering
        _shot(page, "review-deck-phone.png")
        page.get_by_role("button", name="Next card").tap()
        assert page.inner_text(".brag-deck-progress").startswith("1 of ")
        answered = 1
        if int(m.group(1)) >= 2:  # a second answer, then a reload without "Next card"
            page.locator(".brag-deck-choices button").first.tap()
            answered = 2
        page.reload()
        page.wait_for_selector(".brag-deck-progress", timeout=30_000)
        assert page.inner_text(".brag-deck-progress").startswith(f"{answered} of ")
    finally:
        ctx.close()
