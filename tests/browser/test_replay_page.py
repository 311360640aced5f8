"""The Replay page in a real browser: Debian's Chromium, headless, driven by Playwright, over one
dashboard server for the whole module. Stepping is timed in the page (key press or click to the
redrawn table, 30 steps of a season deal: p95 under 50 ms); on a phone (390x844) the table and the
Next control are on the first screen; a permalink opened in a fresh context lands on the same step
and view (new and old link forms); view-as never puts a later event or an unknown card in the
page's HTML; showing corrections keeps the step. Screenshots go to ``tests/artifacts/``; with
``BRAG_DOCS_SCREENSHOT=1`` also to ``docs/`` (the README's pictures). Skips, saying why, where
Chromium or Playwright is missing.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PROBE, chromium, dashboard, launched, percentile
from store_helpers import store_a_correction

from engine.state import card_texts
from events.model import AnyEvent
from log.open import open_store
from present.replay import Replay

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
DOCS = ROOT / "docs"
SESSION = "2026-09-24-top-1"  # a bundled session that records every card
LOG = ROOT / "data" / "season" / f"{SESSION}.jsonl"
LONG_DEAL = 5  # 41 steps
SEVEN = "2026-11-20-back-1"  # a bundled session of 7 players

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("browser") / "brag.db")


@pytest.fixture(scope="module")
def server(store_path: str) -> Iterator[str]:
    """The dashboard over a store holding the bundled session and "fix", a session with a
    correction."""
    chromium()
    tmp = Path(store_path).parent
    db = store_path
    with open_store(db) as store:
        store.import_log(str(LOG))
        store.import_log(str(ROOT / "data" / "season" / f"{SEVEN}.jsonl"))
        store_a_correction(store)
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
    with dashboard(tmp, env) as url:
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with launched() as b:
        yield b


def _events() -> list[AnyEvent]:
    from engine.fold import complete
    from events.codec import read_file

    return [s.event for s in complete(read_file(str(LOG)))]


def _open(browser: Any, url: str, *, phone: bool = False) -> Any:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1400, "height": 900},
        is_mobile=phone,
        has_touch=phone,
    )
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(".rp[data-ready]", timeout=30_000)
    return page


def _step(page: Any) -> str:
    return str(page.locator(".rp").get_attribute("data-step"))


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / name))
    if os.environ.get("BRAG_DOCS_SCREENSHOT"):
        page.screenshot(path=str(DOCS / name))


@pytest.mark.timing  # p95 under 50 ms
def test_stepping_is_instant_in_the_browser(server: str, browser: Any) -> None:
    """30 steps of a 41-step deal, by arrow key and by click: p95 from input to the redrawn
    table under 50 ms, the pot drawn each time the engine's."""
    rp = Replay.of(_events())
    sl = rp.slice(LONG_DEAL)
    assert sl.steps > 31
    page = _open(browser, f"{server}/replay?session={SESSION}&deal={LONG_DEAL}&step=1")
    page.evaluate(PROBE)
    page.mouse.click(5, 5)  # nothing focused: the keys are the replayer's
    nxt = page.locator(".rp-controls button[aria-label=Next]")
    for k in range(30):
        if k % 2:
            nxt.click()
        else:
            page.keyboard.press("ArrowRight")
        want = rp.view(rp.position(LONG_DEAL, k + 2)).pot_text
        assert page.locator(".rp-table svg").get_attribute("data-pot") == want or (
            page.locator(".rp-table [data-pot]").first.get_attribute("data-pot") == want
        )
    page.wait_for_function("window.__stepTimes.length >= 30", timeout=10_000)
    times = page.evaluate("window.__stepTimes")
    assert _step(page) == "31"
    page.wait_for_url(re.compile(r"step=31\b"))  # the link follows the step
    p95 = percentile(times, 0.95)
    print(f"\nstep in the browser: median {percentile(times, 0.5):.1f} ms, p95 {p95:.1f} ms")
    assert p95 < 50, times
    # Home, End and the arrow back, no server round trip either
    page.keyboard.press("Home")
    assert _step(page) == "1"
    page.keyboard.press("End")
    assert _step(page) == str(sl.steps)
    page.keyboard.press("ArrowLeft")
    assert _step(page) == str(sl.steps - 1)
    # autoplay at a chosen speed, in the browser too: from step 1 it plays on, then stops
    page.keyboard.press("Home")
    page.locator(".rp-speed").select_option("very fast")
    page.get_by_role("button", name="▶ Play").click()
    page.wait_for_function("Number(document.querySelector('.rp').dataset.step) >= 4", timeout=5_000)
    page.get_by_role("button", name="⏸ Pause").click()
    paused = _step(page)
    page.wait_for_timeout(600)
    assert _step(page) == paused
    page.context.close()


