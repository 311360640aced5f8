"""Issue 35, items 4 and 5, in a real browser (Debian's Chromium, headless, Playwright), over one
dashboard serving simulated all-cards sessions cut in the middle of deal 2 (live at the table)
and a finished bundled session.

Follow live: the Sessions page's row of a session in progress opens its replay "Following live"
at the latest step; while another writer appends the rest of deal 2 and the start of deal 3 one
event at a time, the page stays on the latest step, across the deal's end into deal 3, and no
websocket frame carries a card a visitor may not see (the sight rule, ``present/sight.py``). Any
step back (the Previous button, the arrow key, the slider, a swipe) leaves follow mode: the next
event is marked, the step kept; the chip turns it on again. At 390x844 (a phone, touch) and
820x1180 (a tablet).

No dead ends: a link to a deal, a step or a session that does not exist says so in one line and
opens the start, with no winner in the page. The corrections toggle counts the deal's own.

Screenshots go to ``/work/shots/follow/`` when that folder's parent exists (else
``tests/artifacts/``). Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Wire, chromium, launched, served_store, wait_drawn
from live_helpers import cut_in_deal, write_log
from store_helpers import store_a_correction

from events.model import Dealt, is_derived
from log.open import open_store
from present.replay import Replay
from present.sight import guarded_from, public_cards
from sim import simulate_session

ROOT = Path(__file__).resolve().parents[2]
FINISHED = "2026-09-24-top-1"  # a bundled session: 8 deals, every card recorded
SEEDS = {"phone": "follow-phone", "tablet": "follow-tablet", "desktop": "follow-desk"}
VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "desktop": {"width": 1400, "height": 900},
}
SHOTS = Path("/work/shots/follow") if Path("/work/shots").is_dir() else ROOT / "tests" / "artifacts"

pytestmark = pytest.mark.browser


def _full(seed: str) -> list[Any]:
    return simulate_session(seed=seed, players=4, cards="all")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The dashboard (no organiser secret: every device a visitor) over a store holding one
    live session per viewport (cut after step 3 of deal 2), a finished bundled session and
    "fix" (a correction in deal 1; deal 2 has none)."""
    chromium()
    tmp = tmp_path_factory.mktemp("follow")

    def fill(store: Any) -> None:
        for name, seed in SEEDS.items():
            store.import_log(str(write_log(cut_in_deal(_full(seed), 2, 3), tmp / f"{name}.jsonl")))
        store.import_log(str(ROOT / "data" / "season" / f"{FINISHED}.jsonl"))
        store_a_correction(store)
        store.append("fix", [Dealt()], store.last_seq("fix"))

    with served_store(tmp, None, fill) as got:
        yield got


@pytest.fixture(scope="module")
def browser(served: tuple[str, str]) -> Iterator[Any]:
    with launched() as b:
        yield b


def _context(browser: Any, size: str) -> Any:
    touch = size != "desktop"
    return browser.new_context(viewport=VIEWPORTS[size], is_mobile=size == "phone", has_touch=touch)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / name))


def _latest(db: str, session: str) -> tuple[int, int, Replay]:
    """The session's latest ``(deal, step)`` as the store has it, and its replay."""
    with open_store(db) as store:
        rp = Replay.from_timeline(store.timeline(session))
    last = rp.last_position()
    return last.deal, rp.label(last).step, rp


def _hidden(rp: Replay) -> set[str]:
    """Every card the log knows of a deal a visitor gets only as a spectator
    (:func:`present.sight.guarded_from` on), less every card shown at a showdown."""
    first = guarded_from(rp)
    if first is None:
        return set()
    known: set[str] = set()
    for s in rp.states:
        if s.deals >= first:
            for p in s.players:
                for h in p.hands:
                    known |= set(h.texts() or ())
    shown = {c for cards in public_cards(rp).values() for _, c in cards}
    return known - shown


def _at(page: Any) -> tuple[int, int]:
    got = page.evaluate(
        "() => [document.querySelector('.rp')?.dataset.deal, "
        "document.querySelector('.rp')?.dataset.step]"
    )
    return int(got[0] or 0), int(got[1] or 0)


