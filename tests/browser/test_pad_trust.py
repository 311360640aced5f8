"""A record the table can trust (issue 19), in Debian's Chromium driven by Playwright with touch,
on a phone (390×844) and a tablet in portrait (820×1180):

- keys never move: over a whole deal recorded by taps, every key present has the same box
  (±2 px) in every state, and every key is at least 44 px high;
- a double tap records one event: two taps 100 to 500 ms apart on the fold that ends a deal, on
  the fold that carries a pot, and on "keeps the old hand" each store one event;
- the phone offline for 20 s: the pad says so within 1 s, a tap made meanwhile is stored once
  when the network comes back, with ``at`` the time it was tapped (within 1 s);
- the server killed (SIGKILL) and restarted mid-deal, 20 times: every tap ends "recorded" or
  "not recorded" on the screen, and the store holds exactly the ones said recorded;
- the store locked by another program longer than an append waits while three taps are made:
  each is kept on the device, sent again in order, and recorded once after the lock ends;
- Undo on a finished session reopens it, Redo finishes it again.

It skips, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    CHROMIUM_ARGS,
    PAD,
    chromium,
    pick_cards,
    served_store,
    server_port,
    started,
    unlock,
    wait_settled,
)

from dashboard.record import recorder
from log.open import open_store

pytestmark = pytest.mark.browser

SECRET = "a long enough organiser secret"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "data" / "season" / "2026-10-15-top-1.jsonl"
SEATS = ("Ann", "Bob", "Cal", "Dee")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The dashboard over a SQLite store with one finished season session; ``(url, store)``."""
    chromium()
    tmp = tmp_path_factory.mktemp("pad")
    with served_store(tmp, SECRET, lambda store: store.import_log(str(SEASON))) as served:
        yield served


@contextmanager
def touch_page(size: dict[str, int] = PHONE) -> Iterator[tuple[Any, Any]]:
    """A page of a new touch context (a phone or a tablet) in Debian's Chromium:
    ``(context, page)``; the browser is closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
            yield context, context.new_page()
        finally:
            browser.close()


def new_session(db: str, name: str, seats: tuple[str, ...] = SEATS) -> None:
    """A session started in the store, Dee dealing first: Ann acts first."""
    with open_store(db) as store:
        store.append(name, recorder.start_events(name, seats, "shown", dealer=seats[-1]), 0)


def dealt(page: Any, url: str, session: str) -> None:
    """Unlocks this device, opens the pad of ``session`` and records its shuffle and deal."""
    unlock(page, url, SECRET)
    open_pad(page, url, session)
    for spot in ("shuffle", "deal"):
        tap(page, spot)
    idle(page)


def open_pad(page: Any, url: str, session: str) -> None:
    page.goto(f"{url}/record?session={session}")
    page.wait_for_function(
        f"() => {{ const p = ({PAD})(); return p && p.dataset.seq; }}", timeout=60_000
    )


def pad_eval(page: Any, body: str, arg: Any = None) -> Any:
    """Evaluates ``body`` (a function of the pad's root and ``arg``) in the page."""
    return page.evaluate(f"(arg) => {{ const pad = ({PAD})(); return ({body})(pad, arg); }}", arg)


def history(page: Any) -> list[tuple[str, str, str]]:
    """This device's taps as the pad lists them: ``(id, status, message)``, oldest first."""
    rows = pad_eval(
        page,
        "(pad) => [...pad.querySelectorAll('.taps li')].map(li => [li.dataset.tap, "
        "li.dataset.status, li.textContent])",
    )
    return [tuple(r) for r in reversed(rows)]


def tap(page: Any, spot: str, *, settle: bool = True) -> float:
    """A thumb's tap on the key at ``spot`` (after it has settled, as a person looks first);
    the wall-clock time of the tap."""
    if settle:
        wait_settled(page, spot)
    when = time.time()
    page.locator(f".pad button[data-spot='{spot}']").tap()
    return when


def idle(page: Any, timeout: float = 30_000) -> None:
    """Waits until no tap of this device waits to be recorded."""
    page.wait_for_function(
        f"() => {{ const p = ({PAD})(); return p && p.dataset.waiting === '0' && "
        "!p.classList.contains('busy'); }",
        timeout=timeout,
    )


def events(db: str, session: str) -> list[Any]:
    with open_store(db) as store:
        return list(store.events(session))


def boxes(page: Any) -> dict[str, tuple[float, float, float, float]]:
    got = pad_eval(
        page,
        "(pad) => Object.fromEntries([...pad.querySelectorAll('button[data-spot]')].map(b => "
        "{ const r = b.getBoundingClientRect(); return [b.dataset.spot, [r.x, r.y, r.width, "
        "r.height]]; }))",
    )
    return {k: tuple(v) for k, v in got.items()}


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_keys_never_move_over_a_whole_deal(server: tuple[str, str], size: dict[str, int]) -> None:
    url, db = server
    session = f"still-{size['width']}"
    new_session(db, session)
    with touch_page(size) as (_, page):
        unlock(page, url, SECRET)
        open_pad(page, url, session)
        seen: dict[str, tuple[float, float, float, float]] = {}
        states = 0

        def check() -> None:
            nonlocal states
            idle(page)
            page.wait_for_timeout(300)  # the page's own redraw after the store moved
            now = boxes(page)
            states += 1
            for spot, box in now.items():
                assert box[3] >= 44, (spot, box)  # a thumb's key
                assert box[1] + box[3] <= size["height"], (spot, box)  # on the first screen
                if spot in seen:
                    assert all(abs(a - b) <= 2 for a, b in zip(box, seen[spot], strict=True)), (
                        spot,
                        box,
                        seen[spot],
                    )
                seen[spot] = box

        check()
        for spot in ("shuffle", "deal", "peek-1", "bet-0", "bet-1", "fold", "fold", "see"):
            tap(page, spot)
            check()
        for _ in range(2):  # the two hands shown, three cards each, then the show key
            label = pad_eval(page, "(pad) => pad.querySelector('[data-spot=show]').title")
            free = pad_eval(
                page,
                "(pad) => Object.values(pad.S.pick.card).filter(c => c.free).map(c => c.code)",
            )
            pick_cards(page, free[:3] if "Ann" in label else free[-3:])
            tap(page, "show")
            check()
        kinds = [e.type for e in events(db, session)]
        assert kinds.count("shown") == 2 and "pot_won" in kinds
        assert states == 11 and {"fold", "see", "bet-0", "shuffle", "undo"} <= set(seen)


def _double(page: Any, spot: str, gap_ms: int) -> None:
    """Two taps on the same point of the screen, ``gap_ms`` apart: the second lands on whatever
    the pad drew there after the first (an empty slot, or another key)."""
    wait_settled(page, spot)
    box = page.locator(f".pad button[data-spot='{spot}']").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap_ms)
    page.touchscreen.tap(x, y)


