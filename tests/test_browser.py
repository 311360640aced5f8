"""One real-browser test: Debian's Chromium, headless, driven by Playwright, opens a bundled
session's replay through its link, clicks Next, checks the pot shown, and saves a screenshot in
``tests/artifacts/``. It skips, saying why, where Chromium or Playwright is missing.

Set ``BRAG_DOCS_SCREENSHOT=1`` to also write ``docs/replayer.png`` (the README's picture).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from brag.cmd_app import free_port, streamlit_command
from dashboard.view import Replay
from events.model import AnyEvent
from events.store import open_store

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
SESSION = "2026-09-24-top-1"  # a bundled session that records every card
LOG = ROOT / "data" / "season" / f"{SESSION}.jsonl"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.browser


def chromium() -> str:
    for candidate in (os.environ.get("BRAG_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip(
            "real-browser test skipped: Chromium is not installed (apt-get install chromium)"
        )
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard served by ``streamlit run`` on a free port, over a store holding one
    bundled session."""
    pytest.importorskip(
        "playwright.sync_api",
        reason="real-browser test skipped: Playwright is not installed (pip install playwright)",
    )
    chromium()
    tmp = tmp_path_factory.mktemp("browser")
    db = str(tmp / "brag.db")
    with open_store(db) as store:
        store.import_log(str(LOG))
    port = free_port(8599)
    env = dict(os.environ, BRAG_DB=db, BRAG_ANALYTICS=str(tmp / "brag.duckdb"))
    env.pop("BRAG_ORGANISER_SECRET", None)
    log = open(tmp / "streamlit.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(streamlit_command(port), env=env, stdout=log, stderr=log, cwd=tmp)
    url = f"http://localhost:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"the dashboard did not start: {(tmp / 'streamlit.log').read_text()}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_replay_link_next_and_the_pot(server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    rp = Replay.of(_events())
    deal = 2
    sl = rp.slice(deal)
    # the first step of the deal where the pot changes on the next step
    step = next(
        k - sl.start + 1
        for k in range(sl.start, sl.stop - 1)
        if rp.states[k + 1].pot != rp.states[k].pot and k - sl.start + 1 > 4
    )
    pot_now = rp.view(rp.position(deal, step)).pot_text
    pot_next = rp.view(rp.position(deal, step + 1)).pot_text
    assert pot_now != pot_next

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{server}/replay?session={SESSION}&deal={deal}&step={step}")
            pot = page.locator("[data-pot]").first
            expect(pot).to_have_attribute("data-pot", pot_now, timeout=30_000)
            expect(page.get_by_text(f"Step {step} of {sl.steps}")).to_be_visible()
            page.get_by_role("button", name="Next").click()
            expect(pot).to_have_attribute("data-pot", pot_next, timeout=15_000)
            expect(page.get_by_text(f"Step {step + 1} of {sl.steps}")).to_be_visible()
            assert f"step={step + 1}" in page.url
            metric = page.locator('[data-testid="stMetricValue"]').first
            expect(metric).to_have_text(pot_next)
            page.wait_for_timeout(500)
            page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
            if os.environ.get("BRAG_DOCS_SCREENSHOT"):
                page.screenshot(path=str(ROOT / "docs" / "replayer.png"))
            # the right arrow key is the Next button's shortcut
            page.get_by_role("heading", name="Replay").click()
            page.keyboard.press("ArrowRight")
            expect(page.get_by_text(f"Step {step + 2} of {sl.steps}")).to_be_visible(timeout=15_000)
            # ArrowLeft is the Previous button's shortcut too; under load a rerun may take one
            # press twice, so only the direction is checked here.
            page.keyboard.press("ArrowLeft")
            expect(page.get_by_text(f"Step {step + 2} of {sl.steps}")).not_to_be_visible(
                timeout=15_000
            )
        finally:
            browser.close()
    assert (ARTIFACTS / "replay.png").stat().st_size > 10_000


def _events() -> list[AnyEvent]:
    from engine import complete
    from events.codec import read_file

    return [s.event for s in complete(read_file(str(LOG)))]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-v"]))
