"""The Record page as the organiser uses it at the table (issue 11), in Debian's Chromium driven by
Playwright, on a phone's screen of 390×844:

- a shown-cards session of 4 is started with the form and a whole deal recorded to its showdown
  by taps only, the page never scrolling once the session is open; after each tap the pad's
  confirmation says the event the store now holds; a double tap records one event; a reload keeps
  the device unlocked and on its session; undo then redo gives back the stream (the export is the
  original plus the ``voided`` and the event recorded again); "Recorded by" is kept across the
  reload; the QR code of the page decodes to its address;
- two browser contexts on one session, on SQLite and on PostgreSQL: what A records shows in B
  (the Session page, the Record page, the Replay's "new events" mark) within 2 s; B stepping a
  replay stays on its step.

It skips, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    CHROMIUM_ARGS,
    chromium,
    dashboard,
    live,
    open_device_panel,
    pick_cards,
    pick_option,
    served_store,
    unlock,
    wait_settled,
)

from log.open import open_store
from present.replay import Replay

pytestmark = pytest.mark.browser

SECRET = "open sesame please"
PHONE = {"width": 390, "height": 844}
NOTE = "[data-testid=pad-note]"
ROOT = Path(__file__).resolve().parents[2]
SEASON = "2026-10-15-top-1"


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The dashboard over a SQLite store holding one bundled session, recording unlocked by
    the secret; ``(url, store url)``."""
    chromium()
    tmp = tmp_path_factory.mktemp("record")
    log = str(ROOT / "data" / "season" / f"{SEASON}.jsonl")
    with served_store(tmp, SECRET, lambda store: store.import_log(log)) as served:
        yield served


def _unlock(page: Any, url: str) -> None:
    """Unlocks the Record page on this device; its signed token is then in a cookie (never the
    secret itself)."""
    unlock(page, url, SECRET)
    jar = {c["name"]: c["value"] for c in page.context.cookies()}
    assert SECRET not in str(jar) and SECRET.replace(" ", "%20") not in str(jar)
    assert "sesame" not in page.url


def _start(page: Any, name: str, players: list[str], dealer: str) -> None:
    from playwright.sync_api import expect

    page.get_by_label("Session name").fill(name)
    box = page.get_by_role(
        "combobox", name="Players, in their seats clockwise from the first picked"
    )
    for n, p in enumerate(players):
        for attempt in range(4):  # a rerun (the name's field left) may swallow what was typed
            box.fill(p)
            page.keyboard.press("Enter")
            try:
                tag = page.locator(f"[data-testid=stMultiSelect] [data-tag-index='{n}']")
                expect(tag.first).to_have_attribute("aria-label", p, timeout=3_000)
                break
            except AssertionError:
                assert attempt < 3, f"{p} not picked"
        if n:  # the seats in order, with arrows, once there are two
            expect(page.get_by_text(f"{n + 1}. {p}", exact=True)).to_be_visible()
    page.mouse.click(3, 420)  # outside the names' list: closes it
    expect(page.get_by_role("listbox")).to_have_count(0)
    pick_option(page, "First dealer (RULES 3.1)", dealer)
    page.get_by_role("button", name="Start the session").click()
    expect(page.locator("button[data-spot=shuffle]")).to_be_enabled(timeout=20_000)


def _scrolled(page: Any) -> tuple[int, int]:
    """``window.scrollY`` and the scroll of Streamlit's main section."""
    return page.evaluate(
        "[window.scrollY, (document.querySelector('[data-testid=stMain]') || {}).scrollTop || 0]"
    )


def _new_sentences(db: str, session: str, before: int) -> tuple[int, str]:
    """How many events the store holds for ``session`` and the sentences of those after the
    first ``before``, as the pad's confirmation says them."""
    with open_store(db) as store:
        events = store.events(session)
    rp = Replay.of(events, recorded=True)
    return len(events), "; ".join(rp.sentence(k) for k in range(before, len(events)))


