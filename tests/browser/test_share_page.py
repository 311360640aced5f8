"""The Replay page's Share and Download picture (issue 21, item 3) in a real browser: Debian's
Chromium, headless, driven by Playwright, on a phone (390x844, touch) and a desktop. Share opens
the phone's share sheet where there is one (a stand-in ``navigator.share`` records what it was
given) and else copies the link to the step shown and says "Link copied"; Download picture gets
the PNG of the step shown, as this device may see it: the same picture ``brag share`` makes, and
for a deal in play only the cards shown. Skips, saying why, where Chromium or Playwright is
missing."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium, launched, served_store
from live_helpers import live_session, write_log

from events.codec import read_file
from present.replay import Replay
from present.share import share, sight_of

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
SESSION = "2026-09-24-top-1"
LOG = ROOT / "data" / "season" / f"{SESSION}.jsonl"
LIVE = "sim-live"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chromium()
    tmp = tmp_path_factory.mktemp("share")
    live = write_log(live_session(), tmp / "live.jsonl")

    def fill(store: Any) -> None:
        store.import_log(str(LOG))
        store.import_log(str(live))

    with served_store(tmp, None, fill) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    with launched() as b:
        yield b


def _open(browser: Any, url: str, *, phone: bool, sheet: bool = False) -> Any:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1400, "height": 900},
        is_mobile=phone,
        has_touch=phone,
        accept_downloads=True,
    )
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    if sheet:  # a phone with a share sheet: it records what it was asked to share
        ctx.add_init_script(
            "navigator.share = (d) => { window.__shared = d; return Promise.resolve(); };"
        )
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(".rp[data-ready]", timeout=60_000)
    return page


def _tap(page: Any, selector: str, *, phone: bool) -> None:
    target = page.locator(selector)
    if phone:
        target.tap()
    else:
        target.click()


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_share_copies_the_link_and_download_gets_the_picture(
    server: str, browser: Any, phone: bool
) -> None:
    rp = Replay.of([e for _, e in read_file(str(LOG))])
    page = _open(browser, f"{server}/replay?session={SESSION}&deal=3&step=5", phone=phone)
    share_box = page.locator("[data-testid=share]").bounding_box()
    picture_box = page.locator("[data-testid=picture]").bounding_box()
    assert share_box and picture_box
    if phone:  # both on the first screen, each a thumb's size
        for box in (share_box, picture_box):
            assert box["y"] + box["height"] <= 844, box
            assert box["height"] >= 44 and box["width"] >= 120, box
    # a step on, then Share: the link of the step shown, copied, and said
    _tap(page, ".rp-controls button[aria-label=Next]", phone=phone)
    assert page.locator(".rp").get_attribute("data-step") == "6"
    _tap(page, "[data-testid=share]", phone=phone)
    said = page.locator(".rp-share-said")
    said.get_by_text("Link copied").wait_for(timeout=5_000)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert f"session={SESSION}" in copied and "deal=3" in copied and "step=6" in copied
    # Download picture: the PNG of step 6, the very picture brag share makes of it
    with page.expect_download() as got:
        _tap(page, "[data-testid=picture]", phone=phone)
    download = got.value
    assert download.suggested_filename == f"{SESSION}-deal-3-step-6.png"
    assert Path(download.path()).read_bytes() == share(sight_of(rp, 3, None), 6, "png")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"share-{'phone' if phone else 'desktop'}.png"))
    page.context.close()


def test_on_a_phone_with_a_share_sheet_share_opens_it(server: str, browser: Any) -> None:
    page = _open(
        browser,
        f"{server}/replay?session={SESSION}&deal=2&step=4&view=Colin",
        phone=True,
        sheet=True,
    )
    page.locator("[data-testid=share]").tap()
    page.wait_for_function("window.__shared !== undefined", timeout=5_000)
    shared = page.evaluate("window.__shared")
    assert "step=4" in shared["url"] and "view=Colin" in shared["url"]
    assert shared["title"] == "Deal 2, step 4"
    assert page.locator(".rp-share-said").inner_text() == ""  # the sheet said it, not the page
    page.context.close()


def test_a_visitors_picture_of_a_deal_in_play_shows_only_the_cards_shown(server: str) -> None:
    live = Replay.of(live_session())
    deal = live.final.deals
    step = live.labels[-1].step
    url = f"{server}/api/picture.png?session={LIVE}&deal={deal}&step={step}&view={live.seats[0]}"
    with urllib.request.urlopen(url, timeout=30) as r:
        assert r.status == 200 and r.headers["content-type"] == "image/png"
        body = r.read()
    # no cookie: drawn as a spectator sees it, as the page draws it, whatever view was asked
    assert body == share(sight_of(live, deal, live.seats[0], organiser=False), step, "png")
    assert body != share(sight_of(live, deal, None, organiser=True), step, "png")
    for bad in ("deal=99&step=1", "deal=1&step=999", "deal=x"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"{server}/api/picture.png?session={LIVE}&{bad}", timeout=30)
        assert err.value.code in (400, 404)
        assert len(err.value.read().decode().splitlines()) == 1