def test_on_a_phone_the_table_and_next_are_on_the_first_screen(server: str, browser: Any) -> None:
    page = _open(browser, f"{server}/replay?session={SESSION}&deal=2&step=6", phone=True)
    table = page.locator(".rp-table svg").bounding_box()
    nxt = page.locator(".rp-controls button[aria-label=Next]").bounding_box()
    assert table and nxt
    assert table["y"] >= 0 and table["y"] + table["height"] <= 844, table
    assert nxt["y"] + nxt["height"] <= 844 and nxt["y"] > table["y"] + table["height"] - 1, nxt
    # seat labels at least 11 px; no keyboard hints on a touch screen; pot, level, turn one line
    assert _smallest_seat_text(page) >= 11
    assert page.locator(".rp-kbd").first.is_hidden()
    line = page.locator(".rp-line")
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert re.fullmatch(r"Pot \S+ · (Level \d+|No bet yet) · .+", line.inner_text())
    # the deal picker's text wraps rather than being cut
    value = page.locator(".rp-picker-value").first
    assert value.evaluate("e => e.scrollWidth <= e.clientWidth")
    # a swipe to the left is Next
    box = table
    page.evaluate(
        """([x, y]) => {
          const t = document.querySelector('.rp-table');
          const at = (cx) => ({
            changedTouches: [new Touch({identifier: 1, target: t, clientX: cx, clientY: y})],
            bubbles: true,
          });
          t.dispatchEvent(new TouchEvent('touchstart', at(x + 120)));
          t.dispatchEvent(new TouchEvent('touchend', at(x)));
        }""",
        [box["x"] + 100, box["y"] + 50],
    )
    assert _step(page) == "7"
    _shot(page, "replay-phone.png")
    page.context.close()


def _smallest_seat_text(page: Any) -> float:
    """The seats' smallest text as drawn on the screen, in px (font size times the SVG's scale)."""
    sizes = page.evaluate(
        """() => {
          const svg = document.querySelector('.rp-table svg');
          const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll('[data-seat] text')]
            .map(t => Number(t.getAttribute('font-size')) * k);
        }"""
    )
    assert sizes
    return float(min(sizes))


def test_on_a_phone_seven_players_and_the_controls_fit_the_first_screen(
    server: str, browser: Any
) -> None:
    """Seven seats (a dense grid) on 390x844: the pot line above the table, the table, the
    controls and the step's sentence all on the first screen, the seats' text at least 11 px."""
    page = _open(browser, f"{server}/replay?session={SEVEN}&deal=1&step=6", phone=True)
    assert page.locator(".rp-table [data-seat]").count() == 7
    line = page.locator(".rp-line")
    assert re.fullmatch(r"Pot 7 · No bet yet · Sandra to act", line.inner_text())
    box = {
        name: page.locator(sel).bounding_box()
        for name, sel in (
            ("line", ".rp-line"),
            ("table", ".rp-table svg"),
            ("next", ".rp-controls button[aria-label=Next]"),
            ("sentence", ".rp-head"),
        )
    }
    assert all(box.values()), box
    assert box["line"]["y"] >= 0 and box["line"]["y"] + box["line"]["height"] <= box["table"]["y"]
    assert box["sentence"]["y"] + box["sentence"]["height"] <= 844, box
    assert box["next"]["y"] + box["next"]["height"] <= 844, box
    assert page.evaluate("window.scrollY") == 0
    assert _smallest_seat_text(page) >= 11
    _shot(page, "replay-phone-7.png")
    page.context.close()