class Pad:
    """Taps on one page's pad as a person does (never two on one spot within
    ``SAME_SPOT_MS`` unless on purpose), waiting for the store to hold what was tapped."""

    def __init__(self, page: Any, db: str, session: str) -> None:
        self.page, self.db, self.session = page, db, session
        self.count = _new_sentences(db, session, 0)[0]
        self.last = 0.0

    def tap(self, spot: str) -> list[Any]:
        """Taps ``spot``; the events it stored (the recorded one, then the derived ones)."""
        key = self.page.locator(f"button[data-spot='{spot}']")
        wait_settled(self.page, spot)
        key.click()
        self.last = time.monotonic()
        deadline = time.monotonic() + 10
        while _new_sentences(self.db, self.session, self.count)[0] == self.count:
            if time.monotonic() > deadline:
                self.page.screenshot(path=str(ROOT / "tests" / "artifacts" / "record-fail.png"))
                raise AssertionError(f"nothing recorded by a tap on {spot}")
            self.page.wait_for_timeout(50)
        with open_store(self.db) as store:
            new = store.events(self.session)[self.count :]
        self.count += len(new)
        return new


@pytest.mark.timing  # its double tap: the second click within the pad's 600 ms
def test_a_whole_deal_by_taps_on_a_phone(sqlite_server: tuple[str, str]) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect, sync_playwright

    url, db = sqlite_server
    session = "phone-deal"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport=PHONE).new_page()
            _unlock(page, url)
            # the README's path: open "This device", fill Recorded by, start (the panel left open)
            open_device_panel(page)
            page.get_by_label("Recorded by").fill("Zoe")
            page.keyboard.press("Enter")
            expect(page.get_by_label("Recorded by")).to_have_value("Zoe")
            _start(page, session, ["Ann", "Bob", "Cal", "Dee"], dealer="Dee")
            note = page.locator(NOTE)
            expect(note).to_contain_text("Dee deals first")
            at_open = _scrolled(page)
            assert at_open == [0, 0]  # the pad at the top of the screen
            # the panel folds away: the pad's first key on the first screen, no scrolling
            expect(page.get_by_label("Recorded by")).to_be_hidden()
            first = page.locator("button[data-spot=shuffle]").bounding_box()
            assert first and first["y"] >= 0 and first["y"] + first["height"] <= PHONE["height"]
            # the table under the pad: the seats' grid, every text at least 11 px on the screen
            assert _smallest_table_text(page) >= 11
            count, _ = _new_sentences(db, session, 0)
            assert count == 2

            last_tap = [0.0]

            def tap(spot: str, kind: str, double: bool = False) -> None:
                nonlocal count
                key = page.locator(f"button[data-spot='{spot}']")
                # a person's next tap comes later than a double tap's second one (SAME_SPOT_MS)
                wait_settled(page, spot)
                key.click()
                last_tap[0] = time.monotonic()
                if double:
                    page.wait_for_timeout(150)
                    key.click(force=True)
                deadline = time.monotonic() + 10
                while _new_sentences(db, session, count)[0] == count:
                    assert time.monotonic() < deadline, f"nothing recorded by a tap on {spot}"
                    page.wait_for_timeout(50)
                if double:
                    page.wait_for_timeout(1000)  # time for a second event, were one recorded
                after, said = _new_sentences(db, session, count)
                with open_store(db) as store:
                    new = store.events(session)[count:]
                assert new and new[0].type == kind, (spot, [e.type for e in new])
                expect(note).to_have_text(f"Recorded: {said}")
                assert [e.type for e in new if not e.type.startswith("pot_")] == [kind]
                count = after
                assert _scrolled(page) == at_open

            tap("shuffle", "shuffled")
            tap("deal", "dealt")
            # five bets on offer; the sixth place is an empty slot, not a key
            expect(page.locator("button[data-spot^=bet-]")).to_have_count(5)
            assert page.get_by_role("button", name="no bet here").count() == 0
            assert _smallest_table_text(page) >= 11
            tap("peek-1", "looked")  # Bob looks before the betting
            tap("bet-0", "bet")  # Ann, blind, bets level 1
            tap("bet-0", "bet", double=True)  # Bob, seen: two taps 150 ms apart, one bet
            tap("fold", "folded")  # Cal
            tap("fold", "folded")  # Dee
            tap("see", "saw")  # Ann sees Bob
            expect(page.locator(".pad [data-testid=pad-picker]")).to_be_visible()

            # reload: still unlocked, still on the session
            page.reload()
            expect(page.locator("button[data-spot=show]")).to_be_visible(timeout=20_000)
            assert page.get_by_label("Organiser secret").count() == 0
            at_open = _scrolled(page)

            for who_shows, cards in (("Bob", ["Ah", "Ad", "2c"]), ("Ann", ["Kh", "Qs", "9d"])):
                show = page.locator("button[data-spot=show]")
                expect(show).to_contain_text(f"{who_shows} shows")
                pick_cards(page, cards, touch=False)
                expect(show).to_be_enabled()
                if who_shows == "Bob":
                    page.screenshot(path=str(ROOT / "tests" / "artifacts" / "record-showdown.png"))
                tap("show", "shown")
            with open_store(db) as store:
                original = store.export(session)
            # "Recorded by" was kept across the reload, with the session recorded
            assert {e.by for e in original if e.type != "pot_won"} == {"Zoe"}
            assert original[-1].type == "pot_won" and original[-1].player == "Bob"  # type: ignore[union-attr]
            expect(note).to_contain_text("Bob wins the pot")
            # Ann's 9♦ was shown: known cards are disabled in the next showdown's picker only
            shot = ROOT / "tests" / "artifacts" / "record-phone.png"
            page.screenshot(path=str(shot))

            # undo, then redo
            wait_settled(page, "undo")
            page.locator("button[data-spot=undo]").click()
            expect(note).to_contain_text("Correction: step 9 (Ann shows K♥ Q♠ 9♦")
            expect(note).to_contain_text("with step 10 (Bob wins the pot")
            assert "seq" not in note.inner_text()
            struck = page.locator("[data-testid=stMain] del")
            expect(struck).to_have_count(2)  # Ann's show and the pot it won for Bob
            wait_settled(page, "redo")
            page.locator("button[data-spot=redo]").click()
            expect(note).to_contain_text("Recorded again: Ann shows K♥ Q♠ 9♦")
            assert _scrolled(page) == at_open
            with open_store(db) as store:
                after = store.export(session)
            strip = {"id", "seq", "at", "by"}
            assert after[: len(original)] == original
            assert after[len(original)].type == "voided"
            assert after[len(original)].seq == original[-2].seq  # type: ignore[union-attr]
            again = [e.model_dump(exclude=strip) for e in after[len(original) + 1 :]]
            assert again == [e.model_dump(exclude=strip) for e in original[-2:]]

            # the code a second device scans decodes to this page's own address
            open_device_panel(page)
            code = page.locator("[data-testid=stExpander] [data-testid=stImage] img")
            expect(code).to_be_visible()
            # visible is not yet drawn: wait for the image's pixels (a loaded machine's run once
            # took the screenshot of an empty box), then read it
            page.wait_for_function(
                "() => [...document.querySelectorAll("
                "'[data-testid=stExpander] [data-testid=stImage] img')]"
                ".some(i => i.complete && i.naturalWidth > 0)"
            )
            assert _decoded(code.screenshot()) == page.url.split("?")[0]

            # a new session: the last session's confirmation is not shown under its form
            # (the live poll reruns the page each time the session moves, which may close an
            # open list before the tap reaches it: open it again, as a person would)
            for _ in range(6):
                live(page).get_by_role("combobox", name="Session to record").click()
                try:
                    page.get_by_role("option", name="Start a new session").click(timeout=3_000)
                    break
                except PlaywrightTimeout:
                    page.keyboard.press("Escape")
            expect(page.get_by_label("Session name")).to_be_visible(timeout=20_000)
            expect(page.get_by_text("Recorded again")).to_have_count(0)
            expect(page.locator("[data-testid=stAlert]")).to_have_count(0)
        finally:
            browser.close()
    # the secret never reached the server's log either
    logs = "".join(p.read_text() for p in Path(db).parent.glob("streamlit-*.log"))
    assert "sesame" not in logs


