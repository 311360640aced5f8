"""The Record page's gate in Chromium (issue 24, item 2): the unlock cookie is HttpOnly and
SameSite=Strict; a copy of it taken before "Lock this device" no longer unlocks another
browser; "Lock every device" locks a second device on its next page. It skips, saying why,
where Chromium or Playwright is missing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, chromium, dashboard, open_device_panel, unlock

pytestmark = pytest.mark.browser

SECRET = "open sesame please"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    chromium()
    tmp = tmp_path_factory.mktemp("gate")
    env = {
        "BRAG_DB": str(tmp / "brag.db"),
        "BRAG_ANALYTICS": str(tmp / "brag.duckdb"),
        "BRAG_ORGANISER_SECRET": SECRET,
    }
    with dashboard(tmp, env) as url:
        yield url, tmp


def _device_cookie(context: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while True:
        found = [c for c in context.cookies() if c["name"] == "brag_device"]
        if found:
            return dict(found[0])
        assert time.monotonic() < deadline, "no device cookie"
        time.sleep(0.1)


def _unlock(page: Any, url: str) -> None:
    unlock(page, url, SECRET, cookie=False)


def _failures(folder: Path) -> list[str]:
    """The server log's lines of wrong secrets."""
    log = "\n".join(f.read_text() for f in folder.glob("streamlit-*.log"))
    return [x for x in log.splitlines() if "wrong organiser secret from local" in x]


def _is_locked(page: Any, url: str) -> bool:
    from playwright.sync_api import expect

    page.goto(f"{url}/record")
    secret = page.get_by_label("Organiser secret")
    mine = page.get_by_text("This device: session")
    expect(secret.or_(mine)).to_be_visible(timeout=30_000)
    return bool(secret.is_visible())


def test_a_copied_cookie_no_longer_unlocks_after_lock_this_device(
    server: tuple[str, Path],
) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, _ = server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            a = browser.new_context()
            page = a.new_page()
            _unlock(page, url)
            cookie = _device_cookie(a)
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
            assert SECRET not in cookie["value"]
            assert page.evaluate("document.cookie").find("brag_device") < 0  # not for scripts
            page.reload()  # the HttpOnly cookie goes with the websocket: still unlocked
            expect(page.get_by_text("This device: session")).to_be_visible(timeout=30_000)
            thief = browser.new_context()
            thief.add_cookies([{**cookie}])
            assert not _is_locked(thief.new_page(), url)  # the copy unlocks... for now
            open_device_panel(page)
            page.get_by_role("button", name="Lock this device").click()
            expect(page.get_by_label("Organiser secret")).to_be_visible(timeout=30_000)
            assert _is_locked(thief.new_page(), url)  # the copy is revoked
            deadline = time.monotonic() + 10  # and this browser's cookie cleared
            while any(c["name"] == "brag_device" for c in a.cookies()):
                assert time.monotonic() < deadline, "cookie not cleared"
                time.sleep(0.1)
        finally:
            browser.close()


def test_lock_every_device_locks_the_other_device(server: tuple[str, Path]) -> None:
    from playwright.sync_api import expect, sync_playwright

    url, _ = server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            first, second = browser.new_context(), browser.new_context()
            one, two = first.new_page(), second.new_page()
            _unlock(one, url)
            _unlock(two, url)
            _device_cookie(second)
            open_device_panel(one)
            one.get_by_role("button", name="Lock every device").click()
            expect(one.get_by_label("Organiser secret")).to_be_visible(timeout=30_000)
            assert _is_locked(two, url)
        finally:
            browser.close()


def test_wrong_secrets_are_slowed_and_logged_then_the_right_one_unlocks(
    server: tuple[str, Path],
) -> None:
    """On the real server, in real time: six wrong secrets from one browser take at least
    0.5 + 1 + 2 s (the 4th, 5th and 6th wait), each is a line of the server's log, and the
    right secret then unlocks (after its own wait)."""
    from playwright.sync_api import expect, sync_playwright

    url, folder = server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{url}/record")
            answered = []
            for n in range(6):
                page.get_by_label("Organiser secret").fill(f"wrong guess {n}")
                page.get_by_role("button", name="Unlock recording").click()
                deadline = time.monotonic() + 30
                while len(_failures(folder)) < n + 1:  # the answer is the log's line
                    assert time.monotonic() < deadline, f"guess {n} not answered"
                    time.sleep(0.05)
                answered.append(time.monotonic())
                expect(page.get_by_text("That is not the organiser secret.")).to_be_visible()
            assert answered[-1] - answered[0] >= 3.0, answered
            started = time.monotonic()
            page.get_by_label("Organiser secret").fill(SECRET)
            page.get_by_role("button", name="Unlock recording").click()
            expect(page.get_by_text("This device: session")).to_be_visible(timeout=30_000)
            assert time.monotonic() - started >= 3.5  # the 7th attempt waits 4 s
        finally:
            browser.close()
    lines = _failures(folder)
    assert len(lines) == 6, lines
    assert "failure 6 from this address" in lines[-1]