def test_a_permalink_opens_on_the_same_step_and_view(server: str, browser: Any) -> None:
    page = _open(browser, f"{server}/replay?session={SESSION}&deal=3&step=4&view=Jean")
    for _ in range(3):
        page.locator(".rp-controls button[aria-label=Next]").click()
    assert _step(page) == "7"
    page.wait_for_url(re.compile(r"step=7\b"))
    link = page.url
    assert "step=7" in link and "view=Jean" in link and "deal=3" in link
    text = page.locator(".rp-sentence").inner_text()
    page.context.close()
    fresh = _open(browser, link)  # a new context: nothing shared but the link
    assert _step(fresh) == "7" and fresh.locator(".rp-sentence").inner_text() == text
    assert "seen by Jean" in fresh.locator(".rp-table").inner_html()
    fresh.context.close()
    # the older forms: deal and step without a view, and seq (what `brag replay` printed)
    rp = Replay.of(_events())
    pos = rp.position(3, 7)
    seq = rp.events[pos.index].seq
    for old in ("deal=3&step=7", f"seq={seq}"):
        page = _open(browser, f"{server}/replay?session={SESSION}&{old}")
        assert _step(page) == "7", old
        assert page.locator(".rp-sentence").inner_text() == text
        page.context.close()


def test_view_as_puts_nothing_later_in_the_page(server: str, browser: Any) -> None:
    """The page's HTML (not only what is visible) holds no later event and no card the viewer
    did not know at the step (RULES 3.5, 5.1)."""
    rp = Replay.of(_events())
    deal, step, viewer = 2, 6, "Margaret"
    pos = rp.position(deal, step)
    sl = rp.slice(deal)
    state = rp.states[pos.index]
    page = _open(
        browser, f"{server}/replay?session={SESSION}&deal={deal}&step={step}&view={viewer}"
    )
    html = page.content()
    for k in range(pos.index + 1, sl.stop):
        later = rp.labels[k].text
        if all(later != rp.labels[j].text for j in range(sl.start, pos.index + 1)):
            assert later not in html, later
    known = set()
    for p in state.players:
        if p.name == viewer and p.seen:
            known |= set(p.hands[-1].texts() or ())
        known |= set(card_texts(p.shown))
    drawn = set(re.findall(r'data-card="([^"]+)"', html)) - {"down"}
    assert drawn <= known and len(known) == 3, (drawn, known)
    assert len(page.locator(".rp-list tbody tr").all()) == step
    # her chance against the two hands she cannot see, in words: an estimate; its margin and
    # its counts on a tap
    odds = page.locator(".rp-odds")
    assert "Margaret 9♣ 3♠ 3♣: best of the hands still in about " in odds.inner_text()
    assert "(an estimate)" in odds.inner_text() and "±" not in odds.inner_text()
    odds.locator("summary").first.click()
    assert "best ≈ " in odds.inner_text() and "±" in odds.inner_text()
    _shot(page, "replay-desktop.png")
    page.context.close()