@pytest.mark.timing  # the two taps within the pad's 600 ms
@pytest.mark.parametrize("gap", [100, 200, 300, 400, 500])
def test_a_double_tap_records_one_event(server: tuple[str, str], gap: int) -> None:
    """At the end of a deal (the last fold: a seen survivor wins), on a carried pot (the last
    fold leaves a blind survivor: RULES 6.1) and on "keeps the old hand" (RULES 6.4)."""

    url, db = server
    won, carried = f"won-{gap}", f"carried-{gap}"
    new_session(db, won)
    new_session(db, carried)
    with touch_page(PHONE) as (_, page):
        unlock(page, url, SECRET)

        def after(session: str, taps: list[str], double: str) -> list[str]:
            for spot in taps:
                tap(page, spot)
            idle(page)
            n = len(events(db, session))
            _double(page, double, gap)
            idle(page)
            page.wait_for_timeout(1200)  # time for a second event, were one sent
            idle(page)
            return [e.type for e in events(db, session)[n:]]

        open_pad(page, url, won)
        assert after(won, ["shuffle", "deal", "look", "bet-0", "fold", "fold"], "fold") == [
            "folded",
            "pot_won",
        ]
        open_pad(page, url, carried)
        assert after(carried, ["shuffle", "deal", "bet-0", "fold", "fold"], "fold") == [
            "folded",
            "pot_carried",
        ]
        # the blind survivor retains the hand; in the next deal Ann looks at the old hand
        assert after(carried, ["hand-a", "deal"], "peek-0") == ["looked"]
        label = pad_eval(page, "(pad) => pad.querySelector('[data-spot=\"hand-a\"]').title")
        assert label == "Ann keeps the old hand"
        assert after(carried, [], "hand-a") == ["kept"]
        statuses = {s for _, s, _ in history(page)}
        assert statuses <= {"recorded", "not recorded"}