def _wait_at(page: Any, deal: int, step: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while _at(page) != (deal, step):
        assert time.monotonic() < deadline, f"at {_at(page)}, not deal {deal} step {step}"
        page.wait_for_timeout(100)


def _follow(page: Any) -> str:
    return str(page.locator(".rp").get_attribute("data-follow"))


def _append_next(db: str, session: str, full: list[Any]) -> None:
    """Another writer records the session's next event (the derived ones are the store's)."""
    with open_store(db) as store:
        done = len(store.timeline(session).log)
        nxt = next(e for e in full[done:] if not is_derived(e))
        store.append(session, [nxt], store.last_seq(session))


def _step_back(page: Any, size: str, how: str) -> None:
    """One step back as a person does: ``button``, ``key``, ``slider`` or ``swipe``."""
    if how == "button":
        page.locator(".rp-controls button[aria-label=Previous]").click()
    elif how == "key":
        page.locator(".rp-table").click()
        page.keyboard.press("ArrowLeft")
    elif how == "slider":
        page.evaluate(
            "() => { const s = document.querySelector('.rp-slider');"
            " s.value = String(Number(s.value) - 2);"
            " s.dispatchEvent(new Event('input', { bubbles: true })); }"
        )
    else:  # a swipe to the right on the table
        page.evaluate(
            """() => {
              const t = document.querySelector('.rp-table');
              const r = t.getBoundingClientRect();
              const at = (x) => [new Touch({ identifier: 1, target: t, clientX: x,
                                              clientY: r.top + 40 })];
              t.dispatchEvent(new TouchEvent('touchstart', { changedTouches: at(r.left + 40),
                                                            bubbles: true }));
              t.dispatchEvent(new TouchEvent('touchend', { changedTouches: at(r.left + 200),
                                                          bubbles: true }));
            }"""
        )


@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_following_live_stays_on_the_latest_step_across_a_deal_end(
    served: tuple[str, str], browser: Any, size: str
) -> None:
    url, db = served
    seed = SEEDS[size]
    full = _full(seed)
    session = full[0].session
    ctx = _context(browser, size)
    try:
        page = ctx.new_page()
        wire = Wire(page)
        # opened from the live list: the Sessions page's row of a session in progress
        page.goto(url)
        row = page.locator(f'a.brag-main[href*="session={session}&"]')
        row.wait_for(timeout=60_000)
        _shot(page, f"follow-{size}-sessions.png")
        row.tap()
        wait_drawn(page)
        assert "follow=1" in page.url
        deal, step, rp = _latest(db, session)
        assert deal == 2
        _wait_at(page, deal, step)
        chip = page.locator(".rp-follow")
        assert chip.is_visible() and chip.inner_text() == "● Following live"
        assert chip.get_attribute("aria-pressed") == "true" and _follow(page) == "on"
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 44  # a thumb's target
        _shot(page, f"follow-{size}-deal2.png")
        # another writer records the rest of deal 2 and two steps of deal 3, one at a time
        took: list[float] = []  # seconds from the append to the step shown (printed)
        while True:
            _append_next(db, session, full)
            t0 = time.monotonic()
            deal, step, rp = _latest(db, session)
            _wait_at(page, deal, step)
            took.append(time.monotonic() - t0)
            assert _follow(page) == "on"
            assert wire.cards(_hidden(rp)) == set(), "following showed a hidden card"
            if deal == 3 and step >= 2:
                break
        took.sort()
        print(
            f"\n{size}: followed {len(took)} events, median {took[len(took) // 2]:.2f} s, "
            f"max {took[-1]:.2f} s from the append to the step shown"
        )
        page.wait_for_url(re.compile(r"deal=3\b.*follow=1|follow=1.*deal=3\b"))
        assert page.locator(".rp-sentence").inner_text() == rp.label(rp.last_position()).text
        assert _hidden(rp), "the deal in play holds cards nobody has shown"
        _shot(page, f"follow-{size}-deal3.png")

        # any step back leaves follow mode; the chip turns it on again
        for how in ("button", "key", "slider", "swipe"):
            if how == "key" and size == "phone":
                continue  # a phone has no keyboard
            _step_back(page, size, how)
            page.wait_for_function("document.querySelector('.rp').dataset.follow === 'off'")
            kept = _at(page)
            assert kept[1] < step, how
            assert chip.inner_text() == "Follow live", how
            assert chip.get_attribute("aria-pressed") == "false"
            page.wait_for_url(lambda u: "follow=" not in u, timeout=5_000)
            _append_next(db, session, full)  # news: marked, the step kept
            page.locator(".rp-fresh").wait_for(state="visible", timeout=15_000)
            assert _at(page) == kept, how
            if how == "button":
                _shot(page, f"follow-{size}-off.png")
            chip.click()
            deal, step, rp = _latest(db, session)
            _wait_at(page, deal, step)
            assert _follow(page) == "on" and chip.inner_text() == "● Following live", how
            page.wait_for_url(re.compile(r"follow=1"), timeout=5_000)
            assert page.locator(".rp-fresh").is_hidden()
        assert wire.cards(_hidden(rp)) == set()
    finally:
        ctx.close()


def test_following_on_a_desktop(served: tuple[str, str], browser: Any) -> None:
    """The chip at 1400x900, following one new event."""
    url, db = served
    full = _full(SEEDS["desktop"])
    session = full[0].session
    ctx = _context(browser, "desktop")
    try:
        page = ctx.new_page()
        page.goto(f"{url}/replay?session={session}&follow=1")
        wait_drawn(page)
        _append_next(db, session, full)
        deal, step, _ = _latest(db, session)
        _wait_at(page, deal, step)
        assert page.locator(".rp-follow").inner_text() == "● Following live"
        _shot(page, "follow-desktop.png")
        # another deal picked is a step back; the chip goes back to the latest deal's last step
        page.locator(".rp-picker select").first.select_option("1")
        page.wait_for_function("document.querySelector('.rp')?.dataset.deal === '1'")
        assert _follow(page) == "off" and "follow=" not in page.url
        page.locator(".rp-follow").click()
        _wait_at(page, deal, step)
        assert _follow(page) == "on"
        page.wait_for_url(re.compile(r"follow=1"), timeout=5_000)
    finally:
        ctx.close()


BAD_LINKS = {
    "deal": (
        f"session={FINISHED}&deal=42&step=999",
        "This session has no deal 42: it has 8 deals. Showing the start.",
        1,
    ),
    "step": (
        f"session={FINISHED}&deal=3&step=999",
        "Deal 3 has no step 999: it has 20 steps. Showing its first step.",
        3,
    ),
    "session": ("session=nope&deal=42&step=999", "No session nope in the store: showing ", 1),
}


@pytest.mark.parametrize("size", ["phone", "tablet", "desktop"])
@pytest.mark.parametrize("bad", list(BAD_LINKS))
def test_a_bad_link_says_so_and_shows_the_start(
    served: tuple[str, str], browser: Any, bad: str, size: str
) -> None:
    url, _ = served
    query, line, deal = BAD_LINKS[bad]
    ctx = _context(browser, size)
    try:
        page = ctx.new_page()
        page.goto(f"{url}/replay?{query}")
        wait_drawn(page)
        said = page.get_by_text(line)
        said.first.wait_for(timeout=15_000)
        assert said.count() == 1
        assert _at(page) == (deal, 1)
        text = page.locator("body").inner_text()
        assert not re.search(r"\bwins?\b|\bwon\b|winner", text, re.IGNORECASE), text
        page.wait_for_url(re.compile(rf"deal={deal}&step=1\b"), timeout=5_000)
        if size == "phone" or bad == "deal":
            _shot(page, f"bad-{bad}-{size}.png")
    finally:
        ctx.close()


def test_the_corrections_toggle_counts_the_deals_own(served: tuple[str, str], browser: Any) -> None:
    url, _ = served
    ctx = _context(browser, "tablet")
    try:
        page = ctx.new_page()
        page.goto(f"{url}/replay?session=fix&deal=1&step=1")
        wait_drawn(page)
        assert page.locator(".rp-toggle").first.inner_text() == "Show corrections (1 in this deal)"
        page.goto(f"{url}/replay?session=fix&deal=2&step=1")
        wait_drawn(page)
        assert page.locator(".rp-toggle").first.inner_text() == (
            "Show corrections (none in this deal, 1 in the session)"
        )
        page.locator(".rp-toggles").scroll_into_view_if_needed()
        _shot(page, "corrections-none-in-this-deal-tablet.png")
        page.goto(f"{url}/replay?session={FINISHED}&deal=2&step=1")
        wait_drawn(page)
        toggle = page.locator(".rp-toggle").first
        assert toggle.inner_text() == "Show corrections (none)"
        assert toggle.locator("input").is_disabled()
    finally:
        ctx.close()