def test_spoiler_free_odds_do_not_say_who_wins(server: str, browser: Any) -> None:
    """Everyone's view of an all-cards deal knows every card: spoiler-free (on for a deal not
    seen yet), the odds say the outcome is known but not what it is; off, they say it."""
    page = _open(browser, f"{server}/replay?session={SESSION}&deal=1&step=12", phone=True)
    box = page.locator(".rp-toggle", has_text="Spoiler-free").locator("input")
    assert box.is_checked()
    odds = page.locator(".rp-odds")
    lines = odds.locator("li").all_inner_texts()
    hands = [t for t in lines if t.startswith(("Jean", "Sandra"))]
    assert hands == [
        "Jean 6♣ 9♥ Q♥: outcome known in this view, hidden while spoiler-free",
        "Sandra 10♣ Q♠ 5♣: outcome known in this view, hidden while spoiler-free",
    ]
    assert "holds the best hand" not in page.content()  # nor in the page's HTML
    odds.scroll_into_view_if_needed()
    _shot(page, "replay-phone-spoiler-free-odds.png")
    box.uncheck()
    assert "Sandra" in odds.inner_text() and "holds the best hand" in odds.inner_text()
    page.context.close()


def test_a_deal_seen_to_its_end_names_no_other_deals_winner(server: str, browser: Any) -> None:
    """Spoiler-free is off for a deal this browser stepped through to its end; the deal list
    still names no winner of a deal it has not (the walk found deal 1's winner there after deal
    2's end was reached), until the viewer unticks Spoiler-free by hand."""
    page = _open(browser, f"{server}/replay?session={SESSION}&deal=2&step=1", phone=True)
    page.keyboard.press("End")  # deal 2's end: stepped through in this browser
    page.reload()
    page.wait_for_selector(".rp[data-ready]", timeout=30_000)
    box = page.locator(".rp-toggle", has_text="Spoiler-free").locator("input")
    assert not box.is_checked()  # deal 2 seen to its end
    options = page.locator("select[aria-label='Deal'] option")
    texts = options.all_inner_texts()
    named = [t.split(":")[0] for t in texts if ", " in t]
    assert named == ["Deal 2"] and len(texts) > 4, texts  # the others: "Deal 1: Sandra deals"
    box.check()
    box.uncheck()  # by hand: the viewer asks for every deal's winner
    texts = options.all_inner_texts()
    assert all(", " in t for t in texts if t.startswith("Deal ")), texts
    page.context.close()


def test_showing_corrections_keeps_the_step(server: str, browser: Any) -> None:
    page = _open(browser, f"{server}/replay?session=fix&deal=1&step=3")
    assert _step(page) == "3"
    assert page.locator(".rp-sentence").inner_text() == "A bets level 2: pays 2"
    page.get_by_text("Show corrections (1 in this deal)").click()
    page.wait_for_function("document.querySelector('.rp').dataset.index === '4'", timeout=15_000)
    assert _step(page) == "3" and "log=recorded" in page.url
    assert page.locator(".rp-sentence").inner_text() == "A bets level 2: pays 2"
    page.get_by_text("Spoiler-free").click()  # the whole list, the correction named by its step
    rows = page.locator(".rp-list tbody tr").all_inner_texts()
    assert any(
        "↺3" in r and "Correction: step 3 (A bets level 5: pays 5) is withdrawn" in r for r in rows
    )
    page.context.close()


def test_a_session_growing_elsewhere_keeps_the_step_and_marks_the_news(
    server: str, browser: Any, store_path: str
) -> None:
    """Issue 11, point 2: another device records while the deal is stepped; the replayer stays
    on its step and shows a "new events" mark, which goes to the latest step. (Runs last: it
    adds a deal to "fix".)"""
    from events.model import Dealt

    page = _open(browser, f"{server}/replay?session=fix&deal=1&step=2")
    page.locator(".rp-controls button[aria-label=Next]").click()
    assert _step(page) == "3"
    with open_store(store_path) as store:
        store.append("fix", [Dealt()], store.last_seq("fix"))
    mark = page.locator(".rp-fresh")
    mark.wait_for(state="visible", timeout=15_000)
    assert "new event" in mark.inner_text()
    assert _step(page) == "3"  # still where the viewer was
    mark.click()
    page.wait_for_function("document.querySelector('.rp')?.dataset.step === '1'", timeout=15_000)
    page.wait_for_url(re.compile(r"deal=2\b"))
    assert page.locator(".rp-sentence").inner_text().startswith("Deal 2:")
    page.context.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-v", "-s"]))
