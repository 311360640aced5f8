"""Real browser (Chromium, headless): on the Players page a statistic opens the deals behind its
count, and a deal's link opens the Replay page at the player's own event in that deal (issue 15,
item 5). Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, season_served

from analytics import queries

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    with season_served(tmp_path_factory.mktemp("players")) as served:
        yield served


def test_a_rate_opens_its_deals_and_each_opens_its_replay_step(served: tuple[str, Path]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, projection = served
    con = duckdb.connect(str(projection), read_only=True)
    deals = queries.deals_behind(con, "Sandra", "payer_win_rate")
    row = next(r for r in queries.player_stats(con) if r["player"] == "Sandra")
    con.close()
    first = deals[0]
    assert first["event"] == "saw" and sum(d["counted"] for d in deals) == row["payer_win_rate_n"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport={"width": 1400, "height": 900})
            page = ctx.new_page()
            page.goto(f"{url}/players?player=Sandra&deals=payer_win_rate")
            n = row["payer_win_rate_n"]
            caption = page.get_by_text(f"{len(deals)} deals: {n} showdowns")
            expect(caption).to_be_visible(timeout=60_000)
            # the deals: rows a tap (or a click) opens, in this tab
            link = page.locator("ul.brag-rows li.brag-row a.brag-main").first
            link.scroll_into_view_if_needed()
            page.wait_for_timeout(1000)
            page.screenshot(path=str(ARTIFACTS / "players-deals.png"))
            want = f"replay?session={first['session']}&deal={first['deal']}&step={first['step']}"
            assert link.get_attribute("href") == want
            link.click()
            page.wait_for_url(f"**/{want}", timeout=30_000)
            replay = page
            expect(replay.get_by_text(f"Step {first['step']} of")).to_be_visible(timeout=60_000)
            expect(replay.get_by_text("Sandra sees").first).to_be_visible()
        finally:
            browser.close()


def test_on_a_phone_the_skill_panel_reads_plainly_and_nothing_hides_off_the_screen(
    served: tuple[str, Path],
) -> None:
    """390 px wide: each player's main figure is in sight (stacked, not a wide table), the verdict
    reads "who is ahead", and no statistician's word is shown (they live in the help tooltips)."""
    from playwright.sync_api import expect, sync_playwright

    url, projection = served
    con = duckdb.connect(str(projection), read_only=True)
    names = [r["player"] for r in queries.player_stats(con)]
    con.close()
    other = next(n for n in names if n != "Sandra")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
            page = ctx.new_page()
            page.goto(f"{url}/players?player=Sandra&vs={other}")
            ahead = page.get_by_text("Who is ahead:")
            expect(ahead).to_be_visible(timeout=90_000)
            main = page.get_by_text("a deal with luck taken out, give or take").first
            main.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(500)
            box = main.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            # side by side: every cell's whole text in sight (it wraps; none cut at its width);
            # the tables drawn first (a loaded machine drew the text below them before them)
            page.wait_for_function(
                "document.querySelectorAll(\"[data-testid='stTable'] td\").length >= 30",
                timeout=60_000,
            )
            cut = page.locator(
                "[data-testid='stTable'] td, [data-testid='stTable'] th"
            ).evaluate_all(
                "cs => cs.filter(c => c.scrollWidth > c.clientWidth + 1"
                " || c.getBoundingClientRect().right > 391).map(c => c.innerText)"
            )
            cells = page.locator("[data-testid='stTable'] td").count()
            assert cells >= 3 * 10 and cut == [], cut
            # the rating on entering each session is such a table too: its "change" in sight
            change = page.locator("[data-testid='stTable'] th", has_text="change")
            assert change.count() == 1 and change.bounding_box()["x"] + 10 < 390  # type: ignore[index]  # counted above
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "players-skill-phone.png"))
            text = page.inner_text("body")
            for word in ("sigma", "Plackett", "split-half", "clustered by session"):
                assert word not in text
            assert "\\x" not in text  # no character shown as its escape ("+25.4\\xa0±")
        finally:
            browser.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1400, 900)])
def test_a_long_list_of_deals_never_traps_a_thumb_and_each_point_names_its_session(
    served: tuple[str, Path], width: int, height: int
) -> None:
    """The deals behind a figure (hundreds of rows) come a page of 50 at a time; on a desktop
    they scroll in a box 520 px high, on a phone they are part of the page (a box inside the page
    traps a thumb: 28 flicks to get past 230 rows in one, found by a new user's trial).
    The net over time's last point, tapped (a tap, no hover), is named under the chart by its
    session (its id) with the player's running net there, and the caption under the chart names
    the first and last sessions."""
    from playwright.sync_api import expect, sync_playwright

    url, projection = served
    con = duckdb.connect(str(projection), read_only=True)
    nets = queries.session_net_ticks(con, "Sandra")
    behind = len(queries.deals_behind(con, "Sandra", "blind_rate"))
    con.close()
    assert behind > 8  # enough for a box on a desktop
    last = max(nets, key=lambda r: (r[1] is not None, r[1] or 0, r[0]))[0]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
            page = ctx.new_page()
            page.goto(f"{url}/players?player=Sandra&deals=blind_rate")
            box = page.locator("[class*='st-key-brag-box-deals']")
            expect(box.locator("li.brag-row").nth(8)).to_be_attached(timeout=90_000)
            page.wait_for_timeout(500)  # the rows drawn, the box at its height
            expect(box.locator("li.brag-row")).to_have_count(min(50, behind))
            if behind > 50:
                expect(page.get_by_text("Deals 1-50 of")).to_be_visible()
            inner, shown = box.evaluate("e => [e.scrollHeight, e.clientHeight]")
            if width <= 640:
                assert inner <= shown + 1, (inner, shown)  # nothing to scroll inside it
            else:
                assert shown == pytest.approx(520, abs=2) and inner > shown
            caption = page.get_by_text("A tap on a point says which session it is.")
            expect(caption).to_contain_text(last)
            chart = page.locator(".vega-embed").first
            chart.scroll_into_view_if_needed()
            page.wait_for_timeout(800)
            points = chart.locator("path[role='graphics-symbol']")
            if points.count() == 0:  # one path draws every point: tap the rightmost one
                points = chart.locator(".mark-symbol path")
            xy = points.evaluate_all(
                "ps => ps.map(p => p.getBoundingClientRect())"
                ".map(r => [r.x + r.width / 2, r.y + r.height / 2])"
            )
            x, y = max(xy)
            page.touchscreen.tap(x, y)  # a thumb: no hover, a tap on the point's column
            tapped = page.get_by_text("Tapped: session")
            expect(tapped).to_contain_text(last, timeout=30_000)
            expect(tapped).to_contain_text(
                re.compile(r"Sandra [+-]\S+ that session \([+-]\S+ in all\)")
            )
        finally:
            browser.close()