def _smallest_table_text(page: Any) -> float:
    """The smallest text of the table's picture as drawn on the screen, in px (the computed
    font size times the SVG's scale), over the pictures shown."""
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.brag-table svg')]
              .filter(svg => svg.getBoundingClientRect().width > 0)
              .flatMap(svg => {
                const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                return [...svg.querySelectorAll('text')]
                  .map(t => parseFloat(getComputedStyle(t).fontSize) * k);
              })"""
    )
    assert len(sizes) >= 8, sizes  # the seats' names, paid and status at least
    return float(min(sizes))


def _decoded(png: bytes) -> str:
    """The text of the one QR code in a PNG (zxing-cpp)."""
    import io

    import numpy as np
    from PIL import Image

    zxingcpp = pytest.importorskip("zxingcpp")
    found = zxingcpp.read_barcodes(np.array(Image.open(io.BytesIO(png)).convert("L")))
    assert len(found) == 1, found
    return str(found[0].text)


def _live(url: str, db: str, session: str) -> None:
    """A records on the pad; B, on the Session page, then the Record page, sees the new event
    within 2 s; B stepping a replay of the session stays on its step."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            a = browser.new_context(viewport=PHONE).new_page()
            b = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
            _unlock(a, url)
            _start(a, session, ["Ann", "Bob", "Cal"], dealer="Cal")
            b.goto(f"{url}/session?session={session}")
            caption = b.get_by_text(f"{session} · Ann, Bob, Cal · 0 deals")
            expect(caption).to_be_visible(timeout=20_000)
            pad = Pad(a, db, session)
            for spot, seen in (("shuffle", "0 deals"), ("deal", "1 deal")):
                pad.tap(spot)
                t = time.monotonic()
                expect(b.get_by_text(f"{session} · Ann, Bob, Cal · {seen}")).to_be_visible(
                    timeout=2_000
                )
                assert time.monotonic() - t < 2.0
            # B unlocks and opens the Record page of the same session: A's taps show there too
            _unlock(b, url)
            b.goto(f"{url}/record?session={session}")
            expect(b.locator(NOTE)).to_contain_text("Deal 1", timeout=20_000)
            pad.tap("bet-0")
            t = time.monotonic()
            expect(b.locator(NOTE)).to_contain_text("Ann bets level 1", timeout=2_000)
            assert time.monotonic() - t < 2.0
            # B steps a replay of the session; A records; B stays on its step, with a mark
            b.goto(f"{url}/replay?session={session}&deal=1&step=1")
            b.wait_for_selector(".rp[data-ready]", timeout=30_000)
            b.locator(".rp-controls button[aria-label=Next]").click()
            b.wait_for_function("document.querySelector('.rp')?.dataset.step === '2'")
            pad.tap("fold")
            t = time.monotonic()
            expect(a.locator(NOTE)).to_contain_text("Bob folds")
            mark = b.locator(".rp-fresh")
            expect(mark).to_be_visible(timeout=2_000)
            assert time.monotonic() - t < 2.0
            assert "new event" in mark.inner_text()
            assert b.locator(".rp").get_attribute("data-step") == "2"
            assert "step=2" in b.url
        finally:
            browser.close()
    with open_store(db) as store:
        assert [e.type for e in store.events(session)][-3:] == ["dealt", "bet", "folded"]


@pytest.mark.timing  # the other device within 2 s
def test_two_devices_on_sqlite(sqlite_server: tuple[str, str]) -> None:
    url, db = sqlite_server
    _live(url, db, "two-devices")


@pytest.mark.timing  # the other device within 2 s
@pytest.mark.postgres
def test_two_devices_on_postgresql(tmp_path: Path) -> None:
    from store_helpers import pg_store, pg_url, require_pg

    chromium()
    require_pg()
    with pg_store() as store:
        dsn = f"{pg_url()}?options=-csearch_path%3D{store.schema}"
        env = {
            "BRAG_DB": dsn,
            "BRAG_ANALYTICS": str(tmp_path / "brag.duckdb"),
            "BRAG_ORGANISER_SECRET": SECRET,
        }
        with dashboard(tmp_path, env) as url:
            _live(url, dsn, "two-devices-pg")
