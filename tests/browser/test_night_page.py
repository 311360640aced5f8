"""Issue 36.3 in a real browser (Debian's Chromium, headless, Playwright): the Night page's live
board over a night of three tables (two sessions in progress, cut in deal 2, one finished), one
table named with markup (``<b>Bar</b> & 'Co'``: drawn as text, never as HTML).

Each viewer (390x844 a phone; 1920x1080 the TV display, ``display=tv``) opens ``/night``; then
another writer appends a live session's next events until its pot on the table changes, and the
board shows the new pot within 2 s, measured in the page (``performance.now()`` taken just before
the append, and by a ``requestAnimationFrame`` loop when the new pot is drawn). The TV display
shows no sidebar and no control, and fits its screen without scrolling sideways.

Screenshots at 390x844, 820x1180, 1440x900 and the TV's 1920x1080 go to
``/tmp/nightboard-*.png``. Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, launched, served_store
from live_helpers import cut_in_deal

from events.amounts import amount_text
from events.model import is_derived
from log.open import open_store
from sim import simulate_session

pytestmark = pytest.mark.browser

DAY = "2026-10-01"
START = datetime(2026, 10, 1, 19, 30, tzinfo=UTC)
TABLES = {"top": "Top table", "window": "Window table", "bar": "<b>Bar</b> & 'Co'"}
LIVE = ("top", "window")
SHOTS = Path("/tmp")


def _full(name: str) -> list[Any]:
    return simulate_session(
        seed=f"night-{name}", players=4, cards="all", session=f"night-{name}",
        table=TABLES[name], start=START,
    )  # fmt: skip


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    chromium()
    tmp = tmp_path_factory.mktemp("night")

    def fill(store: Any) -> None:
        for name in TABLES:
            events = _full(name)
            if name in LIVE:
                events = cut_in_deal(events, 2, 3)
            store.append(f"night-{name}", [e for e in events if not is_derived(e)], 0)

    with served_store(tmp, None, fill) as got:
        yield got


@pytest.fixture(scope="module")
def browser(served: tuple[str, str]) -> Iterator[Any]:
    with launched() as b:
        yield b


def _pot(db: str, session: str) -> Fraction:
    with open_store(db) as store:
        return store.state(session).pot


def _append_until_the_pot_moves(db: str, session: str) -> Fraction:
    """Another writer records the session's next events until its pot on the table changes; the
    new pot (stake units)."""
    full = [e for e in _full(session.removeprefix("night-")) if not is_derived(e)]
    with open_store(db) as store:
        before = store.state(session).pot
        while store.state(session).pot == before:
            done = sum(1 for r in store.timeline(session).log if not is_derived(r.event))
            store.append(session, [full[done]], store.last_seq(session))
        return store.state(session).pot


WATCH = """([session, pot]) => {
  window.__potAt = null;
  const want = 'pot ' + pot;
  const look = () => {
    const el = document.querySelector(`li[data-session="${session}"] .nb-pot`);
    if (el && el.textContent.trim() === want) { window.__potAt = performance.now(); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
  return performance.now();
}"""


def _board(page: Any) -> None:
    page.wait_for_selector(".brag-board li[data-session]", timeout=30_000)


def _new_pot_within(page: Any, db: str, session: str) -> float:
    """Appends until ``session``'s pot moves; the ms from just before the append to the new pot
    drawn on ``page``'s board."""
    full_pot = _predicted(db, session)
    t0 = page.evaluate(WATCH, [session, str(amount_text(full_pot))])
    got = _append_until_the_pot_moves(db, session)
    assert got == full_pot
    page.wait_for_function("() => window.__potAt !== null", timeout=10_000)
    return float(page.evaluate("() => window.__potAt")) - float(t0)


def _predicted(db: str, session: str) -> Fraction:
    """The pot the next events will leave, found on a copy (a memory store), so the page can
    watch for it before the append."""
    full = [e for e in _full(session.removeprefix("night-")) if not is_derived(e)]
    with open_store(db) as real:
        done = [r.event for r in real.timeline(session).log if not is_derived(r.event)]
    with open_store("memory://") as copy:
        copy.append(session, list(done), 0)
        before = copy.state(session).pot
        while copy.state(session).pot == before:
            copy.append(session, [full[len(done)]], copy.last_seq(session))
            done.append(full[len(done)])
        return copy.state(session).pot


@pytest.mark.timing
@pytest.mark.parametrize(
    ("size", "viewport", "tv", "session"),
    [
        ("phone", {"width": 390, "height": 844}, False, "night-top"),
        ("tv", {"width": 1920, "height": 1080}, True, "night-window"),
    ],
)
def test_a_new_pot_reaches_the_board_within_2_s(
    served: tuple[str, str], browser: Any, size: str, viewport: dict[str, int], tv: bool,
    session: str,
) -> None:  # fmt: skip
    url, db = served
    ctx = browser.new_context(viewport=viewport, is_mobile=size == "phone", has_touch=size != "tv")
    page = ctx.new_page()
    page.goto(f"{url}/night?date={DAY}" + ("&display=tv" if tv else ""))
    _board(page)
    page.wait_for_timeout(1500)  # the page settled: its first fragment runs are done
    text = page.locator(".brag-board").inner_text()
    assert "Provisional" in text and TABLES["bar"] in text  # the markup shown as text
    assert page.locator(".brag-board b", has_text="Bar").count() == 0  # the name is text
    before = _pot(db, session)
    ms = _new_pot_within(page, db, session)
    assert _pot(db, session) != before
    print(f"{size}: new pot on the board {ms:.0f} ms after the append (limit 2000 ms)")
    assert ms < 2000
    page.screenshot(path=str(SHOTS / f"nightboard-{size}-{viewport['width']}.png"))
    if tv:
        assert page.locator('[data-testid="stSidebar"]').is_hidden()
        assert page.locator("input").count() == 0  # no control: no date picker, no button
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= viewport["width"]
        tall = page.evaluate(
            "() => document.querySelector('.brag-board').getBoundingClientRect().bottom"
        )
        assert tall <= viewport["height"], f"the TV board is {tall} px tall"
    ctx.close()


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 820, "height": 1180},
                 {"width": 1440, "height": 900}]
)  # fmt: skip
def test_screens(served: tuple[str, str], browser: Any, viewport: dict[str, int]) -> None:
    """The board, the report and the TV display at each size: nothing wider than the screen."""
    url, _ = served
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 1000)
    page = ctx.new_page()
    page.goto(f"{url}/night?date={DAY}")
    _board(page)
    page.wait_for_timeout(800)
    w = viewport["width"]
    page.screenshot(path=str(SHOTS / f"nightboard-board-{w}x{viewport['height']}.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= w
    page.goto(f"{url}/night?date={DAY}&view=report")
    page.wait_for_selector(".brag-report", timeout=30_000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(SHOTS / f"nightboard-report-{w}x{viewport['height']}.png"))
    assert "made from log position" in page.locator(".brag-report").inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= w
    if w >= 1000:  # the page to publish, downloaded: its replay links reach this dashboard
        with page.expect_download() as got:
            page.get_by_text("Page to publish (HTML)").click()
        text = Path(got.value.path()).read_text(encoding="utf-8")
        assert f"{url}/replay?session=night-" in text and "<script" not in text
    page.emulate_media(media="print")  # on paper: the report alone
    assert page.locator(".brag-report").is_visible()
    assert page.locator("input").first.is_hidden()
    assert page.get_by_text("Page to publish (HTML)").is_hidden()
    page.screenshot(path=str(SHOTS / f"nightboard-print-{w}x{viewport['height']}.png"))
    page.emulate_media(media="screen")
    page.goto(f"{url}/night?date={DAY}&display=tv")  # the TV display on this screen too
    _board(page)
    page.wait_for_timeout(500)
    page.screenshot(path=str(SHOTS / f"nightboard-tv-{w}x{viewport['height']}.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= w
    assert page.locator("input").count() == 0
    ctx.close()