@pytest.mark.timing  # offline said within 1 s
def test_a_tap_made_offline_is_stored_once_with_its_time(server: tuple[str, str]) -> None:
    from playwright.sync_api import expect

    url, db = server
    session = "offline"
    new_session(db, session)
    with touch_page(PHONE) as (context, page):
        dealt(page, url, session)
        conn = page.locator("[data-testid=pad-connection]")
        expect(conn).to_contain_text("Connected")
        context.set_offline(True)
        t0 = time.monotonic()
        expect(conn).to_contain_text("Offline", timeout=1_000)
        assert time.monotonic() - t0 < 1.0
        n = len(events(db, session))
        bet_at = tap(page, "bet-0")  # Ann, blind, bets 1: the pad goes on, predicted
        expect(conn).to_contain_text("1 tap waiting to be recorded")
        tap(page, "fold")  # Bob folds, on the predicted keys
        expect(conn).to_contain_text("2 taps waiting to be recorded")
        tap(page, "undo")  # taken back on the phone: never sent
        expect(conn).to_contain_text("1 tap waiting to be recorded")
        fold_at = tap(page, "fold")  # and tapped again
        expect(conn).to_contain_text("2 taps waiting to be recorded")
        page.wait_for_timeout(20_000 - 1000 * (time.monotonic() - t0))
        assert len(events(db, session)) == n  # nothing reached the store while offline
        context.set_offline(False)
        idle(page, timeout=20_000)
        expect(conn).to_contain_text("Connected")
        new = events(db, session)[n:]
        assert [e.type for e in new] == ["bet", "folded"]
        for e, when in zip(new, (bet_at, fold_at), strict=True):
            assert abs(e.at.timestamp() - when) <= 1.0, (e.at, datetime.fromtimestamp(when))
        recorded = [h for h in history(page) if h[1] == "recorded"]
        assert {e.id and str(e.id) for e in new} <= {h[0] for h in recorded}
        undone = [h for h in history(page) if "undone before it was sent" in h[2]]
        assert len(undone) == 1 and undone[0][1] == "not recorded"


def test_undo_and_redo_on_a_finished_session(server: tuple[str, str]) -> None:
    from playwright.sync_api import expect

    url, db = server
    with open_store(db) as store:
        session = store.sessions()[0].session
        assert store.state(session).finished
    with touch_page(PHONE) as (_, page):
        unlock(page, url, SECRET)
        open_pad(page, url, session)
        note = page.locator("[data-testid=pad-note]")
        tap(page, "undo")
        expect(note).to_contain_text("Correction: step")
        idle(page)
        with open_store(db) as store:
            assert store.events(session)[-1].type == "voided"
            assert not store.state(session).finished  # the session reopens
        tap(page, "redo")
        expect(note).to_contain_text("Recorded again:")
        idle(page)
        with open_store(db) as store:
            assert store.state(session).finished


def test_every_tap_ends_recorded_or_not_across_kills(tmp_path: Path) -> None:
    """The server SIGKILLed at a random moment after a tap and started again, 20 times."""
    from playwright.sync_api import sync_playwright

    chromium()
    db = str(tmp_path / "brag.db")
    session = "killed"
    new_session(db, session)
    env = {
        "BRAG_DB": db,
        "BRAG_ANALYTICS": str(tmp_path / "b.duckdb"),
        "BRAG_ORGANISER_SECRET": SECRET,
    }
    port = server_port()
    url = f"http://localhost:{port}"
    rng = random.Random(19)
    proc = started(tmp_path, env, port)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
            unlock(page, url, SECRET)
            open_pad(page, url, session)
            cycle = ["shuffle", "deal", "bet-0", "fold", "fold", "fold"]
            k = 0
            for _ in range(20):
                wait_settled(page, cycle[k % len(cycle)], timeout=60_000)
                tap(page, cycle[k % len(cycle)], settle=False)
                k += 1
                time.sleep(rng.uniform(0.0, 0.3))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                time.sleep(rng.uniform(0.0, 1.0))
                proc = started(tmp_path, env, port)
                idle(page, timeout=60_000)
                # the deal goes on from whatever the store holds: the cycle follows the keys
                spot = pad_eval(page, "(pad) => pad.dataset.seq")
                assert spot
                keys = pad_eval(
                    page,
                    "(pad) => [...pad.querySelectorAll('button[data-spot]')].map(b => "
                    "b.dataset.spot)",
                )
                k = (
                    next((j for j in range(len(cycle)) if cycle[(k + j) % len(cycle)] in keys), 0)
                    + k
                )
            taps = history(page)
            browser.close()
        stored = {str(e.id) for e in events(db, session) if e.id is not None}
        recorded = {i for i, s, _ in taps if s == "recorded"}
        refused = {i for i, s, _ in taps if s == "not recorded"}
        assert {s for _, s, _ in taps} <= {"recorded", "not recorded"}, taps
        assert recorded <= stored and not (refused & stored)
        assert len(recorded) >= 15, taps  # the kills cost a few taps at most
    finally:
        proc.kill()


