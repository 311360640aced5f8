"""Real browser (Chromium, headless), issue 21 parts 1 and 5: the Sessions page's first load names
no winner (phone and desktop); on a phone (390x844, touch) a tap on a session's row opens the
Replay page of that session (not the newest), with the sidebar closed, and a tap on a deal's row
on the Session page opens that deal; "Show results" shows the winners and the standings and is
remembered by the browser after a reload (and forgotten when turned off); the Players page's
deals open by a tap. Skips, saying why, where Chromium or Playwright is missing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, dashboard, launched, live

from brag.cli import main
from log.open import open_store

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))[:4]
pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1400, "height": 900}}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Any]]]:
    """The dashboard on four season sessions; with their catalogue lines (winners read from the
    store, which the engine decided)."""
    chromium()
    tmp = tmp_path_factory.mktemp("spoilers")
    db = str(tmp / "brag.db")
    assert main(["import", "--db", db, *SEASON]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    with open_store(db) as store:
        infos = list(store.sessions(order="newest"))
    assert len(infos) == 4 and all(i.finished and i.winners for i in infos)
    env = {"BRAG_DB": db, "BRAG_ANALYTICS": str(tmp / "brag.duckdb")}
    with dashboard(tmp, env) as url:
        yield url, infos


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


@contextmanager
def opened(browser: Any, url: str, size: str = "phone") -> Iterator[Any]:
    """A page of a new browser context (its own cookies) at ``url``, a phone's or a desktop's."""
    ctx = browser.new_context(**(PHONE if size == "phone" else DESKTOP))
    try:
        page = ctx.new_page()
        page.goto(url)
        yield page
    finally:
        ctx.close()


def _rows(page: Any) -> Any:
    from playwright.sync_api import expect

    rows = page.locator("ul.brag-rows li.brag-row")
    expect(rows.first).to_be_visible(timeout=60_000)
    return rows


def _winners(infos: list[Any]) -> set[str]:
    return {w for i in infos for w in i.winners}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_first_load_of_sessions_names_no_winner(
    served: tuple[str, list[Any]], browser: Any, size: str
) -> None:
    url, infos = served
    with opened(browser, url, size) as page:
        rows = _rows(page)
        assert rows.count() == len(infos)
        page.wait_for_timeout(1000)  # the whole first run drawn
        html = page.content()
        for i in infos:
            assert i.session in html  # the sessions are there...
        for name in _winners(infos):
            assert name not in html, name  # ...and no winner's name, anywhere in the page
        assert "Won by" not in html and "Winner" not in html
        assert not page.get_by_role("switch", name="Show results").is_checked()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"spoilers-sessions-{size}.png"))


def test_a_tap_on_a_session_opens_its_replay_on_a_phone(
    served: tuple[str, list[Any]], browser: Any
) -> None:
    from playwright.sync_api import expect

    url, infos = served
    with opened(browser, url) as page:
        target = infos[2]  # not the newest: the link names its own session
        row = _rows(page).filter(has_text=target.session).locator("a.brag-main")
        box = row.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # no swipe
        assert box["height"] >= 44  # a thumb's target
        row.tap()
        page.wait_for_url(f"**/replay?session={target.session}&deal=1&step=1", timeout=30_000)
        replay = page.locator("[data-testid='replayer']")
        expect(replay).to_have_attribute("data-ready", "true", timeout=60_000)
        expect(page.get_by_text("Step 1 of").first).to_be_visible()
        expect(live(page).get_by_role("combobox", name="Session")).to_have_value(target.session)
        # the sidebar is closed: nothing covers the replay
        sidebar = page.locator("[data-testid='stSidebar']")
        assert sidebar.get_attribute("data-collapsed") == "true"
        table = page.locator(".rp-table").bounding_box()
        assert table is not None and table["x"] >= 0 and table["y"] < 844
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "spoilers-tap-replay-phone.png"))

        # a deal of the Session page opens by a tap too, at that deal
        page.goto(f"{url}/session?session={target.session}")
        deal = _rows(page).filter(has_text="Deal 3").locator("a.brag-main")
        deal.tap()
        page.wait_for_url(f"**/replay?session={target.session}&deal=3&step=1", timeout=30_000)
        expect(replay).to_have_attribute("data-ready", "true", timeout=60_000)
        expect(page.locator(".rp-picker-value").first).to_contain_text("Deal 3")

        # the sidebar's own menu, from the session's page: its replay (not the newest session),
        # and the sidebar not left covering it
        page.goto(f"{url}/session?session={target.session}")
        _rows(page)
        page.locator("[data-testid='stExpandSidebarButton']").tap()
        expect(sidebar).to_have_attribute("data-collapsed", "false")
        page.get_by_role("link", name="Replay").tap()
        expect(page.get_by_role("heading", name="Replay")).to_be_visible(timeout=60_000)
        expect(sidebar).to_have_attribute("data-collapsed", "true")
        expect(live(page).get_by_role("combobox", name="Session")).to_have_value(target.session)
        expect(replay).to_have_attribute("data-ready", "true", timeout=60_000)


def test_show_results_is_remembered_after_a_reload(
    served: tuple[str, list[Any]], browser: Any
) -> None:
    from playwright.sync_api import expect

    url, infos = served
    first = infos[0]
    won = "Won by " + ", ".join(first.winners)
    with opened(browser, url) as page:
        _rows(page)
        page.get_by_text("Show results").tap()
        expect(page.get_by_text(won).first).to_be_visible(timeout=30_000)
        page.wait_for_timeout(500)  # the cookie written on the drawing that follows the tap
        assert any(c["name"] == "brag_pref_show_results" for c in page.context.cookies())

        page.reload()
        _rows(page)
        assert won in page.content()  # on the first drawing: no flash of the hidden state
        expect(page.get_by_role("switch", name="Show results")).to_be_checked()
        # the Session page of this browser shows the standings too
        page.goto(f"{url}/session?session={first.session}")
        expect(page.get_by_text("Leaderboard")).to_be_visible(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "spoilers-session-results-phone.png"))

        # another browser (its own cookies) is not told
        with opened(browser, f"{url}/session?session={first.session}") as other:
            _rows(other)
            other.wait_for_timeout(1000)
            assert "Leaderboard" not in other.content()
            for name in first.winners:
                assert f"{name} wins" not in other.content()

        # turned off on the Session page: off after a reload, on every page
        page.get_by_text("Show results").tap()
        expect(page.get_by_text("Leaderboard")).to_have_count(0, timeout=30_000)
        page.wait_for_timeout(500)
        page.goto(url)
        _rows(page)
        page.wait_for_timeout(1000)
        assert won not in page.content()
        expect(page.get_by_role("switch", name="Show results")).not_to_be_checked()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_odds_are_words_first_and_counts_on_a_tap(
    served: tuple[str, list[Any]], browser: Any, size: str
) -> None:
    """2026-09-24-top-1, deal 2, step 6, viewed as Margaret (9♣ 3♠ 3♣, looked at step 2):
    her chance against the two hands she cannot see is said in words (an estimate from the
    deals drawn); a tap on it shows the counts. Deal 1 at step 8, before any card is shown,
    viewed as Jean (who never looked, the log says): no odds, and the line says why."""
    from playwright.sync_api import expect

    url, _ = served
    session = "2026-09-24-top-1"
    with opened(
        browser, f"{url}/replay?session={session}&deal=2&step=6&view=Margaret", size
    ) as page:
        odds = page.locator(".rp-odds")
        expect(odds).to_contain_text("Chance to hold the best hand", timeout=60_000)
        line = odds.locator("summary").first
        words = line.inner_text()
        assert words.startswith("Margaret 9♣ 3♠ 3♣: best of the hands still in about ")
        said = re.fullmatch(
            r"Margaret 9♣ 3♠ 3♣: best of the hands still in about (\d+)% of the time, "
            r"beaten about (\d+)%(; equal about .+)? \(an estimate\)",
            words,
        )
        assert said, words
        counts = odds.locator(".rp-exact-counts").first
        assert not counts.is_visible()  # the counts wait for a tap
        line.tap() if size == "phone" else line.click()
        expect(counts).to_be_visible()
        assert (
            "/4,000)" in counts.inner_text() and "estimate from 4,000 deals" in counts.inner_text()
        )
        page.screenshot(path=str(ARTIFACTS / f"spoilers-odds-{size}.png"))

        page.goto(f"{url}/replay?session={session}&deal=1&step=8&view=Jean")
        expect(page.locator(".rp-odds-none")).to_have_text(
            "No odds yet: Jean has not looked at their cards (RULES 5.1).", timeout=60_000
        )