def test_a_locked_store_loses_no_tap(server: tuple[str, str]) -> None:
    """Another program holds the store ``BEGIN EXCLUSIVE`` for 25 s, longer than an append waits
    (10 s): the three taps made meanwhile (on the keys the engine predicted) are answered
    "unavailable", kept on the device with the ones after them, and sent again, in order, until
    each is recorded once after the lock ends; the screen says recorded (issue 33, class 2)."""
    from playwright.sync_api import expect

    url, db = server
    session = "locked"
    new_session(db, session)
    with touch_page(PHONE) as (_, page):
        dealt(page, url, session)
        conn = page.locator("[data-testid=pad-connection]")
        n = len(events(db, session))
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        locked = time.monotonic()
        try:
            for spot in ("bet-0", "fold", "fold"):  # Ann bets blind, Bob and Cal fold
                tap(page, spot)
            expect(conn).to_contain_text("Store not answering", timeout=20_000)
            expect(conn).to_contain_text("3 taps waiting to be recorded")
            whole = "The store is not answering: taps are kept here and sent again"
            expect(conn).to_have_attribute("title", f"{whole} · 3 taps waiting to be recorded")
            time.sleep(max(0.0, 25 - (time.monotonic() - locked)))
            with open_store(db, readonly=True) as store:  # a reader waits on no lock
                assert len(store.events(session)) == n  # nothing got in meanwhile
            assert {s for _, s, _ in history(page)[-3:]} == {"waiting"}
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        idle(page, timeout=60_000)
        expect(conn).to_contain_text("Connected")
        taps = history(page)
        note = page.locator("[data-testid=pad-note]").inner_text()
    new = [e for e in events(db, session)[n:] if e.id is not None]
    assert [e.type for e in new] == ["bet", "folded", "folded"]
    ids = [str(e.id) for e in new]
    assert len(set(ids)) == 3  # each once
    assert [(i, s) for i, s, _ in taps[-3:]] == [(i, "recorded") for i in ids]  # in order
    assert note.startswith("Recorded: "), note


def test_ten_seats_with_long_names_fit_a_phone(server: tuple[str, str]) -> None:
    """Ten seats named with 64 characters each: every key on the first screen of a 390×844
    phone, at least 44 px high and 44 px wide, its text never broken inside a word."""
    url, db = server
    seats = tuple(f"{n} " + "Bartholomew-Featherstonehaugh " * 3 for n in range(10))
    seats = tuple(s[:64].strip() for s in seats)
    session = "ten-long"
    new_session(db, session, seats)
    with touch_page(PHONE) as (_, page):
        dealt(page, url, session)
        got = boxes(page)
        assert {f"peek-{k}" for k in range(1, 10)} <= set(got), sorted(got)
        for spot, (x, y, w, h) in got.items():
            assert h >= 44 and w >= 44, (spot, w, h)
            assert x >= 0 and x + w <= PHONE["width"] + 1, (spot, x, w)
            assert y + h <= PHONE["height"], (spot, y, h)
        page.screenshot(path=str(ROOT / "tests" / "artifacts" / "pad-ten-seats.png"))


def test_the_first_arrow_tap_after_a_typed_name_moves_the_seat(server: tuple[str, str]) -> None:
    """The names' list closes once a name is picked: the next tap on ↓ moves that seat (it
    used to close the list, or pick the name the list showed there)."""
    from playwright.sync_api import expect

    url, _ = server
    with touch_page(PHONE) as (_, page):
        unlock(page, url, SECRET)
        box = page.get_by_role(
            "combobox", name="Players, in their seats clockwise from the first picked"
        )
        for n, name in enumerate(["Xena", "Xavi", "Xiu"]):
            box.fill(name)
            page.keyboard.press("Enter")
            tag = page.locator(f"[data-testid=stMultiSelect] [data-tag-index='{n}']")
            expect(tag.first).to_have_attribute("aria-label", name, timeout=5_000)
        page.wait_for_timeout(500)
        key = page.locator(".st-key-seat-down-0 button:visible").first
        bb = key.bounding_box()
        page.touchscreen.tap(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
        expect(page.get_by_text("1. Xavi", exact=True)).to_be_visible(timeout=5_000)
        expect(page.get_by_text("2. Xena", exact=True)).to_be_visible()
        expect(page.get_by_text("4.", exact=False)).to_have_count(0)  # no name picked by it
